"""search QUERY : the cards matching a search query, explained (the same engine as the API)."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cards.card_search import SearchError, card_search
from cards.models import Card


class Command(BaseCommand):
    help = "Search the catalogue with the query language (see /search/help/ or docs/search.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("query", nargs="+", help="e.g. 't:troop f:kalim off>=2'")
        parser.add_argument("--format", choices=["text", "json"], default="text")
        parser.add_argument("--limit", type=int, default=0, help="at most this many cards")

    def handle(self, *args: Any, **options: Any) -> None:
        text = " ".join(options["query"])
        try:
            search = card_search(text)
        except SearchError as error:
            pointer = " " * error.position + "^" * max(1, error.length)
            hint = f" Did you mean: {', '.join(error.suggestions)}?" if error.suggestions else ""
            expected = f" Expected {error.expected}." if error.expected else ""
            self.stderr.write(f"{text}\n{pointer}\n{error.message}{expected}{hint}")
            sys.exit(1)
        cards = search.apply(Card.objects.select_related("set"))
        if options["limit"] > 0:
            cards = cards[: options["limit"]]
        found = list(cards)
        search = search.with_name_suggestions(found_any=bool(found))
        if options["format"] == "json":
            document = {
                "query": search.text,
                "explained": search.explained,
                "warnings": list(search.warnings),
                "results": [card.as_data() for card in found],
            }
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
            return
        self.stdout.write(f"{len(found)} card(s): {search.explained}")
        for warning in search.warnings:
            self.stdout.write(f"warning: {warning}")
        for card in found:
            kind = card.get_type_display() or "type unknown"
            self.stdout.write(f"  {card.name:<36} {kind:<12} {card.set.code:<5} {card.id}")
