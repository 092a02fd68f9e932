"""/api/playtest/ against AI opponents: `opponents` as ids, texts or JSON decklists, the seats
and sides in the document, moves answered by the opponents, undo, the end, problems."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from decks.deck_input import deck_from_text
from decks.formats.json_format import deck_to_dict
from decks.models import Deck
from playtest.models import PlaytestGame
from tests.conftest import FIXTURES
from tests.playtest.api_calls import PROBLEM, TEXT, post, start

pytestmark = pytest.mark.django_db

BLADES = (FIXTURES / "decklists" / "mosfin-blades.txt").read_text(encoding="utf-8")


def json_decklist(name: str) -> dict[str, Any]:
    data: dict[str, Any] = deck_to_dict(deck_from_text(
        (FIXTURES / "decklists" / name).read_text(encoding="utf-8")))
    return data


def test_opponents_as_an_id_a_text_and_a_json_decklist_seat_a_table(client: Client) -> None:
    merchants = Deck.objects.get(name="Guild Merchants")
    game = start(client, target=15, opponents=[
        {"id": merchants.pk}, {"text": BLADES}, {"deck": json_decklist("kalim-crusaders.txt")}])
    assert game["config"]["players"] == 4 and game["seat"] == 0
    assert [o["name"] for o in game["opponents"]] == [
        "Guild Merchants", "Mosfin Blades", "Kalim Crusaders"]
    assert [o["seat"] for o in game["opponents"]] == [1, 2, 3]
    assert game["opponents"][0]["source_deck"] == merchants.pk
    side = game["opponents"][0]["side"]
    assert {"influence", "personal", "hand", "stronghold", "private", "defensive",
            "wanderers", "out"} <= set(side)
    assert game["to_move"] == 0 and game["winner"] == -1 and game["decision"] == 0
    assert game["legal_actions"] and not game["over"]


def test_a_move_at_a_table_tells_the_opponents_replies_and_undo_takes_it_back(
        client: Client) -> None:
    game = start(client, target=15, opponents=[{"text": BLADES}])
    url = f"/api/playtest/{game['id']}/"
    answer = post(client, url + "auto/", {"until": "phase", "decision": 0}).json()
    assert any(line.startswith("Seat 2 (Mosfin Blades): ") for line in answer["lines"])
    decision = answer["game"]["decision"]
    assert decision == len(answer["applied"]) > 1
    moved = post(client, url + "actions/", {"index": 0, "decision": decision})
    assert moved.status_code == 200 and moved.json()["game"]["decision"] == decision + 1
    stale = post(client, url + "actions/", {"index": 0, "decision": decision})
    assert stale.status_code == 409 and stale.json()["current_decision"] == decision + 1
    log = client.get(url + "log/").json()
    assert {line["seat"] for line in log["lines"]} == {None, 0, 1}
    assert [line["decision"] for line in log["lines"] if line["decision"]] == list(
        range(1, decision + 2))
    back = post(client, url + "undo/", {"decision": decision}).json()
    assert back["decision"] == decision and len(PlaytestGame.objects.get().actions) == decision


def test_a_table_played_to_the_end_refuses_moves_and_hints(client: Client) -> None:
    game = start(client, target=15, opponents=[{"text": BLADES}, {"text": BLADES}])
    url = f"/api/playtest/{game['id']}/"
    end = post(client, url + "auto/", {"until": "game"}).json()["game"]
    assert end["over"] and end["outcome"] in ("victory", "defeat", "stronghold", "overrun",
                                              "timeout")
    assert end["legal_actions"] == [] and end["to_move"] == -1
    refused = post(client, url + "actions/", {"index": 0, "decision": end["decision"]})
    assert refused.status_code == 409 and refused.json()["code"] == "game_over"
    hints = client.get(url + "hints/?samples=1")
    assert hints.status_code == 409 and hints.json()["code"] == "not_available"


@pytest.mark.parametrize(
    ("opponents", "status", "code"),
    [([{"text": BLADES}] * 6, 400, "invalid"),
     ([{}], 400, "invalid"),
     ([{"text": BLADES, "id": 1}], 400, "invalid"),
     ([{"id": 999999}], 404, "not_found"),
     ([{"text": "3 Nothing Like This"}], 400, "bad_decklist"),
     ([{"text": "Initial Holdings\n1 Bowman (kalim)"}], 400, "deck_not_playable")],
    ids=["six", "empty", "two-ways", "no-such-deck", "unreadable", "not-playable"],
)
def test_bad_opponents_are_problems(client: Client, opponents: list[dict[str, Any]],
                                    status: int, code: str) -> None:
    response = post(client, "/api/playtest/", {"text": TEXT, "opponents": opponents})
    assert response.status_code == status, response.content
    assert response["Content-Type"] == PROBLEM and response.json()["code"] == code
    assert not PlaytestGame.objects.exists()


def test_a_solo_game_says_nothing_of_seats(client: Client) -> None:
    game = start(client, opponents=[])
    assert "opponents" not in game and "seat" not in game
    log = client.get(f"/api/playtest/{game['id']}/log/").json()
    assert log["lines"] == [] or all("seat" not in line for line in log["lines"])


def test_the_game_at_a_table_names_the_table_s_phase_not_the_seat_s_wait(
        client: Client) -> None:
    # A seat whose own part of a phase is over waits in a step of its own ("wait"); the
    # document's phase is the table's, as the page names it.
    game = start(client, opponents=[{"text": BLADES}])
    url = f"/api/playtest/{game['id']}/"
    seen = set()
    decision = 0
    for _ in range(40):
        answer = post(client, url + "auto/", {"until": "action", "decision": decision}).json()
        body = answer["game"]
        decision = body["decision"]
        assert body["phase"] in ("maintenance", "action", "military", "wanderer", "discard")
        assert body["table"]["phase"] == body["phase"]
        assert body["table"]["phase_title"].lower().startswith(
            {"maintenance": "city", "action": "action", "military": "military",
             "wanderer": "wanderer", "discard": "discard"}[body["phase"]])
        seen.add(body["phase"])
        if body["over"]:
            break
    assert "military" in seen
