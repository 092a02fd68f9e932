"""Playing a matchup run on a worker (the task is :mod:`matchups.tasks`).

A run is played by one task, a chunk of games at a time; after each chunk the task stores the
games done (the progress) and the tallies so far (matchups.tallies). The report is built from
the chunks' tallies merged in order, so it is the ``matchup`` command's, byte for byte.

The run is leased to its worker for :data:`LEASE` (15 s) at a time, and the worker's heartbeat
renews the lease every 5 s while it plays (sitewide.heartbeat); it plays each chunk in slices of
:data:`SLICE_GAMES` games and looks at its heartbeat between them. A worker that dies loses only
the chunk it was playing: 15 s after its last heartbeat, whoever looks at the run (the API or
the report page, matchups.runs.matchup_run_nudge) queues it again, and the worker that takes it
goes on from the tallies stored. The dead worker, should it wake, finds the run no longer its
own at its next heartbeat and stops, as a worker does when the run is cancelled.
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
from matchups.tallies import tally_from_data, tally_to_data
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
from sitewide import heartbeat
from sitewide.db_retry import retry_locked
from sitewide.heartbeat import Heartbeat

type Clock = Callable[[], datetime]

#: How long a lease lasts after its last renewal (sitewide.heartbeat): a live worker renews it
#: every 5 s while it plays; a dead worker's run waits this long to be queued again.
LEASE = heartbeat.LEASE
#: How long a queued run waits for a worker to take it before whoever looks at it queues it
#: again (its task may have been lost); a busy queue is not hurried by more tasks.
QUEUED_WAIT = timedelta(seconds=120)
#: Games between two looks at the heartbeat: at most about 1 s at a table of 6 greedy decks
#: (75 ms a game on average compiled, 206 ms at worst, on a loaded machine).
SLICE_GAMES = 5


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


def matchup_run_work(*, run_id: Any, worker: str, now: Clock = timezone.now,
                     background: bool = False) -> str:
    """What the worker does for a run: take it (unless another live worker holds it), play its
    games chunk by chunk with a heartbeat, storing the progress and stopping if it is cancelled
    or taken over, then store the report. Returns the run's status. ``background``: the
    heartbeat renews the lease from a thread of its own (a worker process)."""
    moment = now()
    taken = retry_locked(lambda: MatchupRun.objects.filter(
        Q(status=MatchupRun.QUEUED)
        | Q(status=MatchupRun.RUNNING, lease_expires__lt=moment),
        pk=run_id,
    ).update(status=MatchupRun.RUNNING, started_at=moment, lease_expires=moment + LEASE))
    run = MatchupRun.objects.filter(pk=run_id).first()
    if run is None:
        return "missing"
    if not taken:
        return run.status
    spec = MatchupSpec(run.games, run.seed, run.policy)
    config = run_config(run)
    try:
        prepared = stored_decks(run)
        # Go on after the chunks a former worker stored; the tally of a pairing it had begun
        # is the last one, and its games go on from the next chunk.
        tallies = ([tally_from_data(t) for t in json.loads(run.played_json)]
                   if run.played_json else [])
        before = run.games_done if run.played_json else 0
        with Heartbeat(partial(_renew_lease, run_id, moment), now=now,
                       background=background) as beating:
            # A matchup is one table of every deck; a gauntlet or a matrix its pairings in
            # order, each played as the matchup of its two decks (rules.game.gauntlet).
            for number, pair in enumerate(run.pairs):
                if (number + 1) * run.games <= before:
                    continue  # played by a former worker
                decks = [prepared[d] for d in pair]
                pair_spec_ = (spec if run.mode == "matchup"
                              else pair_spec(spec, (pair[0], pair[1])))
                if len(tallies) == number:
                    tallies.append(MatchupTally(len(decks)))
                total = tallies[number]
                for first, last in chunks(run.games, CHUNK):
                    if number * run.games + last <= before:
                        continue
                    for a, b in chunks(last - first + 1, SLICE_GAMES):
                        total.merge(run_chunk(decks, pair_spec_, config, first + a - 1,
                                              first + b - 1))
                        if not beating.beat():
                            run.refresh_from_db()
                            return run.status  # cancelled, or another worker took it over
                    played = json.dumps([tally_to_data(t) for t in tallies])
                    if not retry_locked(partial(_record_progress, run_id, moment,
                                                number * run.games + last, played, now)):
                        run.refresh_from_db()
                        return run.status
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


def _renew_lease(run_id: Any, started: datetime, moment: datetime) -> bool:
    """The heartbeat, while the run is still this worker's (its start time is the mark)."""
    return retry_locked(lambda: bool(MatchupRun.objects.filter(
        pk=run_id, status=MatchupRun.RUNNING, started_at=started).update(
            lease_expires=moment + LEASE)))


def _record_progress(run_id: Any, started: datetime, games_done: int, played: str,
                     now: Clock) -> int:
    # Only while the run is still this worker's (its start time is the mark): not cancelled,
    # nor taken over by another worker after this one's lease expired.
    return MatchupRun.objects.filter(pk=run_id, status=MatchupRun.RUNNING,
                                     started_at=started).update(
        games_done=games_done, played_json=played, lease_expires=now() + LEASE)
