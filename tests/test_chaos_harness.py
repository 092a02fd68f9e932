"""The chaos run's own logic (bench/load, `make chaos`): when the faults come, how the errors
are put to each fault and the time to recover measured, and the checks that no acknowledged
card edit or vote is lost, none is half applied, and every goldfish run has the command's
report. Pure tables: no server, no fault (`make chaos` does those)."""

from __future__ import annotations

import subprocess
from typing import Any
from unittest import mock

import pytest

from bench.load.card_edits import StoredCard, StoredEdit, StoredVote, check_card_edits
from bench.load.chaos import Postgres, busy_worker, process_state, workers_of
from bench.load.faults import (
    Fault,
    Schedule,
    error_kind,
    phase_lines,
    phases,
    recovery_lines,
    unrecovered,
)
from bench.load.goldfish_runs import StoredRun, check_runs, run_keys
from bench.load.records import (
    FAILED,
    OK,
    REFUSED,
    SERVER_ERROR,
    THROTTLED,
    EditWrite,
    Request,
    RunStart,
    VoteWrite,
)

# --- when the faults come -------------------------------------------------------------------


@pytest.mark.parametrize("seconds, down, kill_at, restart_at", [
    (60, 12, 15, 30),  # the default: back at 42 s, 18 s to recover
    (60, 3, 15, 30),
    (30, 3, 7.5, 15),
    (48, 12, 12, 24),  # the shortest run for a 12 s outage
])
def test_the_faults_come_a_quarter_and_half_way(seconds: float, down: float, kill_at: float,
                                                restart_at: float) -> None:
    schedule = Schedule.for_run(seconds, down)
    assert (schedule.kill_at, schedule.restart_at, schedule.down) == (kill_at, restart_at, down)


@pytest.mark.parametrize("seconds, down", [(30, 12), (10, 3), (60, -1)])
def test_a_run_too_short_to_recover_in_is_refused(seconds: float, down: float) -> None:
    with pytest.raises(ValueError, match="too short"):
        Schedule.for_run(seconds, down)


# --- errors by kind and the time to recover -------------------------------------------------


def request(started: float, ms: float, outcome: str = OK, status: int = 200,
            name: str = "GET /cards/[id]/") -> Request:
    return Request(name, status, ms, started, outcome)


@pytest.mark.parametrize("status, outcome, name, kind", [
    (200, OK, "GET /x", None),
    (409, REFUSED, "PUT /api/decks/[id]/", None),
    (429, THROTTLED, "POST /api/goldfish/", None),
    (500, SERVER_ERROR, "GET /x", "500"),
    (502, SERVER_ERROR, "POST /api/edits/", "502"),
    (0, FAILED, "GET /x", "no answer"),
    (404, FAILED, "GET /x", "404"),
    (200, FAILED, "goldfish run, start to done", "goldfish run not done in time"),
    (200, FAILED, "GET /x", "a wrong answer"),
])
def test_each_error_has_a_kind(status: int, outcome: str, name: str, kind: str | None) -> None:
    assert error_kind(Request(name, status, 10, 0.0, outcome)) == kind


KILL = Fault("SIGKILL to a worker", at=100.0, back=100.0)
RESTART = Fault("PostgreSQL restarted", at=200.0, back=212.0)


def test_errors_go_to_the_fault_they_followed_and_recovery_is_measured() -> None:
    requests = [
        request(50, 20),  # before the faults
        request(50, 20, SERVER_ERROR, 500),  # an error before the faults: a bug
        request(99.9, 300, SERVER_ERROR, 502, "POST /api/decks/"),  # in flight at the kill
        request(100.01, 40),  # the next request succeeds: recovered in 0.05 s
        request(199, 2000, SERVER_ERROR, 500),  # cut by the restart
        request(201, 10_000, SERVER_ERROR, 500),  # waited for a connection, in vain
        request(205, 0, FAILED, 0),  # no answer
        request(210, 3000),  # sent while it was down, answered once it was back: not counted
        request(212.5, 100),  # the first success sent after the start: 12.6 s after the stop
        request(213, 50, THROTTLED, 429),  # not an error
    ]
    before, killed, restarted = phases(requests, [RESTART, KILL])  # any order
    assert (before.requests, before.error_count, before.fault) == (2, 1, None)
    assert (killed.requests, dict(killed.errors), dict(killed.where)) == (
        2, {"502": 1}, {"POST /api/decks/": 1})
    assert killed.first_ok == pytest.approx(0.05)
    assert killed.last_error == pytest.approx(0.2)
    assert restarted.requests == 6
    assert dict(restarted.errors) == {"500": 2, "no answer": 1}
    assert restarted.first_ok == pytest.approx(12.6)
    assert restarted.last_error == pytest.approx(11)
    assert unrecovered([before, killed, restarted]) == []
    lines = "\n".join(phase_lines([before, killed, restarted]))
    assert "500 x 2, no answer x 1" in lines and "before the faults" in lines
    recovery = recovery_lines([before, killed, restarted])
    assert recovery[1] == ("  SIGKILL to a worker: first success 0.05 s after the fault; last "
                           "error 0.20 s after it")
    assert recovery[2] == ("  PostgreSQL restarted, down 12.0 s: first success 12.60 s after "
                           "the fault (0.60 s after it was back); last error 11.00 s after it")


def test_a_fault_with_no_success_after_it_is_not_recovered() -> None:
    found = phases([request(201, 100, SERVER_ERROR, 500)], [RESTART])
    assert unrecovered(found) == ["PostgreSQL restarted"]
    assert "NOT RECOVERED" in recovery_lines(found)[1]


# --- card edits and votes: lost, wrong or half applied --------------------------------------

CARD = "demo-card"


def proposal(nonce: str = "a.1", status: int | None = 201, edit: int | None = 1,
             answered: str | None = "open", value: str = "Chaos a.1") -> EditWrite:
    return EditWrite(nonce=nonce, editor="load-01", card=CARD, changes={"artist": value},
                     source=f"chaos source {nonce}", status=status, edit=edit,
                     answered_status=answered)


def stored(edit: int = 1, nonce: str = "a.1", status: str = "open", value: str = "Chaos a.1",
           decided: float | None = None, **fields: Any) -> StoredEdit:
    row = StoredEdit(id=edit, nonce=nonce, editor="load-01", card=CARD,
                     changes={"artist": value}, source=f"chaos source {nonce}", status=status,
                     decided=decided)
    for key, value_ in fields.items():
        setattr(row, key, value_)
    return row


def card(value: Any = None, sources: tuple[str, ...] = ("printed",),
         setter: int | None = None, revised: tuple[int, ...] = ()) -> dict[str, StoredCard]:
    return {CARD: StoredCard(values={"artist": value}, sources=list(sources),
                             provenance={"artist": setter} if setter is not None else {},
                             revised_by=set(revised))}


def applied_card(edit: int = 1, nonce: str = "a.1", value: str = "Chaos a.1"
                 ) -> dict[str, StoredCard]:
    return card(value, ("printed", f"chaos source {nonce}"), edit, (edit,))


def vote(nonce: str = "v1", status: int | None = 200, started: float = 1.0,
         finished: float | None = 1.5, answered: str | None = "open", edit: int = 1,
         voter: str = "load-02", choice: str = "approve") -> VoteWrite:
    return VoteWrite(nonce=nonce, edit=edit, voter=voter, vote=choice, started=started,
                     finished=finished, status=status, answered_status=answered)


def held(nonce: str = "v1", edit: int = 1, voter: str = "load-02", choice: str = "approve"
         ) -> StoredVote:
    return StoredVote(edit=edit, voter=voter, vote=choice, nonce=nonce)


def test_a_consistent_run_of_edits_and_votes_has_nothing_to_report() -> None:
    second = proposal("a.2", edit=2, value="Chaos a.2", answered="applied")
    verdict = check_card_edits(
        [proposal(), second, proposal("a.3", status=None, edit=None),
         proposal("a.4", status=502, edit=None), proposal("a.5", status=400, edit=None)],
        [vote(), vote("v2", edit=2, answered="applied"), vote("v3", status=409, edit=3),
         vote("v4", status=None, finished=None, edit=2, voter="load-03")],
        [stored(), stored(2, "a.2", "applied", "Chaos a.2", decided=5.0),
         stored(3, "a.3", "rejected", "Chaos a.3")],  # a.3 was stored, a.4 was not
        [held(), held("v2", edit=2)],
        {CARD: StoredCard(values={"artist": "Chaos a.2"},
                          sources=["printed", "chaos source a.2"], provenance={"artist": 2},
                          revised_by={2})})
    assert verdict.problems == [] and verdict.half_applied == []
    assert (verdict.proposed, verdict.unknown, dict(verdict.refused), verdict.applied) == (
        2, 2, {400: 1}, 1)
    assert (verdict.votes, verdict.votes_unknown, dict(verdict.votes_refused)) == (2, 1, {409: 1})


@pytest.mark.parametrize("sent, votes_sent, edits, votes, cards, complaint", [
    pytest.param([proposal()], [], [], [], card(), "which the database does not have",
                 id="an acknowledged proposal lost"),
    pytest.param([proposal()], [], [stored(), stored(2)], [], card(), "stored 2 times",
                 id="a proposal stored twice"),
    pytest.param([proposal(status=400, edit=None)], [], [stored()], [], card(),
                 "refused with 400, yet stored", id="a refused proposal stored"),
    pytest.param([proposal()], [], [stored(value="Chaos other")], [], card(),
                 "is not what was sent", id="a proposal stored with other changes"),
    pytest.param([proposal(answered="applied")], [], [stored()], [], card(),
                 "answered applied, but edit #1 is open", id="applied, then not"),
    pytest.param([], [], [stored()], [], card(), "nobody proposed it",
                 id="an edit nobody proposed"),
    pytest.param([proposal()], [vote()], [stored()], [], card(), "not in the database",
                 id="an acknowledged vote lost"),
    pytest.param([proposal()], [vote(status=403)], [stored()], [held()], card(),
                 "never sent or was refused", id="a refused vote stored"),
    pytest.param([proposal()], [], [stored()], [held()], card(), "nobody sent it",
                 id="a vote nobody sent"),
    pytest.param([proposal()], [vote(), vote("v2", started=2.0, finished=2.5)], [stored()],
                 [held("v1")], card(), "v2 was acknowledged after v1",
                 id="a later acknowledged vote replaced by an earlier one"),
    pytest.param([proposal()], [vote(choice="reject")], [stored()], [held()], card(),
                 "stored as approve, sent as reject", id="a vote stored with another choice"),
    pytest.param([proposal()], [vote(status=409)], [stored()], [], card(),
                 "refused as closed, but the edit is open", id="a vote refused on an open edit"),
    pytest.param([proposal()], [vote(answered="applied")], [stored()], [held()], card(),
                 "answered applied, but the edit is not", id="a vote that applied nothing"),
])
def test_each_kind_of_lost_or_wrong_card_edit_is_found(
        sent: list[EditWrite], votes_sent: list[VoteWrite], edits: list[StoredEdit],
        votes: list[StoredVote], cards: dict[str, StoredCard], complaint: str) -> None:
    problems = check_card_edits(sent, votes_sent, edits, votes, cards).problems
    assert any(complaint in p for p in problems), problems


APPLIED = stored(status="applied", decided=5.0)


@pytest.mark.parametrize("edits, cards, complaint", [
    pytest.param([APPLIED], card("Chaos a.1", ("printed", "chaos source a.1"), 1),
                 "no revision of the card records it", id="applied without a revision"),
    pytest.param([APPLIED], card("Chaos a.1", ("printed",), 1, (1,)),
                 "its source is missing from the card's sources", id="applied without a source"),
    pytest.param([APPLIED], card("Chaos a.1", ("printed", "chaos source a.1"), None, (1,)),
                 "the provenance of artist names edit #None", id="applied without provenance"),
    pytest.param([APPLIED], card(None, ("printed", "chaos source a.1"), 1, (1,)),
                 "artist is None, not the 'Chaos a.1' it set last", id="applied without value"),
    pytest.param([stored()], card(None, revised=(1,)), "a revision of the card records it",
                 id="open with a revision"),
    pytest.param([stored()], card(None, ("printed", "chaos source a.1")),
                 "its source is in the card's sources", id="open with its source on the card"),
    pytest.param([stored()], card(None, setter=1), "the provenance of artist names it",
                 id="open with provenance"),
    pytest.param([stored(status="applied", decided=5.0),
                  stored(2, "a.2", "applied", "Chaos a.2", decided=9.0)],
                 card("Chaos a.1", ("printed", "chaos source a.1", "chaos source a.2"), 1,
                      (1, 2)),
                 "names edit #1, not it", id="an older edit's value back on top"),
])
def test_each_kind_of_half_applied_edit_is_found(edits: list[StoredEdit],
                                                 cards: dict[str, StoredCard],
                                                 complaint: str) -> None:
    sent = [proposal(e.nonce, edit=e.id, value=e.changes["artist"]) for e in edits]
    half = check_card_edits(sent, [], edits, [], cards).half_applied
    assert any(complaint in p for p in half), half


def test_a_field_set_again_by_a_later_edit_is_not_half_applied() -> None:
    edits = [stored(status="applied", decided=5.0),
             stored(2, "a.2", "applied", "Chaos a.2", decided=9.0)]
    cards = card("Chaos a.2", ("printed", "chaos source a.1", "chaos source a.2"), 2, (1, 2))
    sent = [proposal(), proposal("a.2", edit=2, value="Chaos a.2")]
    verdict = check_card_edits(sent, [], edits, [], cards)
    assert verdict.half_applied == [] and verdict.problems == []


# --- goldfish runs --------------------------------------------------------------------------

REPORT = {"games": 20, "victories": 7, "seed": 3}


def asked(run: str | None = "r1", status: int | None = 202, seed: int = 3) -> RunStart:
    return RunStart("Kalim Faithful", 20, seed, status, run)


@pytest.mark.parametrize("starts, runs, complaint", [
    pytest.param([asked()], {}, "not in the database", id="an accepted run lost"),
    pytest.param([asked()], {"r1": StoredRun("running", 20, 3, None)},
                 "did not finish (it is running)", id="a run that never finished"),
    pytest.param([asked()], {"r1": StoredRun("failed", 20, 3, None)},
                 "did not finish (it is failed)", id="a failed run"),
    pytest.param([asked()], {"r1": StoredRun("done", 20, 3, {**REPORT, "victories": 8})},
                 "differs from the goldfish command's in victories", id="another report"),
    pytest.param([asked()], {"r1": StoredRun("done", 20, 4, REPORT)},
                 "stored with 20 games and seed 4", id="a run of another seed"),
])
def test_each_kind_of_goldfish_run_fault_is_found(starts: list[RunStart],
                                                  runs: dict[str, StoredRun],
                                                  complaint: str) -> None:
    problems = check_runs(starts, runs, {("Kalim Faithful", 20, 3): REPORT}).problems
    assert any(complaint in p for p in problems), problems


def test_runs_asked_for_twice_are_checked_once_and_refusals_counted() -> None:
    starts = [asked(), asked(), asked(None, 429), asked(None, None), asked("r2", 200, seed=4)]
    assert run_keys(starts) == {"r1": ("Kalim Faithful", 20, 3), "r2": ("Kalim Faithful", 20, 4)}
    verdict = check_runs(starts, {"r1": StoredRun("done", 20, 3, REPORT),
                                  "r2": StoredRun("done", 20, 4, {**REPORT, "seed": 4})},
                         {("Kalim Faithful", 20, 3): REPORT,
                          ("Kalim Faithful", 20, 4): {**REPORT, "seed": 4}})
    assert verdict.problems == []
    assert (verdict.asked, verdict.runs, verdict.done, verdict.matched, verdict.refused) == (
        3, 2, 2, 2, 2)


# --- the faults' tools ----------------------------------------------------------------------


def test_the_workers_of_a_process_are_its_children() -> None:
    import os

    child = subprocess.Popen(["sleep", "5"])
    try:
        assert child.pid in workers_of(os.getpid())
        # A child that is still loading its program may be in D (disk wait) for a moment;
        # any live state will do, only "" (gone) and Z (dead) would be wrong.
        assert process_state(child.pid) in {"S", "R", "D"}
    finally:
        child.kill()
        child.wait()
    assert workers_of(2**22 + 1) == [] and process_state(2**22 + 1) == ""


def test_a_running_worker_is_chosen_to_be_killed() -> None:
    states = {10: "S", 11: "R", 12: "S"}
    assert busy_worker([10, 11, 12], states.__getitem__) == (11, True)
    assert busy_worker([10, 12], states.__getitem__, patience=0.02) == (10, False)


def test_postgres_is_restarted_as_with_postgres_started_it() -> None:
    environ = {"ALLEGIANCE_PG_CTL": "/usr/lib/postgresql/15/bin/pg_ctl",
               "ALLEGIANCE_PG_DATA": "/tmp/pg/data", "ALLEGIANCE_PG_LOG": "/tmp/pg/server.log",
               "ALLEGIANCE_PG_OPTIONS": "-c port=5999", "ALLEGIANCE_PG_USER": "postgres"}
    postgres = Postgres.from_environ(environ)
    with mock.patch("bench.load.chaos.subprocess.run") as run:
        postgres.crash()
        postgres.start()
    crash, start = (call.args[0] for call in run.call_args_list)
    assert crash == ["runuser", "-u", "postgres", "--", "/usr/lib/postgresql/15/bin/pg_ctl",
                     "-D", "/tmp/pg/data", "-m", "immediate", "-w", "stop"]
    assert start[4:] == ["/usr/lib/postgresql/15/bin/pg_ctl", "-D", "/tmp/pg/data", "-l",
                         "/tmp/pg/server.log", "-w", "-t", "60", "-o", "-c port=5999", "start"]
    with pytest.raises(SystemExit, match="ALLEGIANCE_PG_DATA"):
        Postgres.from_environ({**environ, "ALLEGIANCE_PG_DATA": ""})
