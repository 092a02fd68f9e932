"""A background worker waits out a database that went away (a restarted PostgreSQL): the
retry of one step (simulations.db_retry.retry_outage) and the worker's loop (manage.py db_worker,
the simulations app's). No test database: the outages are made up, time is a list of waits."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import get_commands
from django.db import InterfaceError, OperationalError, connections
from django_tasks_db.management.commands.db_worker import Worker

from simulations import db_retry
from simulations.management.commands import db_worker

# The retry reads and closes the connection, whose backend differs by database; a django_db
# transaction would make every step look inside one.
pytestmark = pytest.mark.database_connection

GONE = OperationalError("server closed the connection unexpectedly")
CLOSED = InterfaceError("connection already closed")


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


@pytest.mark.parametrize("failures, patience, outcome, waits", [
    ([], 60, "done", []),
    ([GONE], 60, "done", [0.5]),
    ([GONE, CLOSED, GONE], 60, "done", [0.5, 1.0, 2.0]),
    ([GONE] * 6, 60, "done", [0.5, 1.0, 2.0, 4.0, 5.0, 5.0]),  # at most 5 s apart
    ([GONE] * 20, 10, "gone", [0.5, 1.0, 2.0, 4.0]),  # 7.5 s waited; 5 more would pass 10
    ([ValueError("a bug")], 60, "bug", []),  # not an outage: raised at once
], ids=["at-once", "once", "three-times", "capped", "gives-up", "not-an-outage"])
def test_a_step_is_tried_again_while_the_database_is_away(
        failures: list[Exception], patience: float, outcome: str, waits: list[float]) -> None:
    pending = list(failures)
    clock = FakeClock()

    def step() -> str:
        if pending:
            raise pending.pop(0)
        return "done"

    try:
        result = db_retry.retry_outage(step, patience=patience, sleep=clock.sleep, clock=clock)
    except OperationalError:
        result = "gone"
    except ValueError:
        result = "bug"
    assert (result, clock.waits) == (outcome, waits)


def test_inside_a_transaction_an_outage_is_raised_at_once(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    # On the connection itself, not on django.db.connection: through that proxy, monkeypatch's
    # undo deleted the attribute, and the next test to set up the database failed on it.
    monkeypatch.setattr(connections["default"], "in_atomic_block", True)
    clock = FakeClock()

    def step() -> None:
        raise GONE

    with pytest.raises(OperationalError):
        db_retry.retry_outage(step, sleep=clock.sleep, clock=clock)
    assert clock.waits == []


def test_db_worker_is_the_one_that_waits_out_an_outage() -> None:
    assert get_commands()["db_worker"] == "simulations"


def test_the_worker_loop_goes_on_after_an_outage(monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's loop raises on a lost connection; the steady worker starts it again."""
    outages = [GONE, CLOSED, GONE]
    loops: list[int] = []

    def library_loop(self: Worker) -> None:
        loops.append(1)
        if outages:
            raise outages.pop(0)

    waits: list[float] = []
    monkeypatch.setattr(Worker, "run", library_loop)
    monkeypatch.setattr(db_worker.time, "sleep", waits.append)
    worker = db_worker.SteadyWorker(
        queue_names=["default"], interval=1, batch=True, backend_name="default",
        startup_delay=True, max_tasks=None, worker_id="test", excluded_queue_names=[])
    worker.run()
    assert (len(loops), waits, outages) == (4, [0.5, 1.0, 2.0], [])
    assert worker.startup_delay is False  # no start-up pause when it resumes


def test_a_bug_still_stops_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    def library_loop(self: Any) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(Worker, "run", library_loop)
    worker = db_worker.SteadyWorker(
        queue_names=["default"], interval=1, batch=True, backend_name="default",
        startup_delay=False, max_tasks=None, worker_id="test", excluded_queue_names=[])
    with pytest.raises(ValueError):
        worker.run()
