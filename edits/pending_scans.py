"""Scans uploaded with the edit form before the edit exists: checked, straightened and read at
once (cards.images.intake), kept under a token until the person submits the form (the token
travels in the form), then attached to the edit and deleted.

Only the card as found and re-encoded (WebP, no metadata) is kept, never the uploaded bytes,
in the uploader's own folder: a token names a scan of its uploader only. Scans never
submitted are swept after a day (``manage.py expire_edits``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import re

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone
from PIL import Image

FOLDER = "edits/pending"
SIZES = ("normal", "large")
PHOTO = "photo"  # a whole photo in which the card was not found surely: for placing corners
PHOTO_LONG_SIDE = 2000
_TOKEN = re.compile(r"^[0-9a-f]{32}$")


def _path(user_id: int, token: str, size: str) -> str:
    return f"{FOLDER}/{user_id}/{token}-{size}.webp"


def pending_scan_store(*, user_id: int, renditions: dict[str, bytes]) -> str:
    """Keep the renditions of a checked scan; returns its token."""
    token = hashlib.sha256(renditions["large"]).hexdigest()[:32]
    for size in SIZES:
        path = _path(user_id, token, size)
        if not default_storage.exists(path):
            default_storage.save(path, ContentFile(renditions[size]))
    return token


def pending_photo_store(*, user_id: int, photo: Image.Image) -> tuple[str, tuple[int, int]]:
    """Keep a checked photo (pixels only, re-encoded as WebP, at most PHOTO_LONG_SIDE long)
    for the person to place a card's corners on; returns its token and stored size."""
    image = photo.convert("RGB")
    image.thumbnail((PHOTO_LONG_SIDE, PHOTO_LONG_SIDE), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    image.save(buffer, "WEBP", quality=88, method=4)
    data = buffer.getvalue()
    token = hashlib.sha256(data).hexdigest()[:32]
    path = _path(user_id, token, PHOTO)
    if not default_storage.exists(path):
        default_storage.save(path, ContentFile(data))
    return token, image.size


def pending_photo(*, user_id: int, token: str) -> Image.Image | None:
    """The user's photo kept by :func:`pending_photo_store`, decoded; None if there is none."""
    path = pending_scan_path(user_id=user_id, token=token, size=PHOTO)
    if path is None:
        return None
    with default_storage.open(path, "rb") as stored:
        image = Image.open(io.BytesIO(stored.read()))
        image.load()
    return image.convert("RGB")


def pending_scan_path(*, user_id: int, token: str, size: str = "large") -> str | None:
    """The stored file of the user's scan, or None if the token names none of theirs."""
    if not _TOKEN.match(token or "") or size not in (*SIZES, PHOTO):
        return None
    path = _path(user_id, token, size)
    return path if default_storage.exists(path) else None


def pending_scan_bytes(*, user_id: int, token: str) -> bytes | None:
    path = pending_scan_path(user_id=user_id, token=token)
    if path is None:
        return None
    with default_storage.open(path, "rb") as stored:
        data: bytes = stored.read()
    return data


def pending_scan_delete(*, user_id: int, token: str) -> None:
    if _TOKEN.match(token or ""):
        for size in (*SIZES, PHOTO):
            default_storage.delete(_path(user_id, token, size))


def pending_scans_sweep(*, older_than: dt.timedelta = dt.timedelta(days=1)) -> int:
    """Delete the scans uploaded longer ago than ``older_than`` and never submitted."""
    if not default_storage.exists(FOLDER):
        return 0
    cutoff = timezone.now() - older_than
    deleted = 0
    folders, _ = default_storage.listdir(FOLDER)
    for folder in folders:
        _, files = default_storage.listdir(f"{FOLDER}/{folder}")
        for name in files:
            path = f"{FOLDER}/{folder}/{name}"
            if default_storage.get_modified_time(path) < cutoff:
                default_storage.delete(path)
                deleted += 1
    return deleted
