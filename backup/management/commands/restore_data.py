"""restore_data FILE : load a backup_data archive into this empty, migrated database."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from backup.archive import BackupError, backup_restore


class Command(BaseCommand):
    help = ("Restore a backup_data archive into this database (SQLite or PostgreSQL, whichever "
            "made it) and its media files into MEDIA_ROOT. The database must be migrated and "
            "empty; on any problem nothing is changed and the exit code is 1.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive", metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        archive = Path(options["archive"])
        if not archive.is_file():
            self.stderr.write(f"no such file: {archive}")
            sys.exit(1)
        try:
            restored = backup_restore(archive)
        except BackupError as error:
            self.stderr.write(f"cannot restore {archive}: {error}")
            sys.exit(1)
        self.stderr.write(
            f"restored {restored.rows} rows (from {restored.source_database}) and "
            f"{restored.media_files} media files from {archive}")
