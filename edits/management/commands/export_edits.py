"""export_edits [--set CODE] : the edit history as JSON Lines, one edit document per line,
oldest first (docs/design.md §13), so the community's work can leave with it."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cards.models import CardSet
from edits.documents import edit_documents, edits_for_documents
from edits.models import Edit

BATCH = 500


class Command(BaseCommand):
    help = ("Print every card edit as JSON Lines (one edit document per line, oldest first); "
            "--set CODE keeps the edits of one set's cards.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--set", dest="set_code", metavar="CODE")

    def handle(self, *args: Any, **options: Any) -> None:
        edits = Edit.objects.order_by("created_at", "id")
        code = options["set_code"]
        if code is not None:
            code = code.upper()
            if not CardSet.objects.filter(code=code).exists() and \
                    not Edit.objects.filter(set_code=code).exists():
                known = ", ".join(CardSet.objects.values_list("code", flat=True)) or "none"
                self.stderr.write(f"unknown set {code!r} (sets: {known})")
                sys.exit(1)
            edits = edits.filter(set_code=code)
        ids = list(edits.values_list("pk", flat=True))
        for start in range(0, len(ids), BATCH):
            chunk = ids[start:start + BATCH]
            found = edits_for_documents(Edit.objects.filter(pk__in=chunk)).in_bulk()
            for document in edit_documents([found[pk] for pk in chunk]):
                self.stdout.write(json.dumps(document, ensure_ascii=False))
