"""The site's stack: N gunicorn app servers behind nginx (and, for a load run, M goldfish
workers), all on loopback, started and always stopped together (each in its own process
group, so a server's workers go with it). `make serve-prod` runs it (deploy/serve.py) and the
load runs measure it (bench/load)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from types import FrameType, TracebackType

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
NGINX_TEMPLATE = Path(__file__).with_name("nginx.conf")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def nginx_binary() -> str:
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None)
    if found is None:
        raise SystemExit("nginx is not installed: apt-get install nginx-light (make load does "
                         "it when run as root)")
    return found


# How nginx picks a request's server (deploy/nginx.conf): the fewest open requests, for
# sync workers; or by the table the request is for, for the tables' ASGI servers.
LEAST_CONN = "least_conn;"
BY_TABLE = "hash $table consistent;"


def nginx_config(work: Path, listen: str | int, backends: list[int],
                 balance: str = LEAST_CONN) -> str:
    """deploy/nginx.conf with this run's address (a port: on 127.0.0.1), servers, way of
    picking one and folders."""
    servers = "\n".join(f"        server 127.0.0.1:{backend};" for backend in backends)
    user = "user nobody nogroup;" if os.geteuid() == 0 else ""
    address = f"127.0.0.1:{listen}" if isinstance(listen, int) else listen
    return (NGINX_TEMPLATE.read_text(encoding="utf-8").replace("@USER@", user)
            .replace("@WORK@", str(work / "nginx")).replace("@LISTEN@", address)
            .replace("@BALANCE@", f"        {balance}").replace("@SERVERS@", servers))


def gunicorn_command(port: int, workers: int, *, asgi: bool = False,
                     access_log: bool = False) -> list[str]:
    """One gunicorn app server on 127.0.0.1:``port``: sync workers (config.wsgi), or ASGI
    workers for the tables' WebSockets."""
    app = ["config.asgi:application", "--worker-class", "asgi", "--no-control-socket"] \
        if asgi else ["config.wsgi"]
    return [str(VENV_BIN / "gunicorn"), *app, "--bind", f"127.0.0.1:{port}",
            "--workers", str(workers), "--graceful-timeout", "5",
            *(["--access-logfile", "-"] if access_log else [])]


def group_cpu_seconds(group: int) -> float:
    """The CPU time (user and system) the live processes of process group ``group`` used."""
    ticks, total = os.sysconf("SC_CLK_TCK"), 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:  # after the command's ")": state, ppid, pgrp, ... utime (the 12th), stime
            fields = stat.read_text(encoding="ascii", errors="replace").rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        if int(fields[2]) == group:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def machine_cpu() -> tuple[float, float]:
    """The machine's CPU time so far, (busy, all) in seconds over every core (/proc/stat)."""
    first = Path("/proc/stat").read_text(encoding="ascii").splitlines()[0].split()[1:]
    times = [int(n) for n in first]
    idle = times[3] + times[4]  # idle, iowait
    ticks = os.sysconf("SC_CLK_TCK")
    return (sum(times[:8]) - idle) / ticks, sum(times[:8]) / ticks


class Stack:
    """Processes started by this run; :meth:`stop` (or leaving the ``with``) ends them all."""

    def __init__(self, work: Path, env: dict[str, str], *, echo: bool = False) -> None:
        self.work, self.env, self.echo = work, env, echo
        self.processes: list[tuple[str, subprocess.Popen[bytes]]] = []

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    def start(self, name: str, command: list[str], **env: str) -> subprocess.Popen[bytes]:
        """``command`` in a process group of its own, its output in ``name``.log (on this
        terminal when the stack echoes)."""
        log = None if self.echo else (self.work / f"{name}.log").open("wb")
        process = subprocess.Popen(command, cwd=ROOT, env={**self.env, **env}, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append((name, process))
        return process

    def start_proxy(self, backends: list[int], balance: str = LEAST_CONN,
                    listen: str | None = None) -> int:
        """nginx in front of ``backends`` on ``listen`` (a free port of 127.0.0.1 by
        default); its port."""
        port = free_port() if listen is None else int(listen.rsplit(":", 1)[1])
        (self.work / "nginx").mkdir(mode=0o755)
        if os.geteuid() == 0:  # nginx's workers run as nobody and buffer bodies there
            shutil.chown(self.work / "nginx", "nobody")
        config = self.work / "nginx.conf"
        config.write_text(nginx_config(self.work, listen or port, backends, balance),
                          encoding="utf-8")
        self.start("nginx", [nginx_binary(), "-c", str(config), "-e",
                             str(self.work / "nginx" / "error.log")])
        return port

    def start_site(self, servers: int, server_workers: int, goldfish_workers: int) -> int:
        """The app servers, the proxy in front of them and the workers; the proxy's port."""
        backends = [free_port() for _ in range(servers)]
        for n, port in enumerate(backends, 1):
            self.start(f"gunicorn-{n}", gunicorn_command(port, server_workers))
        proxy = self.start_proxy(backends)
        for n in range(1, goldfish_workers + 1):
            self.start(f"worker-{n}", [str(VENV_BIN / "python"), "manage.py", "db_worker",
                                       "--no-reload", "--no-startup-delay"])
        for port in [*backends, proxy]:
            self.wait_ready(port)
        return proxy

    def start_table_servers(self, servers: int, listen: str | None = None) -> int:
        """``servers`` gunicorn servers of one ASGI worker each behind nginx, which sends
        every request and socket of a table to one of them (so that one keeps its game in
        play: tables.games); the proxy's port."""
        backends = [free_port() for _ in range(servers)]
        for n, port in enumerate(backends, 1):
            self.start(f"gunicorn-{n}", gunicorn_command(port, 1, asgi=True,
                                                         access_log=self.echo))
        proxy = self.start_proxy(backends, BY_TABLE, listen)
        for port in [*backends, proxy]:
            self.wait_ready(port)
        return proxy

    def wait_ready(self, port: int, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while True:
            self.check_alive()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health/",
                                            timeout=5) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"nothing answered on 127.0.0.1:{port} within {seconds:.0f} s")
            time.sleep(0.2)

    def check_alive(self) -> None:
        for name, process in self.processes:
            if process.poll() is not None:
                raise SystemExit(f"{name} stopped (exit {process.returncode}); its log:\n"
                                 + self.log_tail(name))

    def cpu_seconds(self, prefix: str) -> float:
        """The CPU time the processes named ``prefix``... (their whole groups) used so far."""
        return sum(group_cpu_seconds(process.pid) for name, process in self.processes
                   if name.startswith(prefix))

    def log_tail(self, name: str, lines: int = 40) -> str:
        path = self.work / f"{name}.log"  # (none when the stack echoes)
        text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """SIGTERM to every process group, then SIGKILL to whatever is left after 10 s (a
        server that has exited may leave a worker of its group behind)."""
        for _, process in reversed(self.processes):
            _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for _, process in reversed(self.processes):
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal_group(process, signal.SIGKILL)
                process.wait()
            _signal_group(process, signal.SIGKILL)
        self.processes.clear()


def _signal_group(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)


def stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # the same clean-up as Ctrl-C


def in_work_folder(prefix: str, environment: Callable[[Path], dict[str, str]],
                   run: Callable[[Path, dict[str, str]], int], what: str = "load run") -> int:
    """``run`` in a fresh folder (``prefix``..., removed afterwards unless LOAD_KEEP is set)
    with ``environment`` of it set here too; SIGTERM and Ctrl-C stop it, and whatever it
    started, cleanly (exit 130)."""
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    work = Path(tempfile.mkdtemp(prefix=prefix))
    work.chmod(0o755)
    env = environment(work)
    os.environ.update(env)
    try:
        return run(work, env)
    except KeyboardInterrupt:
        print(f"{what} interrupted; everything it started is stopped", file=sys.stderr)
        return 130
    finally:
        if not os.environ.get("LOAD_KEEP"):
            shutil.rmtree(work, ignore_errors=True)
