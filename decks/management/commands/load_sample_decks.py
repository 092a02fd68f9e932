"""load_sample_decks FILE... : load text decklists as public decks of the 'samples' user."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from decks.formats.text import parse_text
from decks.services import catalogue_resolver, sample_deck_load


class Command(BaseCommand):
    help = "Load sample decklists (text format). Idempotent: unchanged decks are left alone."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        resolve = catalogue_resolver()
        failed = False
        for name in options["files"]:
            try:
                text = Path(name).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                self.stderr.write(f"{name}: cannot read: {exc}")
                failed = True
                continue
            result = parse_text(text, resolve)
            if result.deck is None:
                failed = True
                for error in result.errors:
                    hint = ""
                    if error.suggestions:
                        hint = f" (did you mean: {', '.join(error.suggestions)})"
                    self.stderr.write(f"{name}:{error.line}: {error.message}{hint}")
                continue
            deck, changed = sample_deck_load(result.deck)
            self.stderr.write(f"{name}: {deck.name} {'loaded' if changed else 'unchanged'}")
        if failed:
            sys.exit(1)
