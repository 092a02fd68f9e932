"""build_public_catalogue TSV : regenerate fixtures/cards/wof.json from the public facts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cards.public_data import public_catalogue


class Command(BaseCommand):
    help = "Write the real War of Factions catalogue (known facts only) as card data JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tsv", help="shared/data/war_of_factions_public.tsv")

    def handle(self, *args: Any, **options: Any) -> None:
        document = public_catalogue(Path(options["tsv"]).read_text(encoding="utf-8"))
        self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
