"""POST /api/draws/ and POST /api/odds/: the commands' JSON for anyone, problems for bad input."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
TEXT = (FIXTURES / "decklists" / "guild-veterans.txt").read_text(encoding="utf-8")
ADAPTIVE = "structures until 2 structures with residencies, then personalities"


def post(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, body, content_type="application/json")


def command(name: str, *args: str) -> dict[str, Any]:
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(TEXT)
    try:
        call_command(name, "-", *args, "--format", "json", stdout=out, stderr=io.StringIO())
    finally:
        sys.stdin = old
    document: dict[str, Any] = json.loads(out.getvalue())
    return document


def test_anyone_can_deal_a_hand_with_the_odds_table_of_its_strategy(client: Client) -> None:
    response = post(client, "/api/draws/", {"text": TEXT, "seed": 42, "strategy": ADAPTIVE})
    assert response.status_code == 200
    deal = response.json()
    assert len(deal["hand"]) == 7 and deal["holdings_source"] == "deck"
    assert deal["table"]["strategy"] == ADAPTIVE
    rows = deal["table"]["cards"]
    assert {row["pile"] for row in rows} == {"structures", "personalities"}
    assert all(set(row["at_least_1"]) == {"probability", "exact"} for row in rows)


@pytest.mark.parametrize(
    ("body", "args"),
    [({"structures": 2}, ("--structures", "2")),
     ({"strategy": ADAPTIVE}, ("--strategy", ADAPTIVE)),
     ({"picks": ["s", "p", "personalities"]}, ("--picks", "s,p,p")),
     ({}, ())],
    ids=["split", "adaptive", "picks", "default"],
)
def test_the_api_deals_the_same_hand_as_the_command(
    client: Client, body: dict[str, Any], args: tuple[str, ...]
) -> None:
    api = post(client, "/api/draws/", {"text": TEXT, "seed": 77, **body}).json()
    assert api == command("draw", "--seed", "77", *args, "--table")


def test_a_deck_object_is_dealt_too(client: Client) -> None:
    deck = {"name": "Tiny", "holdings": [{"id": "demo-fort-ashgate", "count": 1}],
            "structures": [{"id": "demo-toll-shack", "count": 2}],
            "personalities": [{"id": "demo-sellsword", "count": 2}]}
    deal = post(client, "/api/draws/", {"deck": deck, "seed": 1}).json()
    assert len(deal["hand"]) == 4 and deal["complete"] is False
    assert deal["piles"] == {"structures": 0, "personalities": 0, "wanderers": 0}


@pytest.mark.parametrize(
    ("body", "args"),
    [({"structures": 3, "query": "t:troop", "at_least": 2},
      ("--structures", "3", "--query", "t:troop", "--at-least", "2")),
     ({"strategy": ADAPTIVE, "query": "f:guild"}, ("--strategy", ADAPTIVE, "--query", "f:guild")),
     ({"goal": ">= 1 citizen and >= 1 open residence", "advise": True},
      ("--goal", ">= 1 citizen and >= 1 open residence", "--advise"))],
    ids=["query", "adaptive-query", "goal-with-advice"],
)
def test_the_odds_endpoint_answers_what_the_command_prints(
    client: Client, body: dict[str, Any], args: tuple[str, ...]
) -> None:
    response = post(client, "/api/odds/", {"text": TEXT, **body})
    assert response.status_code == 200
    document = response.json()
    assert isinstance(document["probability"], float) and "/" in document["exact"]
    assert document == command("odds", *args)


@pytest.mark.parametrize(
    ("url", "body", "code", "field", "position"),
    [
        ("/api/draws/", {"text": TEXT}, "invalid", None, None),
        ("/api/draws/", {"seed": 1}, "invalid", None, None),
        ("/api/draws/", {"text": TEXT, "seed": -1}, "invalid", None, None),
        ("/api/draws/", {"text": TEXT, "seed": 1, "structures": 8}, "invalid", None, None),
        ("/api/draws/", {"text": TEXT, "seed": 1, "structures": 2, "strategy": "alternate"},
         "invalid", None, None),
        ("/api/draws/", {"text": TEXT, "seed": 1, "picks": ["x"]}, "invalid", None, None),
        ("/api/draws/", {"text": "2 Nonexistent Card", "seed": 1}, "bad_decklist", None,
         None),
        ("/api/draws/", {"text": TEXT, "seed": 1, "strategy": "structures untl 2"},
         "bad_strategy", "strategy", 11),
        ("/api/odds/", {"text": TEXT, "query": "zz:1"}, "unknown_key", "query", 0),
        ("/api/odds/", {"text": TEXT, "goal": ">= 1 dragon"}, "bad_goal", "goal", 5),
        ("/api/odds/", {"text": TEXT, "goal": '1 matching "t:nope"'}, "bad_goal", "goal", 14),
        ("/api/odds/", {"text": TEXT, "strategy": "alternate until", "query": "t:troop"},
         "bad_strategy", "strategy", 15),
        ("/api/odds/", {"text": TEXT}, "invalid", None, None),
        ("/api/odds/", {"text": TEXT, "query": "t:troop", "goal": "1 troop"}, "invalid", None,
         None),
    ],
    ids=["no-seed", "no-deck", "negative-seed", "split-too-big", "split-and-strategy",
         "bad-pick", "unknown-card", "bad-strategy", "bad-query", "bad-goal",
         "bad-query-in-goal", "bad-strategy-for-odds", "nothing-to-ask", "query-and-goal"],
)
def test_bad_requests_are_problem_documents_with_the_position(
    client: Client, url: str, body: dict[str, Any], code: str, field: str | None,
    position: int | None
) -> None:
    response = post(client, url, body)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == 400 and problem["code"] == code and problem["detail"]
    if field is not None:
        assert problem["field"] == field and problem["position"] == position
        assert problem["length"] >= 1 and "expected" in problem


def test_the_openapi_schema_documents_both_endpoints(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    for route in ("/api/draws/", "/api/odds/"):
        operation = schema["paths"][route]["post"]
        assert "400" in operation["responses"] and operation["requestBody"]
    components = schema["components"]["schemas"]
    assert {"seed", "picks", "strategy", "structures"} <= set(
        components["DrawRequest"]["properties"])
    assert {"query", "at_least", "goal", "advise"} <= set(
        components["OddsRequest"]["properties"])


def test_a_question_too_complex_to_count_exactly_is_a_problem_not_a_timeout(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("rules.odds.MAX_STATES", 5)
    response = post(client, "/api/odds/", {"text": TEXT, "strategy": "alternate",
                                           "goal": "1 troop or 1 citizen or 1 item"})
    assert response.status_code == 400 and response.json()["code"] == "too_complex"
    monkeypatch.setattr("rules.odds.MAX_STATES", 1)
    response = post(client, "/api/draws/", {"text": TEXT, "seed": 1, "strategy": ADAPTIVE})
    assert response.status_code == 400 and response.json()["code"] == "too_complex"
