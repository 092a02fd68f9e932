"""python -m bench : run every benchmark against a throw-away SQLite catalogue.

Each line is a ratio of two timings taken in this run on this machine, so it can be compared
between runs and machines; absolute times are printed for context only.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 20,
            clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds per call: the best of ``repeat`` rounds of ``number`` calls (least noisy).
    ``clock=time.process_time`` counts this process's CPU time only, for figures "per core"
    that other work on the machine does not inflate."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        for _ in range(number):
            fn()
        best = min(best, (clock() - start) / number)
    return best


def report(name: str, subject: float, baseline: float, baseline_name: str) -> None:
    print(
        f"{name:<44} {subject / baseline:8.2f}x {baseline_name}"
        f"   ({subject * 1000:.2f} ms vs {baseline * 1000:.2f} ms)"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
        os.environ["MEDIA_ROOT"] = f"{tmp}/media"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from bench import (
            api_bench,
            engine_bench,
            image_bench,
            ocr_bench,
            odds_bench,
            search_bench,
            validator_bench,
        )

        print("benchmark                                       ratio  baseline")
        validator_bench.run(best_of, report)
        odds_bench.run(best_of, report)
        image_bench.run(best_of, report)
        ocr_bench.run(best_of, report)
        api_bench.run(best_of, report, ROOT)
        search_bench.run(best_of, report, ROOT)
        engine_bench.run(best_of, report, ROOT)


if __name__ == "__main__":
    main()
