"""Journeys through the deck's games, in a real browser, with the mouse and with the keyboard
alone: goldfish a deck and watch the live report finish (played by a real background worker),
compare two versions of a deck and their goldfish runs, playtest a deck move by move."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from decks.models import Deck
from decks.services import deck_data, deck_save
from playtest.models import PlaytestGame
from simulations.models import SimulationRun
from tests.browser.conftest import LIVE_DATABASE, GoldfishWorker, sign_in
from tests.browser.person import FOCUS_SHOWN, Person

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
    cancel = body.get_by_role("button", name="Cancel this run")
    if person.keyboard:  # the page polls itself every second: the focus must outlive a poll
        person.tab_to(cancel)
        cancel.evaluate("button => { button.dataset.beforePoll = 'yes'; }")
        expect(cancel).not_to_have_attribute("data-before-poll", "yes")  # a new button now
        expect(cancel).to_be_focused()
    page.evaluate("window.stayedOnThePage = true")
    goldfish_worker.start()
    expect(body.locator("dl.headline")).to_contain_text("Victory rate", timeout=RUN_DONE)
    if person.keyboard:  # Cancel is gone with the run: the focus moves on to the summary
        expect(page.locator("#run-summary")).to_be_focused()
        assert page.locator("#run-summary").evaluate(FOCUS_SHOWN)
    assert page.evaluate("window.stayedOnThePage"), "the report came by a reload, not live"
    expect(body).not_to_have_attribute("data-hx-trigger", re.compile("every"))  # polling stopped
    expect(page.locator("#chart-victory-rounds svg")).to_be_visible()
    expect(page.locator("table.goldfish-cards tbody tr").first).to_be_visible()
    run = SimulationRun.objects.get()
    assert (run.status, run.games, run.seed, run.chunks_done) == ("done", 40, 3, 4)

    # A sample game, replayed round by round.
    person.press(page.locator("ul.samples a").first)
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Game \d+: round 1$"))
    person.press(page.get_by_role("link", name="Round 2 →"))
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Game \d+: round 2$"))
    expect(page.locator(".log-lines li").first).to_be_visible()




def test_a_user_changes_a_deck_and_compares_the_two_versions_and_their_goldfish_runs(
        person: Person, page: Page, site: str, goldfish_worker: GoldfishWorker,
        csp_violations: list[str]) -> None:
    goldfish_worker.start()  # it boots while the person edits
    ada = sign_in(page, site, "ada")
    deck = deck_save(owner=ada, data=deck_data(sample_deck()), visibility=Deck.PRIVATE)
    page.goto(f"{site}/decks/{deck.pk}/")
    person.press(page.locator(".deck-actions").get_by_role("link", name="Edit"))
    person.press(page.get_by_role("button", name="One more Tithe Reeve"))
    expect(page.locator(".deck-meta")).to_contain_text("version 2")

    person.press(page.locator(".deck-meta").get_by_role("link", name="History"))
    expect(page.get_by_role("heading", level=1)).to_have_text("History of Kalim Faithful")
    expect(page.locator("#v2 .part-changes")).to_contain_text("+1 Tithe Reeve (1 → 2)")
    person.press(page.get_by_role("link", name="Compare with current (version 1)"))
    expect(page.locator(".compare-heads")).to_contain_text("Kalim Faithful (v1)")
    person.press(page.get_by_role("link", name="Show only the differences"))
    rows = page.locator(".compare-table tbody tr[class^='cmp-']")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Tithe Reeve")
    expect(rows.locator(".delta")).to_have_text("+1")

    # The two versions goldfished on the same seed, from the history page.
    person.press(page.locator(".compare-heads").get_by_role("link", name="(v2, current)"))
    person.press(page.locator(".deck-actions").get_by_role("link", name="History"))
    expect(page.get_by_role("heading", level=1)).to_have_text("History of Kalim Faithful")
    person.press(page.get_by_role("button", name=re.compile(r"^Goldfish: compare with the "
                                                            r"previous version")))
    expect(page).to_have_url(re.compile(rf"^{site}/goldfish/compare/\?a=.+&b=.+"))
    table = page.locator("table.goldfish-compare")
    expect(table).to_contain_text("Mean victory round", timeout=RUN_DONE)
    expect(table.locator("thead")).to_contain_text("v1")
    expect(table.locator("thead")).to_contain_text("v2")
    expect(table.locator(".verdict").first).to_be_visible()


def test_a_visitor_playtests_a_deck_undoes_a_move_and_lets_the_policy_finish(
        person: Person, page: Page, site: str, csp_violations: list[str]) -> None:
    deck = sample_deck()
    page.goto(f"{site}/decks/{deck.pk}/")
    person.press(page.locator(".deck-actions").get_by_role("button", name="Playtest"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Playtest: Kalim Faithful")
    body = page.locator("#pt-body")
    expect(body).to_have_attribute("data-decision", "0")
    moves = page.locator("#pt-moves button.pt-action")
    for decision in range(1, 4):
        chosen = moves.first.locator(".pt-action-text").inner_text()
        if person.keyboard and decision == 3:
            page.keyboard.press("1")  # the move's number, as the page's key list says
        else:
            person.press(moves.first)
        expect(body).to_have_attribute("data-decision", str(decision))
        expect(page.locator("#pt-log")).to_contain_text(chosen)
    log_lines = page.locator("#pt-log li")
    before_undo = log_lines.count()

    if person.keyboard:
        page.keyboard.press("u")
    else:
        person.press(page.locator(".pt-tool-row").get_by_role("button", name=re.compile("Undo")))
    expect(body).to_have_attribute("data-decision", "2")
    assert log_lines.count() < before_undo

    person.press(page.get_by_role("button", name="end of the game"))
    expect(page.locator("#pt-moves-title")).to_contain_text("The game is over")
    if person.keyboard:  # the pressed button is gone: the focus goes on in the moves, not the top
        expect(page.locator("#pt-moves-title")).to_be_focused()
    expect(page.locator(".pt-status")).not_to_contain_text("Phase")
    game = PlaytestGame.objects.get()
    assert game.outcome and game.decisions > 2 and game.source_deck_id == deck.pk
