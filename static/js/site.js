/* Small helps on every page; each page works without them.
 *
 * - "/" puts the focus in the page's own search box (data-slash="page"), or in the header's
 *   card search (data-slash="site") on pages without one, as on GitHub or YouTube.
 * - A card's image over its name in lists, on hover, keyboard focus or a first tap.
 * - On a phone the card search's filters stay folded behind their "Filters" button (a
 *   <details>, folded in the HTML and shown by the CSS on a wide screen), also after htmx swaps
 *   the results as the person types; a person who opened them keeps them open.
 * - The test draw's ways to draw, folded in the HTML for a phone, are opened on a wide screen.
 * - A table (or a preformatted text) wider than its box says so: "is-scrollable" on the box
 *   and a line above it, "Swipe sideways for more", until it is scrolled to its end.
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

  // Card images: over a card's name in a list ([data-card-previews]), shown on hover (mouse),
  // on keyboard focus, and on a first tap (touch: the second tap, or a tap on the image,
  // opens the card's page). The image is decorative: the link's text names the card.
  var CARD_PAGE = /^\/cards\/([a-z0-9][a-z0-9-]*)\/$/;
  var preview = null;
  var previewFor = null;
  var hoverTimer = null;
  var lastPointer = "mouse";

  function cardLink(target) {
    var link = target && target.closest ? target.closest("[data-card-previews] a[href]") : null;
    if (!link || link.querySelector("img")) { return null; }
    var url = new URL(link.href, window.location.href);
    return url.origin === window.location.origin && CARD_PAGE.test(url.pathname) ? link : null;
  }

  function previewBox() {
    if (!preview) {
      preview = document.createElement("a");
      preview.className = "card-preview";
      preview.setAttribute("aria-hidden", "true");
      preview.tabIndex = -1;
      preview.hidden = true;
      var image = document.createElement("img");
      image.alt = "";
      image.width = 250;
      image.height = 349;
      preview.appendChild(image);
      document.body.appendChild(preview);
    }
    return preview;
  }

  function showPreview(link, touch, x, y) {
    var box = previewBox();
    var id = CARD_PAGE.exec(new URL(link.href, window.location.href).pathname)[1];
    var source = "/cards/" + id + "/image/normal.webp";
    var image = box.firstChild;
    if (image.getAttribute("src") !== source) { image.setAttribute("src", source); }
    box.href = link.href;
    box.classList.toggle("is-touch", touch);
    box.hidden = false;
    previewFor = link;
    var rect = link.getBoundingClientRect();
    var width = box.offsetWidth, height = box.offsetHeight;
    var left, top;
    if (touch) {  // under (or over) the name, centred: a finger covers what is beside it
      left = Math.max(8, Math.min(window.innerWidth - width - 8, rect.left + rect.width / 2 - width / 2));
      top = rect.bottom + 8 + height > window.innerHeight ? rect.top - height - 8 : rect.bottom + 8;
    } else {  // beside the pointer (or the link), on the side with room
      var anchorX = x === undefined ? rect.right : x, anchorY = y === undefined ? rect.top : y;
      left = anchorX + 24 + width > window.innerWidth ? anchorX - width - 24 : anchorX + 24;
      top = Math.max(8, Math.min(window.innerHeight - height - 8, anchorY - height / 3));
      left = Math.max(8, left);
    }
    box.style.left = left + "px";
    box.style.top = Math.max(8, top) + "px";
  }

  function hidePreview() {
    window.clearTimeout(hoverTimer);
    if (preview) { preview.hidden = true; }
    previewFor = null;
  }

  document.addEventListener("pointerdown", function (event) {
    lastPointer = event.pointerType || "mouse";
    if (previewFor && event.target !== previewFor && !cardLink(event.target)
        && !(preview && preview.contains(event.target))) { hidePreview(); }
  }, true);

  document.addEventListener("click", function (event) {
    var link = cardLink(event.target);
    if (!link || lastPointer !== "touch" || event.ctrlKey || event.metaKey) { return; }
    if (previewFor === link && preview && !preview.hidden) { hidePreview(); return; }  // opens
    event.preventDefault();
    showPreview(link, true);
  }, true);

  document.addEventListener("mouseover", function (event) {
    if (lastPointer === "touch") { return; }
    var link = cardLink(event.target);
    if (!link || link === previewFor) { return; }
    window.clearTimeout(hoverTimer);
    var x = event.clientX, y = event.clientY;
    hoverTimer = window.setTimeout(function () { showPreview(link, false, x, y); }, 120);
  });

  document.addEventListener("mouseout", function (event) {
    var link = cardLink(event.target);
    if (link && !link.contains(event.relatedTarget) && lastPointer !== "touch") { hidePreview(); }
  });

  document.addEventListener("focusin", function (event) {
    var link = cardLink(event.target);
    if (link && link.matches(":focus-visible")) { showPreview(link, false); }
  });

  document.addEventListener("focusout", function (event) {
    if (cardLink(event.target) && lastPointer !== "touch") { hidePreview(); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && previewFor) { hidePreview(); }
  });

  window.addEventListener("scroll", function () {
    if (previewFor && lastPointer !== "touch") { hidePreview(); }
  }, {passive: true});

  document.addEventListener("htmx:beforeSwap", hidePreview);

  // Wide tables: a visible cue while part of the table is out of sight to the right.
  var SCROLLERS = ".table-wrap, .heatmap-wrap, pre, .guide table, .query-error .pointer";

  function markScroller(box) {
    var wider = box.scrollWidth > box.clientWidth + 1;
    var cue = box.previousElementSibling;
    if (!cue || !cue.classList.contains("scroll-cue")) {
      if (!wider) { return; }
      cue = document.createElement("p");
      cue.className = "scroll-cue";
      cue.setAttribute("aria-hidden", "true");  // the table itself is all there for a reader
      cue.textContent = "Swipe sideways for more \u2192";
      box.parentNode.insertBefore(cue, box);
    }
    var atEnd = box.scrollLeft + box.clientWidth >= box.scrollWidth - 1;
    box.classList.toggle("is-scrollable", wider);
    box.classList.toggle("is-scrolled-to-end", wider && atEnd);
    cue.hidden = !wider;
  }

  function markScrollers(root) {
    var boxes = (root || document).querySelectorAll(SCROLLERS);
    Array.prototype.forEach.call(boxes, markScroller);
    if (root && root.matches && root.matches(SCROLLERS)) { markScroller(root); }
  }

  document.addEventListener("scroll", function (event) {
    var box = event.target;
    if (box.matches && box.matches(SCROLLERS)) { markScroller(box); }
  }, {capture: true, passive: true});
  window.addEventListener("resize", function () { markScrollers(document); }, {passive: true});

  // The test draw's ways to draw: folded in the HTML (the hand first on a phone), opened on a
  // wide screen, where the CSS shows them anyway, so that they are in the page's reading order.
  var wide = window.matchMedia("(min-width: 601px)");
  function openDrawModes(root) {
    if (!wide.matches) { return; }
    Array.prototype.forEach.call((root || document).querySelectorAll("details.draw-modes"),
      function (modes) { modes.open = true; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    foldFilters(document);
    markScrollers(document);
    openDrawModes(document);
  });
  document.addEventListener("htmx:load", function (event) {
    foldFilters(event.target);
    markScrollers(event.target);
    openDrawModes(event.target);
  });
  narrow.addEventListener("change", function () { foldFilters(document); });
})();
