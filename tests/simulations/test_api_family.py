"""What the two paths of the simulations' API do alike (simulations.api): a run is accepted
with its document and its Location, a finished run cannot be cancelled, an unknown run is a
404 problem, and each path answers for its own kinds of run only."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from simulations.models import SimulationRun
from simulations.tasks import simulation_run_work
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
TEXTS = [(FIXTURES / "decklists" / name).read_text(encoding="utf-8")
         for name in ("kalim-faithful.txt", "mosfin-blades.txt")]
BODIES = {"goldfish": {"text": TEXTS[0], "games": 30, "seed": 4},
          "matchups": {"decks": TEXTS, "games": 6, "seed": 3}}
PATHS = list(BODIES)


def post(client: Client, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, body or {}, content_type="application/json")


@pytest.mark.parametrize("path", PATHS)
def test_a_run_is_accepted_with_its_document_and_location(client: Client, path: str) -> None:
    response = post(client, f"/api/{path}/", BODIES[path])
    assert response.status_code == 202
    document = response.json()
    assert list(document) == ["id", "url", "status", "progress", "report"]
    assert document["url"] == f"http://testserver/api/{path}/{document['id']}/"
    assert response["Location"] == document["url"]
    assert (document["status"], document["report"]) == ("queued", None)


@pytest.mark.parametrize("path", PATHS)
def test_a_finished_run_cannot_be_cancelled(client: Client, path: str) -> None:
    response = post(client, f"/api/{path}/", BODIES[path])
    simulation_run_work(run_id=response.json()["id"], worker="w")
    refused = post(client, f"/api/{path}/{response.json()['id']}/cancel/")
    assert (refused.status_code, refused.json()["code"]) == (409, "already_finished")


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("run_id", ["00000000-0000-0000-0000-000000000000", "not-a-run",
                                    "6f1c2d9e-0000-4000-8000-000000000000"])
def test_an_unknown_run_is_a_404_problem(client: Client, path: str, run_id: str) -> None:
    for response in (client.get(f"/api/{path}/{run_id}/"),
                     post(client, f"/api/{path}/{run_id}/cancel/")):
        assert (response.status_code, response.json()["code"]) == (404, "not_found")


@pytest.mark.parametrize(("path", "other"), [("goldfish", "matchups"), ("matchups", "goldfish")])
def test_each_path_answers_for_its_own_kinds_of_run_only(client: Client, path: str,
                                                         other: str) -> None:
    run_id = post(client, f"/api/{path}/", BODIES[path]).json()["id"]
    for response in (client.get(f"/api/{other}/{run_id}/"),
                     post(client, f"/api/{other}/{run_id}/cancel/")):
        assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert SimulationRun.objects.get(pk=run_id).status == "queued"
    for page in (f"/{other}/{run_id}/", f"/{path}/{run_id}/"):
        assert client.get(page).status_code == (200 if page.startswith(f"/{path}/") else 404)
