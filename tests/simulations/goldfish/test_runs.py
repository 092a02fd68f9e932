"""Goldfish runs as background jobs (simulations.runs): chunks leased and re-leased, tallies
kept once, the command's report, the cache, cancelling, limits and retries on a locked SQLite.
Workers run in the test's process; time moves only by the test's clock."""

from __future__ import annotations

import json
from typing import Any
from unittest import mock

import pytest
from django.db import OperationalError
from django.db.models import QuerySet
from django_tasks_db.models import DBTaskResult

from rules.game.report import Tally
from rules.game.runner import play_game, run_chunk
from simulations import db_retry
from simulations.chunks import (
    LEASE,
    WATCHDOG_LATE,
    simulation_chunk_complete,
    simulation_chunk_lease,
    simulation_run_finish,
)
from simulations.games import replay_rounds
from simulations.models import SimulationChunk, SimulationRun
from simulations.plays import solo_spec, stored_decks
from simulations.runs import (
    ANONYMOUS,
    SIGNED_IN,
    RunOptions,
    RunRefused,
    deck_goldfish_headline,
    requester_key,
    simulation_run_cancel,
    simulation_run_nudge,
)
from tests.simulations.goldfish.helpers import (
    OTHER_TEXT,
    Clock,
    command_report_json,
    sample_deck,
    start,
    work,
)

pytestmark = pytest.mark.django_db
SMALL = RunOptions(games=30, seed=5)
LOST = OperationalError("server closed the connection unexpectedly")


@pytest.fixture(autouse=True)
def small_chunks(settings: Any) -> None:
    settings.GOLDFISH_CHUNK_GAMES = 10


@pytest.mark.parametrize("chunk", [7, 10, 30, 250])
@pytest.mark.parametrize("options", [SMALL, RunOptions(games=25, seed=9, policy="random",
                                                       target=15, players=2)],
                         ids=["greedy", "random-target-15-players-2"])
def test_a_run_played_in_chunks_reports_the_command_s_bytes(
    settings: Any, chunk: int, options: RunOptions
) -> None:
    settings.GOLDFISH_CHUNK_GAMES = chunk
    run, created = start(options)
    assert created and run.status == "queued" and run.chunks_total == -(-options.games // chunk)
    run = work(run)
    assert (run.status, run.chunks_done) == ("done", run.chunks_total)
    assert run.report_json == command_report_json(options)
    assert list(run.report or {}) == list(json.loads(command_report_json(options)))


def test_asking_again_returns_the_stored_run_and_other_options_start_a_new_one() -> None:
    run, _ = start(SMALL)
    again, created = start(SMALL)
    assert (again.pk, created) == (run.pk, False)  # even while it is still queued
    work(run)
    again, created = start(SMALL, requester="anon:someone-else")
    assert (again.pk, created, again.status) == (run.pk, False, "done")
    for i, other in enumerate((RunOptions(games=31, seed=5), RunOptions(games=30, seed=6),
                               RunOptions(games=30, seed=5, target=20))):
        assert start(other, requester=f"user:{i}")[0].pk != run.pk
    assert start(SMALL, text=OTHER_TEXT, requester="user:10")[0].pk != run.pk


def test_a_renamed_deck_is_a_different_run_because_the_report_names_it() -> None:
    run, _ = start(SMALL)
    renamed, created = start(SMALL, text=OTHER_TEXT.replace("# Guild Veterans", "# Other"),
                             requester="user:3")
    assert created and renamed.contents_hash != run.contents_hash


def test_a_chunk_completed_twice_counts_once() -> None:
    clock = Clock()
    run, _ = start(SMALL)
    chunk = simulation_chunk_lease(run_id=run.pk, worker="a", now=clock)
    assert chunk is not None and (chunk.index, chunk.lease_owner) == (0, "a")
    tally = run_chunk(stored_decks(run)[0], solo_spec(run), chunk.first, chunk.last)
    assert simulation_chunk_complete(chunk=chunk, worker="a", tally=tally, now=clock)
    assert not simulation_chunk_complete(chunk=chunk, worker="b", tally=Tally(games=99), now=clock)
    chunk.refresh_from_db()
    run.refresh_from_db()
    assert (run.chunks_done, chunk.lease_owner, chunk.tally) == (1, "a", tally.to_dict())
    assert work(run).report_json == command_report_json(SMALL)


def test_a_dead_worker_s_chunk_is_leased_again_once_its_lease_expires() -> None:
    clock = Clock()
    run, _ = start(RunOptions(games=10, seed=5))  # one chunk
    taken = simulation_chunk_lease(run_id=run.pk, worker="doomed", now=clock)
    assert taken is not None and taken.attempts == 1
    # The worker dies here. While its lease lasts, nobody else gets the chunk...
    clock.advance(seconds=LEASE.total_seconds() - 1)
    assert simulation_chunk_lease(run_id=run.pk, worker="rescuer", now=clock) is None
    assert work(run, "rescuer", now=clock).status == "running"
    # ...once it has expired, the next worker plays it and finishes the run.
    clock.advance(seconds=2)
    run = work(run, "rescuer", now=clock)
    chunk = run.chunks.get()
    assert (run.status, chunk.lease_owner, chunk.attempts) == ("done", "rescuer", 2)
    assert run.report_json == command_report_json(RunOptions(games=10, seed=5))


def test_a_slow_worker_finishing_after_its_lease_was_taken_over_counts_once() -> None:
    clock = Clock()
    run, _ = start(RunOptions(games=10, seed=5))
    slow = simulation_chunk_lease(run_id=run.pk, worker="slow", now=clock)
    clock.advance(seconds=LEASE.total_seconds() + 1)
    assert simulation_chunk_lease(run_id=run.pk, worker="fast", now=clock) is not None
    assert slow is not None
    tally = run_chunk(stored_decks(run)[0], solo_spec(run), slow.first, slow.last)
    assert simulation_chunk_complete(chunk=slow, worker="slow", tally=tally, now=clock)
    assert simulation_run_finish(run_id=run.pk, now=clock)
    run = work(run, "fast", now=clock)  # nothing left to do
    assert (run.status, run.chunks_done) == ("done", 1)


def test_a_cancelled_run_skips_its_remaining_chunks_and_can_be_asked_for_again() -> None:
    clock = Clock()
    run, _ = start(SMALL)
    first = simulation_chunk_lease(run_id=run.pk, worker="a", now=clock)
    assert first is not None
    run = simulation_run_cancel(run=run, now=clock)
    assert run.status == "cancelled" and run.finished_at == clock.now
    assert set(run.chunks.values_list("status", flat=True)) == {"skipped"}
    assert simulation_chunk_lease(run_id=run.pk, worker="b", now=clock) is None
    assert work(run, "b").status == "cancelled" and run.report is None
    again, created = start(SMALL)
    assert created and again.pk != run.pk


def test_an_engine_error_fails_the_run_with_its_message() -> None:
    run, _ = start(SMALL)
    with (mock.patch("simulations.plays.run_solo_chunk", side_effect=RuntimeError("boom")),
          pytest.raises(RuntimeError)):
        work(run)
    run.refresh_from_db()
    assert (run.status, run.error) == ("failed", "RuntimeError: boom")
    assert set(run.chunks.values_list("status", flat=True)) == {"skipped"}


@pytest.mark.parametrize(("user", "limits"), [(None, ANONYMOUS), ("signed-in", SIGNED_IN)])
def test_games_per_run_are_limited_by_account(django_user_model: Any, user: Any,
                                              limits: Any) -> None:
    who = django_user_model.objects.create_user("gf") if user else None
    with pytest.raises(RunRefused) as refused:
        start(RunOptions(games=limits.games + 1), user=who)
    assert (refused.value.status, refused.value.code) == (400, "too_many_games")
    assert f"{limits.games:,}" in refused.value.detail


def test_runs_at_once_are_limited_but_a_stored_run_is_always_returned() -> None:
    first, _ = start(RunOptions(games=10, seed=1))
    start(RunOptions(games=10, seed=2))
    with pytest.raises(RunRefused) as refused:
        start(RunOptions(games=10, seed=3))
    assert (refused.value.status, refused.value.code) == (429, "too_many_runs")
    assert start(RunOptions(games=10, seed=1))[0].pk == first.pk  # no new work
    assert start(RunOptions(games=10, seed=3), requester="anon:another-address")[1]
    work(first)
    assert start(RunOptions(games=10, seed=4))[1]


def test_requester_keys_name_the_user_or_hide_the_address(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("key")
    assert requester_key(user, "10.0.0.1") == f"user:{user.pk}"
    anonymous = requester_key(None, "10.0.0.1")
    assert anonymous.startswith("anon:") and "10.0.0.1" not in anonymous
    assert anonymous != requester_key(None, "10.0.0.2")


def test_starting_a_run_enqueues_its_tasks_and_a_watchdog_once_committed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        run, _ = start(SMALL)
    tasks = DBTaskResult.objects.filter(task_path="simulations.tasks.simulation_work")
    assert [t.args_kwargs["args"] for t in tasks] == [[str(run.pk)]] * 3
    deferred = [t for t in tasks if t.run_after.year < 9999]
    assert len(deferred) == 1 and deferred[0].run_after == run.watch_at


def test_an_overdue_watchdog_is_replaced_when_someone_looks_at_the_run(
    django_capture_on_commit_callbacks: Any,
) -> None:
    clock = Clock()
    run, _ = start(SMALL, now=clock)
    assert run.watch_at == clock.now + LEASE
    tasks = DBTaskResult.objects.filter(task_path="simulations.tasks.simulation_work")
    with django_capture_on_commit_callbacks(execute=True):
        assert not simulation_run_nudge(run=run, now=clock)  # the watchdog is not due yet
        clock.advance(seconds=LEASE.total_seconds() + WATCHDOG_LATE.total_seconds() - 1)
        assert not simulation_run_nudge(run=run, now=clock)  # late, but not that late
        clock.advance(seconds=2)
        assert simulation_run_nudge(run=run, now=clock)
        assert not simulation_run_nudge(run=run, now=clock)  # one new watchdog, not one a look
    assert tasks.count() == 2  # one to work now, one watchdog
    run.refresh_from_db()
    assert run.watch_at == clock.now + LEASE


def test_a_worker_leaving_chunks_to_others_schedules_a_watchdog_for_their_leases(
    django_capture_on_commit_callbacks: Any,
) -> None:
    clock = Clock()
    run, _ = start(SMALL, now=clock)
    held = simulation_chunk_lease(run_id=run.pk, worker="other", now=clock)
    assert held is not None and held.lease_expires is not None
    clock.advance(seconds=LEASE.total_seconds() + 5)  # the first watchdog is due: this is it
    simulation_chunk_lease(run_id=run.pk, worker="other", now=clock)  # the other worker again
    with django_capture_on_commit_callbacks(execute=True):
        run = work(run, "watchdog", now=clock)
    assert run.status == "running" and run.chunks_done == 2
    latest = run.chunks.get(status="running").lease_expires
    assert latest is not None and run.watch_at is not None and run.watch_at > latest


def test_replaying_a_game_round_by_round_ends_as_the_runner_s_game() -> None:
    run, _ = start(SMALL)
    prepared, spec = stored_decks(run)[0], solo_spec(run)
    game = replay_rounds(prepared, spec, 7)
    final = play_game(prepared, spec, 7, record=True)
    assert game.states[game.final_round] == final.to_dict()
    assert sorted(game.states) == list(range(1, game.final_round + 1))
    assert game.outcome == final.outcome
    assert any("Victory check" in line for line in game.lines[2])


def test_the_deck_page_headline_finds_the_newest_report_of_the_same_contents() -> None:
    assert deck_goldfish_headline(sample_deck())["report"] is None
    run = work(start(SMALL)[0])
    headline = deck_goldfish_headline(sample_deck())
    assert headline["done"].pk == run.pk and headline["report"]["games"] == 30
    real = sample_deck("# Real\nInitial Holdings\n1 Acormis Winters\n")
    assert "not known yet" in deck_goldfish_headline(real)["problem"]


# --- "database is locked" --------------------------------------------------------------------

LOCKED = OperationalError("database is locked")


@pytest.mark.parametrize(
    ("failures", "tries", "outcome", "waits"),
    [
        ([], 5, "written", []),
        ([LOCKED], 5, "written", [0.05]),
        ([LOCKED, LOCKED, LOCKED], 5, "written", [0.05, 0.1, 0.2]),
        ([LOCKED] * 5, 5, "locked", [0.05, 0.1, 0.2, 0.4]),
        ([OperationalError("no such table: x")], 5, "other", []),
        ([LOCKED, ValueError("bad")], 5, "other", [0.05]),
    ],
    ids=["first-time", "once", "three-times", "gives-up", "other-error", "then-other-error"],
)
def test_a_write_refused_by_a_locked_database_is_retried_a_bounded_number_of_times(
    failures: list[Exception], tries: int, outcome: str, waits: list[float]
) -> None:
    pending = list(failures)
    waited: list[float] = []

    def write() -> str:
        if pending:
            raise pending.pop(0)
        return "written"

    try:
        result = db_retry.retry_locked(write, tries=tries, sleep=waited.append)
    except OperationalError as error:
        result = "locked" if db_retry.is_database_locked(error) else "other"
    except ValueError:
        result = "other"
    assert (result, waited) == (outcome, waits)


def test_storing_a_chunk_s_tally_is_retried_when_the_database_is_locked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run, _ = start(RunOptions(games=10, seed=5))
    chunk = simulation_chunk_lease(run_id=run.pk, worker="a")
    assert chunk is not None
    tally = run_chunk(stored_decks(run)[0], solo_spec(run), chunk.first, chunk.last)
    real_update = QuerySet.update
    refusals = [LOCKED]

    def update(self: QuerySet[Any], **kwargs: Any) -> int:
        if self.model is SimulationChunk and refusals:
            raise refusals.pop()
        return real_update(self, **kwargs)

    waits: list[float] = []
    monkeypatch.setattr(QuerySet, "update", update)
    monkeypatch.setattr(db_retry.time, "sleep", waits.append)
    assert simulation_chunk_complete(chunk=chunk, worker="a", tally=tally)
    run.refresh_from_db()
    assert (refusals, waits, run.chunks_done) == ([], [db_retry.FIRST_WAIT], 1)
    assert SimulationRun.objects.get(pk=run.pk).chunks.get().status == "done"


def test_a_worker_waits_out_a_database_outage_and_hands_back_a_lease_it_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PostgreSQL restarts twice during a run: once just after a lease was stored (its answer
    lost: the chunk is leased to this worker, which does not know it), once when a tally is
    to be stored. The task waits each out, hands the lost lease back at once instead of
    letting it expire, and the run ends with the command's report."""
    import simulations.tasks as tasks

    clock = Clock()  # never moved: no lease may need to expire
    run, _ = start(SMALL)  # 3 chunks
    real_lease, real_complete = tasks.simulation_chunk_lease, tasks.simulation_chunk_complete
    lease_outages, complete_outages = [LOST], [LOST]

    def lease(**kwargs: Any) -> SimulationChunk | None:
        chunk = real_lease(**kwargs)
        if lease_outages:
            raise lease_outages.pop()  # stored, but the answer never came
        return chunk

    def complete(**kwargs: Any) -> bool:
        if complete_outages:
            raise complete_outages.pop()
        return real_complete(**kwargs)

    waits: list[float] = []
    monkeypatch.setattr(tasks, "simulation_chunk_lease", lease)
    monkeypatch.setattr(tasks, "simulation_chunk_complete", complete)
    monkeypatch.setattr(db_retry.time, "sleep", waits.append)
    # Outside the test's transaction, a lost connection is closed and opened again.
    monkeypatch.setattr(db_retry, "connection", mock.Mock(in_atomic_block=False))
    run = work(run, "steady", now=clock)
    assert (lease_outages, complete_outages) == ([], [])
    assert waits == [db_retry.OUTAGE_FIRST_WAIT] * 2
    assert run.status == "done" and run.report_json == command_report_json(SMALL)
    assert sorted(run.chunks.values_list("attempts", flat=True)) == [1, 1, 2]
