"""Matchup runs as background jobs: who may start one and how big, starting one (or finding the
same run again), cancelling, and restarting a run whose worker died.

How a run is played, and what happens when its worker dies, is in :mod:`matchups.worker`.

Every function takes the time from ``now`` (a clock), so tests move time instead of sleeping.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from decks.formats.json_format import deck_to_dict
from decks.models import Deck
from matchups.games import deck_names, prepare_decks
from matchups.models import MatchupRun
from matchups.tasks import matchup_work
from matchups.worker import QUEUED_WAIT, Clock
from rules.decklist import Deck as DeckData
from rules.game import engine
from rules.game.config import RULES_VERSION, GameConfig
from rules.game.gauntlet import MAX_FIELD, MODES, pairings
from rules.game.matchup import MatchupSpec
from sitewide.background_runs import Limits, RunRefused
from sitewide.db_retry import retry_locked

DEFAULT_GAMES = 1000
DEFAULT_SEED = 1
ROUND_CAP = 40
#: Every game seats every deck, so a matchup game costs about as many solo games as it has
#: decks: the limits are the goldfish ones in games, divided accordingly at start.
ANONYMOUS = Limits(games=1_000, at_once=2)
SIGNED_IN = Limits(games=20_000, at_once=2)


def limits_for(user: Any) -> Limits:
    return SIGNED_IN if user is not None and user.is_authenticated else ANONYMOUS


@dataclass(frozen=True)
class MatchupOptions:
    games: int = DEFAULT_GAMES
    seed: int = DEFAULT_SEED
    policy: str = "greedy"
    target: int = 25
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


def contents_hash(decks: Sequence[DeckData], prepared: Sequence[engine.Prepared]) -> str:
    """What a run's result depends on besides its options: each deck's name, cards in order and
    their facts, in seat order (the order decides who sits where in each game)."""
    document = [
        {"name": deck.name,
         "parts": {k: v for k, v in deck_to_dict(deck).items()
                   if k not in ("name", "players", "description")},
         "facts": {cid: dict(facts) for cid, facts in p.facts.items()}}
        for deck, p in zip(decks, prepared, strict=True)
    ]
    encoded = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(encoded.encode()).hexdigest()


def matchup_run_start(*, decks: Sequence[DeckData], options: MatchupOptions, user: Any,
                      requester: str, source: Deck | None = None,
                      now: Clock = timezone.now) -> tuple[MatchupRun, bool]:
    """The run of ``decks`` with ``options``: the stored one when the same decks were already
    run with the same options (``False``), otherwise a new run, its task enqueued once the
    transaction commits (``True``).

    Raises DeckNotPlayable (naming the deck) or RunRefused; ValueError for a policy list that
    does not fit the decks."""
    limits = limits_for(user)
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
        more = "" if limits is SIGNED_IN else f" Sign in to run up to {SIGNED_IN.games:,}."
        if tables == 1:
            raise RunRefused(400, "too_many_games", f"A matchup may have at most "
                             f"{limits.games:,} games, not {options.games:,}.{more}")
        raise RunRefused(400, "too_many_games", f"A run may have at most {limits.games:,} "
                         f"games in all; this {options.mode} plays {tables} pairings, so at "
                         f"most {limits.games // tables:,} games each, not "
                         f"{options.games:,}.{more}")
    prepared = prepare_decks(decks, options.config(len(decks)))
    key = contents_hash(decks, prepared)
    found = _reusable(key, options)
    if found is not None:
        return found, False
    if MatchupRun.objects.filter(requester=requester,
                                 status__in=MatchupRun.ACTIVE).count() >= limits.at_once:
        raise RunRefused(429, "too_many_runs",
                         f"You have {limits.at_once} matchup runs going already; wait for one "
                         "to finish (or cancel one) before starting another.")

    def create() -> MatchupRun:
        return MatchupRun.objects.create(
            owner=user if user is not None and user.is_authenticated else None,
            requester=requester, deck=source, deck_names=deck_names(decks),
            decklists=[deck_to_dict(d) for d in decks],
            card_facts=[{cid: dict(f) for cid, f in p.facts.items()} for p in prepared],
            contents_hash=key, mode=options.mode, games=options.games, seed=options.seed,
            policy=options.policy, target=options.target, round_cap=ROUND_CAP,
            rules_version=RULES_VERSION,
            lease_expires=now() + QUEUED_WAIT)

    try:
        run = retry_locked(create)
    except IntegrityError:  # the same run was started a moment ago by another request
        found = _reusable(key, options)
        if found is None:
            raise
        return found, False
    _enqueue_on_commit(run)
    return run, True


def _enqueue_on_commit(run: MatchupRun) -> None:
    run_id = str(run.pk)
    transaction.on_commit(lambda: matchup_work.enqueue(run_id))


def _reusable(key: str, options: MatchupOptions) -> MatchupRun | None:
    return MatchupRun.objects.filter(
        contents_hash=key, mode=options.mode, rules_version=RULES_VERSION, policy=options.policy,
        target=options.target, round_cap=ROUND_CAP, games=options.games, seed=options.seed,
        status__in=MatchupRun.REUSABLE).first()


def matchup_run_cancel(*, run: MatchupRun, now: Clock = timezone.now) -> MatchupRun:
    """Stop a queued or running run: the worker stops after the chunk it is playing."""
    retry_locked(lambda: MatchupRun.objects.filter(pk=run.pk, status__in=MatchupRun.ACTIVE)
                 .update(status=MatchupRun.CANCELLED, finished_at=now(), lease_expires=None))
    run.refresh_from_db()
    return run


def matchup_run_nudge(*, run: MatchupRun, now: Clock = timezone.now) -> bool:
    """Called whenever someone looks at an unfinished run: if its lease has expired (its worker
    died: 15 s after its last heartbeat; or no worker took it within QUEUED_WAIT), queue it again
    for the next worker. True when it did."""
    if not run.active:
        return False
    moment = now()
    if not retry_locked(lambda: MatchupRun.objects.filter(
            Q(lease_expires__isnull=True) | Q(lease_expires__lt=moment),
            pk=run.pk, status__in=MatchupRun.ACTIVE).update(status=MatchupRun.QUEUED,
                                                            lease_expires=moment + QUEUED_WAIT)):
        return False
    _enqueue_on_commit(run)
    return True
