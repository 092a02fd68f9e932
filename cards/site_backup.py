"""Backups of the whole site: every row (catalogue, images, users, decks and their versions)
and every media file, in one ``.tar.gz`` that restores into an empty database of either kind.

The rows travel as Django's own JSON serialization (``dumpdata --natural-foreign
--natural-primary``, with times to the microsecond: cards.exact_json), which names users and
content types by their natural keys rather than by numbers, so the same archive loads into
SQLite or PostgreSQL: moving from one to the other is a backup and a restore. What ``migrate``
makes by itself (content types, permissions) and what is only transient (sessions) stays out.
"""

from __future__ import annotations

import gzip
import io
import json
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from cards import exact_json
from cards.models import Card, CardSet
from cards.signals import catalogue_changed
from decks.models import Deck

FORMAT = 1
DATA = f"data.{exact_json.FORMAT}.gz"  # loaddata reads the format from the name
MANIFEST = "manifest.json"
MEDIA = "media"
# Made again by migrate, or worthless in another database.
LEFT_OUT = ["contenttypes", "auth.permission", "sessions"]


class BackupError(Exception):
    """The archive cannot be restored here; nothing was changed."""


@dataclass(frozen=True)
class Restored:
    rows: int
    media_files: int
    source_database: str


def backup_write(archive: Path) -> dict[str, Any]:
    """Write the archive; returns its manifest."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / DATA
        call_command("dumpdata", format=exact_json.FORMAT, natural_foreign=True,
                     natural_primary=True, exclude=LEFT_OUT, output=str(data), verbosity=0)
        manifest = {
            "format": FORMAT,
            "created_at": timezone.now().isoformat(),
            "database": connection.vendor,
            "migrations": _latest_migrations(),
        }
        partial = archive.with_name(archive.name + ".partial")
        with tarfile.open(partial, "w:gz") as tar:
            _add_bytes(tar, MANIFEST, json.dumps(manifest, indent=2).encode())
            tar.add(data, arcname=DATA)
            media_root = Path(settings.MEDIA_ROOT)
            if media_root.is_dir():
                tar.add(media_root, arcname=MEDIA)
        partial.replace(archive)  # never a half-written archive under the real name
    return manifest


def backup_restore(archive: Path) -> Restored:
    """Load the archive into this (migrated, empty) database and its media into MEDIA_ROOT."""
    _refuse_unless_empty()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        try:
            with tarfile.open(archive, "r:gz") as tar:
                tar.extractall(folder, filter="data")  # no absolute paths, links or ../
        except (tarfile.TarError, OSError, EOFError) as error:
            raise BackupError(f"{archive} is not a backup archive: {error}") from error
        manifest = _read_manifest(folder)
        media_files = 0
        if (folder / MEDIA).is_dir():  # first: rows that name a file find it there
            shutil.copytree(folder / MEDIA, settings.MEDIA_ROOT, dirs_exist_ok=True)
            media_files = sum(1 for p in (folder / MEDIA).rglob("*") if p.is_file())
        rows = _count_rows(folder / DATA)
        with transaction.atomic():
            if rows:  # loaddata warns about a fixture with no rows (a site never used)
                call_command("loaddata", str(folder / DATA), verbosity=0)
            # The catalogue moves on by one, so that no client keeps a copy cached under
            # the restored revision's ETag from before.
            catalogue_changed()
    return Restored(rows=rows, media_files=media_files,
                    source_database=str(manifest.get("database", "unknown")))


def _refuse_unless_empty() -> None:
    found = {
        "users": get_user_model().objects.exists(),
        "card sets": CardSet.objects.exists(),
        "cards": Card.objects.exists(),
        "decks": Deck.objects.exists(),
    }
    present = [name for name, there in found.items() if there]
    if present:
        raise BackupError(
            f"this database already holds {', '.join(present)}: restore into an empty, "
            "migrated database (docs/deploy.md says how); nothing was changed")


def _read_manifest(folder: Path) -> dict[str, Any]:
    try:
        manifest: dict[str, Any] = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError) as error:
        raise BackupError(f"the archive has no readable {MANIFEST}: {error}") from error
    if manifest.get("format") != FORMAT or not (folder / DATA).is_file():
        raise BackupError(f"unknown backup format {manifest.get('format')!r}; this site "
                          f"reads format {FORMAT}")
    ours, theirs = _latest_migrations(), manifest.get("migrations", {})
    newer = sorted(app for app, name in theirs.items() if name > ours.get(app, ""))
    if newer:
        raise BackupError(f"the backup was made by a newer version of the site (migrations of "
                          f"{', '.join(newer)}); update the code, migrate, then restore")
    return manifest


def _latest_migrations() -> dict[str, str]:
    latest: dict[str, str] = {}
    for app, name in MigrationRecorder(connection).applied_migrations():
        latest[app] = max(latest.get(app, ""), name)
    return latest


def _count_rows(data: Path) -> int:
    with gzip.open(data, "rt", encoding="utf-8") as handle:
        return len(json.load(handle))


def _add_bytes(tar: tarfile.TarFile, name: str, content: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(content)
    info.mtime = int(timezone.now().timestamp())
    tar.addfile(info, io.BytesIO(content))
