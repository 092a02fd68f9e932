"""Two people in two browsers and an AI seat play a table to its end from the pages alone, on
a real ASGI server with its WebSockets (gunicorn's ASGI worker, as `make serve-prod` runs it,
on the in-memory channel layer of one process): ada makes the table on the new-table page,
bob takes the open seat through the invite link, ada starts, and every move is a click on
a page whose other browser shows it through its socket, never by a reload. Along the way each
page shows its own hand and no card of another seat's hand."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page, expect

from bench.load.table_figures import hidden_seen
from bench.load.tables import hands_and_public
from decks.models import Deck
from tables.models import Table
from tables.services import played_table, table_done
from tests.asgi_server import AsgiServer
from tests.browser.conftest import LIVE_DATABASE, sign_in
from tests.browser.test_phone import DESK, PHONE

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

MAX_MOVES = 400  # the people's moves of a game to 15 influence (each passes when he may)
CHECK_EVERY = 5  # moves between two checks of what each page shows
LIVE = "Live: changes show as they happen."


@pytest.fixture
def asgi_site(transactional_db: None, tmp_path: Path) -> Iterator[str]:
    """The site served by an ASGI server process on the test database."""
    database = connection.settings_dict
    if database["ENGINE"] == "django.db.backends.sqlite3":
        url = f"sqlite:///{database['NAME']}"
    else:  # the suite's server, the test database
        url = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(
            path=f"/{database['NAME']}"))
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    server = AsgiServer({**env, "DATABASE_URL": url, "ALLEGIANCE_VAR_DIR": str(tmp_path),
                         "DJANGO_DEBUG": "1"})  # as the test process: sessions it signs
    try:
        yield f"http://127.0.0.1:{server.ready()}"
    finally:
        log = server.stop()
    assert "Traceback" not in log, log


def decision(page: Page) -> int:
    found = re.search(r"decision (\d+)", page.locator("#tb-moves-title").inner_text())
    assert found, page.locator("#tb-moves-title").inner_text()
    return int(found.group(1))


def shows_only_its_own_hand(page: Page, seat: int, table: Table) -> None:
    """The page's hand is the seat's hand as the server's game holds it, and no card it links
    to is in another seat's hand (unless also in play or discarded, or in its own)."""
    played = played_table(table)
    try:
        hands, public = hands_and_public(played)
    finally:
        table_done(table, played)
    chips = page.locator("#tb-body a.tb-chip").evaluate_all(
        "links => links.map(a => [a.getAttribute('href'), !!a.closest('.tb-battle')])")
    # The battle names again cards shown in play: counted apart, as in a view's "combat".
    linked = {"page": [{"id": href.rsplit("/cards/", 1)[1].strip("/")}
                       for href, fighting in chips if not fighting],
              "combat": [{"id": href.rsplit("/cards/", 1)[1].strip("/")}
                         for href, fighting in chips if fighting]}
    hand = [href.rsplit("/cards/", 1)[1].strip("/") for href in page.locator(
        ".tb-hand a.tb-chip").evaluate_all("links => links.map(a => a.getAttribute('href'))")]
    assert sorted(hand) == sorted(hands[seat])
    assert hidden_seen(linked, hands[seat], public) == []


def test_two_people_and_an_ai_seat_play_a_table_to_its_end_live(browser: Browser,
                                                                 asgi_site: str) -> None:
    contexts = [browser.new_context(viewport=size) for size in (DESK, PHONE)]
    ada_page, bob_page = (context.new_page() for context in contexts)
    refused: list[str] = []
    for page in (ada_page, bob_page):
        page.set_default_timeout(20_000)
        page.route("**/image/*.webp*", lambda route: route.abort())
        page.on("console", lambda message: refused.append(message.text)
                if "Content Security Policy" in message.text else None)
    sign_in(ada_page, asgi_site, "ada")
    sign_in(bob_page, asgi_site, "bob")

    # ada makes a table of three: her deck, seat 2 open, seat 3 an AI seat; victory at 15.
    kalim = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    ada_page.goto(f"{asgi_site}/tables/new/?deck={kalim.pk}")
    ada_page.get_by_label("Your deck").select_option(label="Kalim Faithful (samples)")
    ada_page.get_by_label("Seats").select_option("3")
    ada_page.get_by_label("Victory at").select_option("15")
    ada_page.get_by_label("Seat 3").select_option(label="Mosfin Blades (samples)")
    ada_page.get_by_role("button", name="Make the table").click()
    expect(ada_page.locator("[data-live]")).to_have_text(LIVE)
    table = Table.objects.get()
    invite = ada_page.get_by_label("Invite link").input_value()

    # bob joins by the link; ada's page shows him without a reload, and she starts.
    bob_page.goto(invite)
    bob_page.get_by_label("Your deck").select_option(label="Guild Veterans (samples)")
    bob_page.get_by_role("button", name="Take a seat").click()
    expect(bob_page.locator("[data-live]")).to_have_text(LIVE)
    expect(ada_page.locator(".tb-seat-row").nth(1)).to_contain_text("bob")
    ada_page.get_by_role("button", name="Start the game").click()
    expect(bob_page.locator("#tb-moves-title")).to_be_visible()  # told, not reloaded

    pages = {0: ada_page, 1: bob_page}
    for moves in range(MAX_MOVES):
        table.refresh_from_db()
        if table.status == Table.OVER:
            break
        for page in pages.values():  # both show the table as it is now
            expect(page.locator("#tb-moves-title")).to_contain_text(f"decision {table.decision}")
        if moves % CHECK_EVERY == 0:
            for seat, page in pages.items():
                shows_only_its_own_hand(page, seat, table)
        seat, mover = next((s, p) for s, p in pages.items()
                           if p.locator("button.tb-action").count())
        actions = mover.locator("button.tb-action")
        passing = actions.filter(has_text="Pass")
        (passing if passing.count() else actions).first.click()
        other = pages[1 - seat]
        expect(other.locator("#tb-moves-title")).to_contain_text(
            f"decision {table.decision + 1}")
    else:
        pytest.fail(f"the game did not end in {MAX_MOVES} moves")

    for seat, page in pages.items():
        expect(page.locator("#tb-moves-title")).to_contain_text("The game is over")
        expect(page.locator("[data-live]")).to_have_text(LIVE)  # never fell back to polling
        shows_only_its_own_hand(page, seat, table)
    assert moves > 10 and table.decision == moves
    assert refused == []
    for context in contexts:
        context.close()
