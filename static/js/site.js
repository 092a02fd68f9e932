/* Small helps on every page; each page works without them.
 *
 * - "/" puts the focus in the page's own search box (data-slash="page"), or in the header's
 *   card search (data-slash="site") on pages without one, as on GitHub or YouTube.
 * - On a phone the card search's filters stay folded behind their "Filters" button (a
 *   <details>, open in the HTML so that without this script they are all there), also after
 *   htmx swaps the results as the person types; a person who opened them keeps them open.
 * Delegated on the document, so what htmx swaps in needs nothing more. */
(function () {
  "use strict";
  if (window.siteReady) { return; }
  window.siteReady = true;

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  function visible(element) {
    return element && element.getClientRects().length > 0;
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) {
      return;
    }
    var boxes = Array.prototype.slice.call(document.querySelectorAll('[data-slash="page"]'))
      .concat(Array.prototype.slice.call(document.querySelectorAll('[data-slash="site"]')));
    var box = boxes.filter(visible)[0];
    if (!box) { return; }
    event.preventDefault();
    box.focus();
    if (box.select) { box.select(); }
  });

  // The filters: folded on a narrow screen unless the person opened them.
  var narrow = window.matchMedia("(max-width: 900px)");
  var filtersOpen = null;  // null: the person has not chosen

  function foldFilters(root) {
    var panels = (root || document).querySelectorAll("details.facets-panel");
    Array.prototype.forEach.call(panels, function (panel) {
      var open = filtersOpen === null ? !narrow.matches : filtersOpen;
      if (!narrow.matches) { open = true; }
      panel.open = open;
      panel.setAttribute("data-folded", "");  // from now on, its toggles are the person's
    });
  }

  document.addEventListener("toggle", function (event) {
    var panel = event.target;
    // (A panel htmx has just swapped in says "open" before foldFilters has seen it: not a choice.)
    if (panel.matches && panel.matches("details.facets-panel[data-folded]") && narrow.matches) {
      filtersOpen = panel.open;
    }
  }, true);

  document.addEventListener("DOMContentLoaded", function () { foldFilters(document); });
  document.addEventListener("htmx:load", function (event) { foldFilters(event.target); });
  narrow.addEventListener("change", function () { foldFilters(document); });
})();
