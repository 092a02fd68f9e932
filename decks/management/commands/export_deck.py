"""export_deck FILE --to txt|json|csv|code : convert a decklist between formats."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from decks.exports import BINARY, EXPORTS, export_deck
from decks.management.decklist_file import read_deck


class Command(BaseCommand):
    help = (
        "Read a decklist in any format (text, JSON, CSV or a deck code; '-' reads stdin) and "
        "write it in another to stdout (pdf and proxies are PDF bytes: redirect to a file)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--to", required=True, choices=list(EXPORTS))
        parser.add_argument("--page", choices=["a4", "letter"], default="a4",
                            help="paper size for pdf and proxies")
        parser.add_argument("--output", "-o", metavar="PATH", help="write to a file")
        parser.add_argument("--cards", metavar="ID,ID", help="proxies: only these card ids")
        parser.add_argument("--low-ink", action="store_true",
                            help="proxies: light grey faces at 150 dpi (under 1 MB for 60 cards)")
        parser.add_argument("--name", help="the deck's name, instead of the list's own (a deck "
                            "code carries none: its name travels beside it)")
        parser.add_argument("--description", help="the deck's description, instead of the "
                            "list's own")

    def handle(self, *args: Any, **options: Any) -> None:
        deck = read_deck(self, options["file"])
        words = {key: options[key] for key in ("name", "description") if options[key] is not None}
        if words:
            deck = replace(deck, **words)
        only = set(options["cards"].split(",")) if options["cards"] else None
        data = export_deck(deck, options["to"], options["page"], only=only,
                           low_ink=options["low_ink"])
        if options["output"]:
            Path(options["output"]).write_bytes(data)
            self.stderr.write(f"wrote {options['output']} ({len(data):,} bytes)")
        elif options["to"] in BINARY:
            if sys.stdout.isatty():
                self.stderr.write("this is a PDF: use --output deck.pdf or redirect stdout")
                sys.exit(1)
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            self.stdout.write(data.decode("utf-8"), ending="")
