"""Heartbeats on matchup runs (matchups.worker): the worker renews its run's 15 s lease while
a chunk plays, so a dead worker's run is queued again 15 s after its last heartbeat, not
120 s; a live worker keeps its run; a worker whose run was taken back or cancelled stops at
its next heartbeat; the worker that takes the run over goes on after the chunks already
played; a queued run still waits 2 minutes for a worker. Time moves only by the test's clock,
which the patched games move as they are played."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from decks.deck_input import deck_from_text
from matchups import worker as worker_module
from matchups.models import MatchupRun
from matchups.runs import MatchupOptions, matchup_run_cancel, matchup_run_nudge, matchup_run_start
from matchups.tallies import tally_from_data, tally_to_data
from matchups.worker import LEASE, QUEUED_WAIT, matchup_run_work
from rules.game.matchup import MatchupSpec, run_chunk
from tests.commands import run_command
from tests.conftest import FIXTURES
from tests.goldfish.helpers import Clock

pytestmark = pytest.mark.django_db
FAITHFUL = FIXTURES / "decklists" / "kalim-faithful.txt"
BLADES = FIXTURES / "decklists" / "mosfin-blades.txt"
VETERANS = FIXTURES / "decklists" / "guild-veterans.txt"
OPTIONS = MatchupOptions(games=20, seed=3)  # one chunk of 20 games: four slices of 5


@pytest.fixture(autouse=True)
def slices_of_five(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker_module, "SLICE_GAMES", 5)


def start(clock: Clock, options: MatchupOptions = OPTIONS,
          files: tuple[Path, ...] = (FAITHFUL, BLADES)) -> MatchupRun:
    decks = [deck_from_text(path.read_text(encoding="utf-8")) for path in files]
    run, created = matchup_run_start(decks=decks, options=options, user=None,
                                     requester="anon:test", now=clock)
    assert created
    return run


def command_report(options: MatchupOptions = OPTIONS,
                   files: tuple[Path, ...] = (FAITHFUL, BLADES)) -> str:
    mode = [] if options.mode == "matchup" else [f"--{options.mode}"]
    code, out, _ = run_command("matchup", *map(str, files), *mode, "--games",
                               str(options.games), "--seed", str(options.seed),
                               "--format", "json")
    assert code == 0
    return json.dumps(json.loads(out))


def playing(monkeypatch: pytest.MonkeyPatch, during: Callable[[int], None]) -> list[int]:
    """Make every slice the worker plays call ``during(first)`` first; returns the first game
    of each slice played."""
    played: list[int] = []

    def run_slice(prepared: Any, spec: Any, config: Any, first: int, last: int) -> Any:
        played.append(first)
        during(first)
        return run_chunk(prepared, spec, config, first, last)

    monkeypatch.setattr(worker_module, "run_chunk", run_slice)
    return played


def test_a_dead_worker_s_run_is_queued_again_15_seconds_after_its_last_heartbeat() -> None:
    clock = Clock()
    run = start(clock)
    # A worker takes the run and renews its lease once, then dies: nobody renews it again.
    MatchupRun.objects.filter(pk=run.pk).update(status="running", started_at=clock.now,
                                                lease_expires=clock.now + LEASE)
    run.refresh_from_db()
    clock.advance(seconds=14)
    assert not matchup_run_nudge(run=run, now=clock)
    clock.advance(seconds=2)
    assert matchup_run_nudge(run=run, now=clock)
    assert matchup_run_work(run_id=run.pk, worker="rescuer", now=clock) == "done"
    run.refresh_from_db()
    assert run.games_done == 20 and json.dumps(run.report) == command_report()


def test_a_queued_run_waits_two_minutes_for_a_worker_before_it_is_queued_again() -> None:
    clock = Clock()
    run = start(clock)
    assert run.lease_expires == clock.now + QUEUED_WAIT == clock.now + timedelta(minutes=2)
    clock.advance(seconds=LEASE.total_seconds() + 1)  # a busy queue: more tasks would not help
    assert not matchup_run_nudge(run=run, now=clock)
    clock.advance(seconds=QUEUED_WAIT.total_seconds())
    assert matchup_run_nudge(run=run, now=clock)


def test_a_live_worker_s_heartbeats_keep_its_run(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    run = start(clock)
    nudged: list[bool] = []

    def slow_slice(first: int) -> None:
        clock.advance(seconds=6)  # four slices: 24 s, longer than a lease
        nudged.append(matchup_run_nudge(run=MatchupRun.objects.get(pk=run.pk), now=clock))

    played = playing(monkeypatch, slow_slice)
    assert matchup_run_work(run_id=run.pk, worker="live", now=clock) == "done"
    assert played == [1, 6, 11, 16] and nudged == [False] * 4
    run.refresh_from_db()
    assert run.games_done == 20 and json.dumps(run.report) == command_report()


def test_a_worker_whose_run_was_taken_back_stops_at_its_next_heartbeat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    run = start(clock)

    stalled: list[int] = []

    def stall_once(first: int) -> None:
        if not stalled:  # the first worker's first slice: it stalls past its lease
            stalled.append(first)
            clock.advance(seconds=LEASE.total_seconds() + 1)
            assert matchup_run_nudge(run=MatchupRun.objects.get(pk=run.pk), now=clock)

    played = playing(monkeypatch, stall_once)
    assert matchup_run_work(run_id=run.pk, worker="stalled", now=clock) == "queued"
    assert played == [1]
    assert matchup_run_work(run_id=run.pk, worker="rescuer", now=clock) == "done"
    assert played == [1, 1, 6, 11, 16]
    run.refresh_from_db()
    assert run.games_done == 20 and json.dumps(run.report) == command_report()


def test_a_cancelled_run_s_worker_stops_at_its_next_heartbeat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    run = start(clock)

    def cancel_in_first_slice(first: int) -> None:
        if first == 1:
            clock.advance(seconds=6)
            matchup_run_cancel(run=MatchupRun.objects.get(pk=run.pk), now=clock)

    played = playing(monkeypatch, cancel_in_first_slice)
    assert matchup_run_work(run_id=run.pk, worker="w", now=clock) == "cancelled"
    assert played == [1]  # not the whole chunk of 50 (here 20) games


@pytest.mark.parametrize(("options", "files", "stall_at", "rescued"), [
    # Chunks of 10, slices of 5: the stalled worker stored two chunks, the rescuer plays the
    # third from game 21.
    (MatchupOptions(games=30, seed=3), (FAITHFUL, BLADES), 5, [21, 26]),
    # A gauntlet of two pairings of 20 games: the first pairing and the second's first chunk
    # were stored; the rescuer plays the second pairing from game 11.
    (MatchupOptions(games=20, seed=3, mode="gauntlet"), (FAITHFUL, BLADES, VETERANS), 7,
     [11, 16]),
    # Stalled in the first chunk: nothing was stored, the rescuer plays from game 1.
    (MatchupOptions(games=20, seed=3), (FAITHFUL, BLADES), 2, [1, 6, 11, 16]),
], ids=["matchup", "gauntlet-mid-pairing", "nothing-stored"])
def test_the_worker_taking_a_run_over_goes_on_after_the_chunks_already_played(
        monkeypatch: pytest.MonkeyPatch, options: MatchupOptions, files: tuple[Path, ...],
        stall_at: int, rescued: list[int]) -> None:
    monkeypatch.setattr(worker_module, "CHUNK", 10)
    clock = Clock()
    run = start(clock, options, files)
    slices = 0

    def stall_once(first: int) -> None:
        nonlocal slices
        slices += 1
        if slices == stall_at:  # the first worker stalls past its lease here
            clock.advance(seconds=LEASE.total_seconds() + 1)
            assert matchup_run_nudge(run=MatchupRun.objects.get(pk=run.pk), now=clock)

    played = playing(monkeypatch, stall_once)
    assert matchup_run_work(run_id=run.pk, worker="stalled", now=clock) == "queued"
    assert len(played) == stall_at
    del played[:]
    assert matchup_run_work(run_id=run.pk, worker="rescuer", now=clock) == "done"
    assert played == rescued
    run.refresh_from_db()
    assert run.games_done == run.total_games
    assert json.dumps(run.report) == command_report(options, files)


@pytest.mark.parametrize(("decks", "games", "first"), [(2, 7, 1), (3, 12, 5), (6, 4, 40)])
def test_a_tally_as_json_text_and_back_is_the_same_tally(
        decks: int, games: int, first: int) -> None:
    files = (FAITHFUL, BLADES, VETERANS, FAITHFUL, BLADES, VETERANS)[:decks]
    run = start(Clock(), MatchupOptions(games=games, seed=first), files)
    prepared = worker_module.stored_decks(run)
    config = worker_module.run_config(run)
    tally = run_chunk(prepared, MatchupSpec(games, first), config, first, first + games - 1)
    again = tally_from_data(json.loads(json.dumps(tally_to_data(tally))))
    assert again == tally
    assert [list(d.cards) for d in again.per_deck] == [list(d.cards) for d in tally.per_deck]
