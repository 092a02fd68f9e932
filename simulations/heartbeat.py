"""A worker's heartbeat: it renews its lease while it plays, so that a lease can be short and a
dead worker's work is free for another worker seconds after its last heartbeat.

A lease lasts :data:`LEASE` from its last renewal; the worker renews it every
:data:`RENEW_EVERY`, so it may miss two renewals (a busy machine, a locked SQLite database)
before it loses the lease. A renewal is a conditional ``UPDATE`` that matches only while the
lease is still the worker's: when it matches nothing, another worker has taken the work over (or
the run was cancelled), the heartbeat is *lost*, and the worker stops.

Who renews:

* **In a worker process** (``background=True``) a thread of the heartbeat's own renews the
  lease every :data:`RENEW_EVERY` of real time, whatever the worker is doing: one game of the
  ``lookahead`` policy can take longer than a lease (7 to 22 s a game measured, compiled, on a
  loaded machine; 29 s on average interpreted), so renewing between games would not do. The
  worker plays in slices of games and asks :meth:`Heartbeat.beat` between them whether the lease
  is still its own.
* **Otherwise** (``background=False``: the tests, which move a clock, and any caller inside a
  transaction, whose lease a second connection could not see) :meth:`Heartbeat.beat` itself
  renews the lease when a renewal is due by the clock, between slices.

Every renewal takes the time from ``now`` (a clock), so tests move time instead of sleeping.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from types import TracebackType

from django.db import DatabaseError, connections

type Clock = Callable[[], datetime]

logger = logging.getLogger(__name__)

#: How long a lease lasts after its last renewal: what a dead worker's work waits.
LEASE = timedelta(seconds=15)
#: How often a live worker renews its lease: three renewals to a lease.
RENEW_EVERY = timedelta(seconds=5)


class Heartbeat:
    """Renews one lease while a worker plays: ``renew(moment)`` is the conditional ``UPDATE``
    (its lease now ends at ``moment + LEASE``), true while the lease is still the worker's.

    Use it as a context manager around the play (it starts and stops the thread), and call
    :meth:`beat` between slices: False means the lease is lost, stop."""

    def __init__(self, renew: Callable[[datetime], bool], *, now: Clock,
                 background: bool = False, every: timedelta = RENEW_EVERY,
                 wait: Callable[[float], bool] | None = None) -> None:
        self._renew = renew
        self._now = now
        self._every = every
        self._last = now()  # the lease was taken (or renewed) just now
        self._lost = False
        self._stop = threading.Event()
        # How the thread waits between renewals: True to stop (tests pass a wait they tick).
        self._wait = wait or self._stop.wait
        self._thread = (threading.Thread(target=self._beat_in_background, name="heartbeat",
                                         daemon=True) if background else None)
        self.renewals = 0

    def __enter__(self) -> Heartbeat:
        if self._thread is not None:
            self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            # A renewal under way finishes within the database's retry (simulations.db_retry);
            # a daemon thread stuck longer than this dies with the process.
            self._thread.join(timeout=10)

    @property
    def lost(self) -> bool:
        return self._lost

    def beat(self) -> bool:
        """Between slices: False once the lease is lost. Without the thread, renew the lease
        first if a renewal is due by the clock."""
        if self._thread is None and not self._lost and self._now() - self._last >= self._every:
            self._renew_now()
        return not self._lost

    def _renew_now(self) -> None:
        moment = self._now()
        try:
            kept = self._renew(moment)
        except DatabaseError as error:
            # Not renewed, not lost either: the next renewal tells (the lease may expire
            # meanwhile, and then another worker takes the work and that renewal finds it gone).
            logger.warning("heartbeat: the lease could not be renewed (%s: %s)",
                           type(error).__name__, error)
            return
        self._last = moment
        self.renewals += 1
        if not kept:
            self._lost = True

    def _beat_in_background(self) -> None:
        try:
            while not self._lost and not self._wait(self._every.total_seconds()):
                if self._stop.is_set():
                    break
                self._renew_now()
        finally:
            # The renewals used this thread's own connection: close it with the thread.
            connections.close_all()
