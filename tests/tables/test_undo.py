"""Undo by consent (docs/tables.md): a person asks to take back his last decision, every
other person must agree, never past a die roll, a hidden draw or a trade, one request at a
time; declining or any new move drops it. The game replays without the undone moves."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tables.models import Table
from tests.tables.calls import SAMPLES, mover, person, post, sample, started, view

pytestmark = pytest.mark.django_db


def undoable(clients: dict[int, Client], table_id: int) -> tuple[Client, dict[str, Any], Any]:
    """Play the policy's moves until the mover's undo request is taken: (the mover, his view
    before his move, the answer to his request)."""
    for _ in range(40):
        found = mover(clients, table_id)
        assert found is not None, "the game ended before an undo could be asked"
        client, seen = found
        index = next(a["index"] for a in seen["legal_actions"] if a["policy"])
        moved = post(client, f"/api/tables/{table_id}/actions/",
                     {"index": index, "decision": seen["decision"]})
        assert moved.status_code == 200
        asked = post(client, f"/api/tables/{table_id}/undo/")
        if asked.status_code == 200:
            return client, seen, asked
        assert asked.json()["code"] == "undo_past_chance", asked.content
    raise AssertionError("no decision without a die roll or a draw after it")


def board(seen: dict[str, Any]) -> Any:
    return seen["hand"], seen["seats"], seen["to_move"], seen["decision"]


def two_people() -> tuple[dict[int, Client], int]:
    ada, bob = person("ada"), person("bob")
    return {0: ada, 1: bob}, started(ada, [bob])["id"]


def test_an_undo_every_other_person_agrees_to_replays_without_the_move() -> None:
    clients, table_id = two_people()
    client, before, asked = undoable(clients, table_id)
    you = before["you"]
    assert asked.json()["undo"] == {"seat": you, "to_decision": before["decision"],
                                    "consents": [], "waiting": [1 - you]}
    agreed = post(clients[1 - you], f"/api/tables/{table_id}/undo/accept/")
    assert agreed.status_code == 200 and agreed.json()["undo"] is None
    after = view(client, table_id)
    assert board(after) == board(before)
    assert Table.objects.get().undos == 1


def test_alone_with_ai_seats_an_undo_applies_at_once() -> None:
    ada = person("ada")
    table_id = started(ada, [], ai=[{"seat": 1, "deck": sample(SAMPLES[1])}])["id"]
    _, before, asked = undoable({0: ada}, table_id)
    assert asked.json()["undo"] is None and board(asked.json()) == board(before)


def test_a_declined_undo_is_dropped_and_a_new_move_drops_one() -> None:
    clients, table_id = two_people()
    client, before, _ = undoable(clients, table_id)
    other = clients[1 - before["you"]]
    moves = Table.objects.get().moves
    declined = post(other, f"/api/tables/{table_id}/undo/decline/")
    assert declined.status_code == 200 and declined.json()["undo"] is None
    assert Table.objects.get().moves == moves
    assert post(client, f"/api/tables/{table_id}/undo/").status_code == 200
    found = mover(clients, table_id)
    assert found is not None
    moved = post(found[0], f"/api/tables/{table_id}/actions/",
                 {"index": 0, "decision": found[1]["decision"]})
    assert moved.json()["undo"] is None and Table.objects.get().undo is None


def test_an_undo_is_never_past_a_die_roll_or_a_hidden_draw() -> None:
    ada = person("ada")
    table_id = started(ada, [], ai=[{"seat": 1, "deck": sample(SAMPLES[1])}])["id"]
    for _ in range(60):
        found = mover({0: ada}, table_id)
        assert found is not None
        seen = found[1]
        post(ada, f"/api/tables/{table_id}/actions/", {"index": 0, "decision": seen["decision"]})
        before = Table.objects.values("version", "moves", "undo").get()
        asked = post(ada, f"/api/tables/{table_id}/undo/")
        if asked.status_code == 409:
            assert asked.json()["code"] == "undo_past_chance"
            assert Table.objects.values("version", "moves", "undo").get() == before
            return
    raise AssertionError("no die roll or draw in 60 decisions")


def test_an_undo_is_never_past_a_trade() -> None:
    clients, table_id = two_people()
    asker, seen, _ = undoable(clients, table_id)
    declined = post(clients[1 - seen["you"]], f"/api/tables/{table_id}/undo/decline/")
    assert declined.status_code == 200
    # A gift of a token one of them holds (both may have spent theirs by now).
    giver, kind = next((s["seat"], k) for s in view(clients[0], table_id)["seats"]
                       for k, n in s["personal"].items() if n)
    offered = post(clients[giver], f"/api/tables/{table_id}/offers/",
                   {"to": 1 - giver, "give": {kind: 1}, "take": {}})
    assert offered.status_code == 201
    assert post(clients[1 - giver], f"/api/tables/{table_id}/offers/1/accept/")\
        .status_code == 200
    refused = post(asker, f"/api/tables/{table_id}/undo/")
    assert refused.status_code == 409 and refused.json()["code"] == "undo_past_trade"


@pytest.mark.parametrize(("case", "status", "code"), [
    ("stranger_asks", 403, "not_seated"),
    ("nothing_yet", 409, "nothing_to_undo"),
    ("pending", 409, "undo_pending"),
    ("none_to_answer", 409, "no_undo"),
    ("asker_answers", 403, "not_asked"),
    ("stranger_answers", 403, "not_asked"),
])
def test_undo_refusals_change_nothing(case: str, status: int, code: str) -> None:
    clients, table_id = two_people()
    url = f"/api/tables/{table_id}/undo/"
    if case in ("stranger_asks", "nothing_yet", "none_to_answer"):
        found = mover(clients, table_id)
        assert found is not None
        client = person("cy") if case == "stranger_asks" else found[0]
        if case == "none_to_answer":
            url += "accept/"
    else:
        asker, seen, _ = undoable(clients, table_id)
        client = {"pending": clients[1 - seen["you"]], "asker_answers": asker,
                  "stranger_answers": person("cy")}[case]
        url += "" if case == "pending" else "accept/"
    before = Table.objects.values("version", "moves", "undo").get()
    response = post(client, url)
    assert response.status_code == status and response.json()["code"] == code
    assert Table.objects.values("version", "moves", "undo").get() == before
