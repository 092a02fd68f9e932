/* The goldfish report polls itself (htmx) while its run goes on. When the run ends, the block
 * that held a keyboard user's focus (on "Cancel this run") is replaced by the report: the focus
 * goes to the report's summary instead of falling back to the top of the page. While the run
 * goes on, htmx itself gives the focus back to the button (it has an id). */
(function () {
  "use strict";
  var hadFocus = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    hadFocus = !!(target && target.id === "run-body" && target.contains(document.activeElement));
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!hadFocus) { return; }
    hadFocus = false;
    var active = document.activeElement;
    if (active && active !== document.body && document.body.contains(active)) { return; }
    var summary = document.getElementById("run-summary");
    if (summary) { summary.focus(); }
  });
}());
