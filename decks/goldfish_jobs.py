"""Goldfish runs as background jobs: a run is split into chunks of games, each chunk leased to
one worker at a time, the tallies merged in chunk order into the command's report.

How it holds up when things go wrong:

* **Leasing.** A worker takes the next free chunk (never leased, or its lease has expired):
  ``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL, so two workers never wait on each
  other; on SQLite (one writer at a time, no row locks) an ``UPDATE ... WHERE`` the chunk is
  still free, which only one worker can win.
* **A worker dies** mid-chunk: its lease expires (:data:`LEASE`) and the chunk is leased
  again. Someone must come back to do it: every run has a *watchdog*, a deferred task due when
  the leases it saw expire (``watch_at``); it works like any other task and, if the run is
  still not finished, schedules the next one. Should the watchdog die too, whoever looks at the
  run (the API or the report page) starts a new one once it is overdue
  (:func:`goldfish_run_nudge`).
* **A chunk played twice** (a slow worker whose lease expired) counts once: only the first
  completed tally is stored, and only that completion moves the run's counter.
* **The report** is built once every chunk is done, from the tallies in chunk order, with
  :func:`~rules.game.report.build_report`: the same bytes as the ``goldfish`` command.
* **SQLite's "database is locked"** on a write is retried (:mod:`decks.db_retry`).

Every function takes the time from ``now`` (a clock), so tests move time instead of sleeping.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Min, Q
from django.utils import timezone

from decks.db_retry import retry_locked
from decks.formats.json_format import deck_to_dict
from decks.goldfish import (
    DeckNotPlayable,
    contents_hash,
    prepare_deck,
    prepare_stored,
    report_names,
    stored_facts,
)
from decks.models import Deck, GoldfishChunk, GoldfishRun
from rules.decklist import Deck as DeckData
from rules.game.config import RULES_VERSION, GameConfig
from rules.game.report import Tally, build_report
from rules.game.runner import RunSpec, chunks, run_chunk

logger = logging.getLogger(__name__)

type Clock = Callable[[], datetime]

#: How long a worker holds a chunk: far longer than a chunk takes (a few seconds), so a live
#: worker never loses its lease; a dead worker's chunk waits this long to be played again.
LEASE = timedelta(seconds=120)
#: Tasks started per run: as many workers as there are can share one run.
PARALLEL = 2
DEFAULT_GAMES = 1000
DEFAULT_SEED = 1
ROUND_CAP = 40


@dataclass(frozen=True)
class Limits:
    games: int  # per run
    at_once: int  # runs queued or running at the same time


ANONYMOUS = Limits(games=2_000, at_once=2)
SIGNED_IN = Limits(games=100_000, at_once=2)


def limits_for(user: Any) -> Limits:
    return SIGNED_IN if user is not None and user.is_authenticated else ANONYMOUS


@dataclass(frozen=True)
class RunOptions:
    games: int = DEFAULT_GAMES
    seed: int = DEFAULT_SEED
    policy: str = "greedy"
    target: int = 25
    players: int = 1

    def spec(self) -> RunSpec:
        return RunSpec(self.games, self.seed, self.policy)

    def config(self) -> GameConfig:
        return GameConfig(target=self.target, players=self.players, round_cap=ROUND_CAP)


class RunRefused(Exception):
    """A run that may not start: too many games for this user, or too many runs at once."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


def requester_key(user: Any, address: str | None) -> str:
    """Whom a run counts against: the user, or (anonymous) a hash of the client's address."""
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    digest = hashlib.sha256((address or "unknown").encode()).hexdigest()[:24]
    return f"anon:{digest}"


def run_spec(run: GoldfishRun) -> RunSpec:
    return RunSpec(run.games, run.seed, run.policy)


def run_config(run: GoldfishRun) -> GameConfig:
    return GameConfig(target=run.target, players=run.players, round_cap=run.round_cap)


def run_prepared(run: GoldfishRun) -> Any:
    return prepare_stored(run.decklist, run.card_facts, run_config(run))


# --- starting ---------------------------------------------------------------------------------


def goldfish_run_start(*, deck: DeckData, options: RunOptions, user: Any, requester: str,
                       source: Deck | None = None, source_version: int | None = None,
                       now: Clock = timezone.now) -> tuple[GoldfishRun, bool]:
    """The run of ``deck`` with ``options``: the stored one when the same deck contents were
    already run with the same options (``False``), otherwise a new run with its chunks, its
    tasks enqueued once the transaction commits (``True``).

    Raises DeckNotPlayable (the engine cannot play the deck) or :class:`RunRefused`.
    """
    limits = limits_for(user)
    if options.games > limits.games:
        more = "" if limits is SIGNED_IN else f" Sign in to run up to {SIGNED_IN.games:,}."
        raise RunRefused(400, "too_many_games",
                         f"A run may have at most {limits.games:,} games, not "
                         f"{options.games:,}.{more}")
    config = options.config()
    prepared = prepare_deck(deck, config)
    key = contents_hash(deck, prepared)
    found = _reusable(key, options)
    if found is not None:
        return found, False
    active = GoldfishRun.objects.filter(requester=requester, status__in=GoldfishRun.ACTIVE)
    if active.count() >= limits.at_once:
        raise RunRefused(429, "too_many_runs",
                         f"You have {limits.at_once} goldfish runs going already; wait for one "
                         "to finish (or cancel one) before starting another.")
    size = max(1, int(settings.GOLDFISH_CHUNK_GAMES))
    parts = list(chunks(options.games, size))

    def create() -> GoldfishRun:
        run = GoldfishRun.objects.create(
            owner=user if user is not None and user.is_authenticated else None,
            requester=requester, deck=source, deck_version=source_version,
            deck_name=deck.name, decklist=deck_to_dict(deck), card_facts=stored_facts(prepared),
            contents_hash=key, games=options.games, seed=options.seed, policy=options.policy,
            target=options.target, players=options.players, round_cap=ROUND_CAP,
            rules_version=RULES_VERSION, chunks_total=len(parts), watch_at=now() + LEASE,
        )
        GoldfishChunk.objects.bulk_create(
            GoldfishChunk(run=run, index=i, first=first, last=last)
            for i, (first, last) in enumerate(parts)
        )
        return run

    try:
        run = retry_locked(create)
    except IntegrityError:  # the same run was started a moment ago by another request
        found = _reusable(key, options)
        if found is None:
            raise
        return found, False
    watch_at = run.watch_at
    transaction.on_commit(lambda: _enqueue(str(run.pk), now=True, count=PARALLEL,
                                           watchdog=watch_at))
    return run, True


def _reusable(key: str, options: RunOptions) -> GoldfishRun | None:
    return GoldfishRun.objects.filter(
        contents_hash=key, rules_version=RULES_VERSION, policy=options.policy,
        target=options.target, players=options.players, round_cap=ROUND_CAP,
        games=options.games, seed=options.seed, status__in=GoldfishRun.REUSABLE,
    ).first()


def _enqueue(run_id: str, *, now: bool = False, count: int = 1,
             watchdog: datetime | None = None) -> None:
    from decks.tasks import goldfish_work  # the task module imports this one

    if now:
        for _ in range(count):
            goldfish_work.enqueue(run_id)
    if watchdog is not None:
        goldfish_work.using(run_after=watchdog).enqueue(run_id)


def deck_goldfish_headline(data: DeckData) -> dict[str, Any]:
    """For the deck page: the newest report of the deck as it is now (any options), a run of it
    going, or why the engine cannot play it."""
    try:
        key = contents_hash(data, prepare_deck(data, RunOptions().config()))
    except DeckNotPlayable as error:
        return {"problem": str(error)}
    runs = GoldfishRun.objects.filter(contents_hash=key)
    done = runs.filter(status=GoldfishRun.DONE).order_by("-finished_at").first()
    going = runs.filter(status__in=GoldfishRun.ACTIVE).order_by("-created_at").first()
    return {"done": done, "report": done.report if done else None, "going": going}


# --- working ----------------------------------------------------------------------------------


def default_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def goldfish_chunk_lease(*, run_id: Any, worker: str, now: Clock = timezone.now
                         ) -> GoldfishChunk | None:
    """The run's next free chunk, leased to ``worker`` until now + LEASE; None when no chunk
    is free (all done, or leased by live workers) or the run is over."""
    moment = now()
    free = (Q(status=GoldfishChunk.QUEUED)
            | Q(status=GoldfishChunk.RUNNING, lease_expires__lt=moment))
    candidates = GoldfishChunk.objects.filter(
        free, run_id=run_id, run__status__in=GoldfishRun.ACTIVE).order_by("index")
    lease = {"status": GoldfishChunk.RUNNING, "lease_owner": worker[:100],
             "lease_expires": moment + LEASE, "attempts": F("attempts") + 1}

    def take() -> GoldfishChunk | None:
        if connection.features.has_select_for_update_skip_locked:
            chunk = candidates.select_for_update(skip_locked=True, of=("self",)).first()
            if chunk is None:
                return None
            GoldfishChunk.objects.filter(pk=chunk.pk).update(**lease)
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
            chunk = GoldfishChunk.objects.get(pk=won)
        GoldfishRun.objects.filter(pk=run_id, status=GoldfishRun.QUEUED).update(
            status=GoldfishRun.RUNNING, started_at=moment)
        chunk.refresh_from_db()
        return chunk

    return retry_locked(take)


def goldfish_chunk_complete(*, chunk: GoldfishChunk, worker: str, tally: Tally,
                            now: Clock = timezone.now) -> bool:
    """Store the chunk's tally unless it is already done; True when this call stored it (and
    so moved the run's counter): a chunk completed twice counts once."""
    moment = now()

    def store() -> bool:
        stored = GoldfishChunk.objects.filter(pk=chunk.pk).exclude(
            status=GoldfishChunk.DONE).update(status=GoldfishChunk.DONE, tally=tally.to_dict(),
                                              lease_owner=worker[:100], finished_at=moment)
        if stored:
            GoldfishRun.objects.filter(pk=chunk.run_id).update(chunks_done=F("chunks_done") + 1)
        return bool(stored)

    return retry_locked(store)


def goldfish_run_finish(*, run_id: Any, now: Clock = timezone.now) -> bool:
    """Build the report once every chunk is done; True when the run is done by this call."""
    run = GoldfishRun.objects.get(pk=run_id)
    if not run.active or run.chunks_done < run.chunks_total:
        return False
    tallies = [t for t in run.chunks.filter(status=GoldfishChunk.DONE).order_by("index")
               .values_list("tally", flat=True) if t is not None]
    if len(tallies) < run.chunks_total:
        return False
    total = Tally()
    for tally in tallies:  # in chunk order, as the command merges them
        total.merge(Tally.from_dict(tally))
    prepared = run_prepared(run)
    report = build_report(total, seed=run.seed, policy=run.policy, config=run_config(run),
                          names=report_names(prepared), deck_name=run.deck_name)
    text = json.dumps(report, ensure_ascii=False)

    def store() -> bool:
        return bool(GoldfishRun.objects.filter(pk=run.pk, status__in=GoldfishRun.ACTIVE).update(
            status=GoldfishRun.DONE, report_json=text, finished_at=now()))

    return retry_locked(store)


def goldfish_run_fail(*, run_id: Any, error: str, now: Clock = timezone.now) -> bool:
    """Mark a run failed (an engine error: running it again would fail the same way)."""

    def store() -> bool:
        failed = GoldfishRun.objects.filter(pk=run_id, status__in=GoldfishRun.ACTIVE).update(
            status=GoldfishRun.FAILED, error=error[:2000], finished_at=now())
        if failed:
            _skip_rest(run_id)
        return bool(failed)

    return retry_locked(store)


def goldfish_run_cancel(*, run: GoldfishRun, now: Clock = timezone.now) -> GoldfishRun:
    """Stop a queued or running run: its chunks not done yet are skipped (a chunk being played
    finishes, but nothing more is leased)."""

    def store() -> None:
        if GoldfishRun.objects.filter(pk=run.pk, status__in=GoldfishRun.ACTIVE).update(
                status=GoldfishRun.CANCELLED, finished_at=now()):
            _skip_rest(run.pk)

    retry_locked(store)
    run.refresh_from_db()
    return run


def _skip_rest(run_id: Any) -> None:
    GoldfishChunk.objects.filter(run_id=run_id).exclude(status=GoldfishChunk.DONE).update(
        status=GoldfishChunk.SKIPPED, lease_expires=None)


def goldfish_run_work(*, run_id: Any, worker: str, now: Clock = timezone.now,
                      on_leased: Callable[[GoldfishChunk], None] | None = None) -> str:
    """What a worker does for a run: play free chunks until none is left, finish the run if
    every chunk is done, otherwise make sure a watchdog will come back. Returns the status."""
    run = GoldfishRun.objects.filter(pk=run_id).first()
    if run is None:
        return "missing"  # deleted (its deck's owner left) before a worker got to it
    prepared = None
    spec = run_spec(run)
    while True:
        chunk = goldfish_chunk_lease(run_id=run.pk, worker=worker, now=now)
        if chunk is None:
            break
        if on_leased is not None:
            on_leased(chunk)
        try:
            prepared = prepared or run_prepared(run)
            tally = run_chunk(prepared, spec, chunk.first, chunk.last)
        except Exception as error:
            goldfish_run_fail(run_id=run.pk, error=f"{type(error).__name__}: {error}", now=now)
            raise
        goldfish_chunk_complete(chunk=chunk, worker=worker, tally=tally, now=now)
    goldfish_run_finish(run_id=run.pk, now=now)
    run.refresh_from_db()
    if run.active:
        _watch_again(run, now)
    return run.status


def _watch_again(run: GoldfishRun, now: Clock) -> None:
    """Other workers hold the run's remaining chunks: schedule a watchdog for when their leases
    expire, unless one is already due later (it will look again itself)."""
    moment = now()
    latest = run.chunks.filter(status=GoldfishChunk.RUNNING).aggregate(
        at=Min("lease_expires"))["at"]
    due = max(latest or moment, moment) + timedelta(seconds=1)
    if _claim_watch(run.pk, moment, due):
        transaction.on_commit(lambda: _enqueue(str(run.pk), watchdog=due))


def _claim_watch(run_id: Any, moment: datetime, due: datetime) -> bool:
    """Take the run's watch (only one caller wins): it is free when no watchdog is due in the
    future; the winner sets the next due time."""
    return retry_locked(lambda: bool(GoldfishRun.objects.filter(
        Q(watch_at__isnull=True) | Q(watch_at__lte=moment),
        pk=run_id, status__in=GoldfishRun.ACTIVE,
    ).update(watch_at=due)))


def goldfish_run_nudge(*, run: GoldfishRun, now: Clock = timezone.now) -> bool:
    """Called whenever someone looks at an unfinished run: if its watchdog is overdue by more
    than a lease (its worker died, or no worker was running), start a new task and watchdog.
    True when it did."""
    if not run.active or run.watch_at is None:
        return False
    moment = now()
    if run.watch_at > moment - LEASE:
        return False
    due = moment + LEASE
    if not _claim_watch(run.pk, moment - LEASE, due):
        return False
    run.watch_at = due
    transaction.on_commit(lambda: _enqueue(str(run.pk), now=True, watchdog=due))
    return True
