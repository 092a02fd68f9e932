"""python -m bench.load [--chaos]: the load run of `make load`, or with --chaos the fault run of
`make chaos` (run either through .ci/with-postgres, which provides a throw-away PostgreSQL in
DATABASE_URL).

Sets up a fresh site (migrate, both catalogues, the sample decks, load accounts with tokens),
starts LOAD_SERVERS gunicorn servers behind nginx and LOAD_WORKERS goldfish workers on
loopback, runs locust headless for LOAD_SECONDS with LOAD_USERS people, stops everything, then
prints the figures per endpoint and the lost-write check. Exit 1 on any 5xx, other failure or
lost write; 0 otherwise. 409/412 edit refusals and 429s are counted apart, as expected answers.

With --chaos the people also propose card edits and vote on them, and while they do, one
gunicorn worker gets SIGKILL (a quarter into the run) and PostgreSQL is stopped as a crash
would stop it and started again CHAOS_PG_DOWN seconds later (halfway). Then every goldfish run
is waited for (at most CHAOS_RUN_PATIENCE seconds), and it prints the errors by kind from each
fault on, the time to recover, and the checks: no acknowledged deck version, card edit or vote
lost, no card edit half applied, every goldfish run's report the goldfish command's for the
same deck and seed. Errors during the faults are expected; exit 1 on any lost or half-applied
write, a report that differs, a run that did not finish, a fault not recovered from, a
server or worker that did not survive, or an error before the faults.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.load.card_edits import EditVerdict, check_card_edits
from bench.load.chaos import Postgres, inject
from bench.load.faults import Fault, Schedule, phase_lines, phases, recovery_lines, unrecovered
from bench.load.goldfish_runs import RunVerdict, check_runs, run_keys
from bench.load.lost_writes import Verdict, check_writes
from bench.load.records import (
    EditWrite,
    RunStart,
    VoteWrite,
    read_requests,
    read_rows,
    read_writes,
)
from bench.load.report import failures, rows, table
from deploy.stack import ROOT, VENV_BIN, Stack, in_work_folder

# Generous enough that 50 people behind one address rarely meet them; a 429 is still counted.
# PostgreSQL stays down longer than a request waits for a connection (DATABASE_POOL_TIMEOUT,
# 10 s): requests fail meanwhile, and the workers' queries too, which must wait it out.
PG_DOWN = 12.0
THROTTLE_RATES = ("exports=600/minute,draws=6000/minute,odds=3000/minute,goldfish=600/minute,"
                  "edits=6000/hour,votes=12000/hour")


@dataclass(frozen=True)
class Options:
    seconds: int
    users: int
    servers: int
    server_workers: int
    goldfish_workers: int
    seed: int
    chaos: bool = False
    down: float = PG_DOWN  # seconds PostgreSQL stays stopped
    run_patience: float = 300.0  # seconds to wait for the goldfish runs after the load

    @classmethod
    def from_environ(cls, chaos: bool = False) -> Options:
        def number(name: str, default: float) -> float:
            return float(os.environ.get(name) or default)

        return cls(seconds=int(number("LOAD_SECONDS", 60)),
                   users=int(number("LOAD_USERS", 20 if chaos else 50)),
                   servers=int(number("LOAD_SERVERS", 2)),
                   server_workers=int(number("LOAD_SERVER_WORKERS", 3)),
                   goldfish_workers=int(number("LOAD_WORKERS", 2)),
                   seed=int(number("LOAD_SEED", 1)), chaos=chaos,
                   down=number("CHAOS_PG_DOWN", PG_DOWN),
                   run_patience=number("CHAOS_RUN_PATIENCE", 300))


def site_environment(work: Path, chaos: bool = False) -> dict[str, str]:
    """Production settings, as docs/deploy.md's scale-out describes them, on loopback. For the
    chaos run, votes from one address count (CARD_EDIT_VOTER_ADDRESS_CHECK=off): every simulated
    person comes from 127.0.0.1."""
    extra = {"CARD_EDIT_VOTER_ADDRESS_CHECK": "off"} if chaos else {}
    return {
        **extra,
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_SSL_REDIRECT": "0",
        "DJANGO_NUM_PROXIES": "1",  # nginx appends the client's address
        "DJANGO_CACHE_DIR": str(work / "cache"),  # one throttle count for every server
        "DJANGO_THROTTLE_RATES": os.environ.get("DJANGO_THROTTLE_RATES", THROTTLE_RATES),
        "DATABASE_POOL": "1",
        # Static files and renditions survive between runs (collectstatic takes a minute).
        "ALLEGIANCE_VAR_DIR": str(ROOT / "var" / "load"),
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([str(VENV_BIN / "python"), "manage.py", *args], cwd=ROOT, env=env,
                   check=True)


def static_is_current(static_root: Path) -> bool:
    """Whether an earlier run's collected static files can serve again: whitenoise compresses
    every file on each collectstatic (a minute here), and nothing changed since the manifest
    was written (the project's static/ folder, or the installed packages')."""
    manifest = static_root / "staticfiles.json"
    if not manifest.exists():
        return False
    sources = [ROOT / ".venv" / ".installed", *(ROOT / "static").rglob("*")]
    newest = max(path.stat().st_mtime for path in sources if path.exists())
    return manifest.stat().st_mtime > newest


def main() -> int:
    chaos = "--chaos" in sys.argv[1:]
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print(f"python -m bench.load needs PostgreSQL: run `make {'chaos' if chaos else 'load'}`",
              file=sys.stderr)
        return 2
    options = Options.from_environ(chaos)
    return in_work_folder("allegiance-chaos-" if chaos else "allegiance-load-",
                          lambda work: site_environment(work, chaos),
                          lambda work, env: run(options, work, env))


def run(options: Options, work: Path, env: dict[str, str]) -> int:
    postgres = Postgres.from_environ(env) if options.chaos else None
    schedule = Schedule.for_run(options.seconds, options.down) if options.chaos else None
    print(f"Setting up: migrate, both catalogues, sample decks ({work})", flush=True)
    manage(env, "migrate", "--noinput", "-v0")
    if not static_is_current(Path(env["ALLEGIANCE_VAR_DIR"]) / "staticfiles"):
        manage(env, "collectstatic", "--noinput", "-v0")
    manage(env, "import_cards", "fixtures/cards/wof.json", "fixtures/cards/demo.json")
    manage(env, "load_sample_decks", *sorted(map(str, ROOT.glob("fixtures/decklists/*.txt"))))

    # Django only now: its settings read the environment set above, and the models need it.
    import django

    django.setup()
    from bench.load import site_data

    accounts = site_data.make_accounts(max(1, (options.users + 1) // 2))
    plan = site_data.make_plan(accounts, ROOT / "fixtures" / "decklists", options.seed)
    (work / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    (work / "records").mkdir()

    with Stack(work, env) as stack:
        proxy = stack.start_site(options.servers, options.server_workers,
                                 options.goldfish_workers)
        print(f"{options.servers} gunicorn servers x {options.server_workers} workers behind "
              f"nginx on 127.0.0.1:{proxy}, {options.goldfish_workers} goldfish workers, "
              f"PostgreSQL with a connection pool", flush=True)
        people = "people editing decks, proposing and voting on card edits, goldfishing" \
            if options.chaos else "people"
        print(f"Load: {options.users} {people} for {options.seconds} s", flush=True)
        started = time.time()
        locust = stack.start("locust", [
            str(VENV_BIN / "locust"), "-f", "bench/load/locustfile.py", "--headless",
            "--users", str(options.users), "--spawn-rate", str(max(1, options.users // 5)),
            "--run-time", f"{options.seconds}s", "--stop-timeout", "20",
            "--host", f"http://127.0.0.1:{proxy}", "--only-summary", "--loglevel", "WARNING",
            "Contributor" if options.chaos else "Person",
        ], LOAD_PLAN=str(work / "plan.json"), LOAD_OUTPUT=str(work / "records"))
        faults: list[Fault] = []
        if schedule is not None and postgres is not None:
            print("Faults:", flush=True)
            faults = inject(schedule, stack, postgres, started,
                            say=lambda line: print(line, flush=True))
        try:
            locust.wait(options.seconds + 90)
        except subprocess.TimeoutExpired:
            print("locust did not stop in time", file=sys.stderr)
        survivors: list[str] = []
        if options.chaos:
            wait_for_runs(work, plan["decks"], options.run_patience)
            survivors = dead_processes(stack)
        server_logs = {name: stack.log_tail(name, 400) for name, _ in stack.processes
                       if name.startswith(("gunicorn", "worker"))}
    if options.chaos:
        return judge_chaos(work, server_logs, faults, plan["decks"], survivors)
    return judge(work, server_logs)


def wait_for_runs(work: Path, decks: list[dict[str, Any]], patience: float) -> None:
    """Every goldfish run the site accepted, until it is over (looking at a run nudges it, as
    the API does when someone polls it) or ``patience`` seconds have passed."""
    from django.db import connections

    from bench.load.site_data import runs_active
    from simulations.runs import simulation_run_nudge

    ids = list(run_keys(read_rows(work / "records" / "runs.jsonl", RunStart)))
    deadline = time.monotonic() + patience
    connections.close_all()  # the harness's own connection died with the restart
    active = runs_active(ids)
    if active:
        print(f"Waiting for {len(active)} goldfish runs to finish", flush=True)
    while active and time.monotonic() < deadline:
        for run in active:
            simulation_run_nudge(run=run)
        time.sleep(1)
        active = runs_active(ids)


def dead_processes(stack: Stack) -> list[str]:
    """The app servers, proxy and goldfish workers that did not survive the faults."""
    return [f"{name} (exit {process.returncode})" for name, process in stack.processes
            if name != "locust" and process.poll() is not None]


def judge(work: Path, server_logs: dict[str, str]) -> int:
    records = work / "records"
    if not (records / "requests.jsonl").exists():
        print("locust saved no records; its log:\n" + (work / "locust.log").read_text(
            errors="replace"), file=sys.stderr)
        return 2
    requests = list(read_requests(records / "requests.jsonl"))
    writes = list(read_writes(records / "writes.jsonl"))
    if not requests:
        print("no request was made", file=sys.stderr)
        return 2
    start = min(r.started for r in requests)
    seconds = max(r.started + r.ms / 1000 for r in requests) - start
    found = rows(requests, seconds)
    print(f"\nRequests over {seconds:.1f} s (times in ms, as the clients saw them)")
    print(table(found))
    faults = failures(requests)
    if faults:
        print("\nFaults:\n  " + "\n  ".join(faults))
        for name, log in server_logs.items():
            if "Traceback" in log or "Error" in log:
                print(f"\n--- {name} (end of its log)\n{log[-4000:]}")
    from bench.load.site_data import stored_decks  # Django is set up by run()

    verdict = check_writes(writes, stored_decks())
    print_verdict(verdict)
    total = found[-1]
    bad = total.server_errors + total.failed + verdict.lost
    print(f"\n{'FAILED' if bad else 'OK'}: {total.server_errors} 5xx, {total.failed} other "
          f"failures, {verdict.lost} lost or wrong writes; {total.refused} edits refused "
          f"(409/412), {total.throttled} throttled (429)")
    return 1 if bad else 0


def judge_chaos(work: Path, server_logs: dict[str, str], faults: list[Fault],
                decks: list[dict[str, Any]], dead: list[str]) -> int:
    records = work / "records"
    if not (records / "requests.jsonl").exists():
        print("locust saved no records; its log:\n" + (work / "locust.log").read_text(
            errors="replace"), file=sys.stderr)
        return 2
    requests = list(read_requests(records / "requests.jsonl"))
    if not requests:
        print("no request was made", file=sys.stderr)
        return 2
    start = min(r.started for r in requests)
    seconds = max(r.started + r.ms / 1000 for r in requests) - start
    found = rows(requests, seconds)
    print(f"\nRequests over {seconds:.1f} s (times in ms, as the clients saw them)")
    print(table(found))
    print("\nFaults (seconds after the first request)")
    for fault in faults:
        print(f"  {fault.at - start:5.1f} s  {fault.name}")
    periods = phases(requests, faults)
    print()
    print("\n".join(phase_lines(periods)))
    print()
    print("\n".join(recovery_lines(periods)))
    before = periods[0].error_count

    from django.db import connections

    from bench.load import site_data  # Django is set up by run()

    connections.close_all()
    deck_verdict = check_writes(list(read_writes(records / "writes.jsonl")),
                                site_data.stored_decks())
    print_verdict(deck_verdict)
    edits_sent = read_rows(records / "edits.jsonl", EditWrite)
    edit_verdict = check_card_edits(
        edits_sent, read_rows(records / "votes.jsonl", VoteWrite), site_data.stored_edits(),
        site_data.stored_votes(), site_data.stored_cards(
            {w.card for w in edits_sent}, {key for w in edits_sent for key in w.changes}))
    print_edit_verdict(edit_verdict)
    starts = read_rows(records / "runs.jsonl", RunStart)
    keys = run_keys(starts)
    run_verdict = check_runs(starts, site_data.stored_runs(keys),
                             site_data.expected_reports(keys.values(), decks))
    print_run_verdict(run_verdict)
    not_back = unrecovered(periods)
    if dead:
        print(f"\nDid not survive the faults: {', '.join(dead)}")
        for name, log in server_logs.items():
            if any(name in d for d in dead):
                print(f"\n--- {name} (end of its log)\n{log[-3000:]}")
    lost = deck_verdict.lost + edit_verdict.lost
    half = len(edit_verdict.half_applied)
    bad_runs = len(run_verdict.problems)
    failed = lost or half or bad_runs or not_back or dead or before
    print(f"\n{'FAILED' if failed else 'OK'}: {lost} lost or wrong writes, {half} half-applied "
          f"edits, {bad_runs} goldfish runs missing, unfinished or different, "
          f"{len(not_back)} faults not recovered from, {len(dead)} processes dead, {before} "
          f"errors before the faults; {sum(p.error_count for p in periods[1:])} errors during "
          "the faults (expected)")
    return 1 if failed else 0


def print_edit_verdict(verdict: EditVerdict) -> None:
    refused = ", ".join(f"{n} x {s}" for s, n in sorted(verdict.refused.items())) or "none"
    votes_refused = ", ".join(f"{n} x {s}" for s, n in sorted(verdict.votes_refused.items())) \
        or "none"
    print(f"Card edits: {verdict.proposed} proposals acknowledged, {verdict.unknown} without a "
          f"definite answer, refused: {refused}; {verdict.applied} applied in the database")
    print(f"Votes: {verdict.votes} acknowledged, {verdict.votes_unknown} without a definite "
          f"answer, refused: {votes_refused}")
    print(f"Lost or wrong card edits and votes: {verdict.lost}")
    for problem in verdict.problems[:20]:
        print(f"  {problem}")
    print(f"Half-applied edits (card values, source, provenance, revision not all there or all "
          f"absent): {len(verdict.half_applied)}")
    for problem in verdict.half_applied[:20]:
        print(f"  {problem}")


def print_run_verdict(verdict: RunVerdict) -> None:
    print(f"Goldfish runs: {verdict.asked} accepted ({verdict.runs} distinct runs), "
          f"{verdict.refused} refused or unanswered; {verdict.done} done, {verdict.matched} "
          "with the report of the goldfish command for the same deck and seed")
    print(f"Goldfish runs missing, unfinished or different: {len(verdict.problems)}")
    for problem in verdict.problems[:20]:
        print(f"  {problem}")


def print_verdict(verdict: Verdict) -> None:
    refused = ", ".join(f"{n} x {s}" for s, n in sorted(verdict.refused.items())) or "none"
    other = ", ".join(f"{n} x {s}" for s, n in sorted(verdict.other.items())) or "none"
    print(f"\nDeck writes: {verdict.accepted} accepted, every one checked in the database; "
          f"refused: {refused}; other answers: {other}; cut off by the end of the run: "
          f"{verdict.unanswered}")
    print(f"Lost or wrong writes: {verdict.lost}")
    for problem in verdict.problems[:20]:
        print(f"  {problem}")


if __name__ == "__main__":
    started = time.monotonic()
    code = main()
    kind = "chaos" if "--chaos" in sys.argv[1:] else "load"
    print(f"({kind} run took {time.monotonic() - started:.0f} s in all)")
    sys.exit(code)
