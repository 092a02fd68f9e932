"""Goldfish runs as background jobs: who may start one and how big, starting (or finding the
same run again), cancelling, and nudging a run whose watchdog is overdue. The chunks and how
they hold up when workers die are in :mod:`goldfish.chunks`; the worker's task in
:mod:`goldfish.tasks`.

Every function takes the time from ``now`` (a clock), so tests move time instead of sleeping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils import timezone

from decks.formats.json_format import deck_to_dict
from decks.models import Deck
from goldfish.chunks import LEASE, PARALLEL, WATCHDOG_LATE, Clock, claim_watch, skip_rest
from goldfish.games import (
    DeckNotPlayable,
    contents_hash,
    prepare_deck,
    stored_facts,
)
from goldfish.models import GoldfishChunk, GoldfishRun
from goldfish.tasks import enqueue_run
from rules.decklist import Deck as DeckData
from rules.game.config import RULES_VERSION, GameConfig
from rules.game.runner import RunSpec, chunks
from sitewide.background_runs import Limits, RunRefused, requester_key
from sitewide.db_retry import retry_locked

__all__ = ["Limits", "RunRefused", "requester_key"]

DEFAULT_GAMES = 1000


DEFAULT_SEED = 1


ROUND_CAP = 40


ANONYMOUS = Limits(games=2_000, at_once=2)


SIGNED_IN = Limits(games=100_000, at_once=2)
# A lookahead run plays every decision out many times over: about a second a game.
LOOKAHEAD_GAMES = 1_000


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


def goldfish_run_start(*, deck: DeckData, options: RunOptions, user: Any, requester: str,
                       source: Deck | None = None, source_version: int | None = None,
                       now: Clock = timezone.now) -> tuple[GoldfishRun, bool]:
    """The run of ``deck`` with ``options``: the stored one when the same deck contents were
    already run with the same options (``False``), otherwise a new run with its chunks, its
    tasks enqueued once the transaction commits (``True``).

    Raises DeckNotPlayable (the engine cannot play the deck) or :class:`RunRefused`.
    """
    limits = limits_for(user)
    if options.policy.startswith("lookahead") and options.games > LOOKAHEAD_GAMES:
        raise RunRefused(400, "too_many_games",
                         f"A lookahead run may have at most {LOOKAHEAD_GAMES:,} games, not "
                         f"{options.games:,}: it plays every decision out many times over.")
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
    transaction.on_commit(lambda: enqueue_run(str(run.pk), now=True, count=PARALLEL,
                                           watchdog=watch_at))
    return run, True


def _reusable(key: str, options: RunOptions) -> GoldfishRun | None:
    return GoldfishRun.objects.filter(
        contents_hash=key, rules_version=RULES_VERSION, policy=options.policy,
        target=options.target, players=options.players, round_cap=ROUND_CAP,
        games=options.games, seed=options.seed, status__in=GoldfishRun.REUSABLE,
    ).first()


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


def goldfish_run_cancel(*, run: GoldfishRun, now: Clock = timezone.now) -> GoldfishRun:
    """Stop a queued or running run: its chunks not done yet are skipped (a chunk being played
    finishes, but nothing more is leased)."""

    def store() -> None:
        if GoldfishRun.objects.filter(pk=run.pk, status__in=GoldfishRun.ACTIVE).update(
                status=GoldfishRun.CANCELLED, finished_at=now()):
            skip_rest(run.pk)

    retry_locked(store)
    run.refresh_from_db()
    return run


def goldfish_run_nudge(*, run: GoldfishRun, now: Clock = timezone.now) -> bool:
    """Called whenever someone looks at an unfinished run: if its watchdog is overdue by more
    than WATCHDOG_LATE (its worker died, or no worker was running), start a new task and
    watchdog. True when it did."""
    if not run.active or run.watch_at is None:
        return False
    moment = now()
    if run.watch_at > moment - WATCHDOG_LATE:
        return False
    due = moment + LEASE
    if not claim_watch(run.pk, moment - WATCHDOG_LATE, due):
        return False
    run.watch_at = due
    transaction.on_commit(lambda: enqueue_run(str(run.pk), now=True, watchdog=due))
    return True


@dataclass(frozen=True)
class Progress:
    """A run under way: games played of all, and (once some are) the time left at the pace
    so far."""

    games_done: int
    games: int
    seconds_left: int | None

    @property
    def percent(self) -> int:
        return round(100 * self.games_done / self.games) if self.games else 0

    @property
    def time_left(self) -> str:
        """"about 40 s", "about 3 min", or "" while it cannot be told."""
        if self.seconds_left is None:
            return ""
        if self.seconds_left < 60:
            return f"about {max(1, self.seconds_left)} s"
        return f"about {round(self.seconds_left / 60)} min"


def run_progress(run: GoldfishRun, now: Any = None) -> Progress:
    done = run.chunks.filter(status=GoldfishChunk.DONE).aggregate(
        games=Sum(F("last") - F("first") + 1))["games"] or 0
    left: int | None = None
    if done and run.started_at is not None and done < run.games:
        elapsed = ((now or timezone.now()) - run.started_at).total_seconds()
        left = round(elapsed * (run.games - done) / done)
    return Progress(min(done, run.games), run.games, left)
