"""POST /api/matchups/ with a `mode`: a gauntlet or a matrix runs in the background as a
matchup does, its report the command's --gauntlet / --matrix document; the default mode stays
the §14 matchup."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from simulations.models import SimulationRun
from simulations.tasks import simulation_run_work
from tests.commands import run_command
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
FILES = [FIXTURES / "decklists" / f"{name}.txt"
         for name in ("kalim-faithful", "mosfin-blades", "guild-veterans")]
TEXTS = [path.read_text(encoding="utf-8") for path in FILES]


def post(client: Client, body: dict[str, Any]) -> Any:
    return client.post("/api/matchups/", body, content_type="application/json")


@pytest.mark.parametrize(("mode", "pairings"), [("gauntlet", 2), ("matrix", 3)])
def test_a_field_run_is_polled_until_its_report_is_the_command_s(
        client: Client, mode: str, pairings: int) -> None:
    response = post(client, {"decks": TEXTS, "mode": mode, "games": 3, "seed": 2})
    assert response.status_code == 202
    document = response.json()
    assert document["progress"] == {"games_done": 0, "games": 3 * pairings}
    run = SimulationRun.objects.get(pk=document["id"])
    assert (run.mode, run.games) == (mode, 3)
    assert simulation_run_work(run_id=run.pk, worker="w") == "done"
    done = client.get(document["url"]).json()
    assert done["progress"] == {"games_done": 3 * pairings, "games": 3 * pairings}
    code, out, _ = run_command("matchup", *map(str, FILES), f"--{mode}", "--games", "3",
                               "--seed", "2", "--format", "json")
    assert code == 0
    assert json.dumps(done["report"]) == json.dumps(json.loads(out))


def test_the_same_decks_in_another_mode_are_another_run(client: Client) -> None:
    body = {"decks": TEXTS[:2], "games": 2, "seed": 1}
    matchup = post(client, body).json()["id"]
    gauntlet = post(client, {**body, "mode": "gauntlet"}).json()["id"]
    assert matchup != gauntlet
    assert post(client, {**body, "mode": "matchup"}).json()["id"] == matchup


@pytest.mark.parametrize(("body", "code", "detail"), [
    ({"decks": TEXTS * 3, "mode": "matrix"}, "invalid", ""),
    ({"decks": TEXTS * 2 + TEXTS[:1], "mode": "matchup"}, "invalid", ""),
    ({"decks": TEXTS, "mode": "league"}, "invalid", ""),
    # Anonymous: 1,000 games in all, so at most 333 a pairing for a matrix of three.
    ({"decks": TEXTS, "mode": "matrix", "games": 400}, "too_many_games", "at most 333 games"),
])
def test_bad_field_requests_are_problems(client: Client, body: dict[str, Any], code: str,
                                         detail: str) -> None:
    response = post(client, body)
    assert (response.status_code, response.json()["code"]) == (400, code), response.json()
    assert detail in response.json().get("detail", "")


def test_a_gauntlet_of_up_to_eight_decks_is_accepted(ada: Client) -> None:
    response = post(ada, {"decks": (TEXTS * 3)[:8], "mode": "gauntlet", "games": 2})
    assert response.status_code == 202
    assert response.json()["progress"]["games"] == 14
