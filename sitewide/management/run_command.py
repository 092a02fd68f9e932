"""What the commands that play many seeded games (``goldfish``, ``matchup``) share: their
common options, read and checked the same way (a negative seed is refused by both), a progress
bar on a terminal, the closing "N games in T s" line, and exit 1 with a message on bad input."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from sitewide.seeds import seed_argument

Progress = Callable[[int, int], None]


class RunCommand(BaseCommand):
    max_games: int = 1_000_000

    def add_run_arguments(self, parser: CommandParser, log_help: str) -> None:
        parser.add_argument("--games", type=int, default=1000, metavar="N")
        parser.add_argument("--seed", type=seed_argument, required=True, metavar="S")
        parser.add_argument("--workers", type=int, default=1, metavar="W",
                            help="processes to play on (the report is the same for any W)")
        parser.add_argument("--round-cap", type=int, default=40, metavar="R")
        parser.add_argument("--log", type=int, metavar="GAME", help=log_help)
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def check_run_options(self, options: dict[str, Any]) -> None:
        games = options["games"]
        if not 1 <= games <= self.max_games:
            self.fail(f"--games must be between 1 and {self.max_games:,}, not {games}.")
        if options["workers"] < 1:
            self.fail("--workers must be at least 1.")
        if options["round_cap"] < 1:
            self.fail("--round-cap must be at least 1.")
        log = options["log"]
        if log is not None and not 1 <= log <= games:
            self.fail(f"--log must name a game from 1 to {games}, not {log}.")

    def fail(self, message: str) -> NoReturn:
        self.stderr.write(message)
        sys.exit(1)

    def progress_bar(self, games: int) -> Progress | None:
        """A bar on stderr when it is a terminal (never in a pipe or a log file)."""
        stream = sys.stderr
        if not stream.isatty():
            return None

        def show(done: int, total: int) -> None:
            width = 30
            filled = width * done // total
            stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} games")
            if done == total:
                stream.write("\n")
            stream.flush()

        show(0, games)
        return show

    def report_elapsed(self, games: int, started: float) -> None:
        elapsed = time.monotonic() - started
        self.stderr.write(f"{games:,} games in {elapsed:.1f} s "
                          f"({games / max(elapsed, 1e-9):,.0f} games/s)")
