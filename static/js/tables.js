/* The table page, live (docs/tables.md). Everything also works without this script: moves,
 * chat and surrender are forms that post and come back to the page, and a reload shows the
 * whole current table.
 *
 * - A WebSocket on /ws/tables/<id>/ says {"type": "changed", "version": v} on connecting and
 *   after every change; a version newer than the one shown fetches the table's body again
 *   (htmx swaps it in). The message never carries a view: each browser fetches its own seat's.
 * - When the socket drops, the page polls the body every few seconds and reconnects after a
 *   jittered, growing delay (so a restarted server is not met by every browser at once).
 * - With a clock, the body is fetched again when the running seat's bank runs out (the
 *   server plays that decision for him on that read).
 * - 1-9 press the move with that number; with ten moves or more a first digit waits a moment
 *   for a second one (1 then 2 is move 12). */
(function () {
  "use strict";
  var page = document.querySelector(".tb-page");
  if (!page || window.tablesReady) { return; }
  window.tablesReady = true;

  var body = document.getElementById("tb-body");
  var live = page.querySelector("[data-live]");
  var shown = Number(page.dataset.version);
  var socket = null, pollTimer = null, retries = 0;
  var POLL_MS = 4000, RETRY_MS = 1000, RETRY_MAX_MS = 30000;

  function say(text) { if (live) { live.textContent = text; } }

  // The key hints need this script, and a move to press: shown only then (hidden in the
  // HTML, so a page without JavaScript shows none).
  function showKeys() {
    var hint = body.querySelector(".tb-keys");
    if (hint) { hint.hidden = !body.querySelector("button.tb-action"); }
  }

  function refresh() {
    if (window.htmx) {
      window.htmx.ajax("GET", page.dataset.view, { target: "#tb-body", swap: "innerHTML" });
    } else {
      window.location.reload();
    }
  }

  // The clock: when the running seat's bank runs out, fetch the body again; the server then
  // plays that decision for him (the read settles what the clock owes) and tells every socket.
  var clockTimer = null;
  function watchClock() {
    var grid = body.querySelector(".tb-grid");
    clearTimeout(clockTimer);
    if (!grid || !grid.dataset.deadline) { return; }
    var wait = Date.parse(grid.dataset.deadline) - Date.now();
    clockTimer = setTimeout(refresh, Math.max(0, wait) + 300);
  }

  document.body.addEventListener("htmx:afterSwap", function (event) {
    var grid = body.querySelector(".tb-grid");
    if (event.detail.target === body && grid) {
      shown = Number(grid.dataset.version);
      watchClock();
      showKeys();
    }
  });

  function poll(on) {
    if (on && !pollTimer) { pollTimer = setInterval(refresh, POLL_MS); }
    if (!on && pollTimer) { clearInterval(pollTimer); pollTimer = null; }
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    try {
      socket = new WebSocket(scheme + window.location.host + page.dataset.socket);
    } catch (e) {
      reconnect();
      return;
    }
    socket.onopen = function () { retries = 0; poll(false); say("Live: changes show as they happen."); };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "changed" && message.version > shown) { refresh(); }
    };
    socket.onclose = function (event) {
      socket = null;
      // 4404: the table is gone; 4403: it takes no spectators. Reloading shows the page's
      // own answer instead of retrying for ever.
      if (event.code === 4404 || event.code === 4403) { window.location.reload(); return; }
      say("Live updates lost: checking every few seconds while reconnecting…");
      poll(true);
      reconnect();
    };
  }

  function reconnect() {
    // Full jitter: a random delay up to a doubling cap.
    var cap = Math.min(RETRY_MAX_MS, RETRY_MS * Math.pow(2, retries));
    retries += 1;
    setTimeout(connect, Math.random() * cap);
  }

  var typed = "", typedTimer = null;

  function press(number) {
    var button = body.querySelector('button.tb-action[data-number="' + number + '"]');
    if (button) { button.focus(); button.click(); }
  }

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) { return; }
    if (!/^[0-9]$/.test(event.key)) { return; }
    var count = body.querySelectorAll("button.tb-action").length;
    event.preventDefault();
    typed += event.key;
    clearTimeout(typedTimer);
    if (count < 10 || typed.length === 2) {
      press(Number(typed));
      typed = "";
    } else {
      typedTimer = setTimeout(function () { press(Number(typed)); typed = ""; }, 700);
    }
  });

  say("Live updates: connecting…");
  showKeys();
  watchClock();
  connect();
}());
