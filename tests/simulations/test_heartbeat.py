"""The worker's heartbeat (simulations.heartbeat): renewals when due by the clock, a lost lease
stops the worker, a failed renewal is neither; and the thread that renews in a worker process,
ticked by the test instead of by time."""

from __future__ import annotations

import queue
from datetime import UTC, datetime, timedelta

import pytest
from django.db import OperationalError

from simulations.heartbeat import LEASE, RENEW_EVERY, Heartbeat

START = datetime(2030, 1, 1, tzinfo=UTC)


class Renewals:
    """A renew function whose answers the test gives; records the moments it was called at."""

    def __init__(self, *answers: bool | Exception) -> None:
        self.answers = list(answers)
        self.moments: list[datetime] = []

    def __call__(self, moment: datetime) -> bool:
        self.moments.append(moment)
        answer = self.answers.pop(0) if self.answers else True
        if isinstance(answer, Exception):
            raise answer
        return answer


def test_a_renewal_comes_well_before_the_lease_ends() -> None:
    assert LEASE == timedelta(seconds=15) and RENEW_EVERY * 3 == LEASE


@pytest.mark.parametrize(("seconds", "answers", "renewed_at", "kept"), [
    ([1, 2, 4.9], (), [], True),  # never due
    ([5], (), [5], True),
    ([3, 6, 8, 11], (), [6, 11], True),  # due 5 s after the last renewal, not after the start
    ([5, 10], (True, False), [5, 10], False),  # another worker took the lease over
    ([5, 10, 15], (False,), [5], False),  # once lost, it is never renewed again
    ([5, 7, 10], (OperationalError("database is locked"), True), [5, 7], True),  # tried again
], ids=["not-due", "due", "from-last-renewal", "lost", "lost-for-good", "failed-then-kept"])
def test_beat_renews_when_due_and_says_when_the_lease_is_lost(
        seconds: list[float], answers: tuple[bool | Exception, ...], renewed_at: list[float],
        kept: bool) -> None:
    now = START
    renew = Renewals(*answers)
    with Heartbeat(renew, now=lambda: now) as beating:
        for second in seconds:
            now = START + timedelta(seconds=second)
            result = beating.beat()
    assert renew.moments == [START + timedelta(seconds=s) for s in renewed_at]
    assert (result, beating.lost) == (kept, not kept)


def test_the_thread_renews_at_each_tick_and_stops_when_the_lease_is_lost() -> None:
    ticks: queue.Queue[bool] = queue.Queue()
    renewed: queue.Queue[datetime] = queue.Queue()
    answers = iter([True, True, False])

    def renew(moment: datetime) -> bool:
        kept = next(answers)
        renewed.put(moment)
        return kept

    with Heartbeat(renew, now=lambda: START, background=True,
                   wait=lambda seconds: ticks.get(timeout=30)) as beating:
        for _ in range(3):
            ticks.put(False)  # RENEW_EVERY has passed
            renewed.get(timeout=30)
        assert beating._thread is not None
        beating._thread.join(timeout=30)  # the lease is lost: the thread ends by itself
        assert not beating._thread.is_alive()
        assert beating.lost and not beating.beat()
        assert beating.renewals == 3


def test_in_the_background_beat_only_reports_and_leaving_stops_the_thread() -> None:
    ticks: queue.Queue[bool] = queue.Queue()
    renew = Renewals()
    beating = Heartbeat(renew, now=lambda: START + timedelta(hours=1), background=True,
                        wait=lambda seconds: ticks.get(timeout=30))
    with beating:
        assert beating.beat()  # a renewal is due by the clock, but the thread does them
        assert renew.moments == []
        ticks.put(True)  # the context is left: the thread's wait says stop
    assert beating._thread is not None and not beating._thread.is_alive()
    assert renew.moments == []
