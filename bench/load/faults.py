"""The faults of ``make chaos`` as figures: what the clients saw from each fault until the next
(requests, errors by kind) and how long the site took to recover (the first successful request
sent after the fault's cause was over).

Pure: request records (bench.load.records) and fault times in, figures and lines of text out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from bench.load.records import FAILED, OK, SERVER_ERROR, Request


@dataclass(frozen=True)
class Fault:
    name: str  # "SIGKILL to a worker of gunicorn-1 (pid 4242)"
    at: float  # time.time() when it began (the kill; PostgreSQL stopped)
    back: float  # when its cause was over (the same for a kill; PostgreSQL started again)


@dataclass(frozen=True)
class Schedule:
    """When the faults come, in seconds after the load starts."""

    kill_at: float
    restart_at: float
    down: float  # seconds PostgreSQL stays stopped

    @classmethod
    def for_run(cls, seconds: float, down: float) -> Schedule:
        """A quarter of the run undisturbed, the kill, a quarter more, the restart, and what
        is left (at least a quarter of the run) to recover in."""
        schedule = cls(kill_at=round(seconds / 4, 1), restart_at=round(seconds / 2, 1),
                       down=down)
        if down < 0 or schedule.restart_at + down > seconds * 0.75:
            raise ValueError(f"a {seconds:.0f} s run is too short for PostgreSQL to stay down "
                             f"{down:.0f} s and recover: give it at least {4 * down:.0f} s")
        return schedule


@dataclass
class Phase:
    """The requests that ended from one fault to the next (or from the start to the first)."""

    name: str
    fault: Fault | None
    requests: int = 0
    errors: Counter[str] = field(default_factory=Counter)  # kind -> count
    where: Counter[str] = field(default_factory=Counter)  # endpoint -> errors
    first_ok: float | None = None  # seconds from the fault to the first success sent after it
    last_error: float | None = None  # seconds from the fault to the end of its last error

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())


def error_kind(request: Request) -> str | None:
    """What went wrong, as the client saw it; None for an expected answer (a success, a
    refused stale edit, a throttled request)."""
    if request.outcome == SERVER_ERROR:
        return f"{request.status}"
    if request.outcome != FAILED:
        return None
    if request.status == 0:
        return "no answer"
    if 200 <= request.status < 300:
        return "goldfish run not done in time" if request.name.startswith("goldfish") \
            else "a wrong answer"
    return f"{request.status}"


def phases(requests: Iterable[Request], faults: list[Fault]) -> list[Phase]:
    """One phase before the faults and one from each fault to the next; a request belongs to
    the phase in which it ended (one in flight when a worker was killed belongs to the kill)."""
    ordered = sorted(faults, key=lambda f: f.at)
    found = [Phase("before the faults", None)] + [Phase(f"after: {f.name}", f) for f in ordered]
    starts = [f.at for f in ordered]
    for request in requests:
        end = request.started + request.ms / 1000
        index = sum(1 for at in starts if at <= end)
        phase = found[index]
        phase.requests += 1
        kind = error_kind(request)
        fault = phase.fault
        if kind is not None:
            phase.errors[kind] += 1
            phase.where[request.name] += 1
            if fault is not None:
                phase.last_error = max(phase.last_error or 0.0, end - fault.at)
        elif fault is not None and request.outcome == OK and request.started >= fault.back:
            took = end - fault.at
            phase.first_ok = took if phase.first_ok is None else min(phase.first_ok, took)
    return found


def phase_lines(found: list[Phase]) -> list[str]:
    lines = ["Errors by kind, from each fault until the next (a request counts where it ended)"]
    width = max(len(p.name) for p in found)
    for phase in found:
        kinds = ", ".join(f"{kind} x {n}" for kind, n in phase.errors.most_common()) or "none"
        lines.append(f"  {phase.name.ljust(width)}  {phase.requests:>6} requests  "
                     f"{phase.error_count:>4} errors: {kinds}")
        if phase.where:
            lines.append(f"  {''.ljust(width)}  on " + ", ".join(
                f"{name} x {n}" for name, n in phase.where.most_common(6)))
    return lines


def recovery_lines(found: list[Phase]) -> list[str]:
    lines = ["Time to recover (the first successful request sent after the fault was over)"]
    for phase in found:
        fault = phase.fault
        if fault is None:
            continue
        down = fault.back - fault.at
        shown = f", down {down:.1f} s" if down > 0 else ""
        if phase.first_ok is None:
            recovered = "NOT RECOVERED: no request succeeded after it"
        else:
            recovered = f"first success {phase.first_ok:.2f} s after the fault"
            if down > 0:
                recovered += f" ({phase.first_ok - down:.2f} s after it was back)"
        errors = (f"; last error {phase.last_error:.2f} s after it"
                  if phase.last_error is not None else "; no error")
        lines.append(f"  {fault.name}{shown}: {recovered}{errors}")
    return lines


def unrecovered(found: list[Phase]) -> list[str]:
    return [p.fault.name for p in found if p.fault is not None and p.first_ok is None]
