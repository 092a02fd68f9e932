"""A playtest against two AI opponents, in a real browser, from the start form to the end of
the game: the player passes whenever that is legal and otherwise takes the first legal move;
the opponents' moves appear in the log, each naming its seat."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from decks.models import Deck
from playtest.models import PlaytestGame
from tests.browser.conftest import LIVE_DATABASE

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

MAX_CLICKS = 200  # a game to 15 influence takes the player about 50 decisions


def sample(name: str) -> Deck:
    return Deck.objects.get(owner__username="samples", name=name)


@pytest.mark.parametrize("width", [1400, 390], ids=["desk", "phone"])
def test_a_visitor_plays_two_ai_opponents_to_the_end(page: Page, site: str, width: int,
                                                     csp_violations: list[str]) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    deck = sample("Kalim Faithful")
    page.goto(f"{site}/playtest/new/?deck={deck.pk}")
    page.get_by_label("Seat 2").select_option(label="Mosfin Blades")
    page.get_by_label("Seat 3").select_option(label="Guild Merchants")
    page.get_by_label("Seed").fill("5")
    page.get_by_label("Victory at").select_option("15")
    page.get_by_role("button", name="Start the game").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Playtest: Kalim Faithful")
    expect(page.locator(".pt-meta")).to_contain_text("against 2 AI opponents")
    seats = page.locator(".pt-seat")
    expect(seats).to_have_count(2)
    expect(seats.nth(0)).to_contain_text("Seat 2 Mosfin Blades")
    expect(seats.nth(1)).to_contain_text("Guild Merchants")
    expect(seats.nth(0).locator("dt", has_text="Stronghold")).to_be_visible()
    body = page.locator("#pt-body")
    expect(body).to_have_attribute("data-decision", "0")

    moves = page.locator("#pt-moves button.pt-action")
    swapping = page.locator("#pt-body.htmx-swapping, #pt-body.htmx-settling")
    for clicks in range(1, MAX_CLICKS + 1):
        passing = moves.filter(has_text="Pass")
        (passing if passing.count() else moves).first.click()
        expect(body).to_have_attribute("data-decision", str(clicks))
        expect(swapping).to_have_count(0)
        if page.locator("#pt-moves-title").inner_text().startswith("The game is over"):
            break
    else:
        pytest.fail(f"the game did not end in {MAX_CLICKS} moves")

    game = PlaytestGame.objects.get()
    assert game.outcome and game.decisions == clicks == len(game.actions)
    expect(page.locator(".pt-status")).to_contain_text(
        {"victory": "Victory", "overrun": "overran", "timeout": "Out of time"}.get(
            game.outcome, "Defeat"))
    log = page.locator("#pt-log")
    expect(log).to_contain_text("Seat 2 (Mosfin Blades): ")
    expect(log).to_contain_text("Seat 3 (Guild Merchants): ")
    expect(log).to_contain_text("You: ")
    expect(log.locator("li .log-decision")).to_have_count(game.decisions)
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # Undo goes back to the player's last decision, the opponents' replies replayed.
    page.locator(".pt-tool-row").get_by_role("button", name="Undo").click()
    expect(body).to_have_attribute("data-decision", str(game.decisions - 1))
    expect(page.locator("#pt-moves-title")).to_contain_text("Your move")
