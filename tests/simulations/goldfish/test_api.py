"""The goldfish API: POST /api/goldfish/ starts a run (or returns the stored one), GET polls it
until its report is the command's, POST .../cancel/ stops it; problems for everything else."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from decks.models import Deck
from decks.services import deck_save
from simulations.models import SimulationRun
from simulations.runs import RunOptions
from tests.commands import run_command
from tests.conftest import ILLEGAL_HOLDINGS, with_holdings
from tests.simulations.goldfish.helpers import TEXT, sample_deck, work

pytestmark = pytest.mark.django_db
BODY = {"text": TEXT, "games": 30, "seed": 4}


@pytest.fixture(autouse=True)
def small_chunks(settings: Any) -> None:
    settings.GOLDFISH_CHUNK_GAMES = 10


def post(client: Client, url: str, body: dict[str, Any] | None = None, **extra: Any) -> Any:
    return client.post(url, body or {}, content_type="application/json", **extra)


def played(response: Any) -> SimulationRun:
    return work(SimulationRun.objects.get(pk=response.json()["id"]))


def test_a_run_is_polled_until_its_report_is_the_command_s(client: Client) -> None:
    # (Its document and Location on the way in: tests/simulations/test_api_family.py.)
    response = post(client, "/api/goldfish/", BODY)
    document = response.json()
    assert document["progress"] == {"chunks_done": 0, "chunks_total": 3}
    played(response)
    polled = client.get(document["url"])
    assert polled.status_code == 200
    done = polled.json()
    assert (done["status"], done["progress"]) == ("done", {"chunks_done": 3, "chunks_total": 3})
    code, out, _ = run_command("goldfish", "-", "--games", "30", "--seed", "4", "--format",
                               "json", stdin=TEXT)
    assert code == 0
    assert json.dumps(done["report"]) == json.dumps(json.loads(out))  # same keys, same order


def test_asking_again_returns_the_same_run_and_200_once_it_is_done(client: Client) -> None:
    first = post(client, "/api/goldfish/", BODY)
    again = post(client, "/api/goldfish/", BODY)
    assert (again.status_code, again.json()["id"]) == (202, first.json()["id"])
    played(first)
    done = post(client, "/api/goldfish/", {**BODY, "text": "\n\n" + TEXT})
    assert (done.status_code, done.json()["status"]) == (200, "done")
    assert done.json()["report"]["games"] == 30


@pytest.mark.parametrize(
    ("body", "expected"),
    [({}, {"games": 1000, "seed": 1, "policy": "greedy", "target": 25, "players": 1}),
     ({"games": 20, "seed": 8, "policy": "random", "target": 15, "players": 3},
      {"games": 20, "seed": 8, "policy": "random", "target": 15, "players": 3})],
    ids=["defaults", "every-option"],
)
def test_options_reach_the_run(client: Client, body: dict[str, Any],
                               expected: dict[str, Any]) -> None:
    response = post(client, "/api/goldfish/", {"text": TEXT, **body})
    run = SimulationRun.objects.get(pk=response.json()["id"])
    assert {k: getattr(run, k) for k in expected} == expected


def test_a_saved_deck_anyone_may_read_can_be_run_by_its_id(client: Client) -> None:
    sample = Deck.objects.get(name="Kalim Faithful")
    response = post(client, "/api/goldfish/", {"deck": sample.pk, "games": 30, "seed": 4})
    assert response.status_code == 202
    run = SimulationRun.objects.get(pk=response.json()["id"])
    assert (run.deck_id, run.deck_version, run.owner) == (sample.pk, sample.version, None)
    # The saved sample and the fixture's text are the same deck: the same run.
    assert post(client, "/api/goldfish/", BODY).json()["id"] == str(run.pk)


def test_someone_else_s_private_deck_is_not_found(client: Client, django_user_model: Any) -> None:
    owner = django_user_model.objects.create_user("owner")
    private = deck_save(owner=owner, data=sample_deck())
    response = post(client, "/api/goldfish/", {"deck": private.pk, "games": 10})
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert response["Content-Type"] == "application/problem+json"


def test_a_json_decklist_object_can_be_run(client: Client) -> None:
    deck = sample_deck()
    parts = {section: [{"id": e.card_id, "count": e.count} for e in deck.section(section)]
             for section in ("holdings", "structures", "personalities", "wanderers")}
    response = post(client, "/api/goldfish/", {"deck": {"name": deck.name, **parts},
                                               "games": 30, "seed": 4})
    assert response.status_code == 202
    assert post(client, "/api/goldfish/", BODY).json()["id"] == response.json()["id"]


@pytest.mark.parametrize(
    ("body", "status", "code", "detail"),
    [
        ({"games": 10}, 400, "invalid", "exactly one of `text` or `deck`"),
        ({"text": TEXT, "deck": 1}, 400, "invalid", "exactly one of `text` or `deck`"),
        ({"deck": "twelve"}, 400, "invalid", ""),
        ({"text": TEXT, "games": 0}, 400, "invalid", ""),
        ({"text": TEXT, "policy": "clever"}, 400, "invalid", ""),
        ({"text": TEXT, "target": 30}, 400, "invalid", ""),
        ({"text": "2 No Such Card\n"}, 400, "bad_decklist", "need fixing"),
        ({"text": "# Real\nInitial Holdings\n1 Acormis Winters\n"}, 400, "deck_not_playable",
         "not known yet"),
        ({"text": TEXT, "games": 2001}, 400, "too_many_games", "Sign in"),
        ({"text": TEXT, "policy": "lookahead:0"}, 400, "invalid", "budget"),
        ({"text": TEXT, "policy": "lookahead:8", "games": 1001}, 400, "too_many_games",
         "lookahead run may have at most 1,000 games"),
        ({"text": TEXT, "policy": "reference:0"}, 400, "invalid", "reference budget"),
        ({"text": TEXT, "policy": "reference", "games": 1001}, 400, "too_many_games",
         "reference run may have at most 1,000 games"),
    ],
    ids=["no-deck", "both", "bad-deck", "no-games", "policy", "target", "unknown-card",
         "unplayable", "anonymous-limit", "lookahead-budget", "lookahead-limit",
         "reference-budget", "reference-limit"],
)
def test_bad_requests_are_problems(client: Client, body: dict[str, Any], status: int,
                                   code: str, detail: str) -> None:
    response = post(client, "/api/goldfish/", body)
    assert response.status_code == status
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == code and detail in json.dumps(problem)
    assert not SimulationRun.objects.exists()


def test_signed_in_users_may_run_more_games(ada: Client) -> None:
    response = post(ada, "/api/goldfish/", {"text": TEXT, "games": 5000})
    assert response.status_code == 202
    assert SimulationRun.objects.get().owner is not None


def test_a_third_run_at_once_is_refused_with_429(client: Client) -> None:
    for seed in (1, 2):
        assert post(client, "/api/goldfish/", {**BODY, "seed": seed}).status_code == 202
    refused = post(client, "/api/goldfish/", {**BODY, "seed": 3})
    assert (refused.status_code, refused.json()["code"]) == (429, "too_many_runs")
    assert refused["Retry-After"] == "10"
    other_address = post(client, "/api/goldfish/", {**BODY, "seed": 3},
                         REMOTE_ADDR="192.0.2.7")
    assert other_address.status_code == 202


def test_the_starter_can_cancel_a_run_and_nobody_else(client: Client, bob: Client) -> None:
    run_id = post(client, "/api/goldfish/", BODY).json()["id"]
    refused = post(bob, f"/api/goldfish/{run_id}/cancel/")
    assert (refused.status_code, refused.json()["code"]) == (403, "permission_denied")
    cancelled = post(client, f"/api/goldfish/{run_id}/cancel/")
    assert cancelled.status_code == 200
    assert (cancelled.json()["status"], cancelled.json()["report"]) == ("cancelled", None)
    assert post(client, f"/api/goldfish/{run_id}/cancel/").status_code == 200  # idempotent
    assert post(client, "/api/goldfish/", BODY).status_code == 202  # asked anew


def test_the_openapi_schema_documents_the_goldfish_api(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert set(paths["/api/goldfish/"]["post"]["responses"]) >= {"200", "202", "400", "429"}
    assert "get" in paths["/api/goldfish/{run_id}/"]
    assert "post" in paths["/api/goldfish/{run_id}/cancel/"]
    run = schema["components"]["schemas"]["GoldfishRun"]
    assert list(run["properties"]) == ["id", "url", "status", "progress", "report"]
    request = schema["components"]["schemas"]["GoldfishRequest"]["properties"]
    assert set(request) == {"text", "deck", "games", "seed", "policy", "target", "players"}


def test_runs_are_played_with_the_options_of_the_goldfish_command() -> None:
    # The API's defaults are the command's: a run without options is `goldfish FILE --seed 1`.
    assert RunOptions() == RunOptions(games=1000, seed=1, policy="greedy", target=25, players=1)


@pytest.mark.parametrize("code", sorted(ILLEGAL_HOLDINGS))
def test_a_deck_whose_initial_holdings_break_the_rules_is_refused_with_the_validators_problems(
        client: Client, code: str) -> None:
    text = with_holdings(ILLEGAL_HOLDINGS[code])
    response = post(client, "/api/goldfish/", {"text": text, "games": 10, "seed": 1})
    assert response.status_code == 400
    problem = response.json()
    assert problem["code"] == "deck_not_playable"
    validated = post(client, "/api/decks/validate/", {"text": text, "players": 2}).json()
    expected = [p for p in validated["problems"] if p["code"] == code]
    assert [(p["code"], p["message"]) for p in problem["errors"]] == [
        (p["code"], p["message"]) for p in expected]
    assert expected[0]["message"] in problem["detail"]
    assert not SimulationRun.objects.exists()


@pytest.mark.parametrize("policy", ["lookahead:4", "reference:4"])
def test_a_rollout_run_with_its_budget_is_accepted(client: Client, policy: str) -> None:
    response = post(client, "/api/goldfish/", {**BODY, "games": 10, "policy": policy})
    assert response.status_code == 202
    assert SimulationRun.objects.get().policy == policy


def test_a_deck_that_leaves_its_holdings_to_the_advisor_is_played(client: Client) -> None:
    response = post(client, "/api/goldfish/", {"text": with_holdings(""), "games": 10, "seed": 1})
    assert response.status_code == 202
