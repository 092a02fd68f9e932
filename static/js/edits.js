// The edit form: a refused scan (too big, not an image, too many scans, not allowed) is an
// answer worth showing, so its status area takes it whatever the HTTP status.
document.addEventListener("htmx:beforeSwap", (event) => {
  const source = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (source && source.closest("[data-swap-errors]") && event.detail.xhr.status >= 400) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
