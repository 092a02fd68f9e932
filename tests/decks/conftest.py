"""The deck tests' card faces are drawn once per run.

The test catalogue has no images, so every proxy sheet draws the faces of its deck's cards
(about forty, seconds of CPU each time). Drawing is a pure function of the card's data and
the renderer's version, and tests/cards checks it; here each face is drawn by the real
renderer the first time it is needed and kept, by that key, in pytest's cache folder (which
the workers and the suite's two database legs share), so later sheets read it back.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cards import image_services
from cards.images import face


@pytest.fixture(scope="session")
def drawn_faces(request: pytest.FixtureRequest,
                tmp_path_factory: pytest.TempPathFactory) -> Path:
    cache = getattr(request.config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir("drawn-faces"))
    # Without the cache plugin: the run's base temp, the parent of each worker's.
    folder = tmp_path_factory.getbasetemp().parent / "drawn-faces"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(autouse=True)
def faces_drawn_once(monkeypatch: pytest.MonkeyPatch, drawn_faces: Path) -> None:
    draw = image_services.render_faces

    def path(card: dict[str, Any]) -> Path:
        payload = json.dumps([face.FACE_VERSION, card], sort_keys=True, default=str)
        return drawn_faces / hashlib.sha256(payload.encode()).hexdigest()

    def render_faces(cards: Sequence[dict[str, Any]], **options: Any) -> list[dict[str, bytes]]:
        paths = [path(card) for card in cards]
        missing = [(card, kept) for card, kept in zip(cards, paths, strict=True)
                   if not kept.exists()]
        drawn = draw([card for card, _ in missing], **options)
        for (_, kept), renditions in zip(missing, drawn, strict=True):
            part = kept.with_suffix(f".{os.getpid()}")
            part.write_bytes(pickle.dumps(renditions))
            part.replace(kept)  # whole or not at all, for the other worker
        return [pickle.loads(kept.read_bytes()) for kept in paths]

    monkeypatch.setattr(image_services, "render_faces", render_faces)
