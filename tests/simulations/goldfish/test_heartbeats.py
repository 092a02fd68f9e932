"""Heartbeats on goldfish chunks (simulations.tasks.play_chunk, simulations.chunks): a chunk played
in slices tallies as in one go; a dead worker's chunk is free 15 s after its lease was last
renewed, not 120 s; a live worker's renewals keep its chunk; a worker that lost its lease
stops and its chunk counts once; the watchdog comes back seconds after a lease would expire.
Workers run in the test's process; time moves only by the test's clock, which the patched
games move as they are played."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django_tasks_db.models import DBTaskResult

from rules.game.report import Tally
from rules.game.runner import run_chunk
from simulations import plays as plays_module
from simulations.chunks import (
    LEASE,
    simulation_chunk_complete,
    simulation_chunk_lease,
    simulation_run_finish,
)
from simulations.heartbeat import Heartbeat
from simulations.models import SimulationChunk, SimulationRun
from simulations.plays import slice_games, solo_spec, stored_decks
from simulations.runs import RunOptions
from simulations.tasks import play_chunk
from tests.simulations.goldfish.helpers import Clock, command_report_json, start, work

pytestmark = pytest.mark.django_db
SMALL = RunOptions(games=30, seed=5)


@pytest.fixture(autouse=True)
def one_chunk_of_three_slices(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.GOLDFISH_CHUNK_GAMES = 30
    monkeypatch.setattr(plays_module, "SLICE_GAMES", 10)


def playing(monkeypatch: pytest.MonkeyPatch, during: Callable[[int, int], None]) -> list[int]:
    """Make every slice the worker plays call ``during(first, last)`` first (the test moves
    its clock there, or lets another worker act); returns the first game of each slice."""
    played: list[int] = []

    def run_slice(prepared: Any, spec: Any, first: int, last: int) -> Any:
        played.append(first)
        during(first, last)
        return run_chunk(prepared, spec, first, last)

    monkeypatch.setattr(plays_module, "run_solo_chunk", run_slice)
    return played


@pytest.mark.parametrize("slice_size", [1, 3, 7, 30, 250])
@pytest.mark.parametrize("options", [
    RunOptions(games=30, seed=5),
    RunOptions(games=30, seed=9, policy="random", target=15, players=2),
], ids=["greedy", "random-2-players"])
def test_a_chunk_played_in_slices_tallies_as_in_one_go(
        monkeypatch: pytest.MonkeyPatch, slice_size: int, options: RunOptions) -> None:
    monkeypatch.setattr(plays_module, "SLICE_GAMES", slice_size)
    run, _ = start(options)
    chunk = run.chunks.get()
    prepared, spec = stored_decks(run)[0], solo_spec(run)
    with Heartbeat(lambda moment: True, now=Clock()) as beating:
        sliced = play_chunk(run, [prepared], chunk, beating)
    assert isinstance(sliced, Tally)
    whole = run_chunk(prepared, spec, chunk.first, chunk.last)
    assert json.dumps(sliced.to_dict()) == json.dumps(whole.to_dict())


@pytest.mark.parametrize(("policy", "games"), [
    ("greedy", 10), ("random", 10), ("lookahead", 1), ("lookahead:4", 1), ("reference", 1),
    ("reference:4", 1),
])
def test_a_rollout_player_s_game_is_a_slice_of_its_own(policy: str, games: int) -> None:
    assert slice_games(SimulationRun.GOLDFISH, policy) == games


def test_a_dead_worker_s_chunk_is_leased_again_15_seconds_after_its_lease_not_120() -> None:
    clock = Clock()
    run, _ = start(SMALL, now=clock)
    doomed = simulation_chunk_lease(run_id=run.pk, worker="doomed", now=clock)
    assert doomed is not None  # then the worker is killed: its lease is never renewed
    clock.advance(seconds=14)
    assert simulation_chunk_lease(run_id=run.pk, worker="rescuer", now=clock) is None
    clock.advance(seconds=2)
    run = work(run, "rescuer", now=clock)
    assert (run.status, run.chunks_done) == ("done", 1)
    assert run.chunks.get().lease_owner == "rescuer"
    assert run.report_json == command_report_json(SMALL)


def test_a_live_worker_s_heartbeats_keep_its_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    run, _ = start(SMALL, now=clock)
    taken_by_other: list[Any] = []

    def slow_slice(first: int, last: int) -> None:
        clock.advance(seconds=6)  # three slices: 18 s, longer than a lease
        taken_by_other.append(simulation_chunk_lease(run_id=run.pk, worker="other", now=clock))

    played = playing(monkeypatch, slow_slice)
    run = work(run, "live", now=clock)
    assert played == [1, 11, 21] and taken_by_other == [None, None, None]
    chunk = run.chunks.get()
    assert (chunk.lease_owner, chunk.attempts, run.status) == ("live", 1, "done")
    assert run.report_json == command_report_json(SMALL)


def test_a_worker_that_lost_its_lease_stops_and_its_chunk_counts_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    run, _ = start(SMALL, now=clock)
    others: list[SimulationChunk | None] = []

    def stall_then_lose(first: int, last: int) -> None:
        if first == 1:  # the worker stalls past its lease; another worker takes the chunk
            clock.advance(seconds=LEASE.total_seconds() + 1)
            others.append(simulation_chunk_lease(run_id=run.pk, worker="other", now=clock))

    played = playing(monkeypatch, stall_then_lose)
    run = work(run, "stalled", now=clock)
    assert played == [1]  # it found the lease lost at its first heartbeat and stopped
    assert (run.status, run.chunks_done) == ("running", 0)
    other = others[0]
    assert other is not None and other.lease_owner == "other"
    tally = run_chunk(stored_decks(run)[0], solo_spec(run), other.first, other.last)
    assert simulation_chunk_complete(chunk=other, worker="other", tally=tally, now=clock)
    assert simulation_run_finish(run_id=run.pk, now=clock)
    run.refresh_from_db()
    assert (run.status, run.chunks_done) == ("done", 1)
    assert run.report_json == command_report_json(SMALL)


def test_the_watchdog_comes_back_a_second_after_the_leases_it_waits_for(
        django_capture_on_commit_callbacks: Any, settings: Any) -> None:
    settings.GOLDFISH_CHUNK_GAMES = 10
    clock = Clock()
    run, _ = start(SMALL, now=clock)
    assert run.watch_at == clock.now + timedelta(seconds=15)
    held = simulation_chunk_lease(run_id=run.pk, worker="other", now=clock)
    assert held is not None and held.lease_expires == clock.now + timedelta(seconds=15)
    clock.advance(seconds=15)  # the first watchdog is due: this is it
    with django_capture_on_commit_callbacks(execute=True):
        run = work(run, "watchdog", now=clock)  # plays the free chunks, not the held one
    assert (run.status, run.chunks_done) == ("running", 2)
    assert run.watch_at == held.lease_expires + timedelta(seconds=1)
    due = DBTaskResult.objects.filter(task_path="simulations.tasks.simulation_work",
                                      run_after__year__lt=9999).order_by("-run_after")[0]
    assert due.run_after == run.watch_at
