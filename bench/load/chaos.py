"""The faults of ``make chaos``, done for real while the load runs: SIGKILL to one gunicorn
worker, then PostgreSQL stopped as a crash would stop it (``pg_ctl stop -m immediate``: no
checkpoint, every connection cut) and started again a few seconds later. Only processes this
run started are touched: a worker of its own first app server, and the throw-away PostgreSQL of
.ci/with-postgres (which says how to restart it in ALLEGIANCE_PG_*).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.load.faults import Fault, Schedule
from deploy.stack import Stack


@dataclass(frozen=True)
class Postgres:
    """The run's PostgreSQL, as .ci/with-postgres started it."""

    pg_ctl: str
    data: str
    log: str
    options: str
    user: str  # the account pg_ctl runs as ("" for this one)

    @classmethod
    def from_environ(cls, environ: dict[str, str]) -> Postgres:
        names = ("ALLEGIANCE_PG_CTL", "ALLEGIANCE_PG_DATA", "ALLEGIANCE_PG_LOG",
                 "ALLEGIANCE_PG_OPTIONS")
        missing = [name for name in names if not environ.get(name)]
        if missing:
            raise SystemExit(f"make chaos restarts the PostgreSQL of .ci/with-postgres, which "
                             f"sets {', '.join(missing)}: run it through `make chaos`")
        return cls(environ["ALLEGIANCE_PG_CTL"], environ["ALLEGIANCE_PG_DATA"],
                   environ["ALLEGIANCE_PG_LOG"], environ["ALLEGIANCE_PG_OPTIONS"],
                   environ.get("ALLEGIANCE_PG_USER", ""))

    def _ctl(self, *args: str) -> None:
        command = [self.pg_ctl, "-D", self.data, *args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, timeout=120)

    def crash(self) -> None:
        """Stop at once, as a crash would: no shutdown checkpoint, connections cut."""
        self._ctl("-m", "immediate", "-w", "stop")

    def start(self) -> None:
        """Start again (crash recovery replays the log); returns once it accepts
        connections."""
        self._ctl("-l", self.log, "-w", "-t", "60", "-o", self.options, "start")


def workers_of(master: int) -> list[int]:
    """The worker processes of a gunicorn master (its children)."""
    path = Path(f"/proc/{master}/task/{master}/children")
    try:
        return [int(pid) for pid in path.read_text().split()]
    except OSError:
        return []


def process_state(pid: int) -> str:
    """The state letter of /proc/PID/stat: R running, S sleeping (an idle sync worker waits
    for a connection so), ... ("" when it is gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


def busy_worker(workers: list[int], state: Callable[[int], str] = process_state,
                patience: float = 3.0, pause: float = 0.005) -> tuple[int, bool]:
    """A worker caught running (serving a request, so that the kill cuts one in flight), or the
    first one if none is caught within ``patience`` seconds; and whether it was caught so."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        running = [pid for pid in workers if state(pid) == "R"]
        if running:
            return running[0], True
        time.sleep(pause)
    return workers[0], False


def kill_a_worker(stack: Stack, server: str = "gunicorn-1") -> Fault:
    """SIGKILL to one worker of ``server``, a busy one if possible (its master starts
    another)."""
    master = next(process for name, process in stack.processes if name == server)
    workers = workers_of(master.pid)
    if not workers:
        raise SystemExit(f"{server} has no worker to kill")
    victim, busy = busy_worker(workers)
    at = time.time()
    os.kill(victim, signal.SIGKILL)
    doing = "caught running" if busy else "none caught running in 3 s"
    return Fault(f"SIGKILL to a worker of {server} (pid {victim}, {doing})", at, at)


def restart_postgres(postgres: Postgres, down: float) -> Fault:
    at = time.time()
    postgres.crash()
    time.sleep(down)
    postgres.start()
    return Fault("PostgreSQL stopped (immediate) and started again", at, time.time())


def inject(schedule: Schedule, stack: Stack, postgres: Postgres, started: float,
           say: Callable[[str], None] = print) -> list[Fault]:
    """The faults of ``schedule``, timed from ``started`` (when the load began)."""
    faults = []
    wait_until(started + schedule.kill_at)
    faults.append(kill_a_worker(stack))
    say(f"  {faults[-1].at - started:5.1f} s  {faults[-1].name}")
    wait_until(started + schedule.restart_at)
    faults.append(restart_postgres(postgres, schedule.down))
    say(f"  {faults[-1].at - started:5.1f} s  {faults[-1].name} "
        f"({faults[-1].back - faults[-1].at:.1f} s later)")
    return faults


def wait_until(moment: float) -> None:
    pause = moment - time.time()
    if pause > 0:
        time.sleep(pause)
