"""Rendered card faces against the floor of the job: encoding an image of the same size."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from cards.images import face, scan

ROOT = Path(__file__).resolve().parent.parent


def run(best_of: Callable[..., float], report: Callable[..., None]) -> None:
    demo = json.loads((ROOT / "fixtures" / "cards" / "demo.json").read_text(encoding="utf-8"))
    card = next(c for c in demo["cards"] if c["type"] == "personality")
    blank = Image.new("RGB", (745, 1040), "white")

    def encode_blank() -> None:
        scan.renditions_from_image(blank)

    def render() -> None:
        face.render_face_renditions(card)

    buffer = io.BytesIO()
    blank.save(buffer, "PNG")
    png = buffer.getvalue()

    def check_scan() -> None:
        scan.make_renditions(png)

    baseline = best_of(encode_blank, repeat=3, number=5)
    report("card face: draw + 3 WebP renditions", best_of(render, repeat=3, number=5), baseline,
           "3 WebP renditions of a blank card")
    report("scan: check + 3 WebP renditions", best_of(check_scan, repeat=3, number=5), baseline,
           "3 WebP renditions of a blank card")
