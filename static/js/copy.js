/* Copy-to-clipboard buttons, and the print view's Print button.
 * <button data-copy="ID" hidden> copies the value of the field with that id; the next
 * .copy-status (role=status, aria-live) says "Copied". Without this script the buttons stay
 * hidden and the text stays visible and selectable. Delegated once on the document, so
 * content swapped in by htmx needs nothing more. */
(function () {
  "use strict";
  if (window.deckCopyReady) { reveal(); return; }
  window.deckCopyReady = true;

  function reveal() {
    document.querySelectorAll("[data-copy], [data-print]").forEach(function (b) {
      b.hidden = false;
    });
  }

  function say(button, text) {
    var status = button.parentNode.querySelector(".copy-status");
    if (!status) { return; }
    status.textContent = text;
    clearTimeout(button.copyTimer);
    button.copyTimer = setTimeout(function () { status.textContent = ""; }, 4000);
  }

  function fallback(field) {
    field.focus();
    field.select();
    try { return document.execCommand("copy"); } catch (e) { return false; }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy], [data-print]");
    if (!button) { return; }
    if (button.hasAttribute("data-print")) { window.print(); return; }
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) { return; }
    var done = function () { say(button, "Copied"); };
    var failed = function () {
      say(button, fallback(field) ? "Copied" : "Could not copy: select the text and copy it");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, failed);
    } else {
      failed();
    }
  });

  document.addEventListener("htmx:afterSettle", reveal);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", reveal);
  } else {
    reveal();
  }
})();
