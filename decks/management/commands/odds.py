"""odds FILE [--structures K | --strategy SPEC] --query QUERY --at-least N | --goal GOAL
[--advise] : the exact probability that the opening hand holds what you ask for."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cards.card_search import SearchError
from decks.draws import odds_document, read_strategy
from decks.management.commands.draw import add_strategy_arguments
from decks.management.decklist_file import read_deck, spec_failure
from rules.draw_strategy import StrategyError
from rules.odds import GoalError, TooComplexError

MAX_AT_LEAST = 99


class Command(BaseCommand):
    help = (
        "Exact odds for the opening hand (text or JSON decklist; '-' reads stdin): that it "
        "holds at least N cards matching a search query, or that a goal holds. Prints "
        "{\"probability\": float, \"exact\": \"p/q\", ...} with --format json. Exit 1 on bad "
        "input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        add_strategy_arguments(parser)
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--query", metavar="QUERY", help="a search query, e.g. 't:troop'")
        what.add_argument("--goal", metavar="GOAL",
                          help="e.g. '>= 1 citizen and >= 1 open residence'")
        parser.add_argument("--at-least", type=int, default=1, metavar="N",
                            help="with --query: how many matching cards (default 1)")
        parser.add_argument("--advise", action="store_true",
                            help="also give every fixed split's probability and the best one")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        if not 0 <= options["at_least"] <= MAX_AT_LEAST:
            self.stderr.write(f"--at-least must be a whole number from 0 to {MAX_AT_LEAST}")
            sys.exit(1)
        deck = read_deck(self, options["file"])
        try:
            strategy = read_strategy(options["structures"], options["strategy"])
        except StrategyError as error:
            spec_failure(self, "strategy", options["strategy"] or "", error)
        try:
            document = odds_document(deck, strategy, query=options["query"],
                                     at_least=options["at_least"], goal=options["goal"],
                                     advise=options["advise"])
        except SearchError as error:
            spec_failure(self, "query", options["query"], error)
        except GoalError as error:
            spec_failure(self, "goal", options["goal"], error)
        except TooComplexError as error:
            self.stderr.write(error.message)
            sys.exit(1)
        if options["format"] == "json":
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
            return
        self._print(document)

    def _print(self, odds: dict[str, Any]) -> None:
        write = self.stdout.write
        if "query" in odds:
            write(f"P(at least {odds['at_least']} of {odds['group_size']['total']} cards "
                  f"matching {odds['query']!r}) = {odds['probability']:.4%} (exactly "
                  f"{odds['exact']})")
            write(f"  the query: {odds['explained']}")
            write(f"  expected in the hand: {odds['expected']:.3f}")
            for k, row in odds["table"].items():
                write(f"  at least {k}: {row['probability']:.4%} ({row['exact']})")
        else:
            write(f"P({odds['goal']}) = {odds['probability']:.4%} (exactly {odds['exact']})")
            write(f"  {odds['explained']}")
        write(f"  strategy {odds['strategy']}: {odds['strategy_explained']}")
        for warning in odds.get("warnings", []):
            self.stderr.write(f"warning: {warning}")
        if "advice" in odds:
            write("Every fixed split:")
            for row in odds["advice"]["splits"]:
                write(f"  structures={row['structures']}: {row['probability']:.4%} "
                      f"({row['exact']})")
            best = odds["advice"]["best"]
            write(f"Best: {best['strategy']} ({best['probability']:.4%})")
