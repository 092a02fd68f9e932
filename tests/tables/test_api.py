"""/api/tables/ as docs/design.md §15 writes it: the table document, joining, starting, moves and
every refusal (each changing nothing), surrender, chat."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tables.models import Table
from tests.tables.calls import (
    PROBLEM,
    SAMPLES,
    create,
    join,
    mover,
    person,
    post,
    sample,
    six_player_text,
    started,
    view,
)

pytestmark = pytest.mark.django_db


def test_a_new_table_seats_its_host_and_its_ai_and_leaves_the_rest_open() -> None:
    ada = person("ada")
    table = create(ada, seats=4, ai=[{"seat": 2, "deck": sample(SAMPLES[2])}])
    assert table["status"] == "open" and table["host"] == "ada" and table["you"] == 0
    assert [(s["seat"], s["kind"]) for s in table["seats"]] == [
        (0, "person"), (1, "open"), (2, "ai"), (3, "open")]
    assert table["seats"][2]["deck_name"] == "Kalim Crusaders"
    assert table["invite"].endswith(f"/tables/invite/{Table.objects.get().invite}/")
    assert set(table) >= {"id", "url", "page", "version"}


def test_the_invite_is_only_for_seated_people() -> None:
    table = create(person("ada"))
    other = person("bob").get(f"/api/tables/{table['id']}/").json()
    assert "invite" not in other and other["you"] is None


def test_join_takes_the_first_open_seat_with_the_link_or_its_token() -> None:
    ada = person("ada")
    table = create(ada, seats=3)
    joined = join(person("bob"), table)
    assert joined.status_code == 200 and joined.json()["you"] == 1
    token = table["invite"].rstrip("/").rsplit("/", 1)[-1]
    cy = join(person("cy"), {**table, "invite": token})
    assert cy.status_code == 200 and cy.json()["you"] == 2
    assert cy.json()["version"] == table["version"] + 2


@pytest.mark.parametrize(("case", "status", "code"), [
    ("bad_invite", 403, "bad_invite"),
    ("already_seated", 409, "already_seated"),
    ("table_full", 409, "table_full"),
    ("seat_taken", 409, "table_full"),
    ("deck_not_playable", 400, "deck_not_playable"),
    ("started", 409, "table_full"),
])
def test_join_refusals_change_nothing(case: str, status: int, code: str) -> None:
    ada, bob = person("ada"), person("bob")
    if case == "deck_not_playable":  # a sample deck has too few wanderers for six
        table = create(ada, seats=6, deck=None, text=six_player_text())
    else:
        table = create(ada, seats=3, ai=[{"seat": 2, "deck": sample(SAMPLES[2])}])
    body: dict[str, Any] = {}
    if case == "bad_invite":
        table = {**table, "invite": "nope"}
    elif case == "already_seated":
        bob = ada
    elif case == "table_full":
        assert join(person("cy"), table).status_code == 200
    elif case == "seat_taken":
        body = {"seat": 2}
    elif case == "started":
        assert join(person("cy"), table).status_code == 200
        assert post(ada, f"/api/tables/{table['id']}/start/").status_code == 200
    before = Table.objects.get()
    response = join(bob, table, **body)
    assert response.status_code == status and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == code
    if code == "deck_not_playable":
        assert "wanderer_pile_too_small" in {p["code"] for p in response.json()["errors"]}
    after = Table.objects.get()
    assert (after.version, after.status) == (before.version, before.status)


@pytest.mark.parametrize(("case", "status", "code"), [
    ("not_host", 403, "not_host"),
    ("seats_open", 409, "seats_open"),
    ("twice", 409, "already_started"),
])
def test_start_refusals(case: str, status: int, code: str) -> None:
    ada, bob = person("ada"), person("bob")
    table = create(ada, seats=3 if case == "seats_open" else 2)
    assert join(bob, table).status_code == 200
    if case == "twice":
        assert post(ada, f"/api/tables/{table['id']}/start/").status_code == 200
    response = post(bob if case == "not_host" else ada, f"/api/tables/{table['id']}/start/")
    assert response.status_code == status and response.json()["code"] == code


def test_start_plays_the_ai_seats_up_to_a_persons_decision() -> None:
    ada = person("ada")
    table = started(ada, [], seats=3, ai=[{"seat": 1, "deck": sample(SAMPLES[1])},
                                          {"seat": 2, "deck": sample(SAMPLES[2])}])
    assert table["status"] == "playing"
    seen = view(ada, table["id"])
    assert seen["to_move"] == [0] and seen["legal_actions"] and seen["decision"] == 0
    assert [a["index"] for a in seen["legal_actions"]] == list(range(len(seen["legal_actions"])))
    assert sum(a["policy"] for a in seen["legal_actions"]) == 1


def _two_people() -> tuple[dict[int, Client], dict[str, Any]]:
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob])
    return {0: ada, 1: bob}, table


def _refusal(case: str) -> tuple[Client, dict[str, Any], int]:
    """The client, the move and the table id of one refused move."""
    clients, table = _two_people()
    found = mover(clients, table["id"])
    assert found is not None
    client, seen = found
    other = clients[1 - seen["you"]]
    if case == "stale_decision":
        return client, {"index": 0, "decision": seen["decision"] + 1}, table["id"]
    if case == "not_your_decision":
        return other, {"index": 0, "decision": seen["decision"]}, table["id"]
    if case == "not_seated":
        return person("cy"), {"index": 0, "decision": seen["decision"]}, table["id"]
    if case == "illegal_action":
        return client, {"index": len(seen["legal_actions"]), "decision": seen["decision"]}, \
            table["id"]
    assert case == "game_over"
    assert post(client, f"/api/tables/{table['id']}/surrender/").status_code == 200
    return other, {"index": 0, "decision": seen["decision"] + 1}, table["id"]


@pytest.mark.parametrize(("case", "status", "code"), [
    ("stale_decision", 409, "stale_decision"),
    ("not_your_decision", 403, "not_your_decision"),
    ("not_seated", 403, "not_your_decision"),
    ("illegal_action", 400, "illegal_action"),
    ("game_over", 409, "game_over"),
])
def test_move_refusals_change_nothing(case: str, status: int, code: str) -> None:
    client, move, table_id = _refusal(case)
    before = Table.objects.get()
    response = post(client, f"/api/tables/{table_id}/actions/", move)
    assert response.status_code == status and response["Content-Type"] == PROBLEM
    assert response.json()["code"] == code
    if case == "stale_decision":  # (a decision ahead of the table's: not "moved on")
        assert response.json()["current_decision"] == before.decision
        assert "that decision has not come" in response.json()["detail"]
    after = Table.objects.get()
    assert (after.version, after.moves, after.status) == (before.version, before.moves,
                                                          before.status)


def test_a_move_before_the_start_is_refused() -> None:
    ada = person("ada")
    table = create(ada)
    response = post(ada, f"/api/tables/{table['id']}/actions/", {"index": 0, "decision": 0})
    assert response.status_code == 409 and response.json()["code"] == "not_started"


@pytest.mark.parametrize("number", [999999, 2**70], ids=["free", "past-the-id-range"])
@pytest.mark.parametrize("path", ["actions/", "chat/", "offers/", "offers/1/accept/",
                                  "join/", "start/", "surrender/", "undo/", "take-back/"])
def test_a_write_to_a_table_that_does_not_exist_is_not_found(path: str, number: int) -> None:
    # (The write reads the table only under its lock: no read before says it is missing. A
    # number past the id column's range, which the database would refuse to bind, is missing
    # too, not a 500.)
    ada = person("ada")
    body: dict[str, Any] = {"actions/": {"index": 0, "decision": 0}, "chat/": {"text": "hi"},
                            "offers/": {"to": 1, "give": {"economic": 1}, "take": {}},
                            "join/": {"invite": "x", "deck": sample(SAMPLES[0])}}
    answer = post(ada, f"/api/tables/{number}/{path}", body.get(path, {}))
    assert answer.status_code == 404 and answer["Content-Type"] == PROBLEM
    assert answer.json()["code"] == "not_found"
    assert ada.post(f"/tables/{number}/chat/", {"text": "hi"}).status_code == 404


def test_a_move_applies_bumps_the_version_and_answers_the_new_view() -> None:
    clients, table = _two_people()
    found = mover(clients, table["id"])
    assert found is not None
    client, seen = found
    response = post(client, f"/api/tables/{table['id']}/actions/",
                    {"index": 0, "decision": seen["decision"]})
    assert response.status_code == 200
    after = response.json()
    assert after["decision"] == seen["decision"] + 1 and after["version"] > seen["version"]
    assert Table.objects.get().moves[0][0] == seen["you"]


def test_surrender_ends_a_two_person_table_for_the_other() -> None:
    clients, table = _two_people()
    response = post(clients[1], f"/api/tables/{table['id']}/surrender/")
    assert response.status_code == 200
    assert response.json()["status"] == "over" and response.json()["winner"] == 0
    again = post(clients[1], f"/api/tables/{table['id']}/surrender/")
    assert again.status_code == 409 and again.json()["code"] == "game_over"


@pytest.mark.parametrize(("who", "status", "code"), [
    ("anonymous", 403, None), ("stranger", 403, "not_seated")])
def test_surrender_and_chat_need_a_seat(who: str, status: int, code: str | None) -> None:
    _, table = _two_people()
    client = Client() if who == "anonymous" else person("cy")
    for url, body in (("surrender/", {}), ("chat/", {"text": "hi"})):
        response = post(client, f"/api/tables/{table['id']}/{url}", body)
        assert response.status_code == status
        if code and url == "chat/":
            assert response.json()["code"] == code


def test_chat_is_kept_with_the_table_and_refused_when_flooding() -> None:
    clients, table = _two_people()
    url = f"/api/tables/{table['id']}/chat/"
    for number in range(5):
        response = post(clients[0], url, {"text": f"line {number}"})
        assert response.status_code == 201
    flood = post(clients[0], url, {"text": "one more"})
    assert flood.status_code == 429 and flood.json()["code"] == "too_many_messages"
    assert post(clients[1], url, {"text": "deal?"}).status_code == 201
    assert [m["text"] for m in view(clients[1], table["id"])["chat"]][-2:] == ["line 4", "deal?"]


def test_spectators_see_the_view_without_hand_or_moves_unless_refused() -> None:
    ada = person("ada")
    table = started(ada, [], ai=[{"seat": 1, "deck": sample(SAMPLES[1])}])
    seen = Client().get(f"/api/tables/{table['id']}/view/").json()
    assert seen["you"] is None and "hand" not in seen and "legal_actions" not in seen
    closed = started(ada, [], spectators=False, ai=[{"seat": 1, "deck": sample(SAMPLES[1])}])
    refused = Client().get(f"/api/tables/{closed['id']}/view/")
    assert refused.status_code == 403 and refused.json()["code"] == "no_spectators"


def test_the_lobby_lists_public_open_tables() -> None:
    ada = person("ada")
    shown = create(ada, public=True)
    create(ada)
    assert [t["id"] for t in Client().get("/api/tables/").json()] == [shown["id"]]


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"seats": 7}, 400, None),
    ({"seats": 3, "ai": [{"seat": 3, "deck": 1}]}, 400, "invalid"),
    ({"seats": 3, "ai": [{"seat": 1, "deck": 1}, {"seat": 1, "deck": 1}]}, 400, "invalid"),
    ({"deck": 999999}, 404, "not_found"),
    ({"deck": None, "text": "nonsense 12"}, 400, None),
])
def test_create_refusals(body: dict[str, Any], status: int, code: str | None) -> None:
    ada = person("ada")
    payload = {"deck": sample(SAMPLES[0]), "seats": 2, **body}
    payload = {k: v for k, v in payload.items() if v is not None}
    response = post(ada, "/api/tables/", payload)
    assert response.status_code == status, response.content
    if code:
        assert response.json()["code"] == code
    assert not Table.objects.exists()


def test_anonymous_clients_cannot_create_tables() -> None:
    response = post(Client(), "/api/tables/", {"deck": sample(SAMPLES[0]), "seats": 2})
    assert response.status_code == 403


