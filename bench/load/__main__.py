"""python -m bench.load: the load run of `make load` (run it through .ci/with-postgres, which
provides a throw-away PostgreSQL in DATABASE_URL).

Sets up a fresh site (migrate, both catalogues, the sample decks, load accounts with tokens),
starts LOAD_SERVERS gunicorn servers behind nginx and LOAD_WORKERS goldfish workers on
loopback, runs locust headless for LOAD_SECONDS with LOAD_USERS people, stops everything, then
prints the figures per endpoint and the lost-write check. Exit 1 on any 5xx, other failure or
lost write; 0 otherwise. 409/412 edit refusals and 429s are counted apart, as expected answers.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from bench.load.lost_writes import Verdict, check_writes
from bench.load.records import read_requests, read_writes
from bench.load.report import failures, rows, table
from bench.load.stack import ROOT, VENV_BIN, Stack

# Generous enough that 50 people behind one address rarely meet them; a 429 is still counted.
THROTTLE_RATES = "exports=600/minute,draws=6000/minute,odds=3000/minute,goldfish=600/minute"


@dataclass(frozen=True)
class Options:
    seconds: int
    users: int
    servers: int
    server_workers: int
    goldfish_workers: int
    seed: int

    @classmethod
    def from_environ(cls) -> Options:
        def number(name: str, default: int) -> int:
            return int(os.environ.get(name) or default)

        return cls(seconds=number("LOAD_SECONDS", 60), users=number("LOAD_USERS", 50),
                   servers=number("LOAD_SERVERS", 2),
                   server_workers=number("LOAD_SERVER_WORKERS", 3),
                   goldfish_workers=number("LOAD_WORKERS", 2), seed=number("LOAD_SEED", 1))


def site_environment(work: Path) -> dict[str, str]:
    """Production settings, as docs/deploy.md's scale-out describes them, on loopback."""
    return {
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


def stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # the same clean-up as Ctrl-C


def main() -> int:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("python -m bench.load needs PostgreSQL: run `make load`", file=sys.stderr)
        return 2
    options = Options.from_environ()
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    work = Path(tempfile.mkdtemp(prefix="allegiance-load-"))
    work.chmod(0o755)
    env = site_environment(work)
    os.environ.update(env)
    try:
        return run(options, work, env)
    except KeyboardInterrupt:
        print("load run interrupted; everything it started is stopped", file=sys.stderr)
        return 130
    finally:
        if not os.environ.get("LOAD_KEEP"):
            shutil.rmtree(work, ignore_errors=True)


def run(options: Options, work: Path, env: dict[str, str]) -> int:
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
        print(f"Load: {options.users} people for {options.seconds} s", flush=True)
        locust = stack.start("locust", [
            str(VENV_BIN / "locust"), "-f", "bench/load/locustfile.py", "--headless",
            "--users", str(options.users), "--spawn-rate", str(max(1, options.users // 5)),
            "--run-time", f"{options.seconds}s", "--stop-timeout", "20",
            "--host", f"http://127.0.0.1:{proxy}", "--only-summary", "--loglevel", "WARNING",
        ], LOAD_PLAN=str(work / "plan.json"), LOAD_OUTPUT=str(work / "records"))
        try:
            locust.wait(options.seconds + 90)
        except subprocess.TimeoutExpired:
            print("locust did not stop in time", file=sys.stderr)
        server_logs = {name: stack.log_tail(name, 400) for name, _ in stack.processes
                       if name.startswith(("gunicorn", "worker"))}
    return judge(work, server_logs)


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
    print(f"(load run took {time.monotonic() - started:.0f} s in all)")
    sys.exit(code)
