"""draw FILE --seed S [--structures K | --strategy SPEC] [--picks s,p,...] : deal an opening hand
by the rules (holdings bought from the starting tokens, piles shuffled, seven cards drawn one at
a time from the pile the strategy names)."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from decks.draws import DEFAULT_STRUCTURES, deal_document, read_strategy
from decks.management.decklist_file import read_deck, spec_failure
from rules.draw_strategy import StrategyError
from rules.odds import TooComplexError
from sitewide.seeds import seed_argument


def add_strategy_arguments(parser: CommandParser) -> None:
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--structures", type=int, choices=range(8), metavar="K",
                        help=f"a fixed split: K structures first, then 7-K personalities "
                        f"(default: {DEFAULT_STRUCTURES} when no strategy is given)")
    choice.add_argument("--strategy", metavar="SPEC",
                        help="e.g. 'structures until 2 structures with residencies, then "
                        "personalities', 'alternate', 'structures=3'")


class Command(BaseCommand):
    help = (
        "Deal an opening hand by the rules (text or JSON decklist; '-' reads stdin). The same "
        "deck, seed and strategy always give the same hand. Exit 1 on bad input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--seed", type=seed_argument, required=True, metavar="S")
        add_strategy_arguments(parser)
        parser.add_argument("--picks", metavar="s,p,...",
                            help="your own choice for each draw, in order (s = Structure Pile, "
                            "p = Personality Pile); a split or a strategy given too continues "
                            "after the last pick, otherwise the deal waits there")
        parser.add_argument("--table", action="store_true",
                            help="add the exact per-card odds table for the strategy")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        deck = read_deck(self, options["file"])
        try:
            strategy = read_strategy(options["structures"], options["strategy"],
                                     options["picks"])
        except StrategyError as error:
            label, text = (("picks", options["picks"]) if options["strategy"] is None
                           else ("strategy", options["strategy"]))
            spec_failure(self, label, text or "", error)
        try:
            document = deal_document(deck, options["seed"], strategy, table=options["table"])
        except TooComplexError as error:
            self.stderr.write(error.message)
            sys.exit(1)
        if options["format"] == "json":
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
            return
        self._print(document)

    def _print(self, deal: dict[str, Any]) -> None:
        write = self.stdout.write
        write(f"{deal['deck'] or 'Deck'}: seed {deal['seed']}, strategy {deal['strategy']}")
        write(f"  {deal['strategy_explained']}.")
        source = "the deck's own" if deal["holdings_source"] == "deck" else "the advisor's"
        holdings = ", ".join(f"{h['count']} {h['name']}" for h in deal["holdings"]) or "none"
        write(f"Initial Holdings ({source}): {holdings}")
        if deal["holdings_source"] == "advisor":
            write(f"  {deal['holdings_note']}")
        tokens = deal["tokens"]
        write(f"Tokens left: {tokens['economic']} economic, {tokens['religious']} religious, "
              f"{tokens['political']} political")
        write("Hand, in draw order:")
        for card in deal["hand"]:
            pile = "Structure Pile" if card["pile"] == "structures" else "Personality Pile"
            write(f"  {card['draw']}. {card['name']:<34} from the {pile}")
        piles = deal["piles"]
        write(f"Left: {piles['structures']} structures, {piles['personalities']} "
              f"personality-pile cards, {piles['wanderers']} wanderers (none revealed)")
        for note in deal["notes"]:
            write(f"note: {note}")
        if "table" in deal:
            write("Odds for the strategy (P(>=1), P(>=2), expected copies):")
            for row in deal["table"]["cards"]:
                write(f"  {row['name']:<34} {row['at_least_1']['probability']:7.2%} "
                      f"{row['at_least_2']['probability']:7.2%} {row['expected']:6.3f}")
