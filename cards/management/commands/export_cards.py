"""export_cards [--set CODE] : write the catalogue as a card data file on stdout."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cards.models import CardSet
from cards.services import cards_export


class Command(BaseCommand):
    help = (
        "Export card data (docs/design.md §4) to stdout. With --set, one {\"set\", \"cards\"} "
        "document; without, a list of such documents, one per set. import_cards reads both back."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--set", dest="set_code", metavar="CODE")
        parser.add_argument("--format", choices=["json"], default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        code = options["set_code"]
        if code is not None:
            code = code.upper()
            if not CardSet.objects.filter(code=code).exists():
                known = ", ".join(CardSet.objects.values_list("code", flat=True)) or "none"
                self.stderr.write(f"unknown set {code!r} (sets: {known})")
                sys.exit(1)
        document = cards_export(set_code=code)
        self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
