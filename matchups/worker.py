"""Playing a matchup run on a worker (the task is :mod:`matchups.tasks`).

A run is played by one task, a chunk of games at a time; after each chunk the task stores the
games done (the progress), renews its lease and stops if the run was cancelled meanwhile. The
report is built from the chunks' tallies merged in order, so it is the ``matchup`` command's,
byte for byte. A worker that dies loses its tally: once its lease has expired, whoever looks at
the run (the API or the report page, matchups.runs.matchup_run_nudge) queues it again and it is
played from its first game; the dead worker, should it wake, finds the run no longer its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db.models import Q
from django.utils import timezone

from decks.formats.json_format import deck_from_dict
from matchups.games import card_names
from matchups.models import MatchupRun
from rules.cards import CardFacts
from rules.game import engine
from rules.game.config import GameConfig
from rules.game.gauntlet import build_field_report, pair_spec
from rules.game.matchup import (
    CHUNK,
    MatchupSpec,
    MatchupTally,
    build_matchup_report,
    run_chunk,
)
from rules.game.runner import chunks
from sitewide.db_retry import retry_locked

type Clock = Callable[[], datetime]

#: How long a worker holds a run between two chunks: far longer than a chunk takes.
LEASE = timedelta(seconds=120)


def run_config(run: MatchupRun) -> GameConfig:
    """A matchup seats every deck; a gauntlet's or matrix's tables seat two."""
    players = len(run.decklists) if run.mode == "matchup" else 2
    return GameConfig(target=run.target, players=players, round_cap=run.round_cap)


def stored_decks(run: MatchupRun) -> list[engine.Prepared]:
    config = run_config(run)
    return [engine.prepare(deck_from_dict(dict(decklist)),
                           {cid: CardFacts.from_data(data) for cid, data in facts.items()},
                           config)
            for decklist, facts in zip(run.decklists, run.card_facts, strict=True)]


def matchup_run_work(*, run_id: Any, worker: str, now: Clock = timezone.now) -> str:
    """What the worker does for a run: take it (unless another live worker holds it), play its
    games chunk by chunk, storing the progress and stopping if it is cancelled, then store the
    report. Returns the run's status."""
    moment = now()
    taken = retry_locked(lambda: MatchupRun.objects.filter(
        Q(status=MatchupRun.QUEUED)
        | Q(status=MatchupRun.RUNNING, lease_expires__lt=moment),
        pk=run_id,
    ).update(status=MatchupRun.RUNNING, started_at=moment, games_done=0,
             lease_expires=moment + LEASE))
    run = MatchupRun.objects.filter(pk=run_id).first()
    if run is None:
        return "missing"
    if not taken:
        return run.status
    spec = MatchupSpec(run.games, run.seed, run.policy)
    config = run_config(run)
    try:
        prepared = stored_decks(run)
        tallies = []
        # A matchup is one table of every deck; a gauntlet or a matrix its pairings in order,
        # each played as the matchup of its two decks (rules.game.gauntlet).
        for number, pair in enumerate(run.pairs):
            decks = [prepared[d] for d in pair]
            pair_spec_ = spec if run.mode == "matchup" else pair_spec(spec, (pair[0], pair[1]))
            total = MatchupTally(len(decks))
            for first, last in chunks(run.games, CHUNK):
                total.merge(run_chunk(decks, pair_spec_, config, first, last))
                done = number * run.games + last
                if not retry_locked(partial(_record_progress, run_id, moment, done, now)):
                    run.refresh_from_db()
                    return run.status  # cancelled, or another worker took it over
            tallies.append(total)
        names = card_names(prepared)
        if run.mode == "matchup":
            report = build_matchup_report(tallies[0], names=run.deck_names, card_names=names,
                                          seed=run.seed, policy=run.policy, config=config)
        else:
            report = build_field_report(tallies, mode=run.mode, names=run.deck_names,
                                        card_names=names, seed=run.seed, policy=run.policy,
                                        config=config)
    except Exception as error:
        message = f"{type(error).__name__}: {error}"[:2000]
        retry_locked(lambda: MatchupRun.objects.filter(
            pk=run_id, status__in=MatchupRun.ACTIVE).update(
                status=MatchupRun.FAILED, error=message,
                finished_at=now(), lease_expires=None))
        raise
    text = json.dumps(report, ensure_ascii=False)
    retry_locked(lambda: MatchupRun.objects.filter(pk=run_id, status=MatchupRun.RUNNING,
                                                   started_at=moment)
                 .update(status=MatchupRun.DONE, report_json=text, finished_at=now(),
                         lease_expires=None))
    run.refresh_from_db()
    return run.status


def _record_progress(run_id: Any, started: datetime, games_done: int, now: Clock) -> int:
    # Only while the run is still this worker's (its start time is the mark): not cancelled,
    # nor taken over by another worker after this one's lease expired.
    return MatchupRun.objects.filter(pk=run_id, status=MatchupRun.RUNNING,
                                     started_at=started).update(
        games_done=games_done, lease_expires=now() + LEASE)
