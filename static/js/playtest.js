/* The playtest page by keyboard and mouse (everything also works without this script: the
 * moves are forms, the cards are links to ?focus=N, the replay steps are links).
 *
 * - 1-9 press the move with that number; with ten moves or more a first digit waits a moment
 *   for a second one (1 then 2 is move 12).
 * - g, p, u, h: the buttons marked data-key (policy move, policy to the end of the phase,
 *   undo, victory chances).
 * - A click on a card highlights its moves and puts keyboard focus on the first of them.
 * - In the log, arrow keys, Home and End go line by line.
 * - In the replay viewer, left/right arrows, Home and End step through the decisions.
 * Delegated once on the document, so the body htmx swaps in needs nothing more. */
(function () {
  "use strict";
  if (window.playtestReady) { return; }
  window.playtestReady = true;

  var typed = "";
  var typedTimer = null;

  function moveButtons() {
    return Array.prototype.slice.call(document.querySelectorAll("#pt-moves button.pt-action"));
  }

  function press(number) {
    var button = document.querySelector('#pt-moves button.pt-action[data-number="' + number + '"]');
    if (button) { button.focus(); button.click(); }
  }

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  function logKeys(event, log) {
    var items = log.querySelectorAll("li");
    if (!items.length) { return false; }
    var index = Array.prototype.indexOf.call(items, event.target.closest("li"));
    var next = null;
    if (event.key === "ArrowDown") { next = items[index < 0 ? 0 : Math.min(index + 1, items.length - 1)]; }
    else if (event.key === "ArrowUp") { next = items[index < 0 ? items.length - 1 : Math.max(index - 1, 0)]; }
    else if (event.key === "Home") { next = items[0]; }
    else if (event.key === "End") { next = items[items.length - 1]; }
    if (!next) { return false; }
    event.preventDefault();
    next.focus();
    return true;
  }

  var STEPS = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "end" };

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) { return; }
    var log = event.target.closest && event.target.closest(".pt-log");
    if (log && logKeys(event, log)) { return; }
    var replay = document.querySelector(".pt-replay");
    if (replay) {
      var step = STEPS[event.key] && replay.querySelector('[data-step="' + STEPS[event.key] + '"]');
      if (step && step.getAttribute("aria-disabled") !== "true") {
        event.preventDefault();
        window.location.href = step.href;
      }
      return;
    }
    var body = document.getElementById("pt-body");
    if (!body) { return; }
    if (/^[0-9]$/.test(event.key)) {
      event.preventDefault();
      var count = moveButtons().length;
      typed += event.key;
      clearTimeout(typedTimer);
      var number = parseInt(typed, 10);
      if (count >= 10 && typed.length === 1 && number > 0 && number * 10 <= count) {
        typedTimer = setTimeout(function () { var n = parseInt(typed, 10); typed = ""; press(n); }, 600);
      } else {
        typed = "";
        press(number);
      }
      return;
    }
    var keyed = body.querySelector('[data-key="' + event.key + '"]');
    if (keyed) { event.preventDefault(); keyed.click(); }
  });

  function focusCard(instance, name) {
    var moves = document.getElementById("pt-moves");
    if (!moves) { return; }
    var first = null;
    var count = 0;
    moveButtons().forEach(function (button) {
      var hit = instance !== null && (button.getAttribute("data-related") || "").indexOf(" " + instance + " ") >= 0;
      button.classList.toggle("is-focused", hit);
      if (hit) { count += 1; first = first || button; }
    });
    moves.querySelectorAll(".pt-group-box").forEach(function (group) {
      group.classList.toggle("is-focused", !!group.querySelector(".pt-action.is-focused"));
    });
    moves.classList.toggle("has-focus", instance !== null);
    document.querySelectorAll(".pt-card.is-focus").forEach(function (card) { card.classList.remove("is-focus"); });
    if (instance !== null) {
      document.querySelectorAll('.pt-card[data-instance="' + instance + '"]').forEach(function (card) { card.classList.add("is-focus"); });
    }
    var bar = moves.querySelector("[data-focusbar]");
    if (bar) {
      bar.hidden = instance === null;
      var text = bar.querySelector("[data-focus-text]");
      if (text && instance !== null) {
        text.textContent = count ? "The moves of " + name + " are highlighted (" + count + ")." : name + " has no move now.";
      }
    }
    if (first) { first.focus(); first.scrollIntoView({ block: "nearest" }); }
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest) { return; }
    var face = event.target.closest("a[data-focus]");
    if (face) {
      event.preventDefault();
      focusCard(face.getAttribute("data-focus"), face.getAttribute("data-name"));
      return;
    }
    if (event.target.closest("a[data-unfocus]")) {
      event.preventDefault();
      focusCard(null);
    }
  });

  function settle(focusMoves) {
    var log = document.getElementById("pt-log");
    if (log) { log.scrollTop = log.scrollHeight; }
    if (focusMoves) {
      // The button just pressed is gone with the old body: the keyboard goes on from the first
      // move, or from the moves' heading once there is none (the game is over), never from the
      // top of the page.
      var target = document.querySelector("#pt-moves button.pt-action.is-focused, #pt-moves button.pt-action")
        || document.getElementById("pt-moves-title");
      if (target) { target.focus({ preventScroll: true }); }
    }
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "pt-body") { settle(true); }
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { settle(false); });
  } else {
    settle(false);
  }
}());
