"""Token trades at a table (docs/design.md §15, offers): offered, accepted (the tokens change
hands at once, a move of the table that replays) or declined; every refusal changes
nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tables.models import Table, TableOffer
from tables.services import TABLES
from tests.tables.calls import SAMPLES, person, post, sample, started, view

pytestmark = pytest.mark.django_db


def two_people() -> tuple[Client, Client, int]:
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob])
    return ada, bob, table["id"]


def pools(client: Client, table_id: int) -> list[dict[str, int]]:
    return [s["personal"] for s in view(client, table_id)["seats"]]


def offer(client: Client, table_id: int, **body: Any) -> Any:
    return post(client, f"/api/tables/{table_id}/offers/",
                {"to": 1, "give": {"economic": 1}, "take": {"political": 1}, **body})


def test_an_accepted_trade_moves_the_tokens_and_replays() -> None:
    ada, bob, table_id = two_people()
    before = pools(ada, table_id)
    made = offer(ada, table_id)
    assert made.status_code == 201
    assert made.json()["offers"] == [{"n": 1, "from": 0, "to": 1, "status": "open",
                                      "give": {"economic": 1, "religious": 0, "political": 0},
                                      "take": {"economic": 0, "religious": 0, "political": 1},
                                      "give_cards": [], "take_cards": []}]
    decision = Table.objects.get().decision
    accepted = post(bob, f"/api/tables/{table_id}/offers/1/accept/")
    assert accepted.status_code == 200 and accepted.json()["offers"][0]["status"] == "accepted"
    after = accepted.json()["seats"]
    assert after[0]["personal"]["economic"] == before[0]["economic"] - 1
    assert after[0]["personal"]["political"] == before[0]["political"] + 1
    assert after[1]["personal"]["economic"] == before[1]["economic"] + 1
    assert after[1]["personal"]["political"] == before[1]["political"] - 1
    assert accepted.json()["decision"] == decision + 1
    TABLES.clear()  # replayed from the moves, the trade included
    assert [s["personal"] for s in view(ada, table_id)["seats"]] == [s["personal"]
                                                                       for s in after]


def test_a_declined_trade_changes_no_pool() -> None:
    ada, bob, table_id = two_people()
    before = pools(ada, table_id)
    offer(ada, table_id)
    declined = post(bob, f"/api/tables/{table_id}/offers/1/decline/")
    assert declined.status_code == 200 and declined.json()["offers"][0]["status"] == "declined"
    assert pools(ada, table_id) == before and Table.objects.get().decision == 0


@pytest.mark.parametrize(("case", "status", "code"), [
    ("to_himself", 400, "invalid"),
    ("nothing", 400, "invalid"),
    ("stranger_offers", 403, "not_seated"),
    ("offerer_accepts", 403, "not_your_offer"),
    ("twice", 409, "offer_closed"),
    ("too_many_tokens", 409, "not_enough_tokens"),
    ("no_such_offer", 404, "not_found"),
])
def test_trade_refusals_change_nothing(case: str, status: int, code: str) -> None:
    ada, bob, table_id = two_people()
    if case in ("to_himself", "nothing", "stranger_offers"):
        client = {"to_himself": ada, "nothing": ada, "stranger_offers": person("cy")}[case]
        body: dict[str, Any] = {"to": 0} if case == "to_himself" else \
            {"give": {}, "take": {}} if case == "nothing" else {}
        version = Table.objects.get().version
        response = offer(client, table_id, **body)
        assert Table.objects.get().version == version and not TableOffer.objects.exists()
    else:
        give = {"economic": 99} if case == "too_many_tokens" else {"economic": 1}
        assert offer(ada, table_id, give=give).status_code == 201
        if case == "twice":
            assert post(bob, f"/api/tables/{table_id}/offers/1/decline/").status_code == 200
        before = Table.objects.values("version", "moves").get()
        who = ada if case == "offerer_accepts" else bob
        number = 2 if case == "no_such_offer" else 1
        response = post(who, f"/api/tables/{table_id}/offers/{number}/accept/")
        assert Table.objects.values("version", "moves").get() == before
    assert response.status_code == status and response.json()["code"] == code


def test_a_trade_with_an_ai_seat_is_refused() -> None:
    ada = person("ada")
    table = started(ada, [], ai=[{"seat": 1, "deck": sample(SAMPLES[1])}])
    response = offer(ada, table["id"])
    assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_a_card_trade_at_a_table_that_did_not_agree_to_them_is_refused() -> None:
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob], card_trades=False)
    assert table["card_trades"] is False and view(bob, table["id"])["card_trades"] is False
    assert "ref" not in view(ada, table["id"])["seats"][0]["in_play"][0]
    mine = "0a1b2c3d4e"  # (refs are shown only where card trades were agreed)
    response = offer(ada, table["id"], give_cards=[mine])
    assert response.status_code == 409 and response.json()["code"] == "card_trades_off"
    assert not TableOffer.objects.exists()


def test_the_card_trade_option_is_shown_in_the_lobby_and_on_the_table() -> None:
    ada = person("ada")
    made = post(ada, "/api/tables/",
                {"deck": sample(SAMPLES[0]), "seats": 2, "public": True, "card_trades": True})
    assert made.status_code == 201
    for url in ("/tables/", f"/tables/{made.json()['id']}/"):
        assert "Card trades allowed" in Client().get(url).content.decode()
    plain = post(ada, "/api/tables/", {"deck": sample(SAMPLES[0]), "seats": 2})
    assert "cards not" in ada.get(f"/tables/{plain.json()['id']}/").content.decode()


def test_a_rematch_keeps_the_card_trade_agreement() -> None:
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob], card_trades=True, clock={"bank": 60, "increment": 5})
    post(bob, f"/api/tables/{table['id']}/surrender/")
    assert ada.post(f"/tables/{table['id']}/rematch/").status_code == 302
    again = Table.objects.get(pk=table["id"]).rematch
    assert again is not None and again.card_trades
    assert again.clock == {"bank": 60, "increment": 5}
