"""The simulation worker's task, for every kind of run (Django's tasks API; ``manage.py
db_worker`` runs it): play a run's free chunks, each with a heartbeat that keeps its lease
(simulations.heartbeat), then make sure a watchdog comes back for chunks that other workers hold.

A database that goes away meanwhile (PostgreSQL restarted) does not fail the task: each of its
database steps is tried again until the database is back (simulations.db_retry.retry_outage); each
is safe to repeat (a lease, a conditional store). A chunk whose lease was taken but whose answer
was lost in the outage is handed back before the task ends, so nobody waits for its lease to
expire.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Min
from django.tasks import TaskContext, task
from django.utils import timezone

from rules.game.matchup import MatchupTally
from rules.game.report import Tally
from rules.game.runner import chunks
from simulations import plays
from simulations.chunks import (
    Clock,
    claim_watch,
    default_worker_id,
    simulation_chunk_complete,
    simulation_chunk_lease,
    simulation_chunk_renew,
    simulation_chunks_release,
    simulation_run_fail,
    simulation_run_finish,
)
from simulations.db_retry import retry_outage
from simulations.heartbeat import Heartbeat
from simulations.models import SimulationChunk, SimulationRun

#: Set by the reliability tests only (tests/simulations/test_workers.py): the worker
#: says on stderr which chunk it leased, then, after its first lease, waits: "forever" (to be killed
#: mid-chunk) or until a line arrives on stdin ("stdin": to hold two workers on one run at once).
HOLD_AFTER_LEASE = "SIMULATIONS_HOLD_AFTER_LEASE"

#: The most runs of one requester a worker plays in turn (the limits allow 2 at once).
SHARED_RUNS = 4


@task(takes_context=True)
def simulation_work(context: TaskContext, run_id: str) -> str:
    """Play the free chunks of a simulation run (any kind); returns its status."""
    ids = context.task_result.worker_ids
    worker = f"{ids[-1] if ids else 'worker'}@{default_worker_id()}"
    hold = os.environ.get(HOLD_AFTER_LEASE)
    return simulation_run_work(run_id=run_id, worker=worker, background=True,
                               on_leased=_holder(hold) if hold else None)


def _holder(mode: str) -> Callable[[SimulationChunk], None]:
    leased = 0

    def hold(chunk: SimulationChunk) -> None:
        nonlocal leased
        leased += 1
        sys.stderr.write(f"simulations: leased chunk {chunk.index} of run {chunk.run_id}\n")
        sys.stderr.flush()
        if mode == "forever":
            threading.Event().wait()
        elif leased == 1:
            sys.stdin.readline()

    return hold


def enqueue_run(run_id: str, *, now: bool = False, count: int = 1,
                watchdog: datetime | None = None) -> None:
    if now:
        for _ in range(count):
            simulation_work.enqueue(run_id)
    if watchdog is not None:
        simulation_work.using(run_after=watchdog).enqueue(run_id)


def simulation_run_work(*, run_id: Any, worker: str, now: Clock = timezone.now,
                        background: bool = False,
                        on_leased: Callable[[SimulationChunk], None] | None = None) -> str:
    """What a worker does for a run: play free chunks until none is left, finish the run if
    every chunk is done, otherwise make sure a watchdog will come back. Returns the status.
    Every database step waits out an outage (retry_outage). ``background``: the heartbeat
    renews the lease from a thread of its own (a worker process; see simulations.heartbeat)."""
    run = retry_outage(lambda: SimulationRun.objects.filter(pk=run_id).first())
    if run is None:
        return "missing"  # deleted (its deck's owner left) before a worker got to it
    # The requester's other runs under way (two decks compared, say) are played in turn with
    # this one, a chunk of each, so that both progress at once even with a single worker.
    turns = [run, *retry_outage(lambda: list(SimulationRun.objects.filter(
        requester=run.requester, status__in=SimulationRun.ACTIVE).exclude(pk=run.pk)
        .order_by("created_at")[:SHARED_RUNS - 1]))]
    playing = list(turns)
    prepared: dict[Any, Any] = {}
    while playing:
        for current in list(playing):
            chunk = retry_outage(partial(simulation_chunk_lease, run_id=current.pk, worker=worker,
                                         now=now))
            if chunk is None:
                # A lease whose answer an outage lost is still ours, though nobody plays it.
                if retry_outage(partial(simulation_chunks_release, run_id=current.pk,
                                        worker=worker)):
                    continue
                playing.remove(current)
                continue
            renew = partial(simulation_chunk_renew, chunk=chunk, worker=worker)
            with Heartbeat(renew, now=now, background=background) as beating:
                if on_leased is not None:
                    on_leased(chunk)
                try:
                    if current.pk not in prepared:
                        prepared[current.pk] = plays.stored_decks(current)
                    tally = play_chunk(current, prepared[current.pk], chunk, beating)
                except Exception as error:
                    retry_outage(partial(simulation_run_fail, run_id=current.pk,
                                         error=f"{type(error).__name__}: {error}", now=now))
                    raise
            if tally is not None:
                retry_outage(partial(simulation_chunk_complete, chunk=chunk, worker=worker,
                                     tally=tally, now=now))
    for current in turns:
        retry_outage(partial(simulation_run_finish, run_id=current.pk, now=now))
        retry_outage(current.refresh_from_db)
        if current.active and current.pk == run.pk:
            retry_outage(partial(_watch_again, current, now))
    return run.status


def play_chunk(run: SimulationRun, prepared: Any, chunk: SimulationChunk,
               beating: Heartbeat) -> Tally | MatchupTally | None:
    """The chunk's tally, its games played in slices merged in order (the same tally as in one
    go); None when the heartbeat found the lease lost before the last slice: another worker
    plays the chunk now."""
    total = plays.empty_tally(run)
    size = plays.slice_games(run.kind, run.policy)
    for first, last in chunks(chunk.last - chunk.first + 1, size):
        total.merge(plays.play_games(run, prepared, chunk.pairing,  # type: ignore[arg-type]
                                     chunk.first + first - 1, chunk.first + last - 1))
        if not beating.beat() and chunk.first + last - 1 < chunk.last:
            return None
    return total


def _watch_again(run: SimulationRun, now: Clock) -> None:
    """Other workers hold the run's remaining chunks: schedule a watchdog for when their leases
    expire, unless one is already due later (it will look again itself)."""
    moment = now()
    latest = run.chunks.filter(status=SimulationChunk.RUNNING).aggregate(
        at=Min("lease_expires"))["at"]
    due = max(latest or moment, moment) + timedelta(seconds=1)
    if claim_watch(run.pk, moment, due):
        transaction.on_commit(lambda: enqueue_run(str(run.pk), watchdog=due))
