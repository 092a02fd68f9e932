"""Simulation runs as background jobs: who may start one and how big, starting one (or finding
the same run again), cancelling, and nudging a run whose watchdog is overdue. The same for every
kind: goldfish (:func:`goldfish_run_start`) and matchups, gauntlets and matrices
(:func:`matchup_run_start`). The chunks and how they hold up when workers die are in
:mod:`simulations.chunks`; the worker's task in :mod:`simulations.tasks`.

Every function takes the time from ``now`` (a clock), so tests move time instead of sleeping.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils import timezone

from decks.formats.json_format import deck_to_dict
from decks.models import Deck
from rules.decklist import Decklist
from rules.game.config import RULES_VERSION, GameConfig
from rules.game.gauntlet import MAX_FIELD, MODES, pairings
from rules.game.matchup import MatchupSpec
from rules.game.runner import RunSpec, plays_rollouts
from simulations.chunks import LEASE, PARALLEL, WATCHDOG_LATE, Clock, claim_watch, skip_rest
from simulations.db_retry import retry_locked
from simulations.games import (
    DeckNotPlayable,
    contents_hash,
    deck_names,
    prepare_deck,
    prepare_decks,
    stored_facts,
)
from simulations.models import SimulationChunk, SimulationRun
from simulations.plays import chunk_plan
from simulations.run_limits import Limits, RunRefused, requester_key
from simulations.tasks import enqueue_run

__all__ = ["Limits", "RunRefused", "requester_key"]

DEFAULT_GAMES = 1000
DEFAULT_SEED = 1
ROUND_CAP = 40

ANONYMOUS = Limits(games=2_000, at_once=2)
SIGNED_IN = Limits(games=100_000, at_once=2)
# A lookahead or reference run plays every decision out many times over: seconds a game.
LOOKAHEAD_GAMES = 1_000
#: Every game of a matchup seats every deck, so a matchup game costs about as many solo games
#: as it has decks: the limits are the goldfish ones in games, divided accordingly.
TABLE_ANONYMOUS = Limits(games=1_000, at_once=2)
TABLE_SIGNED_IN = Limits(games=20_000, at_once=2)


def limits_for(user: Any) -> Limits:
    return SIGNED_IN if user is not None and user.is_authenticated else ANONYMOUS


def table_limits_for(user: Any) -> Limits:
    return TABLE_SIGNED_IN if user is not None and user.is_authenticated else TABLE_ANONYMOUS


@dataclass(frozen=True)
class _Options:
    """What every run is asked with."""

    games: int = DEFAULT_GAMES
    seed: int = DEFAULT_SEED
    policy: str = "greedy"
    target: int = 25


@dataclass(frozen=True)
class RunOptions(_Options):
    """A goldfish run's options."""

    players: int = 1

    def spec(self) -> RunSpec:
        return RunSpec(self.games, self.seed, self.policy)

    def config(self) -> GameConfig:
        return GameConfig(target=self.target, players=self.players, round_cap=ROUND_CAP)


@dataclass(frozen=True)
class MatchupOptions(_Options):
    """A matchup's, gauntlet's or matrix's options."""

    mode: str = "matchup"  # or "gauntlet", "matrix" (rules.game.gauntlet)

    def spec(self) -> MatchupSpec:
        return MatchupSpec(self.games, self.seed, self.policy)

    def config(self, decks: int) -> GameConfig:
        """A matchup seats every deck; a gauntlet's or matrix's tables seat two."""
        players = decks if self.mode == "matchup" else 2
        return GameConfig(target=self.target, players=players, round_cap=ROUND_CAP)

    def tables(self, decks: int) -> int:
        """How many matchups of ``games`` games the run plays."""
        return 1 if self.mode == "matchup" else len(pairings(decks, self.mode))


@dataclass(frozen=True)
class _Asked:
    """What a run is asked for, whatever its kind: what finds it again and what it stores."""

    kind: str
    decks: Sequence[Decklist]
    facts: list[dict[str, Any]]
    key: str
    games: int
    seed: int
    policy: str
    target: int
    players: int
    tables: int
    what: str  # "goldfish" or "matchup": the runs counted against the same limit

    def lookup(self) -> dict[str, Any]:
        return {"kind": self.kind, "contents_hash": self.key, "rules_version": RULES_VERSION,
                "policy": self.policy, "target": self.target, "players": self.players,
                "round_cap": ROUND_CAP, "games": self.games, "seed": self.seed}


def goldfish_run_start(*, deck: Decklist, options: RunOptions, user: Any, requester: str,
                       source: Deck | None = None, source_version: int | None = None,
                       now: Clock = timezone.now) -> tuple[SimulationRun, bool]:
    """The goldfish run of ``deck`` with ``options``: the stored one when the same deck
    contents were already run with the same options (``False``), otherwise a new run with its
    chunks, its tasks enqueued once the transaction commits (``True``).

    Raises DeckNotPlayable (the engine cannot play the deck) or :class:`RunRefused`.
    """
    limits = limits_for(user)
    if plays_rollouts(options.policy) and options.games > LOOKAHEAD_GAMES:
        raise RunRefused(400, "too_many_games",
                         f"A {options.policy.partition(':')[0]} run may have at most "
                         f"{LOOKAHEAD_GAMES:,} games, not "
                         f"{options.games:,}: it plays every decision out many times over.")
    if options.games > limits.games:
        more = "" if limits is SIGNED_IN else f" Sign in to run up to {SIGNED_IN.games:,}."
        raise RunRefused(400, "too_many_games",
                         f"A run may have at most {limits.games:,} games, not "
                         f"{options.games:,}.{more}")
    prepared = prepare_deck(deck, options.config())
    asked = _Asked(SimulationRun.GOLDFISH, [deck], [stored_facts(prepared)],
                   contents_hash([deck], [prepared]), options.games, options.seed,
                   options.policy, options.target, options.players, 1, "goldfish")
    return _start(asked, limits, user=user, requester=requester, source=source,
                  source_version=source_version, now=now)


def matchup_run_start(*, decks: Sequence[Decklist], options: MatchupOptions, user: Any,
                      requester: str, source: Deck | None = None,
                      now: Clock = timezone.now) -> tuple[SimulationRun, bool]:
    """The matchup (gauntlet, matrix) run of ``decks`` with ``options``: the stored one when
    the same decks were already run with the same options (``False``), otherwise a new run with
    its chunks, its tasks enqueued once the transaction commits (``True``).

    Raises DeckNotPlayable (naming the deck) or RunRefused."""
    limits = table_limits_for(user)
    if options.mode not in MODES:
        raise RunRefused(400, "bad_request", f"Unknown mode {options.mode!r}: choose one of "
                         f"{', '.join(MODES)}.")
    if options.mode == "matchup" and not 2 <= len(decks) <= 6:
        raise RunRefused(400, "bad_request", f"A matchup seats 2 to 6 decks, not {len(decks)}.")
    if options.mode != "matchup" and not 2 <= len(decks) <= MAX_FIELD:
        raise RunRefused(400, "bad_request",
                         f"A {options.mode} takes 2 to {MAX_FIELD} decks, not {len(decks)}.")
    spec = options.spec()
    if len(spec.policies) not in (1, len(decks)):
        raise RunRefused(400, "bad_request", f"`policy` names {len(spec.policies)} policies "
                         f"for {len(decks)} decks: give one, or one per deck.")
    tables = options.tables(len(decks))
    if options.games * tables > limits.games:
        more = ("" if limits is TABLE_SIGNED_IN
                else f" Sign in to run up to {TABLE_SIGNED_IN.games:,}.")
        if tables == 1:
            raise RunRefused(400, "too_many_games", f"A matchup may have at most "
                             f"{limits.games:,} games, not {options.games:,}.{more}")
        raise RunRefused(400, "too_many_games", f"A run may have at most {limits.games:,} "
                         f"games in all; this {options.mode} plays {tables} pairings, so at "
                         f"most {limits.games // tables:,} games each, not "
                         f"{options.games:,}.{more}")
    config = options.config(len(decks))
    prepared = prepare_decks(decks, config)
    asked = _Asked(options.mode, decks, [stored_facts(p) for p in prepared],
                   contents_hash(decks, prepared), options.games, options.seed,
                   options.policy, options.target, config.players, tables, "matchup")
    return _start(asked, limits, user=user, requester=requester, source=source, now=now)


def _start(asked: _Asked, limits: Limits, *, user: Any, requester: str, source: Deck | None,
           now: Clock, source_version: int | None = None) -> tuple[SimulationRun, bool]:
    found = _reusable(asked)
    if found is not None:
        return found, False
    kinds = ((SimulationRun.GOLDFISH,) if asked.kind == SimulationRun.GOLDFISH
             else SimulationRun.TABLE_KINDS)
    active = SimulationRun.objects.filter(requester=requester, kind__in=kinds,
                                          status__in=SimulationRun.ACTIVE)
    if active.count() >= limits.at_once:
        raise RunRefused(429, "too_many_runs",
                         f"You have {limits.at_once} {asked.what} runs going already; wait for "
                         "one to finish (or cancel one) before starting another.")
    plan = chunk_plan(asked.kind, asked.games, asked.tables)

    def create() -> SimulationRun:
        run = SimulationRun.objects.create(
            kind=asked.kind, owner=user if user is not None and user.is_authenticated else None,
            requester=requester, deck=source, deck_version=source_version,
            deck_names=([asked.decks[0].name] if asked.kind == SimulationRun.GOLDFISH
                        else deck_names(asked.decks)),
            decklists=[deck_to_dict(d) for d in asked.decks], card_facts=asked.facts,
            contents_hash=asked.key, games=asked.games, seed=asked.seed, policy=asked.policy,
            target=asked.target, players=asked.players, round_cap=ROUND_CAP,
            rules_version=RULES_VERSION, chunks_total=len(plan), watch_at=now() + LEASE,
        )
        SimulationChunk.objects.bulk_create(
            SimulationChunk(run=run, index=i, pairing=pairing, first=first, last=last)
            for i, (pairing, first, last) in enumerate(plan)
        )
        return run

    try:
        run = retry_locked(create)
    except IntegrityError:  # the same run was started a moment ago by another request
        found = _reusable(asked)
        if found is None:
            raise
        return found, False
    watch_at = run.watch_at
    transaction.on_commit(lambda: enqueue_run(str(run.pk), now=True, count=PARALLEL,
                                              watchdog=watch_at))
    return run, True


def _reusable(asked: _Asked) -> SimulationRun | None:
    return SimulationRun.objects.filter(**asked.lookup(),
                                        status__in=SimulationRun.REUSABLE).first()


def deck_goldfish_headline(data: Decklist) -> dict[str, Any]:
    """For the deck page: the newest goldfish report of the deck as it is now (any options), a
    run of it going, or why the engine cannot play it."""
    try:
        key = contents_hash([data], [prepare_deck(data, RunOptions().config())])
    except DeckNotPlayable as error:
        return {"problem": str(error)}
    runs = SimulationRun.objects.filter(kind=SimulationRun.GOLDFISH, contents_hash=key)
    done = runs.filter(status=SimulationRun.DONE).order_by("-finished_at").first()
    going = runs.filter(status__in=SimulationRun.ACTIVE).order_by("-created_at").first()
    return {"done": done, "report": done.report if done else None, "going": going}


def simulation_run_cancel(*, run: SimulationRun, now: Clock = timezone.now) -> SimulationRun:
    """Stop a queued or running run: its chunks not done yet are skipped (a chunk being played
    stops at its worker's next heartbeat, and nothing more is leased)."""

    def store() -> None:
        if SimulationRun.objects.filter(pk=run.pk, status__in=SimulationRun.ACTIVE).update(
                status=SimulationRun.CANCELLED, finished_at=now()):
            skip_rest(run.pk)

    retry_locked(store)
    run.refresh_from_db()
    return run


def simulation_run_nudge(*, run: SimulationRun, now: Clock = timezone.now) -> bool:
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


def run_progress(run: SimulationRun, now: Any = None) -> Progress:
    done = run.chunks.filter(status=SimulationChunk.DONE).aggregate(
        games=Sum(F("last") - F("first") + 1))["games"] or 0
    total = run.total_games
    left: int | None = None
    if done and run.started_at is not None and done < total:
        elapsed = ((now or timezone.now()) - run.started_at).total_seconds()
        left = round(elapsed * (total - done) / done)
    return Progress(min(done, total), total, left)
