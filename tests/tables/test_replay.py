"""The replay of a finished game (docs/tables.md): everyone at the table, and spectators when
the table takes them, steps through it decision by decision with every hand shown; never
before the game ends."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.models import Table
from tables.services import ROWS, TABLES
from tests.tables.calls import SAMPLES, person, post, sample, started

pytestmark = pytest.mark.django_db


def finished(ada: Client, **body: object) -> int:
    table_id = started(ada, [], ai=[{"seat": 1, "deck": sample(SAMPLES[1])}], **body)["id"]
    post(ada, f"/api/tables/{table_id}/actions/", {"index": 0, "decision": 0})
    assert post(ada, f"/api/tables/{table_id}/surrender/").json()["status"] == "over"
    return int(table_id)


def test_a_finished_game_replays_decision_by_decision_with_every_hand() -> None:
    ada = person("ada")
    table_id = finished(ada)
    decisions = Table.objects.get().decision
    end = Client().get(f"/api/tables/{table_id}/replay/").json()
    assert end["decision"] == end["decisions"] == decisions
    assert all("hand" in seat for seat in end["seats"])
    start = ada.get(f"/api/tables/{table_id}/replay/?decision=0").json()
    assert start["decision"] == 0 and start["round"] <= end["round"]
    assert [len(s["hand"]) for s in start["seats"]] == [s["hand_count"] for s in start["seats"]]
    page = ada.get(f"/tables/{table_id}/replay/?decision=0")
    assert page.status_code == 200 and start["seats"][1]["hand"][0]["name"] in page.content.decode()


@pytest.mark.parametrize(("case", "status", "code"), [
    ("under_way", 409, "not_over"),
    ("past_the_end", 400, "invalid"),
    ("not_a_number", 400, "invalid"),
    ("closed_to_spectators", 403, "no_spectators"),
])
def test_replay_refusals(case: str, status: int, code: str) -> None:
    ada = person("ada")
    if case == "under_way":
        table_id = started(ada, [], ai=[{"seat": 1, "deck": sample(SAMPLES[1])}])["id"]
    else:
        table_id = finished(ada, spectators=case != "closed_to_spectators")
    query = {"past_the_end": "?decision=999", "not_a_number": "?decision=x"}.get(case, "")
    client = Client() if case == "closed_to_spectators" else ada
    response = client.get(f"/api/tables/{table_id}/replay/{query}")
    assert response.status_code == status and response.json()["code"] == code
    assert "hand" not in response.content.decode()


def test_a_table_whose_moves_no_longer_replay_is_told_not_a_server_error() -> None:
    # A table stored by another version of the rules engine: a stored move the engine now
    # refuses (here made so by hand). Its page, its body, its replay and its API views say so
    # (409 not_replayable), never a 500.
    ada = person("ada")
    table_id = finished(ada)
    table = Table.objects.get()
    seat, _move, *rest = table.moves[0]
    table.moves[0] = [seat, {"kind": "engage", "card": 9999, "target": -1, "option": ""},
                      *rest]
    table.config = {**table.config, "rules_version": "allegiance-v0.80/engine-1"}
    table.save(update_fields=["moves", "config"])
    TABLES.clear()
    ROWS.clear()
    for url in (f"/tables/{table_id}/", f"/tables/{table_id}/replay/"):
        page = ada.get(url)
        assert page.status_code == 409, url
        assert "played with the rules engine allegiance-v0.80/engine-1" in page.content.decode()
    body = ada.get(f"/tables/{table_id}/view/")
    assert body.status_code == 409 and "can no longer be replayed" in body.content.decode()
    for url in (f"/api/tables/{table_id}/view/", f"/api/tables/{table_id}/replay/"):
        answer = ada.get(url)
        assert answer.status_code == 409 and answer.json()["code"] == "not_replayable", url
