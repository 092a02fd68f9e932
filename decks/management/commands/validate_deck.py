"""validate_deck FILE [--players N] : check a decklist against the construction rules."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from decks.management.decklist_file import read_deck
from decks.validation import catalogue_facts, deck_validate


class Command(BaseCommand):
    help = (
        "Validate a decklist (text or JSON; '-' reads stdin). Exit 0 when legal, 1 when not or "
        "when the list cannot be read. Problems go to stdout."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--players", type=int, choices=range(2, 7), metavar="N",
                            help="player count (2-6; default: the deck's own, else 4)")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        deck = read_deck(self, options["file"])
        validation = deck_validate(deck, players=options["players"])
        if options["format"] == "json":
            self.stdout.write(json.dumps(validation.to_dict(), indent=2, ensure_ascii=False))
        else:
            self._print(deck.name, validation)
        if not validation.legal:
            sys.exit(1)

    def _print(self, name: str, validation: Any) -> None:
        names = {cid: f.name for cid, f in catalogue_facts().items()}
        counts = validation.counts
        verdict = "LEGAL" if validation.legal else "NOT LEGAL"
        players = validation.legal_players
        span = f" for {players[0]}-{players[1]} players" if players else ""
        self.stdout.write(f"{name or 'Deck'}: {verdict}{span}")
        self.stdout.write(
            f"  holdings {counts.holdings}, structures {counts.structures}, personalities "
            f"{counts.personalities}, wanderers {counts.wanderers}"
        )
        for problem in validation.problems:
            self.stdout.write(f"- {problem.severity}: {problem.code}: {problem.message}")
            self.stdout.write(f"    rule: \"{problem.rule}\"")
            for fix in problem.fixes:
                target = f" to {fix.to}" if fix.to else f" ({fix.section})"
                label = names.get(fix.card, fix.card)
                self.stdout.write(f"    fix: {fix.action} {fix.count} x {label}{target}")
