"""Card images in storage: scans and rendered faces, made once and redone when their source
changes. The drawing and checking is in the pure package cards.images."""

from __future__ import annotations

import hashlib
import io
import json
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from django.core.files.base import ContentFile
from PIL import Image

from cards.images import face, scan
from cards.models import Card, CardImage, CardRevision

Scan = tuple[str, dict[str, bytes]]  # (hash of the scan's bytes, its WebP renditions)
Progress = Callable[[str], None]
# Below this many faces a process pool costs more to start than it saves.
PARALLEL_FROM = 12


def face_hash(card: Card) -> str:
    payload = json.dumps([face.FACE_VERSION, card.as_data()], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


def cards_ensure_images(
    cards: Sequence[Card],
    scans: dict[str, Scan] | None = None,
    *,
    progress: Progress | None = None,
) -> int:
    """Give every card up-to-date renditions; returns how many cards got new images.

    A scan wins over a rendered face; a card without a scan gets a face drawn from its data,
    redrawn whenever that data (or the renderer, FACE_VERSION) changes.
    """
    scans = scans or {}
    current = {i.card_id: i for i in CardImage.objects.filter(card__in=[c.id for c in cards])}
    made = 0
    faces: list[tuple[Card, str]] = []
    for card in cards:
        picture = current.get(card.id)
        if card.id in scans:
            source_hash, renditions = scans[card.id]
            if not (picture and picture.status == CardImage.SCAN
                    and picture.source_hash == source_hash):
                _store(card, picture, CardImage.SCAN, source_hash, renditions)
                made += 1
            continue
        if picture and picture.status == CardImage.SCAN:
            continue  # a scan uploaded in the admin stays until another replaces it
        wanted = face_hash(card)
        if not (picture and picture.source_hash == wanted):
            faces.append((card, wanted))
    drawn = render_faces([card.as_data() for card, _ in faces], progress=progress)
    for (card, wanted), renditions in zip(faces, drawn, strict=True):
        _store(card, current.get(card.id), CardImage.RENDERED, wanted, renditions)
    return made + len(faces)


def cards_restore_lost_image(card: Card) -> bool:
    """Draw the card's face again when a file of its renditions is gone from storage (a media
    directory wiped, a database restored on another machine): every image request would fail
    otherwise. A lost scan cannot be restored; the drawn face takes its place. Returns whether
    anything was drawn."""
    picture = CardImage.objects.filter(card=card).first()
    if picture is None:
        return False
    files = (picture.small, picture.normal, picture.large)
    if all(f and f.name and f.storage.exists(f.name) for f in files):
        return False
    renditions = render_faces([card.as_data()])[0]
    _store(card, picture, CardImage.RENDERED, face_hash(card), renditions)
    return True


def render_faces(
    cards: Sequence[dict[str, Any]], *, progress: Progress | None = None
) -> list[dict[str, bytes]]:
    """Draw faces, on every core when there are many (drawing is pure CPU work)."""
    if len(cards) < PARALLEL_FROM:
        return [face.render_face_renditions(c) for c in cards]
    workers = min(os.cpu_count() or 1, 8)
    # forkserver: the workers do not inherit this process's database connections or threads.
    context = multiprocessing.get_context("forkserver")
    results: list[dict[str, bytes]] = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        for n, renditions in enumerate(
            pool.map(face.render_face_renditions, cards, chunksize=4), start=1
        ):
            results.append(renditions)
            if progress and (n % 25 == 0 or n == len(cards)):
                progress(f"card faces: {n}/{len(cards)} drawn")
    return results


def card_set_scan(card: Card, data: bytes, *, user: Any) -> None:
    """Replace a card's image by an uploaded scan (checked and re-encoded; raises ScanError)."""
    renditions = scan.make_renditions(data)
    current = CardImage.objects.filter(card=card).first()
    _store(card, current, CardImage.SCAN, hashlib.sha256(data).hexdigest(), renditions)
    CardRevision.objects.create(
        card=card, user=user, source="admin", changes={"scan": [None, "uploaded"]}
    )


def _store(
    card: Card,
    current: CardImage | None,
    status: str,
    source_hash: str,
    renditions: dict[str, bytes],
) -> None:
    image = current or CardImage(card=card)
    image.status = status
    for name in renditions_store(image, source_hash, renditions):
        image.large.storage.delete(name)
    for size in DERIVED:
        derived_rendition(image, size, renditions["large"])


# Renditions with no field of their own, drawn from the large one when it is stored (or, for
# an image stored before, on their first request) and kept beside it: "medium" is the card
# list tile's 2x (146 CSS pixels on a phone's screen).
DERIVED: dict[str, int] = {"medium": 2 * scan.RENDITIONS["small"]}


def derived_name(large_name: str, size: str) -> str:
    """Where the ``size`` rendition drawn from the large file ``large_name`` is kept."""
    folder, _, file = large_name.rpartition("/")
    return f"{folder}/{size}-{file.removeprefix('large-')}"


def derived_rendition(picture: CardImage, size: str, large: bytes | None = None) -> str:
    """The storage name of ``picture``'s ``size`` rendition (of :data:`DERIVED`), drawn from
    its large rendition (``large``: its bytes, when at hand) if it was never drawn."""
    storage = picture.large.storage
    name = derived_name(str(picture.large.name), size)
    if not storage.exists(name):
        if large is None:
            with picture.large.open("rb") as file:
                large = file.read()
        payload = scan.rendition_resized(large, DERIVED[size])
        if not storage.exists(name):  # another request drew it meanwhile
            storage.save(name, ContentFile(payload))
    return name


def renditions_store(picture: Any, source_hash: str, renditions: dict[str, bytes]) -> list[str]:
    """Write the WebP renditions onto ``picture`` (a model with ``small``, ``normal`` and
    ``large`` image fields, ``source_hash``, ``width`` and ``height``: a card's image, an
    edit's scan) and save it; returns the names of the files the new ones replaced, for the
    caller to delete once nothing can roll the change back."""
    old_files = [str(f.name) for f in (picture.small, picture.normal, picture.large)
                 if f and f.name]
    picture.source_hash = source_hash
    tag = source_hash[:10]
    for size, payload in renditions.items():
        getattr(picture, size).save(f"{size}-{tag}.webp", ContentFile(payload), save=False)
    with Image.open(io.BytesIO(renditions["large"])) as large:
        picture.width, picture.height = large.size
    picture.save()
    kept = {picture.small.name, picture.normal.name, picture.large.name}
    old_files += [derived_name(name, size) for name in old_files if "/large-" in name
                  for size in DERIVED]
    return [name for name in old_files if name not in kept]
