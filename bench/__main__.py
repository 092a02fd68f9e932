"""python -m bench : run every benchmark against a throw-away SQLite catalogue.

``python -m bench --only match`` (or any of :data:`SECTIONS`, several separated by commas) runs
only those sections: the greedy-against-lookahead match alone takes minutes. The search section
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
SECTIONS = ("validator", "odds", "image", "ocr", "scans", "api", "search", "engine", "match",
            "unplayed", "playtest", "tables")


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


def _arguments(argv: list[str] | None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--only", metavar="SECTION[,SECTION]",
                        help=f"run only these sections: {', '.join(SECTIONS)}")
    # The search section's PostgreSQL leg runs it again through .ci/with-postgres.
    parser.add_argument("--scans", type=int, default=24, metavar="N",
                        help="scans: photograph N single cards (and two binder pages)")
    parser.add_argument("--verbose", action="store_true",
                        help="scans: name every card not found and every field misread; "
                             "tables: print every SQL query counted")
    parser.add_argument("--profile", action="store_true",
                        help="tables: where the time of a view and a move goes (cProfile)")
    parser.add_argument("--database-from-env", action="store_true", help=argparse.SUPPRESS)
    return parser, parser.parse_args(argv)


def sections(argv: list[str] | None = None) -> list[str]:
    """The sections to run, in :data:`SECTIONS` order (all of them by default)."""
    parser, arguments = _arguments(argv)
    only = arguments.only
    if only is None:
        return list(SECTIONS)
    chosen = {name.strip() for name in only.split(",") if name.strip()}
    unknown = chosen - set(SECTIONS)
    if unknown or not chosen:
        parser.error(f"unknown section {', '.join(sorted(unknown)) or repr(only)}; "
                     f"choose among {', '.join(SECTIONS)}")
    return [name for name in SECTIONS if name in chosen]


def main(argv: list[str] | None = None) -> None:
    chosen = sections(argv)
    arguments = _arguments(argv)[1]
    database_from_env = arguments.database_from_env
    with tempfile.TemporaryDirectory() as tmp:
        if not database_from_env:
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
            playtest_bench,
            scans_bench,
            search_bench,
            tables_bench,
            validator_bench,
        )

        runs: dict[str, Callable[[], object]] = {
            "validator": lambda: validator_bench.run(best_of, report),
            "odds": lambda: odds_bench.run(best_of, report),
            "image": lambda: image_bench.run(best_of, report),
            "ocr": lambda: ocr_bench.run(best_of, report),
            "scans": lambda: scans_bench.print_figures(singles=arguments.scans,
                                                       verbose=arguments.verbose),
            "api": lambda: api_bench.run(best_of, report, ROOT),
            "search": lambda: search_bench.run(best_of, report, ROOT),
            "engine": lambda: engine_bench.run(best_of, report, ROOT),
            "match": lambda: engine_bench.match(ROOT),
            "unplayed": lambda: engine_bench.unplayed(ROOT),
            "playtest": lambda: playtest_bench.run(best_of, report, ROOT),
            "tables": lambda: tables_bench.run(ROOT, profile=arguments.profile,
                                               verbose=arguments.verbose),
        }
        if database_from_env:  # a section's second run, on .ci/with-postgres's database
            if chosen == ["tables"]:
                runs["tables"]()
            else:
                search_bench.run(best_of, report, ROOT)
            return
        print("benchmark                                       ratio  baseline")
        for name in chosen:
            runs[name]()
            if name in ("search", "tables"):  # the same, on PostgreSQL when installed
                search_bench.run_on_postgres(ROOT, name)


if __name__ == "__main__":
    main()
