"""The chunks of a simulation run, of any kind: leased to one worker at a time, completed
once, the run finished from their tallies in chunk order into the command's report.

How it holds up when things go wrong:

* **Leasing.** A worker takes the next free chunk (never leased, or its lease has expired):
  ``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL, so two workers never wait on each
  other; on SQLite (one writer at a time, no row locks) an ``UPDATE ... WHERE`` the chunk is
  still free, which only one worker can win.
* **Heartbeats.** A lease is short (:data:`LEASE`, 15 s); the worker playing a chunk renews
  it every 5 s (:func:`simulation_chunk_renew`, :mod:`simulations.heartbeat`), and plays the
  chunk in slices of games (:func:`slice_games`) so that it notices soon when the lease is lost.
* **A worker dies** mid-chunk: its lease expires 15 s after its last heartbeat and the chunk is
  leased again. Someone must come back to do it: every run has a *watchdog*, a deferred task due
  when the leases it saw expire (``watch_at``); it works like any other task and, if the run is
  still not finished, schedules the next one. Should the watchdog die too, whoever looks at the
  run (the API or the report page) starts a new one once it is :data:`WATCHDOG_LATE`
  (:func:`simulation_run_nudge`).
* **A worker that lost its lease** (it stalled past its lease and another worker took the
  chunk) finds out at its next heartbeat and stops playing that chunk. A chunk played twice
  counts once all the same: only the first completed tally is stored, and only that completion
  moves the run's counter.
* **The report** is built once every chunk is done, from the tallies in chunk order, with
  by the run's kind (:mod:`simulations.plays`): the same bytes as the ``goldfish`` or
  ``matchup`` command.
* **SQLite's "database is locked"** on a write is retried (:mod:`simulations.db_retry`).

Every function takes the time from ``now`` (a clock), so tests move time instead of sleeping.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import F, Q
from django.utils import timezone

from rules.game.matchup import MatchupTally
from rules.game.report import Tally
from simulations import heartbeat
from simulations.db_retry import retry_locked
from simulations.models import SimulationChunk, SimulationRun
from simulations.plays import build_run_report, merge_all, tally_text

type Clock = Callable[[], datetime]


#: How long a lease lasts after its last renewal (simulations.heartbeat): a live worker renews it
#: every 5 s while it plays; a dead worker's chunk waits this long to be played again.
LEASE = heartbeat.LEASE
#: How late a watchdog may be before whoever looks at the run starts another: late because
#: every worker is busy (then more tasks would only queue behind it) or because the worker
#: running it died, which a minute or two tells apart.
WATCHDOG_LATE = timedelta(seconds=120)
#: Tasks started per run: as many workers as there are can share one run.
PARALLEL = 2


def default_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def simulation_chunk_lease(*, run_id: Any, worker: str, now: Clock = timezone.now
                           ) -> SimulationChunk | None:
    """The run's next free chunk, leased to ``worker`` until now + LEASE; None when no chunk
    is free (all done, or leased by live workers) or the run is over."""
    moment = now()
    free = (Q(status=SimulationChunk.QUEUED)
            | Q(status=SimulationChunk.RUNNING, lease_expires__lt=moment))
    candidates = SimulationChunk.objects.filter(
        free, run_id=run_id, run__status__in=SimulationRun.ACTIVE).order_by("index")
    lease = {"status": SimulationChunk.RUNNING, "lease_owner": worker[:100],
             "lease_expires": moment + LEASE, "attempts": F("attempts") + 1}

    def take() -> SimulationChunk | None:
        if connection.features.has_select_for_update_skip_locked:
            chunk = candidates.select_for_update(skip_locked=True, of=("self",)).first()
            if chunk is None:
                return None
            SimulationChunk.objects.filter(pk=chunk.pk).update(**lease)
        else:
            # No row locks: a conditional UPDATE is the lease; if another worker took the
            # chunk between the read and the write, it updates nothing: try the next one.
            won = None
            for pk in list(candidates.values_list("pk", flat=True)[:PARALLEL + 1]):
                if candidates.filter(pk=pk).update(**lease):
                    won = pk
                    break
            if won is None:
                return None
            chunk = SimulationChunk.objects.get(pk=won)
        SimulationRun.objects.filter(pk=run_id, status=SimulationRun.QUEUED).update(
            status=SimulationRun.RUNNING, started_at=moment)
        chunk.refresh_from_db()
        return chunk

    return retry_locked(take)




def simulation_chunk_renew(moment: datetime, *, chunk: SimulationChunk, worker: str) -> bool:
    """The heartbeat: extend the worker's lease on ``chunk`` to ``moment`` + LEASE while it is
    still this worker's lease (this very one: the attempt it took is the mark). False when it is
    not: another worker took the chunk over, or it was completed or skipped."""
    return retry_locked(lambda: bool(SimulationChunk.objects.filter(
        pk=chunk.pk, status=SimulationChunk.RUNNING, lease_owner=worker[:100],
        attempts=chunk.attempts,
    ).update(lease_expires=moment + LEASE)))


def simulation_chunks_release(*, run_id: Any, worker: str) -> int:
    """Hand back the chunks of the run that ``worker`` holds but is not playing (it calls this
    between chunks): a lease taken just as the database went away, whose answer never came.
    Returns how many; they are free for the next lease at once."""
    return retry_locked(lambda: SimulationChunk.objects.filter(
        run_id=run_id, status=SimulationChunk.RUNNING, lease_owner=worker[:100],
    ).update(status=SimulationChunk.QUEUED, lease_expires=None))


def simulation_chunk_complete(*, chunk: SimulationChunk, worker: str,
                              tally: Tally | MatchupTally, now: Clock = timezone.now) -> bool:
    """Store the chunk's tally unless it is already done; True when this call stored it (and
    so moved the run's counters): a chunk completed twice counts once."""
    moment = now()
    text = tally_text(tally)

    def store() -> bool:
        stored = SimulationChunk.objects.filter(pk=chunk.pk).exclude(
            status=SimulationChunk.DONE).update(status=SimulationChunk.DONE, tally_json=text,
                                                lease_owner=worker[:100], finished_at=moment)
        if stored:
            SimulationRun.objects.filter(pk=chunk.run_id).update(
                chunks_done=F("chunks_done") + 1,
                games_done=F("games_done") + chunk.last - chunk.first + 1)
        return bool(stored)

    return retry_locked(store)


def simulation_run_finish(*, run_id: Any, now: Clock = timezone.now) -> bool:
    """Build the report once every chunk is done; True when the run is done by this call."""
    run = SimulationRun.objects.get(pk=run_id)
    if not run.active or run.chunks_done < run.chunks_total:
        return False
    tallies = [(pairing, text) for pairing, text in
               run.chunks.filter(status=SimulationChunk.DONE).order_by("index")
               .values_list("pairing", "tally_json") if text]
    if len(tallies) < run.chunks_total:
        return False
    # In chunk order, as the commands merge them.
    report = build_run_report(run, merge_all(run, tallies))
    text = json.dumps(report, ensure_ascii=False)

    def store() -> bool:
        return bool(SimulationRun.objects.filter(pk=run.pk, status__in=SimulationRun.ACTIVE)
                    .update(status=SimulationRun.DONE, report_json=text, finished_at=now()))

    return retry_locked(store)


def simulation_run_fail(*, run_id: Any, error: str, now: Clock = timezone.now) -> bool:
    """Mark a run failed (an engine error: running it again would fail the same way)."""

    def store() -> bool:
        failed = SimulationRun.objects.filter(pk=run_id, status__in=SimulationRun.ACTIVE).update(
            status=SimulationRun.FAILED, error=error[:2000], finished_at=now())
        if failed:
            skip_rest(run_id)
        return bool(failed)

    return retry_locked(store)


def skip_rest(run_id: Any) -> None:
    SimulationChunk.objects.filter(run_id=run_id).exclude(status=SimulationChunk.DONE).update(
        status=SimulationChunk.SKIPPED, lease_expires=None)


def claim_watch(run_id: Any, moment: datetime, due: datetime) -> bool:
    """Take the run's watch (only one caller wins): it is free when no watchdog is due in the
    future; the winner sets the next due time."""
    return retry_locked(lambda: bool(SimulationRun.objects.filter(
        Q(watch_at__isnull=True) | Q(watch_at__lte=moment),
        pk=run_id, status__in=SimulationRun.ACTIVE,
    ).update(watch_at=due)))
