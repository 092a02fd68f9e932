"""Card faces "photographed": turned a few degrees, set on a background, blurred and noisy.

Stands in for owners' phone photos in the scan-reading bench and tests, and is deterministic:
everything follows from the seed (numpy's generator, not ``random``).
"""

from __future__ import annotations

import io
from typing import Final

import numpy as np
from PIL import Image, ImageFilter

# Plain surfaces a card is laid on: green baize, a dark desk, a white sheet, a blue cloth.
BACKGROUNDS: Final = ((34, 82, 52), (38, 32, 30), (236, 234, 228), (40, 60, 110))

Corners = tuple[tuple[float, float], ...]


def photograph(face: Image.Image, seed: int, *, max_turn: float = 6.0) -> tuple[bytes, Corners]:
    """A JPEG photo of ``face`` and where the face's corners are in it (TL, TR, BR, BL).

    The card is scaled to 78-92 % of its size, turned by up to ``max_turn`` degrees either
    way, put anywhere on an 880 x 1160 surface lit unevenly, then blurred (radius 0.6-1.2),
    given noise (sigma 4-8) and saved as a JPEG of quality 85.
    """
    rng = np.random.default_rng(seed)
    scale = float(rng.uniform(0.78, 0.92))
    turn = float(rng.uniform(-max_turn, max_turn))
    card = face.convert("RGB").resize(
        (round(face.width * scale), round(face.height * scale)), Image.Resampling.LANCZOS)
    card.putalpha(255)
    turned = card.rotate(turn, resample=Image.Resampling.BILINEAR, expand=True)

    width, height = 880, 1160
    colour = np.array(BACKGROUNDS[int(rng.integers(len(BACKGROUNDS)))], dtype=np.float32)
    xs = np.linspace(-0.5, 0.5, width, dtype=np.float32)[None, :]
    ys = np.linspace(-0.5, 0.5, height, dtype=np.float32)[:, None]
    light = 1 + 0.08 * xs + 0.06 * ys  # a lamp to one side
    surface = np.clip(colour * light[..., None], 0, 255).astype(np.uint8)
    photo = Image.fromarray(surface)
    left = int(rng.integers(20, width - turned.width - 20))
    top = int(rng.integers(20, height - turned.height - 20))
    photo.paste(turned, (left, top), turned)

    photo = photo.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.6, 1.2))))
    noise = rng.standard_normal((height, width, 3), dtype=np.float32) * rng.uniform(4, 8)
    photo = Image.fromarray(np.clip(np.asarray(photo, dtype=np.float32) + noise, 0, 255)
                            .astype(np.uint8))
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=85)

    # Where the corners went: turned about the centre of the expanded image, then moved.
    t = np.radians(turn)
    cx, cy = card.width / 2, card.height / 2  # (card is RGBA now; its size is unchanged)
    corners = []
    for x, y in ((0, 0), (card.width, 0), (card.width, card.height), (0, card.height)):
        dx, dy = x - cx, y - cy
        rx = dx * np.cos(t) + dy * np.sin(t)
        ry = -dx * np.sin(t) + dy * np.cos(t)
        corners.append((float(left + turned.width / 2 + rx), float(top + turned.height / 2 + ry)))
    return buffer.getvalue(), tuple(corners)
