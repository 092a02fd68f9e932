"""Matchups, gauntlets and matrices on the simulations' chunk leases (simulations.chunks,
simulations.tasks), as goldfish runs are: a worker killed mid-run loses nothing but the slices
of the chunk it was playing, the worker that takes over plays only what is left, and the report
is the uninterrupted one, every game counted once (docs/design.md §14). A live worker keeps its
chunk; a worker whose chunk was taken over, or whose run was cancelled, stops at its next
heartbeat. Time moves only by the test's clock, which the patched games move as they are
played."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from decks.deck_input import deck_from_text
from rules.game.matchup import MatchupSpec, run_chunk
from simulations import plays as plays_module
from simulations.chunks import LEASE, simulation_chunk_lease
from simulations.models import SimulationRun
from simulations.runs import MatchupOptions, matchup_run_start, simulation_run_cancel
from simulations.tallies import tally_from_data, tally_to_data
from simulations.tasks import simulation_run_work
from tests.commands import run_command
from tests.conftest import FIXTURES
from tests.simulations.goldfish.helpers import Clock

pytestmark = pytest.mark.django_db
FAITHFUL = FIXTURES / "decklists" / "kalim-faithful.txt"
BLADES = FIXTURES / "decklists" / "mosfin-blades.txt"
VETERANS = FIXTURES / "decklists" / "guild-veterans.txt"
OPTIONS = MatchupOptions(games=20, seed=3)  # one chunk of 20 games: four slices of 5


class Killed(BaseException):
    """The worker's death: nothing of it runs after this (not its ``except Exception``)."""


@pytest.fixture(autouse=True)
def slices_of_five(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plays_module, "TABLE_SLICE_GAMES", 5)


def start(clock: Clock, options: MatchupOptions = OPTIONS,
          files: tuple[Path, ...] = (FAITHFUL, BLADES)) -> SimulationRun:
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
    """Make every slice a worker plays call ``during(how many slices so far)`` first; returns
    the first game of each slice played (of its pairing)."""
    played: list[int] = []

    def run_slice(prepared: Any, spec: Any, config: Any, first: int, last: int) -> Any:
        played.append(first)
        during(len(played))
        return run_chunk(prepared, spec, config, first, last)

    monkeypatch.setattr(plays_module, "run_table_chunk", run_slice)
    return played


@pytest.mark.parametrize(("options", "files", "killed_at", "replayed"), [
    # Chunks of 10 games, slices of 5: killed in the third chunk's second slice, after two
    # chunks were stored; the rescuer plays that chunk again, nothing before it.
    (MatchupOptions(games=30, seed=3), (FAITHFUL, BLADES), 6, [21, 26]),
    # A gauntlet of two pairings of 20 games: the first pairing and the second's first chunk
    # were stored; the rescuer plays the second pairing from game 11.
    (MatchupOptions(games=20, seed=3, mode="gauntlet"), (FAITHFUL, BLADES, VETERANS), 7,
     [11, 16]),
    # A matrix of three pairings of 10 games, killed in its last chunk.
    (MatchupOptions(games=10, seed=4, mode="matrix"), (FAITHFUL, BLADES, VETERANS), 6, [1, 6]),
    # Killed in the first chunk: nothing was stored, the rescuer plays from game 1.
    (MatchupOptions(games=20, seed=3), (FAITHFUL, BLADES), 2, [1, 6, 11, 16]),
], ids=["matchup", "gauntlet-mid-pairing", "matrix", "nothing-stored"])
def test_a_worker_killed_mid_run_loses_nothing_and_the_report_is_the_uninterrupted_one(
        monkeypatch: pytest.MonkeyPatch, settings: Any, options: MatchupOptions,
        files: tuple[Path, ...], killed_at: int, replayed: list[int]) -> None:
    monkeypatch.setattr(plays_module, "TABLE_CHUNK", 10)
    clock = Clock()
    run = start(clock, options, files)

    deaths: list[int] = []

    def die(number: int) -> None:
        if number == killed_at and not deaths:
            deaths.append(number)
            raise Killed

    played = playing(monkeypatch, die)
    with pytest.raises(Killed):
        simulation_run_work(run_id=run.pk, worker="killed", now=clock)
    assert len(played) == killed_at
    run.refresh_from_db()
    stored = run.games_done
    dead = run.chunks.get(status="running")  # leased by the dead worker until its lease ends
    assert dead.lease_owner == "killed"
    clock.advance(seconds=LEASE.total_seconds() + 1)
    del played[:]
    assert simulation_run_work(run_id=run.pk, worker="rescuer", now=clock) == "done"
    assert played[:len(replayed)] == replayed  # the dead worker's chunk, then what was left
    run.refresh_from_db()
    # Every game counted once: the games the dead worker stored, and the rest.
    assert run.games_done == run.total_games
    assert sum(c.games for c in run.chunks.all()) == run.total_games
    assert stored + sum(c.games for c in run.chunks.exclude(lease_owner="killed")) \
        == run.total_games
    assert json.dumps(run.report) == command_report(options, files)


def test_a_live_worker_s_heartbeats_keep_its_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    run = start(clock)
    taken: list[Any] = []

    def slow_slice(number: int) -> None:
        clock.advance(seconds=6)  # four slices: 24 s, longer than a lease
        taken.append(simulation_chunk_lease(run_id=run.pk, worker="other", now=clock))

    played = playing(monkeypatch, slow_slice)
    assert simulation_run_work(run_id=run.pk, worker="live", now=clock) == "done"
    assert played == [1, 6, 11, 16] and taken == [None] * 4
    run.refresh_from_db()
    assert run.games_done == 20 and json.dumps(run.report) == command_report()


def test_a_worker_whose_chunk_was_taken_over_stops_at_its_next_heartbeat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    run = start(clock)
    others: list[Any] = []

    def stall_once(number: int) -> None:
        if number == 1:  # the first worker stalls past its lease; another takes the chunk
            clock.advance(seconds=LEASE.total_seconds() + 1)
            others.append(simulation_chunk_lease(run_id=run.pk, worker="rescuer", now=clock))

    played = playing(monkeypatch, stall_once)
    assert simulation_run_work(run_id=run.pk, worker="stalled", now=clock) == "running"
    assert played == [1] and others[0] is not None  # it stopped at its first heartbeat
    clock.advance(seconds=LEASE.total_seconds() + 1)  # the rescuer died too: a third worker
    assert simulation_run_work(run_id=run.pk, worker="third", now=clock) == "done"
    assert played == [1, 1, 6, 11, 16]
    run.refresh_from_db()
    assert run.games_done == 20 and json.dumps(run.report) == command_report()


def test_a_cancelled_run_s_worker_stops_at_its_next_heartbeat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    run = start(clock)

    def cancel_in_first_slice(number: int) -> None:
        if number == 1:
            clock.advance(seconds=6)
            simulation_run_cancel(run=SimulationRun.objects.get(pk=run.pk), now=clock)

    played = playing(monkeypatch, cancel_in_first_slice)
    assert simulation_run_work(run_id=run.pk, worker="w", now=clock) == "cancelled"
    assert len(played) == 1  # not the whole chunk


@pytest.mark.parametrize(("decks", "games", "first"), [(2, 7, 1), (3, 12, 5), (4, 4, 40)])
def test_a_tally_as_json_text_and_back_is_the_same_tally(
        decks: int, games: int, first: int) -> None:
    files = (FAITHFUL, BLADES, VETERANS, FAITHFUL, BLADES, VETERANS)[:decks]
    run = start(Clock(), MatchupOptions(games=games, seed=first), files)
    prepared = plays_module.stored_decks(run)
    config = plays_module.run_config(run)
    tally = run_chunk(prepared, MatchupSpec(games, first), config, first, first + games - 1)
    again = tally_from_data(json.loads(json.dumps(tally_to_data(tally))))
    assert again == tally
    assert [list(d.cards) for d in again.per_deck] == [list(d.cards) for d in tally.per_deck]
