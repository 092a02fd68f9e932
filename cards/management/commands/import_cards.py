"""import_cards FILE... : load card data files (docs/design.md §4). Each file is all-or-nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cards.card_data import CardDataError
from cards.services import cards_import_bytes


class Command(BaseCommand):
    help = (
        "Import card data files (JSON, docs/design.md §4). '-' reads stdin. Re-importing updates "
        "cards by id. A file with any problem is refused whole, with every problem listed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument(
            "--no-images", action="store_true",
            help="skip making image renditions (they are drawn on first view instead)",
        )
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        reports: list[dict[str, Any]] = []
        failed = False
        # Progress rewrites one line on a terminal and prints plain lines into a log.
        ending = "\r" if self.stderr.isatty() else "\n"
        for name in options["files"]:
            try:
                raw, base_dir = _read(name)
                for report in cards_import_bytes(
                    raw,
                    source=name,
                    base_dir=base_dir,
                    make_images=not options["no_images"],
                    progress=lambda msg: self.stderr.write(f"{msg:<60}", ending=ending),
                ):
                    self.stderr.write(report.summary())
                    reports.append({
                        "file": report.source, "created": report.created,
                        "updated": report.updated, "unchanged": report.unchanged,
                        "images": report.images, "kept": report.kept,
                    })
            except OSError as exc:
                failed = True
                self.stderr.write(f"{name}: cannot read the file: {exc.strerror or exc}")
                reports.append({"file": name, "error": str(exc)})
            except CardDataError as exc:
                failed = True
                self.stderr.write(f"{name}: refused, {exc}")
                reports.append({"file": name, "problems": [str(p) for p in exc.problems]})
        if options["format"] == "json":
            self.stdout.write(json.dumps({"imported": reports, "ok": not failed}, indent=2))
        if failed:
            sys.exit(1)


def _read(name: str) -> tuple[bytes, Path]:
    if name == "-":
        return sys.stdin.buffer.read(), Path.cwd()
    path = Path(name)
    return path.read_bytes(), path.resolve().parent
