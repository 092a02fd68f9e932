"""The matchup API: POST /api/matchups/ starts a run (or returns the stored one), GET polls it
until its report is the ``matchup`` command's, POST .../cancel/ stops it; problems otherwise."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from decks.deck_input import deck_from_text
from decks.models import Deck
from decks.services import deck_save
from simulations.chunks import LEASE, WATCHDOG_LATE, simulation_chunk_lease
from simulations.models import SimulationRun
from simulations.runs import simulation_run_nudge
from simulations.tasks import simulation_run_work
from tests.commands import run_command
from tests.conftest import FIXTURES, ILLEGAL_HOLDINGS, with_holdings

pytestmark = pytest.mark.django_db
FAITHFUL = FIXTURES / "decklists" / "kalim-faithful.txt"
BLADES = FIXTURES / "decklists" / "mosfin-blades.txt"
TEXTS = [FAITHFUL.read_text(encoding="utf-8"), BLADES.read_text(encoding="utf-8")]
BODY = {"decks": TEXTS, "games": 60, "seed": 3}


def post(client: Client, url: str, body: dict[str, Any] | None = None, **extra: Any) -> Any:
    return client.post(url, body or {}, content_type="application/json", **extra)


def played(response: Any) -> SimulationRun:
    run = SimulationRun.objects.get(pk=response.json()["id"])
    simulation_run_work(run_id=run.pk, worker="worker-1")
    run.refresh_from_db()
    return run


def test_a_run_is_polled_until_its_report_is_the_command_s(client: Client) -> None:
    # (Its document and Location on the way in: tests/simulations/test_api_family.py.)
    response = post(client, "/api/matchups/", BODY)
    document = response.json()
    assert document["progress"] == {"games_done": 0, "games": 60}
    played(response)
    done = client.get(document["url"]).json()
    assert (done["status"], done["progress"]) == ("done", {"games_done": 60, "games": 60})
    code, out, _ = run_command("matchup", str(FAITHFUL), str(BLADES), "--games", "60",
                               "--seed", "3", "--format", "json")
    assert code == 0
    assert json.dumps(done["report"]) == json.dumps(json.loads(out))  # same keys, same order
    assert [d["name"] for d in done["report"]["decks"]] == ["Kalim Faithful", "Mosfin Blades"]


def test_asking_again_returns_the_same_run_and_200_once_it_is_done(client: Client) -> None:
    first = post(client, "/api/matchups/", BODY)
    again = post(client, "/api/matchups/", BODY)
    assert (again.status_code, again.json()["id"]) == (202, first.json()["id"])
    played(first)
    cached = post(client, "/api/matchups/", BODY)
    assert (cached.status_code, cached.json()["id"]) == (200, first.json()["id"])
    assert cached.json()["report"]["games"] == 60
    # Other options, or the seats in another order, are another run.
    assert post(client, "/api/matchups/", {**BODY, "seed": 4}).json()["id"] != first.json()["id"]
    swapped = post(client, "/api/matchups/", {**BODY, "decks": TEXTS[::-1]})
    assert swapped.status_code == 202
    assert swapped.json()["id"] != first.json()["id"]
    third = post(client, "/api/matchups/", {**BODY, "seed": 5})
    assert (third.status_code, third.json()["code"]) == (429, "too_many_runs")
    assert third["Retry-After"] == "10"


def test_saved_decks_the_user_may_read_are_played_by_id(client: Client) -> None:
    faithful = Deck.objects.get(name="Kalim Faithful")
    blades = Deck.objects.get(name="Mosfin Blades")
    response = post(client, "/api/matchups/", {**BODY, "decks": [faithful.pk, blades.pk]})
    assert response.status_code == 202
    run = SimulationRun.objects.get(pk=response.json()["id"])
    assert (run.deck_id, run.deck_names) == (faithful.pk, ["Kalim Faithful", "Mosfin Blades"])
    # The saved samples and the fixtures' texts are the same decks: the same run.
    assert post(client, "/api/matchups/", BODY).json()["id"] == str(run.pk)


def test_someone_else_s_private_deck_is_not_found(client: Client, django_user_model: Any) -> None:
    owner = django_user_model.objects.create_user("owner")
    private = deck_save(owner=owner, data=deck_from_text(TEXTS[0]))
    response = post(client, "/api/matchups/", {**BODY, "decks": [private.pk, TEXTS[1]]})
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert response["Content-Type"] == "application/problem+json"
    client.force_login(owner)
    assert post(client, "/api/matchups/", {**BODY, "decks": [private.pk, TEXTS[1]]}
                ).status_code == 202


@pytest.mark.parametrize(("body", "status", "code"), [
    ({**BODY, "decks": [TEXTS[0], "1 No Such Card At All\n"]}, 400, "bad_decklist"),
    ({**BODY, "decks": [TEXTS[0],
                        with_holdings(ILLEGAL_HOLDINGS["too_many_strongholds"])]},
     400, "deck_not_playable"),
    ({**BODY, "games": 5000}, 400, "too_many_games"),
    ({**BODY, "decks": TEXTS[:1]}, 400, "invalid"),
    ({**BODY, "decks": [TEXTS[0]] * 7}, 400, "invalid"),
    ({**BODY, "policy": "psychic"}, 400, "invalid"),
    ({**BODY, "policy": "greedy,random,greedy"}, 400, "bad_request"),
    ({**BODY, "decks": [TEXTS[0], True]}, 400, "invalid"),
])
def test_bad_requests_are_problems(client: Client, body: dict[str, Any], status: int,
                                   code: str) -> None:
    response = post(client, "/api/matchups/", body)
    assert (response.status_code, response.json()["code"]) == (status, code), response.json()
    assert response["Content-Type"] == "application/problem+json"


def test_a_bad_decklist_names_the_deck_at_fault(client: Client) -> None:
    response = post(client, "/api/matchups/", {**BODY, "decks": [TEXTS[0], "1 Nonsense Card\n"]})
    assert response.json()["detail"].startswith("Deck 2: ")


def test_signed_in_users_may_run_more_games(ada: Client) -> None:
    assert post(ada, "/api/matchups/", {**BODY, "games": 5000}).status_code == 202


def test_the_starter_can_cancel_a_run_and_nobody_else(client: Client, bob: Client) -> None:
    url = post(client, "/api/matchups/", BODY).json()["url"]
    refused = post(bob, f"{url}cancel/")
    assert (refused.status_code, refused.json()["code"]) == (403, "permission_denied")
    cancelled = post(client, f"{url}cancel/")
    assert (cancelled.status_code, cancelled.json()["status"]) == (200, "cancelled")
    run = SimulationRun.objects.get(pk=cancelled.json()["id"])
    assert simulation_run_work(run_id=run.pk, worker="w") == "cancelled"  # never played
    # A cancelled run is asked for again: a new run.
    assert post(client, "/api/matchups/", BODY).json()["id"] != str(run.pk)


def test_a_run_whose_worker_died_is_picked_up_by_the_next_look_and_played_on(
        client: Client) -> None:
    run = SimulationRun.objects.get(pk=post(client, "/api/matchups/", BODY).json()["id"])
    assert run.watch_at is not None
    start = run.watch_at - LEASE
    # A worker leases the first chunk, then dies: its lease is held, nobody plays; its
    # watchdog was lost with it.
    assert simulation_chunk_lease(run_id=run.pk, worker="w1", now=lambda: start) is not None
    assert not simulation_run_nudge(run=run, now=lambda: start + LEASE / 2)
    late = run.watch_at + WATCHDOG_LATE + timedelta(seconds=1)
    assert simulation_run_nudge(run=run, now=lambda: late)
    assert simulation_run_work(run_id=run.pk, worker="w2", now=lambda: late) == "done"
    run.refresh_from_db()
    assert run.games_done == 60 and run.report is not None
    assert set(run.chunks.values_list("lease_owner", flat=True)) == {"w2"}


def test_the_openapi_schema_documents_the_matchup_api(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    assert {"/api/matchups/", "/api/matchups/{run_id}/", "/api/matchups/{run_id}/cancel/"} <= set(
        schema["paths"])
