"""Card trades at a table whose people agreed to them before the game (the rulebook's optional
rule: cards in play, not wanderers, traded during the City Maintenance Phase): offered by
instance, accepted (the cards change hands with what they carry, a move that replays), or
refused with nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from tables.models import Table, TableOffer
from tables.services import TABLES
from tests.tables.calls import person, post, started, view

pytestmark = pytest.mark.django_db


def card_table() -> tuple[Client, Client, int]:
    ada, bob = person("ada"), person("bob")
    return ada, bob, started(ada, [bob], card_trades=True)["id"]


def tradable(seen: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [c for c in seen["seats"][seat]["in_play"] if c["tradable"]]


def refs(seen: dict[str, Any], seat: int) -> list[str]:
    return [c["ref"] for c in seen["seats"][seat]["in_play"]]


def test_a_card_trade_accepted_in_city_maintenance_moves_the_cards_and_replays() -> None:
    ada, bob, table_id = card_table()
    seen = view(ada, table_id)
    assert seen["phase"] == "maintenance"
    mine, theirs = tradable(seen, 0)[0], tradable(seen, 1)[0]
    made = post(ada, f"/api/tables/{table_id}/offers/",
                {"to": 1, "give": {}, "take": {}, "give_cards": [mine["ref"]],
                 "take_cards": [theirs["ref"]]})
    assert made.status_code == 201, made.json()
    shown = made.json()["offers"][0]
    assert shown["give_cards"] == [{"ref": mine["ref"], "id": mine["id"], "name": mine["name"]}]
    assert shown["take_cards"][0]["ref"] == theirs["ref"]
    accepted = post(bob, f"/api/tables/{table_id}/offers/1/accept/")
    assert accepted.status_code == 200, accepted.json()
    after = accepted.json()
    assert mine["ref"] in refs(after, 1) and mine["ref"] not in refs(after, 0)
    assert theirs["ref"] in refs(after, 0)
    assert any(f"{mine['name']} to" in line["text"] for line in after["log"])
    TABLES.clear()  # replayed from the moves, the card trade included
    again = view(bob, table_id)
    assert [refs(again, s) for s in (0, 1)] == [refs(after, s) for s in (0, 1)]


@pytest.mark.parametrize(("case", "code"), [
    ("not_his", "invalid"), ("twice", "invalid"), ("a_stronghold", "invalid")])
def test_a_card_offer_naming_a_card_not_his_to_trade_is_refused(case: str, code: str) -> None:
    ada, _, table_id = card_table()
    seen = view(ada, table_id)
    mine = tradable(seen, 0)[0]["ref"]
    stronghold = next(c["ref"] for c in seen["seats"][0]["in_play"] if not c["tradable"])
    give = {"not_his": [tradable(seen, 1)[0]["ref"]], "twice": [mine, mine],
            "a_stronghold": [stronghold]}[case]
    response = post(ada, f"/api/tables/{table_id}/offers/",
                    {"to": 1, "give": {}, "take": {}, "give_cards": give})
    assert response.status_code == 400 and response.json()["code"] == code
    assert not TableOffer.objects.exists()


def test_a_card_trade_accepted_outside_city_maintenance_changes_nothing() -> None:
    ada, bob, table_id = card_table()
    seen = view(ada, table_id)
    mine = tradable(seen, 0)[0]["ref"]
    assert post(ada, f"/api/tables/{table_id}/offers/",
                {"to": 1, "give": {}, "take": {}, "give_cards": [mine]}).status_code == 201
    for _ in range(60):  # the people move on to the Action and Development Phase
        seen = view(ada, table_id)
        if seen["phase"] != "maintenance":
            break
        mover = ada if seen["to_move"] == [0] else bob
        moves = view(mover, table_id)["legal_actions"]
        choice = next((a for a in moves if a["policy"]), moves[0])
        assert post(mover, f"/api/tables/{table_id}/actions/",
                    {"index": choice["index"], "decision": seen["decision"]}).status_code == 200
    assert seen["phase"] != "maintenance"
    before = Table.objects.values("version", "moves").get()
    response = post(bob, f"/api/tables/{table_id}/offers/1/accept/")
    assert response.status_code == 409 and response.json()["code"] == "card_trade_refused"
    assert "City Maintenance" in response.json()["detail"]
    assert Table.objects.values("version", "moves").get() == before
    assert mine in refs(view(ada, table_id), 0)


def test_the_table_page_offers_cards_with_checkboxes_and_the_form_sends_them() -> None:
    ada, bob, table_id = card_table()
    page = ada.get(f"/tables/{table_id}/").content.decode()
    seen = view(ada, table_id)
    mine, theirs = tradable(seen, 0)[0], tradable(seen, 1)[0]
    assert "Offer a trade…" in page
    assert f'name="give_cards" value="{mine["ref"]}"' in page
    assert f'name="take_cards" value="{theirs["ref"]}"' in page
    response = ada.post(f"/tables/{table_id}/offers/", {
        "to": 1, "give_economic": 0, "give_religious": 0, "give_political": 0,
        "take_economic": 0, "take_religious": 0, "take_political": 0,
        "give_cards": [mine["ref"]], "take_cards": [theirs["ref"]]})
    assert response.status_code == 302
    offer = TableOffer.objects.get()
    assert len(offer.give_cards) == len(offer.take_cards) == 1  # (stored by instance)
    assert bob.get(f"/api/tables/{table_id}/view/").json()["offers"][0]["give_cards"][0]["ref"] \
        == mine["ref"]
    page = bob.get(f"/tables/{table_id}/").content.decode()
    assert escape(f"offers {seen['seats'][1]['name']} {mine['name']} for {theirs['name']} ") \
        in page


def test_a_token_only_table_shows_no_card_checkboxes() -> None:
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob])
    page = ada.get(f"/tables/{table['id']}/").content.decode()
    assert "Offer a token trade…" in page and 'name="give_cards"' not in page


def test_a_card_s_ref_is_stable_opaque_and_hides_the_decklist_order() -> None:
    """Instances follow the decklist's order; a ref must not (seat_view.card_ref)."""
    from tables.seat_view import card_ref

    refs_seen = [card_ref(7, i) for i in range(200)]
    assert len(set(refs_seen)) == 200 and refs_seen == [card_ref(7, i) for i in range(200)]
    assert all(len(ref) == 10 for ref in refs_seen)  # (5 bytes in hex)
    assert sorted(refs_seen) != refs_seen  # (their order says nothing of the instances')
    assert card_ref(8, 3) != card_ref(7, 3)  # another table's seed, other refs


def test_a_card_asked_of_the_wrong_seat_is_refused_by_its_name() -> None:
    """The trade form lists every other person's cards: one ticked under another seat than
    the one offered the trade is named in the refusal, not by its ref."""
    ada, _, table_id = card_table()
    mine = tradable(view(ada, table_id), 0)[0]
    response = post(ada, f"/api/tables/{table_id}/offers/",
                    {"to": 1, "give": {}, "take": {}, "take_cards": [mine["ref"]]})
    assert response.status_code == 400
    assert response.json()["detail"].startswith(f"{mine['name']} is not seat 2's to trade")
