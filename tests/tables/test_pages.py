"""The table pages: a new table, the invite link, the table itself and its fragment, moves,
chat and surrender as forms (without JavaScript), the deck page's link."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tables.models import Table
from tests.tables.calls import SAMPLES, person, sample

pytestmark = pytest.mark.django_db


def new_table(client: Client, **fields: object) -> Table:
    response = client.post("/tables/new/", {"deck": sample(SAMPLES[0]), "seats": 3,
                                            "target": 15, "spectators": "on", **fields})
    assert response.status_code == 302, response.content
    table = Table.objects.latest("id")
    assert response["Location"] == f"/tables/{table.pk}/"
    return table


def test_the_form_makes_a_table_with_ai_and_open_seats() -> None:
    ada = person("ada")
    page = ada.get(f"/tables/new/?deck={sample(SAMPLES[0])}")
    assert page.status_code == 200 and b"Play with friends" in page.content
    table = new_table(ada, ai_2=sample(SAMPLES[2]), ai_4=sample(SAMPLES[3]))
    assert [r.kind for r in table.seat_rows.order_by("seat")] == ["person", "open", "ai"]
    shown = ada.get(f"/tables/{table.pk}/").content.decode()
    assert table.invite in shown and "Start the game" in shown


def test_a_friend_joins_by_the_link_and_the_host_starts() -> None:
    ada, bob = person("ada"), person("bob")
    table = new_table(ada, seats=2)
    invite = bob.get(f"/tables/invite/{table.invite}/")
    assert invite.status_code == 200 and b"Take a seat" in invite.content
    joined = bob.post(f"/tables/invite/{table.invite}/", {"deck": sample(SAMPLES[1])})
    assert joined.status_code == 302
    assert ada.post(f"/tables/{table.pk}/start/").status_code == 302
    table.refresh_from_db()
    assert table.status == Table.PLAYING
    pages = [client.get(f"/tables/{table.pk}/").content.decode() for client in (ada, bob)]
    assert sum("Your move" in page for page in pages) == 1


def test_a_move_chat_and_surrender_post_as_forms() -> None:
    ada, bob = person("ada"), person("bob")
    table = new_table(ada, seats=2)
    bob.post(f"/tables/invite/{table.invite}/", {"deck": sample(SAMPLES[1])})
    ada.post(f"/tables/{table.pk}/start/")
    mover = next(c for c in (ada, bob) if b"Your move" in c.get(f"/tables/{table.pk}/").content)
    page = mover.get(f"/tables/{table.pk}/").content.decode()
    decision = re.search(r'name="decision" value="(\d+)"', page)
    assert decision is not None
    moved = mover.post(f"/tables/{table.pk}/act/", {"index": 0, "decision": decision[1]})
    assert moved.status_code == 302
    table.refresh_from_db()
    assert table.decision == 1
    stale = mover.post(f"/tables/{table.pk}/act/", {"index": 0, "decision": 0}, follow=True)
    assert b"decision 0" in stale.content and Table.objects.get().decision == 1
    bob.post(f"/tables/{table.pk}/chat/", {"text": "well played"})
    assert b"well played" in ada.get(f"/tables/{table.pk}/view/").content
    bob.post(f"/tables/{table.pk}/surrender/")
    assert Table.objects.get().status == Table.OVER
    assert b"ada wins" in ada.get(f"/tables/{table.pk}/").content


def test_a_rematch_seats_the_same_people_and_ai_with_the_same_decks() -> None:
    ada, bob = person("ada"), person("bob")
    table = new_table(ada, seats=3, ai_2=sample(SAMPLES[2]))
    bob.post(f"/tables/invite/{table.invite}/", {"deck": sample(SAMPLES[1])})
    ada.post(f"/tables/{table.pk}/start/")
    assert bob.post(f"/tables/{table.pk}/rematch/").status_code == 302
    assert Table.objects.filter(rematch__isnull=False).count() == 0  # not over yet
    for client in (ada, bob):
        client.post(f"/tables/{table.pk}/surrender/")
    response = bob.post(f"/tables/{table.pk}/rematch/")
    again = Table.objects.get(pk=table.pk).rematch
    assert again is not None and response["Location"] == f"/tables/{again.pk}/"
    assert ada.post(f"/tables/{table.pk}/rematch/")["Location"] == f"/tables/{again.pk}/"
    old, new = (list(t.seat_rows.order_by("seat").values_list("kind", "user", "deck_name",
                                                              "deck"))
                for t in (table, again))
    assert old == new and again.status == Table.OPEN and again.host.username == "bob"
    assert f"/tables/{again.pk}/".encode() in ada.get(f"/tables/{table.pk}/").content
    assert bob.post(f"/tables/{again.pk}/start/").status_code == 302
    assert Table.objects.get(pk=again.pk).status == Table.PLAYING


def test_a_table_without_spectators_is_closed_to_others() -> None:
    ada = person("ada")
    table = new_table(ada, spectators="")
    assert Client().get(f"/tables/{table.pk}/").status_code == 403
    assert Client().get(f"/tables/{table.pk}/view/").status_code == 403
    assert ada.get(f"/tables/{table.pk}/").status_code == 200


def test_the_lobby_and_the_deck_page_lead_to_tables() -> None:
    ada = person("ada")
    table = new_table(ada, public="on")
    assert f"/tables/{table.pk}/".encode() in Client().get("/tables/").content
    deck_page = Client().get(f"/decks/{sample(SAMPLES[0])}/")
    assert f"/tables/new/?deck={sample(SAMPLES[0])}".encode() in deck_page.content


def test_the_new_table_form_says_why_a_deck_is_refused() -> None:
    ada = person("ada")
    response = ada.post("/tables/new/", {"deck": sample(SAMPLES[0]), "seats": 6, "target": 15})
    assert response.status_code == 400 and b"not legal at a table of 6" in response.content
    assert not Table.objects.exists()


def test_the_home_page_offers_a_table_and_lists_the_open_ones() -> None:
    ada = person("ada")
    table = new_table(ada, public="on")
    home = Client().get("/").content.decode()
    assert "/tables/new/" in home and f"/tables/{table.pk}/" in home


def test_a_trade_is_offered_and_accepted_on_the_page() -> None:
    ada, bob = person("ada"), person("bob")
    table = new_table(ada, seats=2)
    bob.post(f"/tables/invite/{table.invite}/", {"deck": sample(SAMPLES[1])})
    ada.post(f"/tables/{table.pk}/start/")
    assert b"Offer a token trade" in ada.get(f"/tables/{table.pk}/").content
    ada.post(f"/tables/{table.pk}/offers/", {
        "to": 1, "give_economic": 1, "give_religious": 0, "give_political": 0,
        "take_economic": 0, "take_religious": 0, "take_political": 1})
    page = bob.get(f"/tables/{table.pk}/").content.decode()
    assert "ada offers bob 1 economic for 1 political" in page and "Accept" in page
    assert bob.post(f"/tables/{table.pk}/offers/1/accept/").status_code == 302
    assert "accepted" in ada.get(f"/tables/{table.pk}/view/").content.decode()
    assert Table.objects.get().decision == 1


def test_the_site_navigation_leads_to_the_tables() -> None:
    page = Client().get("/decks/").content.decode()
    nav = page.split('class="site-nav"', 1)[1].split("</nav>", 1)[0]
    assert 'href="/tables/"' in nav
    assert 'aria-current="page">Tables' in Client().get("/tables/").content.decode()


def test_the_form_sets_the_clock_and_the_card_trade_option() -> None:
    ada = person("ada")
    table = new_table(ada, seats=2, ai_1=sample(SAMPLES[1]), card_trades="on",
                      clock_minutes=5, clock_increment=10)
    assert (table.clock, table.card_trades) == ({"bank": 300, "increment": 10}, True)
    ada.post(f"/tables/{table.pk}/start/")
    page = ada.get(f"/tables/{table.pk}/").content.decode()
    assert re.search(r"clock [45]:\d\d", page) and "data-deadline=" in page
    assert "Card trades allowed" in page


def test_an_undo_is_asked_and_agreed_to_on_the_page() -> None:
    ada, bob = person("ada"), person("bob")
    table = new_table(ada, seats=2)
    bob.post(f"/tables/invite/{table.invite}/", {"deck": sample(SAMPLES[1])})
    ada.post(f"/tables/{table.pk}/start/")
    for _ in range(40):
        mover = next(c for c in (ada, bob)
                     if b"Your move" in c.get(f"/tables/{table.pk}/").content)
        table.refresh_from_db()
        mover.post(f"/tables/{table.pk}/act/", {"index": 0, "decision": table.decision})
        assert b"Ask to take back my last decision" in mover.get(f"/tables/{table.pk}/").content
        mover.post(f"/tables/{table.pk}/undo/")
        if Table.objects.get().undo is not None:
            break
    other = bob if mover is ada else ada
    asker = 1 if mover is ada else 2
    asked = other.get(f"/tables/{table.pk}/").content.decode()
    assert f"Seat {asker} ({'ada' if mover is ada else 'bob'}) asks to take back his last " \
           "decision" in asked and "waiting for you." in asked
    mine = mover.get(f"/tables/{table.pk}/").content.decode()
    assert "You ask to take back your last decision" in mine
    assert f"waiting for Seat {3 - asker} ({'bob' if mover is ada else 'ada'})." in mine
    decision = Table.objects.get().decision
    assert other.post(f"/tables/{table.pk}/undo/accept/").status_code == 302
    assert Table.objects.get().decision == decision - 1


def test_a_finished_table_links_to_its_replay_with_every_hand() -> None:
    ada = person("ada")
    table = new_table(ada, seats=2, ai_1=sample(SAMPLES[1]))
    ada.post(f"/tables/{table.pk}/start/")
    assert ada.get(f"/tables/{table.pk}/replay/").status_code == 302  # not over yet
    ada.post(f"/tables/{table.pk}/surrender/")
    assert f"/tables/{table.pk}/replay/?decision=0" in ada.get(f"/tables/{table.pk}/").content\
        .decode()
    page = Client().get(f"/tables/{table.pk}/replay/?decision=0").content.decode()
    assert "Decision 0 of 1" in page and page.count("<strong>Hand</strong>") == 2


def test_the_person_to_move_sees_the_round_and_the_phase() -> None:
    ada, bob = person("ada"), person("bob")
    table = new_table(ada, seats=2)
    bob.post(f"/tables/invite/{table.invite}/", {"deck": sample(SAMPLES[1])})
    ada.post(f"/tables/{table.pk}/start/")
    headings = [re.search(r'<h2 id="tb-moves-title">(.*?)</h2>',
                          client.get(f"/tables/{table.pk}/").content.decode(), re.S)
                for client in (ada, bob)]
    assert all(headings)
    texts = [re.sub(r"<[^>]+>", "", h[1]) for h in headings if h]
    mover = next(t for t in texts if t.startswith("Your move"))
    waiting = next(t for t in texts if not t.startswith("Your move"))
    assert "Round 1 · maintenance · decision 0" in mover
    assert waiting.startswith("Round 1 · maintenance")


def test_without_javascript_no_live_line_or_key_hint_shows() -> None:
    """The live line says what a page without tables.js does (the script says how live it
    is); the key hints are hidden in the HTML (the script shows them), and only beside moves;
    "● here" never breaks between dot and word."""
    ada, bob = person("ada"), person("bob")
    table = new_table(ada, seats=2)
    waiting = ada.get(f"/tables/{table.pk}/").content.decode()
    live = re.search(r'<p class="tb-live[^"]*" data-live role="status">([^<]*)</p>', waiting)
    assert live and live[1] == "Reload the page to see the others' moves."
    assert "tb-keys" not in waiting  # no move before the start
    assert "●&nbsp;here" in waiting
    bob.post(f"/tables/invite/{table.invite}/", {"deck": sample(SAMPLES[1])})
    ada.post(f"/tables/{table.pk}/start/")
    pages = [c.get(f"/tables/{table.pk}/").content.decode() for c in (ada, bob)]
    mover = next(p for p in pages if "Your move" in p)
    other = next(p for p in pages if p is not mover)
    assert '<p class="tb-keys muted small" hidden>' in mover and "tb-keys" not in other
    bob.post(f"/tables/{table.pk}/surrender/")
    assert "tb-keys" not in ada.get(f"/tables/{table.pk}/").content.decode()


def test_the_log_and_the_talk_sit_in_boxes_that_open_on_their_newest_lines() -> None:
    """Each in a scroll box that opens at its end (a reversed column: tables.css; where it
    scrolls is checked in a browser, tests/browser/test_tables.py), oldest line first."""
    ada = person("ada")
    table = new_table(ada, seats=2, ai_1=sample(SAMPLES[1]))
    ada.post(f"/tables/{table.pk}/start/")
    page = ada.get(f"/tables/{table.pk}/").content.decode()
    assert '<div class="tb-scroll"><ol class="tb-log-lines" role="log">' in page
    assert '<div class="tb-scroll"><ol class="tb-chat-lines">' in page
