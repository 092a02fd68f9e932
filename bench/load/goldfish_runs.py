"""The goldfish runs' check after ``make chaos``: every run the site accepted finished, with
the report the ``goldfish`` command prints for the same deck, games and seed (an undisturbed
run, computed in the harness's own process).

Pure: the stored runs and the expected reports come in as data.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bench.load.records import RunStart

Key = tuple[str, int, int]  # (sample deck name, games, seed)


@dataclass
class StoredRun:
    status: str
    games: int
    seed: int
    report: dict[str, Any] | None


@dataclass
class RunVerdict:
    asked: int = 0  # answered 2xx
    runs: int = 0  # distinct runs (asking again for the same run returns it)
    done: int = 0
    matched: int = 0
    refused: int = 0  # 4xx (429: too many runs at once), or no answer
    problems: list[str] = field(default_factory=list)


def run_keys(starts: Iterable[RunStart]) -> dict[str, Key]:
    """The runs the site accepted, each with what it plays."""
    return {s.run: (s.deck, s.games, s.seed) for s in starts
            if s.run is not None and s.status is not None and 200 <= s.status < 300}


def check_runs(starts: list[RunStart], stored: dict[str, StoredRun],
               expected: dict[Key, dict[str, Any]]) -> RunVerdict:
    verdict = RunVerdict()
    for start in starts:
        if start.run is not None and start.status is not None and 200 <= start.status < 300:
            verdict.asked += 1
        else:
            verdict.refused += 1
    keys = run_keys(starts)
    verdict.runs = len(keys)
    for run_id, key in sorted(keys.items()):
        deck, games, seed = key
        what = f"run {run_id} ({deck}, {games} games, seed {seed})"
        run = stored.get(run_id)
        if run is None:
            verdict.problems.append(f"{what}: accepted, but not in the database (a lost write)")
            continue
        if (run.games, run.seed) != (games, seed):
            verdict.problems.append(f"{what}: stored with {run.games} games and seed {run.seed}")
            continue
        if run.status != "done" or run.report is None:
            verdict.problems.append(f"{what}: did not finish (it is {run.status})")
            continue
        verdict.done += 1
        want = expected.get(key)
        if want is None:
            verdict.problems.append(f"{what}: no expected report was computed")
        elif run.report != want:
            differ = sorted(k for k in set(want) | set(run.report)
                            if want.get(k) != run.report.get(k))
            verdict.problems.append(f"{what}: its report differs from the goldfish command's "
                                    f"in {', '.join(differ)}")
        else:
            verdict.matched += 1
    return verdict
