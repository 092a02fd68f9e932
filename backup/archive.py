"""Backups of the whole site: every row (catalogue, images, users, decks and their versions)
and every media file, in one ``.tar.gz`` that restores into an empty database of either kind.

The rows travel as Django's own JSON serialization (``dumpdata --natural-foreign
--natural-primary``, with times to the microsecond: backup.exact_json), which names users and
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

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.dispatch import Signal
from django.utils import timezone

from backup import exact_json
from backup.moved_models import (
    MERGED_MODELS,
    MOVED_MODELS,
    MOVED_TASKS,
    RETIRED_APPS,
    ROW_UPGRADES,
)

FORMAT = 1
DATA = f"data.{exact_json.FORMAT}.gz"  # loaddata reads the format from the name
MANIFEST = "manifest.json"
MEDIA = "media"
# Made again by migrate, or worthless in another database.
LEFT_OUT = ["contenttypes", "auth.permission", "sessions"]
# Rows that migrate writes by itself, so an empty site may hold them.
MADE_BY_MIGRATE = {"contenttypes", "auth.permission", "sessions", "cards.cataloguerevision"}
NATURAL_KEYED = ("contenttypes.contenttype", "auth.permission")

#: Sent once the rows of an archive are loaded, in the restore's transaction: an app whose
#: caches hang on its rows moves them on (the catalogue's revision).
restored = Signal()


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
        rows = _upgrade_rows(folder / DATA)
        with transaction.atomic():
            if rows:  # loaddata warns about a fixture with no rows (a site never used)
                call_command("loaddata", str(folder / DATA), verbosity=0)
            # E.g. the catalogue moves on by one, so that no client keeps a copy cached
            # under the restored revision's ETag from before.
            restored.send(sender=backup_restore)
    return Restored(rows=rows, media_files=media_files,
                    source_database=str(manifest.get("database", "unknown")))


def _refuse_unless_empty() -> None:
    present = [
        str(model._meta.verbose_name_plural) for model in apps.get_models()
        if model._meta.app_label not in MADE_BY_MIGRATE
        and model._meta.label_lower not in MADE_BY_MIGRATE
        and model._default_manager.exists()
    ]
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
    newer = sorted(app for app, name in theirs.items()
                   if name > ours.get(app, "") and app not in RETIRED_APPS)
    if newer:
        raise BackupError(f"the backup was made by a newer version of the site (migrations of "
                          f"{', '.join(newer)}); update the code, migrate, then restore")
    return manifest


def _latest_migrations() -> dict[str, str]:
    latest: dict[str, str] = {}
    for app, name in MigrationRecorder(connection).applied_migrations():
        latest[app] = max(latest.get(app, ""), name)
    return latest


def _upgrade_rows(data: Path) -> int:
    """Rename the models and tasks that moved since the archive was made (rows, and natural
    keys naming a content type or permission by app and model); returns the number of rows."""
    with gzip.open(data, "rt", encoding="utf-8") as handle:
        rows: list[dict[str, Any]] = json.load(handle)
    changed = False
    for upgrade in ROW_UPGRADES:
        upgraded = upgrade(rows)
        if upgraded != rows:
            rows, changed = upgraded, True
    for row in rows:
        label = MOVED_MODELS.get(row.get("model", ""))
        if label:
            row["model"], changed = label, True
        fields = row.get("fields", {})
        for name in _content_type_keys(row.get("model", "")) & fields.keys():
            renamed = _renamed_key(fields[name])
            if renamed is not fields[name]:
                fields[name], changed = renamed, True
        if fields.get("task_path") in MOVED_TASKS:
            fields["task_path"], changed = MOVED_TASKS[fields["task_path"]], True
    if changed:
        with gzip.open(data, "wt", encoding="utf-8") as handle:
            json.dump(rows, handle)
    return len(rows)


def _content_type_keys(label: str) -> set[str]:
    """The fields of a model that name content types or permissions by natural key."""
    try:
        model = apps.get_model(label)
    except (LookupError, ValueError):
        return set()  # loaddata will say what is wrong with the row
    return {f.name for f in [*model._meta.fields, *model._meta.many_to_many]
            if f.related_model is not None and f.related_model._meta.label_lower in NATURAL_KEYED}


def _renamed_key(value: Any) -> Any:
    """A natural key ``[app, model]`` (a content type) or ``[codename, app, model]`` (a
    permission), or a list of them, with a moved model's new app; anything else as it is."""
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        renamed = [_renamed_key(v) for v in value]
        return renamed if any(a is not b for a, b in zip(renamed, value, strict=True)) else value
    if isinstance(value, list) and len(value) in (2, 3) and all(isinstance(v, str) for v in value):
        app, model = value[-2:]
        moved = MOVED_MODELS.get(f"{app}.{model}")
        if moved:
            return [*value[:-2], *moved.split(".")]
        merged = MERGED_MODELS.get(f"{app}.{model}")
        if merged:  # a permission's codename names its model too: view_goldfishrun
            new_app, new_model = merged.split(".")
            codename = [f"{value[0].removesuffix(model)}{new_model}"] if len(value) == 3 else []
            return [*codename, new_app, new_model]
    return value


def _add_bytes(tar: tarfile.TarFile, name: str, content: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(content)
    info.mtime = int(timezone.now().timestamp())
    tar.addfile(info, io.BytesIO(content))
