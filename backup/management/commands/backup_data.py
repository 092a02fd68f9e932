"""backup_data [-o FILE] : every row and media file of the site in one .tar.gz."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from backup.archive import backup_write


class Command(BaseCommand):
    help = ("Back up the whole site (catalogue, images, users, decks and their versions, media "
            "files) into one archive; restore_data loads it into an empty SQLite or PostgreSQL "
            "database. Prints the archive's path.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("-o", "--output", metavar="FILE",
                            help="default: var/backups/allegiance-<UTC time>.tar.gz")

    def handle(self, *args: Any, **options: Any) -> None:
        stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
        default = Path(settings.VAR_DIR) / "backups" / f"allegiance-{stamp}.tar.gz"
        archive = Path(options["output"] or default)
        manifest = backup_write(archive)
        self.stderr.write(f"backed up the {manifest['database']} database and media to {archive}")
        self.stdout.write(str(archive))
