"""The figures of a load run: per endpoint, requests, requests/s, p50/p95/p99 and each kind of
answer that is not a plain success; as a table to print."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bench.load.records import FAILED, REFUSED, SERVER_ERROR, THROTTLED, Request


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank percentile: the smallest value with at least p% of values at or below
    it (so p99 of 100 values is the 99th smallest, never an interpolation)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class Row:
    name: str
    requests: int
    per_second: float
    p50: float
    p95: float
    p99: float
    server_errors: int
    failed: int
    refused: int
    throttled: int


def rows(requests: Iterable[Request], seconds: float) -> list[Row]:
    """One row per endpoint (sorted by name) and a last row "total"."""
    by_name: dict[str, list[Request]] = defaultdict(list)
    everything: list[Request] = []
    for request in requests:
        by_name[request.name].append(request)
        everything.append(request)
    table = [_row(name, group, seconds) for name, group in sorted(by_name.items())]
    return [*table, _row("total", everything, seconds)]


def _row(name: str, group: list[Request], seconds: float) -> Row:
    times = [r.ms for r in group]
    kinds = Counter(r.outcome for r in group)
    return Row(name, len(group), len(group) / seconds if seconds > 0 else math.nan,
               percentile(times, 50), percentile(times, 95), percentile(times, 99),
               kinds[SERVER_ERROR], kinds[FAILED], kinds[REFUSED], kinds[THROTTLED])


HEADER = ("endpoint", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "5xx", "failed",
          "409/412", "429")


def table(found: list[Row]) -> str:
    cells = [HEADER] + [
        (r.name, str(r.requests), f"{r.per_second:.1f}", f"{r.p50:.0f}", f"{r.p95:.0f}",
         f"{r.p99:.0f}", str(r.server_errors), str(r.failed), str(r.refused), str(r.throttled))
        for r in found
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(len(HEADER))]
    lines = [
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                  for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
        for row in cells
    ]
    lines.insert(1, "-" * len(lines[0]))
    lines.insert(len(lines) - 1, "-" * len(lines[0]))
    return "\n".join(lines)


def failures(requests: Iterable[Request], limit: int = 10) -> list[str]:
    """The first few distinct faults (5xx and other failures), with how often each came."""
    seen: Counter[str] = Counter()
    for r in requests:
        if r.outcome in (SERVER_ERROR, FAILED):
            seen[f"{r.name}: {r.status} {r.detail}".strip()] += 1
    return [f"{count} x {what}" for what, count in seen.most_common(limit)]
