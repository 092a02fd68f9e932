"""python -m bench [--only NAME,...] : run every benchmark (or the named sections: validator,
odds, image, ocr, api, search, engine) against a throw-away SQLite catalogue. The search section
also runs on a throw-away PostgreSQL when one is installed (.ci/with-postgres).

Each line is a ratio of two timings taken in this run on this machine, so it can be compared
between runs and machines; absolute times are printed for context only.
"""

from __future__ import annotations

import argparse
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


SECTIONS = ("validator", "odds", "image", "ocr", "api", "search", "engine")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections among {', '.join(SECTIONS)}")
    # The search section's PostgreSQL leg runs this again through .ci/with-postgres.
    parser.add_argument("--database-from-env", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    only = {name.strip() for name in args.only.split(",") if name.strip()}
    if unknown := only - set(SECTIONS):
        parser.error(f"unknown section(s): {', '.join(sorted(unknown))}")
    with tempfile.TemporaryDirectory() as tmp:
        if not args.database_from_env:
            os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
        os.environ["MEDIA_ROOT"] = f"{tmp}/media"
        os.environ["DJANGO_CACHE_DIR"] = f"{tmp}/cache"  # the shared file cache, as served
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

        if args.database_from_env:
            search_bench.run(best_of, report, ROOT)
            return
        print("benchmark                                       ratio  baseline")
        if "validator" in only:
            validator_bench.run(best_of, report)
        if "odds" in only:
            odds_bench.run(best_of, report)
        if "image" in only:
            image_bench.run(best_of, report)
        if "ocr" in only:
            ocr_bench.run(best_of, report)
        if "api" in only:
            api_bench.run(best_of, report, ROOT)
        if "search" in only:
            search_bench.run(best_of, report, ROOT)
            search_bench.run_on_postgres(ROOT)
        if "engine" in only:
            engine_bench.run(best_of, report, ROOT)


if __name__ == "__main__":
    main()
