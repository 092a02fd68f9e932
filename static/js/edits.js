// The edit form: a refused scan (too big, not an image, too many scans, not allowed) is an
// answer worth showing, so its status area takes it whatever the HTTP status.
document.addEventListener("htmx:beforeSwap", (event) => {
  const source = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (source && source.closest("[data-swap-errors]") && event.detail.xhr.status >= 400) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// With JavaScript, choosing a file reads it in place (htmx); the button that reads it without
// JavaScript would start a second, whole-page read of the same photo while the first runs.
document.addEventListener("DOMContentLoaded", () => {
  if (!window.htmx) { return; }
  document.querySelectorAll("[data-without-js]").forEach((element) => { element.hidden = true; });
});
