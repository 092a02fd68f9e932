"""Simulation workers as separate processes (``manage.py db_worker``) on a database of their
own: a worker killed mid-chunk costs nothing but its lease, whatever the kind of run (goldfish,
a matchup), and two workers on one run give the report of one. No sleeping: the test waits on
the worker's own output, and moves time by setting the lease and the watchdog's due time in
the past."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from simulations.chunks import LEASE
from simulations.runs import RunOptions
from tests.commands import run_command
from tests.conftest import CATALOGUES, FIXTURES, ROOT
from tests.simulations.goldfish.helpers import SAMPLE, command_report_json

pytestmark = pytest.mark.django_db
TIMEOUT = 300  # seconds before a stuck subprocess fails the test (never reached when it works)
WORKER = ["db_worker", "--batch", "--no-startup-delay", "--no-reload", "--interval", "0"]
TABLE = [FIXTURES / "decklists" / name for name in ("kalim-faithful.txt", "mosfin-blades.txt")]


def matchup_report_json(games: int, seed: int) -> str:
    """The report of the matchup command for the same decks and options, as JSON text."""
    code, out, _ = run_command("matchup", *map(str, TABLE), "--games", str(games), "--seed",
                               str(seed), "--format", "json")
    assert code == 0
    return json.dumps(json.loads(out), ensure_ascii=False)


class Sandbox:
    """manage.py commands against one database, as a deployment would run them."""

    def __init__(self, database_url: str, var_dir: Path) -> None:
        self.env = {**os.environ, "DATABASE_URL": database_url, "GOLDFISH_CHUNK_GAMES": "10",
                    "ALLEGIANCE_VAR_DIR": str(var_dir), "DJANGO_DEBUG": "1"}
        self.env.pop("SIMULATIONS_HOLD_AFTER_LEASE", None)

    def command(self, *args: str) -> list[str]:
        return [sys.executable, str(ROOT / "manage.py"), *args]

    def run(self, *args: str) -> str:
        done = subprocess.run(self.command(*args), cwd=ROOT, env=self.env, text=True,
                              capture_output=True, timeout=TIMEOUT, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def python(self, code: str) -> Any:
        """Run ``code`` in ``manage.py shell``; it prints one JSON document last."""
        out = self.run("shell", "--no-imports", "-v", "0", "-c", code)
        return json.loads(out.strip().splitlines()[-1])

    def set_up(self) -> None:
        self.run("migrate", "--noinput", "-v", "0")
        self.run("import_cards", *map(str, CATALOGUES), "--no-images", "-v", "0")

    def copy_of(self, database: Path) -> None:
        """Start from a copy of the SQLite ``database`` (through SQLite's backup, which reads
        what its write-ahead log still holds) instead of :meth:`set_up`."""
        target = self.env["DATABASE_URL"].removeprefix("sqlite:///")
        source, copy = sqlite3.connect(database), sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            source.close()
            copy.close()

    def start_run(self, games: int, seed: int, kind: str = "goldfish") -> str:
        """A goldfish run of the sample deck, or a matchup of the TABLE decks."""
        if kind == "goldfish":
            start = (f"goldfish_run_start(deck=deck_from_text(open({str(SAMPLE)!r}).read()), "
                     f"options=RunOptions(games={games}, seed={seed})")
        else:
            start = (f"matchup_run_start(decks=[deck_from_text(open(p).read()) for p in "
                     f"{list(map(str, TABLE))!r}], options=MatchupOptions(games={games}, "
                     f"seed={seed})")
        run_id: str = self.python(
            "import json; from decks.deck_input import deck_from_text; "
            "from simulations.runs import MatchupOptions, RunOptions, goldfish_run_start, "
            "matchup_run_start; "
            f"run, _ = {start}, user=None, requester='anon:test'); "
            "print(json.dumps(str(run.pk)))")
        return run_id

    def state(self, run_id: str, then: str = "") -> dict[str, Any]:
        """The run's state as the database holds it; then ``then`` (Python that prints
        nothing) in the same process, a Django start fewer than a process of its own."""
        state: dict[str, Any] = self.python(
            "import json; from simulations.models import SimulationRun; "
            f"run = SimulationRun.objects.get(pk={run_id!r}); "
            "state = json.dumps({'status': run.status, 'done': run.chunks_done, "
            "'report': run.report_json, 'chunks': [[c.index, c.status, c.lease_owner, "
            "c.lease_expires and c.lease_expires.isoformat()] "
            "for c in run.chunks.order_by('index')]}); "
            + (f"{then}; " if then else "") + "print(state)")
        return state

    def worker(self, hold: str | None = None) -> subprocess.Popen[str]:
        """A worker process; ``hold`` ("forever" or "stdin") stops it after its first lease
        (simulations.tasks.HOLD_AFTER_LEASE)."""
        env = {**self.env, "SIMULATIONS_HOLD_AFTER_LEASE": hold} if hold else self.env
        return subprocess.Popen(self.command(*WORKER), cwd=ROOT, env=env, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)

    def work(self) -> None:
        """One worker that plays every task that is due, then stops."""
        self.run(*WORKER)


def wait_for_lease(worker: subprocess.Popen[str]) -> int:
    """Read the worker's stderr until it says it leased a chunk (then it holds); its index."""
    assert worker.stderr is not None
    for line in worker.stderr:
        if line.startswith("simulations: leased chunk "):
            return int(line.split()[3])
    raise AssertionError(f"the worker stopped (exit {worker.wait()}) without leasing a chunk")


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """A SQLite database set up once per run by :meth:`Sandbox.set_up` (migrate and
    import_cards, about 13 s of CPU), under a lock in the run's shared temporary folder so
    that the xdist workers make it once between them; each test works on a copy."""
    root = tmp_path_factory.getbasetemp()
    if worker_id != "master":  # each worker's base is a folder of the run's
        root = root.parent
    folder = root / "workers-template"
    done = folder / "set-up"
    with (root / "workers-template.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            folder.mkdir(exist_ok=True)
            Sandbox(f"sqlite:///{folder / 'db.sqlite3'}", folder).set_up()
            done.touch()
    return folder / "db.sqlite3"


@pytest.mark.slow
@pytest.mark.skipif(connection.vendor != "sqlite",
                    reason="runs on the SQLite leg (it uses a SQLite file of its own)")
@pytest.mark.parametrize("kind", ["goldfish", "matchup"])
def test_a_worker_killed_mid_chunk_loses_only_its_lease(tmp_path: Path, kind: str,
                                                        migrated_sqlite: Path) -> None:
    sandbox = Sandbox(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path)
    sandbox.copy_of(migrated_sqlite)
    # Three chunks (of 10 solo games; of 50 table games), two tasks and a watchdog.
    run_id = (sandbox.start_run(games=30, seed=5) if kind == "goldfish"
              else sandbox.start_run(games=120, seed=5, kind="matchup"))

    doomed = sandbox.worker(hold="forever")
    assert wait_for_lease(doomed) == 0
    doomed.send_signal(signal.SIGKILL)
    assert doomed.wait(timeout=TIMEOUT) == -signal.SIGKILL
    killed = datetime.now(UTC)
    # Read, then the dead worker's lease held for an hour, so that a slow machine does not
    # reach its expiry while the other task plays.
    state = sandbox.state(run_id, then=(
        "from datetime import timedelta; from django.utils import timezone; "
        "from simulations.models import SimulationChunk; "
        f"SimulationChunk.objects.filter(run_id={run_id!r}, status='running')"
        ".update(lease_expires=timezone.now() + timedelta(hours=1))"))
    assert (state["status"], state["done"], state["chunks"][0][1]) == ("running", 0, "running")
    dead_owner = state["chunks"][0][2]
    # The chunk is free again at most one lease (15 s) after the kill, not 120 s.
    free_at = datetime.fromisoformat(state["chunks"][0][3])
    assert timedelta(0) < free_at - killed <= LEASE

    # The other task plays the two free chunks; the dead worker's lease still holds chunk 0.
    sandbox.work()
    # Read, then later: the lease has expired and the run's watchdog is due.
    state = sandbox.state(run_id, then=(
        "from datetime import timedelta; from django.utils import timezone; "
        "from simulations.models import SimulationChunk; from django_tasks_db.models import "
        "DBTaskResult; past = timezone.now() - timedelta(seconds=1); "
        f"SimulationChunk.objects.filter(run_id={run_id!r}, status='running')"
        ".update(lease_expires=past); "
        "DBTaskResult.objects.filter(status='READY').update(run_after=past)"))
    assert (state["status"], state["done"]) == ("running", 2)
    assert state["chunks"][0][1:3] == ["running", dead_owner]
    sandbox.work()
    state = sandbox.state(run_id)
    assert (state["status"], state["done"]) == ("done", 3)
    assert state["chunks"][0][2] != dead_owner
    assert state["report"] == (command_report_json(RunOptions(games=30, seed=5))
                               if kind == "goldfish" else matchup_report_json(120, 5))


@pytest.fixture
def postgres_database() -> Iterator[str]:
    """A throw-away database on the suite's PostgreSQL server, for the workers."""
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = f"goldfish_workers_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(url)
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="needs PostgreSQL (the suite's second leg)")
def test_two_workers_on_one_run_give_the_report_of_one(postgres_database: str,
                                                       tmp_path: Path) -> None:
    sandbox = Sandbox(postgres_database, tmp_path)
    sandbox.set_up()
    run_id = sandbox.start_run(games=60, seed=5)  # six chunks
    # Both workers hold a chunk of the run at the same time before either plays on.
    first = sandbox.worker(hold="stdin")
    leased = [wait_for_lease(first)]
    second = sandbox.worker(hold="stdin")
    leased.append(wait_for_lease(second))
    assert sorted(leased) == [0, 1]
    for worker in (first, second):
        _, errors = worker.communicate("go\n", timeout=TIMEOUT)
        assert worker.returncode == 0, errors
    state = sandbox.state(run_id)
    assert (state["status"], state["done"]) == ("done", 6)
    assert len({owner for _, _, owner, _ in state["chunks"]}) == 2
    assert state["report"] == command_report_json(RunOptions(games=60, seed=5))
