"""A person using the site, with the mouse or with the keyboard alone.

Every journey takes a ``Person`` and runs twice (tests/browser/conftest.py): once pointing and
clicking, once with nothing but Tab, Shift+Tab, Enter, Space, arrows and typing. With the
keyboard, every element the person uses must be reachable by Tab and show where the focus is.
"""

from __future__ import annotations

from playwright.sync_api import Locator, Page

# Where the focus stands relative to a target, in one round trip: the Tab direction to take.
WHERE = """target => {
  const active = document.activeElement;
  if (active === target) return "here";
  if (!active || active === document.body) return "forward";
  return active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING
    ? "forward" : "back";
}"""

# How many Tabs away the target is (negative: Shift+Tabs), counting the elements in the page's
# tab order as far as a script can tell; null when it cannot. A guess: tab_to checks it.
DISTANCE = """target => {
  const tabbable = [...document.querySelectorAll(
      "a[href], button, input, select, textarea, summary, iframe, [tabindex]")]
    .filter(e => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length
                 && getComputedStyle(e).visibility !== "hidden"
                 && !(e.type === "radio" && !e.checked && e.name));
  const from = tabbable.indexOf(document.activeElement);
  const to = tabbable.indexOf(target);
  return from < 0 || to < 0 ? null : to - from;
}"""

# The focused element shows it: :focus-visible matches and something is drawn (an outline, or
# the box shadow some inputs use instead).
FOCUS_SHOWN = """element => {
  const style = getComputedStyle(element);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  return element.matches(":focus-visible") && (outline || style.boxShadow !== "none");
}"""

LONG_TEXT = 80  # characters beyond which the keyboard pastes instead of typing key by key


class Person:
    def __init__(self, page: Page, keyboard: bool) -> None:
        self.page = page
        self.keyboard = keyboard

    def __repr__(self) -> str:
        return "keyboard" if self.keyboard else "mouse"

    def tab_to(self, target: Locator, most: int = 400) -> None:
        """Tab (or Shift+Tab, if it lies behind) until ``target`` has the focus, which shows.

        The Tabs the page's order predicts are pressed at once (a person does not stop to look
        at each element either), then one at a time until the focus is really there."""
        target = target.first
        target.wait_for(state="visible")
        distance = target.evaluate(DISTANCE)
        if distance:
            for _ in range(abs(distance) - 1):
                self.page.keyboard.press("Tab" if distance > 0 else "Shift+Tab")
        for _ in range(most):
            where = target.evaluate(WHERE)
            if where == "here":
                assert target.evaluate(FOCUS_SHOWN), f"the focus on {target} does not show"
                return
            self.page.keyboard.press("Tab" if where == "forward" else "Shift+Tab")
        raise AssertionError(f"{target} never got the focus in {most} Tabs")

    def press(self, target: Locator) -> None:
        """Follow a link or press a button (or open a <summary>)."""
        if self.keyboard:
            self.tab_to(target)
            self.page.keyboard.press("Enter")
        else:
            target.first.click()

    def fill(self, target: Locator, text: str) -> None:
        """Replace what a field holds with ``text``."""
        if not self.keyboard:
            target.first.fill(text)
            return
        self.tab_to(target)
        self.page.keyboard.press("ControlOrMeta+A")
        self.page.keyboard.press("Delete")
        if len(text) > LONG_TEXT:
            self.page.keyboard.insert_text(text)  # as pasting it (Ctrl+V) would
        else:
            self.page.keyboard.type(text)
