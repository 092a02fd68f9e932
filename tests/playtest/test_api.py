"""/api/playtest/: start, state and legal actions, moves, undo, policy play, log, privacy."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from decks.models import Deck
from playtest.models import PlaytestGame
from tests.conftest import ILLEGAL_HOLDINGS, with_holdings
from tests.playtest.api_calls import PROBLEM, TEXT, post, start

pytestmark = pytest.mark.django_db


def test_starting_a_game_answers_with_the_table_and_the_legal_actions(client: Client) -> None:
    game = start(client)
    assert game["decision"] == 0 and game["round"] == 1 and game["step"] == "draw"
    assert [a["text"] for a in game["legal_actions"]] == [
        "Draw from the Structure Pile", "Draw from the Personality Pile"]
    assert [a["index"] for a in game["legal_actions"]] == [0, 1]
    assert sum(a["policy"] for a in game["legal_actions"]) == 1
    assert {"private", "defensive", "wanderers", "hand", "piles"} <= set(game["table"])
    assert game["state"]["decisions"] == 0 and game["url"].endswith(f"/api/playtest/{game['id']}/")
    assert game["page"].endswith(f"/playtest/{game['id']}/")


def test_a_saved_deck_starts_a_game_by_id(ada: Client) -> None:
    deck = Deck.objects.get(name="Kalim Faithful")
    response = post(ada, "/api/playtest/", {"deck": deck.pk, "target": 15})
    assert response.status_code == 201
    assert response.json()["config"]["target"] == 15
    assert PlaytestGame.objects.get().source_deck == deck


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [({"text": TEXT, "deck": 1}, 400, "invalid"),
     ({}, 400, "invalid"),
     ({"text": "3 Nothing Like This"}, 400, "bad_decklist"),
     ({"text": "Initial Holdings\n1 Bowman (kalim)"}, 400, "deck_not_playable"),
     ({"deck": 999999}, 404, "not_found"),
     ({"text": TEXT, "target": 30}, 400, "invalid")],
    ids=["both", "neither", "unreadable", "not-playable", "no-such-deck", "bad-target"],
)
def test_bad_starts_are_problems(client: Client, body: dict[str, Any], status: int,
                                 code: str) -> None:
    response = post(client, "/api/playtest/", body)
    assert response.status_code == status and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == code


def test_a_move_by_index_then_by_value(client: Client) -> None:
    game = start(client)
    url = f"/api/playtest/{game['id']}/actions/"
    first = post(client, url, {"index": 1, "decision": 0})
    assert first.status_code == 200
    body = first.json()
    assert body["applied"] == ["Draw from the Personality Pile"]
    assert body["lines"][1].startswith("Drew ") and body["game"]["decision"] == 1
    action = {k: body["game"]["legal_actions"][0][k] for k in ("kind", "card", "target", "option")}
    second = post(client, url, {"action": action, "decision": 1})
    assert second.status_code == 200 and second.json()["game"]["decision"] == 2


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [({"index": 0, "decision": 0}, 409, "stale_decision"),
     ({"index": 9, "decision": 1}, 400, "illegal_action"),
     ({"action": {"kind": "pass"}, "decision": 1}, 400, "illegal_action"),
     ({"index": 0}, 400, "invalid"),
     ({"index": 0, "action": {"kind": "pass"}, "decision": 1}, 400, "invalid")],
    ids=["stale", "no-such-index", "illegal", "no-decision", "index-and-action"],
)
def test_stale_and_illegal_moves_are_refused_and_change_nothing(
        client: Client, body: dict[str, Any], status: int, code: str) -> None:
    game = start(client)
    url = f"/api/playtest/{game['id']}/"
    assert post(client, url + "actions/", {"index": 0, "decision": 0}).status_code == 200
    before = client.get(url).json()
    response = post(client, url + "actions/", body)
    assert response.status_code == status and response["Content-Type"] == PROBLEM
    problem = response.json()
    assert problem["code"] == code
    if code == "stale_decision":
        assert problem["current_decision"] == 1 and "decision 0" in problem["detail"]
    assert client.get(url).json()["state"] == before["state"]


def test_undo_policy_play_and_the_log(client: Client) -> None:
    game = start(client)
    url = f"/api/playtest/{game['id']}/"
    auto = post(client, url + "auto/", {"until": "phase", "decision": 0})
    assert auto.status_code == 200
    body = auto.json()
    assert len(body["applied"]) == 7 and body["game"]["phase"] == "action"
    log = client.get(url + "log/").json()
    assert [line["decision"] for line in log["lines"] if line["kind"] == "action"] == list(
        range(1, 8))
    assert len(log["actions"]) == 7
    undone = post(client, url + "undo/", {"decision": 3})
    assert undone.status_code == 200 and undone.json()["decision"] == 3
    assert len(client.get(url + "log/").json()["actions"]) == 3
    assert post(client, url + "undo/", {"decision": 4}).json()["code"] == "bad_decision"
    end = post(client, url + "auto/", {"until": "game"}).json()["game"]
    assert end["over"] and end["outcome"] and end["legal_actions"] == []
    over = post(client, url + "actions/", {"index": 0, "decision": end["decision"]})
    assert over.status_code == 409 and over.json()["code"] == "game_over"


def test_hints_with_a_fixed_number_of_samples_are_repeatable(client: Client) -> None:
    game = start(client)
    url = f"/api/playtest/{game['id']}/hints/?samples=2"
    first, second = client.get(url).json(), client.get(url).json()
    assert first["samples"] == 2 and len(first["actions"]) == 2
    assert first["actions"] == second["actions"]
    assert client.get(f"/api/playtest/{game['id']}/hints/?samples=500").status_code == 400


def test_games_are_private_to_their_owner(ada: Client, bob: Client) -> None:
    game = start(ada)
    url = f"/api/playtest/{game['id']}/"
    assert ada.get(url).status_code == 200
    for other in (bob, Client()):
        for method, path, body in [("get", "", None), ("get", "log/", None),
                                   ("post", "actions/", {"index": 0, "decision": 0}),
                                   ("post", "undo/", {"decision": 0}),
                                   ("post", "auto/", {"until": "action"})]:
            if method == "get":
                response = other.get(url + path)
            else:
                response = post(other, url + path, body or {})
            assert response.status_code == 404, (path, response.content)
            assert response["Content-Type"] == PROBLEM
    assert PlaytestGame.objects.get().decisions == 0


def test_anonymous_games_belong_to_their_session(client: Client) -> None:
    game = start(client)
    assert client.get(f"/api/playtest/{game['id']}/").status_code == 200
    assert Client().get(f"/api/playtest/{game['id']}/").status_code == 404


def test_the_schema_documents_every_playtest_route(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert set(paths["/api/playtest/"]) >= {"post"}
    assert set(paths["/api/playtest/{id}/"]) >= {"get"}
    for route, method in [("actions", "post"), ("undo", "post"), ("auto", "post"),
                          ("log", "get"), ("hints", "get")]:
        assert method in paths[f"/api/playtest/{{id}}/{route}/"], route
    responses = paths["/api/playtest/{id}/actions/"]["post"]["responses"]
    assert {"200", "400", "404", "409"} <= set(responses)


@pytest.mark.parametrize("code", sorted(ILLEGAL_HOLDINGS))
def test_a_deck_whose_initial_holdings_break_the_rules_is_refused_with_the_validators_problems(
        client: Client, code: str) -> None:
    text = with_holdings(ILLEGAL_HOLDINGS[code])
    response = post(client, "/api/playtest/", {"text": text, "seed": 1})
    assert response.status_code == 400 and response["Content-Type"] == PROBLEM
    problem = response.json()
    validated = post(client, "/api/decks/validate/", {"text": text, "players": 2}).json()
    expected = [(p["code"], p["message"]) for p in validated["problems"] if p["code"] == code]
    assert problem["code"] == "deck_not_playable"
    assert [(p["code"], p["message"]) for p in problem["errors"]] == expected
    assert not PlaytestGame.objects.exists()


def test_a_deck_that_leaves_its_holdings_to_the_advisor_is_played(client: Client) -> None:
    response = post(client, "/api/playtest/", {"text": with_holdings(""), "seed": 1})
    assert response.status_code == 201
