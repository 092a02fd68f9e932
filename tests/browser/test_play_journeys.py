"""Journeys through the deck's games, in a real browser, with the mouse and with the keyboard
alone: goldfish a deck and watch the live report finish (played by a real background worker),
compare two versions of a deck and their goldfish runs, playtest a deck move by move."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from decks.models import Deck, GoldfishRun
from tests.browser.conftest import LIVE_DATABASE, GoldfishWorker
from tests.browser.person import Person

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

RUN_DONE = 90_000  # ms: a few dozen games, on two cores shared with other suites


def sample_deck() -> Deck:
    return Deck.objects.get(owner__username="samples", name="Kalim Faithful")


def test_a_visitor_goldfishes_a_deck_and_watches_the_report_finish(
        person: Person, page: Page, site: str, goldfish_worker: GoldfishWorker,
        csp_violations: list[str]) -> None:
    deck = sample_deck()
    page.goto(f"{site}/decks/{deck.pk}/")
    person.press(page.locator(".deck-actions").get_by_role("link", name="Goldfish", exact=True))
    expect(page).to_have_url(f"{site}/decks/{deck.pk}/goldfish/")
    person.fill(page.get_by_label("Games"), "40")
    person.fill(page.get_by_label("Seed"), "3")
    person.press(page.locator(".goldfish-form").get_by_role("button", name="Goldfish"))

    # No worker yet: the report says the run waits, and follows it once one starts.
    expect(page).to_have_url(re.compile(rf"^{site}/goldfish/[0-9a-f-]{{36}}/$"))
    body = page.locator("#run-body")
    expect(body).to_contain_text("Waiting for a worker")
    page.evaluate("window.stayedOnThePage = true")
    goldfish_worker.start()
    expect(body.locator("dl.headline")).to_contain_text("Victory rate", timeout=RUN_DONE)
    assert page.evaluate("window.stayedOnThePage"), "the report came by a reload, not live"
    expect(body).not_to_have_attribute("hx-trigger", re.compile("every"))  # polling stopped
    expect(page.locator("#chart-victory-rounds svg")).to_be_visible()
    expect(page.locator("table.goldfish-cards tbody tr").first).to_be_visible()
    run = GoldfishRun.objects.get()
    assert (run.status, run.games, run.seed, run.chunks_done) == ("done", 40, 3, 4)

    # A sample game, replayed round by round.
    person.press(page.locator("ul.samples a").first)
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Game \d+: round 1$"))
    person.press(page.get_by_role("link", name="Round 2 →"))
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Game \d+: round 2$"))
    expect(page.locator(".log-lines li").first).to_be_visible()


