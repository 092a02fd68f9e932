"""A person who leaves (his last page at the table closed) keeps his seat for the grace
period (TABLE_GRACE_SECONDS); then any other person at the table may hand it to the AI, and
he takes it back when he returns. The time is injected (tables.clock.now)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables.models import Table, TableSeat
from tables.services import table_presence
from tests.tables.calls import SAMPLES, mover, person, post, sample, started, view

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """The time every table reads: ``at[0]``, moved by the test."""
    now = [T0]
    monkeypatch.setattr("tables.clock.now", lambda: now[0])
    return now


def socket(table_id: int, name: str, connected: bool) -> None:
    table_presence(table_id=table_id, user=User.objects.get(username=name),
                   channel=f"socket-{name}", connected=connected)


def three_seats() -> tuple[Client, Client, dict[str, Any]]:
    """ada and bob, and an AI seat, playing; bob's page opened and closed at T0."""
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob], seats=3, ai=[{"seat": 2, "deck": sample(SAMPLES[2])}])
    socket(table["id"], "bob", True)
    socket(table["id"], "bob", False)
    return ada, bob, table


def hand_over(client: Client, table_id: int, seat: int = 1) -> Any:
    return post(client, f"/api/tables/{table_id}/seats/{seat}/hand-to-ai/")


def test_a_seat_is_kept_through_the_grace_period_then_handed_to_the_ai(
        at: list[datetime]) -> None:
    ada, _, table = three_seats()
    seats = {s["seat"]: s for s in ada.get(f"/api/tables/{table['id']}/").json()["seats"]}
    assert seats[1]["grace_ends"] == (T0 + timedelta(seconds=120)).isoformat()
    assert seats[1]["stand_in"] is False and "stand_in" not in seats[2]
    at[0] = T0 + timedelta(seconds=119)
    early = hand_over(ada, table["id"])
    assert early.status_code == 409 and early.json()["code"] == "grace_period"
    assert early.json()["grace_ends"] == seats[1]["grace_ends"]
    at[0] = T0 + timedelta(seconds=120)
    handed = hand_over(ada, table["id"])
    assert handed.status_code == 200
    assert TableSeat.objects.get(seat=1).stand_in
    # From now on no decision waits on bob: the AI plays his, recorded as his moves.
    for _turn in range(6):
        found = mover({0: ada}, table["id"])
        if found is None:
            break
        client, seen = found
        post(client, f"/api/tables/{table['id']}/actions/",
             {"index": 0, "decision": seen["decision"]})
        assert 1 not in view(ada, table["id"])["to_move"]
    stand_in = [move for move in Table.objects.get().moves if move[0] == 1]
    assert all(move[2] == "ai" for move in stand_in)


def test_he_takes_his_seat_back_when_he_returns(at: list[datetime]) -> None:
    ada, bob, table = three_seats()
    at[0] = T0 + timedelta(seconds=121)
    assert hand_over(ada, table["id"]).status_code == 200
    back = post(bob, f"/api/tables/{table['id']}/take-back/")
    assert back.status_code == 200
    row = TableSeat.objects.get(seat=1)
    assert not row.stand_in and row.left_at is None


@pytest.mark.parametrize(("case", "status", "code"), [
    ("stranger", 403, "not_seated"),
    ("own_seat", 400, "invalid"),
    ("ai_seat", 400, "invalid"),
    ("present", 409, "still_here"),
    ("never_left", 409, "still_here"),
    ("twice", 409, "already_ai"),
    ("take_back_not_handed", 409, "not_handed"),
])
def test_hand_over_refusals_change_nothing(at: list[datetime], case: str, status: int,
                                           code: str) -> None:
    ada, bob, table = three_seats()
    at[0] = T0 + timedelta(seconds=500)
    url = f"/api/tables/{table['id']}/seats/1/hand-to-ai/"
    client = ada
    if case == "stranger":
        client = person("cy")
    elif case == "own_seat":
        client = bob
    elif case == "ai_seat":
        url = url.replace("/seats/1/", "/seats/2/")
    elif case == "present":
        socket(table["id"], "bob", True)
    elif case == "never_left":
        TableSeat.objects.filter(seat=1).update(left_at=None)
    elif case == "twice":
        assert post(ada, url).status_code == 200
    elif case == "take_back_not_handed":
        client, url = bob, f"/api/tables/{table['id']}/take-back/"
    before = Table.objects.values("version", "moves").get()
    response = post(client, url)
    assert response.status_code == status and response.json()["code"] == code
    assert Table.objects.values("version", "moves").get() == before


def test_a_rematch_seats_a_handed_over_person_as_himself_again(at: list[datetime]) -> None:
    ada, _, table = three_seats()
    at[0] = T0 + timedelta(seconds=121)
    assert hand_over(ada, table["id"]).status_code == 200
    Table.objects.filter(pk=table["id"]).update(status=Table.OVER)
    ada.post(f"/tables/{table['id']}/rematch/")
    again = Table.objects.get(pk=table["id"]).rematch
    assert again is not None
    # Nobody's seat is the AI's; each person's first sign is being seated (the AI seat has none).
    seated = T0 + timedelta(seconds=121)
    assert list(again.seat_rows.values_list("stand_in", "left_at")) == [
        (False, seated), (False, seated), (False, None)]
