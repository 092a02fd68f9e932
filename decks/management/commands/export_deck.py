"""export_deck FILE --to txt|json|csv|code : convert a decklist between formats."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from decks.deck_input import DeckInputError, deck_from_text
from decks.exports import EXPORTS, render_deck

NOT_YET = ("pdf", "proxies")


class Command(BaseCommand):
    help = (
        "Read a decklist in any format (text, JSON, CSV or a deck code; '-' reads stdin) and "
        "write it in another to stdout."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--to", required=True, choices=[*EXPORTS, *NOT_YET])

    def handle(self, *args: Any, **options: Any) -> None:
        if options["to"] in NOT_YET:
            self.stderr.write(f"--to {options['to']}: printable PDFs are not built yet; "
                              f"use one of {', '.join(EXPORTS)}")
            sys.exit(1)
        try:
            raw = sys.stdin.read() if options["file"] == "-" else Path(
                options["file"]).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            self.stderr.write(f"{options['file']}: cannot read: {exc}")
            sys.exit(1)
        try:
            deck = deck_from_text(raw)
        except DeckInputError as error:
            self.stderr.write(f"{options['file']}: {error.detail}")
            for problem in error.errors():
                where = f"line {problem['line']}: " if "line" in problem else ""
                self.stderr.write(f"  {where}{problem['message']}")
            sys.exit(1)
        self.stdout.write(render_deck(deck, options["to"]), ending="")
