"""The clock (docs/tables.md): a bank per seat and an increment per decision, running only
while the engine waits on that seat; at zero the AI plays that decision for him, never a
forfeit, as of the moment the bank ran out, whenever the table is next read. The time is
injected (tables.clock.now): no test sleeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client

from tables.models import Table
from tests.tables.calls import SAMPLES, mover, person, post, sample, started, view

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
CLOCK = {"bank": 10, "increment": 5}


class Time:
    """The clock every table reads, moved by hand."""

    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> datetime:
        return self.at

    def set(self, seconds: float) -> None:
        self.at = T0 + timedelta(seconds=seconds)


@pytest.fixture
def time(monkeypatch: pytest.MonkeyPatch) -> Time:
    given = Time()
    monkeypatch.setattr("tables.clock.now", given)
    return given


def against_ai(client: Client, **body: Any) -> dict[str, Any]:
    return started(client, [], ai=[{"seat": 1, "deck": sample(SAMPLES[1])}], **body)


def test_the_clock_runs_on_the_seat_the_engine_waits_on(time: Time) -> None:
    ada = person("ada")
    table = against_ai(ada, clock=CLOCK)
    seen = view(ada, table["id"])
    assert seen["to_move"] == [0]
    assert seen["clock"] == {"bank": 10, "increment": 5, "left": [10.0, 10.0], "running": 0,
                             "deadline": (T0 + timedelta(seconds=10)).isoformat()}
    time.set(4)
    assert view(ada, table["id"])["clock"]["left"] == [6.0, 10.0]


def test_a_decision_earns_the_increment_and_stops_the_seats_clock(time: Time) -> None:
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob], clock=CLOCK)
    clients = {0: ada, 1: bob}
    found = mover(clients, table["id"])
    assert found is not None
    client, seen = found
    time.set(4)
    moved = post(client, f"/api/tables/{table['id']}/actions/",
                 {"index": 0, "decision": seen["decision"]})
    assert moved.status_code == 200
    left = moved.json()["clock"]["left"]
    assert left[seen["you"]] == 10 - 4 + 5 and left[1 - seen["you"]] == 10.0


def test_at_zero_the_ai_plays_that_decision_for_him_never_a_forfeit(time: Time) -> None:
    ada = person("ada")
    table = against_ai(ada, clock=CLOCK)
    time.set(9.9)
    assert view(ada, table["id"])["decision"] == 0
    time.set(10)
    seen = view(ada, table["id"])
    stored = Table.objects.get()
    assert seen["decision"] >= 1 and seen["status"] == "playing"
    assert stored.moves[0][0] == 0 and stored.moves[0][2] == "clock"
    if seen["clock"]["running"] == 0:  # he decides again: the increment is all he has
        assert seen["clock"]["left"][0] == 5.0


def test_a_move_after_the_bank_ran_out_is_stale(time: Time) -> None:
    ada = person("ada")
    table = against_ai(ada, clock=CLOCK)
    time.set(11)
    late = post(ada, f"/api/tables/{table['id']}/actions/", {"index": 0, "decision": 0})
    assert late.status_code == 409 and late.json()["code"] == "stale_decision"
    assert Table.objects.get().moves[0][2] == "clock"


def test_the_clock_plays_the_same_moves_whenever_it_is_read(time: Time) -> None:
    ada, bob = person("ada"), person("bob")
    often = against_ai(ada, clock=CLOCK, seed=11)
    once = against_ai(bob, clock=CLOCK, seed=11)
    for seconds in (3, 10, 12, 16, 27, 31):
        time.set(seconds)
        view(ada, often["id"])
    time.set(31)
    view(bob, once["id"])
    first, second = Table.objects.get(pk=often["id"]), Table.objects.get(pk=once["id"])
    assert len(first.moves) >= 3
    assert (first.moves, first.banks, first.clock_since) == (second.moves, second.banks,
                                                             second.clock_since)


def test_a_table_without_a_clock_never_plays_for_a_person(time: Time) -> None:
    ada = person("ada")
    table = against_ai(ada)
    time.set(10**6)
    seen = view(ada, table["id"])
    assert seen["clock"] is None and seen["decision"] == 0 and seen["to_move"] == [0]


def test_an_agreed_undo_gives_back_the_time_of_the_decisions_it_takes_back(time: Time) -> None:
    ada, bob = person("ada"), person("bob")
    clients = {0: ada, 1: bob}
    table_id = started(ada, [bob], clock={"bank": 100, "increment": 5})["id"]
    seconds = 0
    for _ in range(40):
        found = mover(clients, table_id)
        assert found is not None, "the game ended before an undo could be asked"
        client, seen = found  # read as the decision begins: its banks are the marks
        index = next(a["index"] for a in seen["legal_actions"] if a["policy"])
        seconds += 7  # he thinks, then moves
        time.set(seconds)
        moved = post(client, f"/api/tables/{table_id}/actions/",
                     {"index": index, "decision": seen["decision"]})
        assert moved.status_code == 200
        asked = post(client, f"/api/tables/{table_id}/undo/")
        if asked.status_code == 200:
            break
        assert asked.json()["code"] == "undo_past_chance", asked.content
    else:
        raise AssertionError("no decision without a die roll or a draw after it")
    assert moved.json()["clock"]["left"] != seen["clock"]["left"]  # he was charged, earned
    seconds += 20  # the other thinks it over, his own clock running if it is his decision
    time.set(seconds)
    other = clients[1 - seen["you"]]
    assert post(other, f"/api/tables/{table_id}/undo/accept/").status_code == 200
    after = view(client, table_id)
    assert after["decision"] == seen["decision"]
    assert after["clock"]["left"] == seen["clock"]["left"]
    assert after["clock"]["running"] == seen["clock"]["running"] == seen["you"]
    assert after["clock"]["deadline"] == (
        T0 + timedelta(seconds=seconds + seen["clock"]["left"][seen["you"]])).isoformat()


def test_an_accepted_trade_keeps_the_banks_of_the_decision_after_it(time: Time) -> None:
    ada, bob = person("ada"), person("bob")
    table_id = started(ada, [bob], clock={"bank": 100, "increment": 5})["id"]
    waiting = view(ada, table_id)["clock"]["running"]
    assert post(ada, f"/api/tables/{table_id}/offers/",
                {"to": 1, "give": {"economic": 1}, "take": {"political": 1}}).status_code == 201
    time.set(3)
    assert post(bob, f"/api/tables/{table_id}/offers/1/accept/").status_code == 200
    table = Table.objects.get()
    # Decision 1 began with the trade: the running seat charged its 3 s, nothing else.
    expected = [100.0, 100.0]
    expected[waiting] = 97.0
    assert table.decision == 1 and table.decision_banks == [[100.0, 100.0], expected]
