"""Phone photos of card faces: single cards on light, dark and wooden surfaces, and binder pages.

Stands in for owners' phone photos in the scans bench and the tests (issue 36), and is
deterministic: everything follows from the seed (numpy's generator, not ``random``). What a
phone does to a card, as measured on real photos of the Demo faces:

* the card turned 3.6-7.8 degrees either way, and a 2-5 % keystone (the camera not quite
  square above the card: the far edge shorter);
* uneven warm light (a lamp to one side: a brightness falloff, red up and blue down, and a
  soft shadow), a slight blur, sensor noise, and a JPEG;
* on a surface: pine, white, light oak or light grey (where the card's silver border blends
  in), or a dark desk, a dark walnut or black slate;
* a binder page: nine cards in 3 x 3 pockets of a clear sheet on a dark or a white page.

Every photo comes with where each card's corners are in it (clockwise from the card's top
left) and the card shown, in reading order.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
from PIL import Image

from cards.images import face

Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float],
                tuple[float, float]]
_Array = np.ndarray[Any, np.dtype[Any]]

# A surface: its colour, whether it has a wood grain, and whether it counts as light.
SURFACES: Final[Mapping[str, tuple[tuple[int, int, int], bool, bool]]] = {
    "pine": ((222, 190, 140), True, True),
    "white table": ((238, 237, 233), False, True),
    "light oak": ((200, 164, 112), True, True),
    "light grey table": ((184, 186, 190), False, True),
    "dark desk": ((40, 34, 32), False, False),
    "walnut": ((86, 58, 40), True, False),
    "black slate": ((28, 30, 34), False, False),
}
PHOTO_SIZE: Final = (1500, 2000)  # a phone's 3000 x 4000, halved: the bench stays quick
BINDER_SIZE: Final = (2400, 3000)


@dataclass(frozen=True)
class Photo:
    """A generated photo: the JPEG, what it shows, and where every card is."""

    name: str  # e.g. "pine 3" or "binder page on black 1"
    jpeg: bytes
    cards: tuple[Mapping[str, Any], ...]  # the cards shown, in reading order
    corners: tuple[Corners, ...]  # each card's corners, clockwise from its top left
    surface: str


def _surface(rng: np.random.Generator, size: tuple[int, int], name: str) -> _Array:
    """A surface ``size`` (w, h) pixels: its colour, a fine texture, and wood grain."""
    colour, grain, _ = SURFACES[name]
    w, h = size
    base = np.empty((h, w, 3), dtype=np.float32)
    base[:] = colour
    # Low-frequency mottling: a small noise field scaled up.
    mottle = rng.standard_normal((h // 80 + 2, w // 80 + 2)).astype(np.float32)
    base *= (1 + 0.035 * cv2.resize(mottle, (w, h), interpolation=cv2.INTER_CUBIC))[..., None]
    if grain:
        # Grain: stripes along x whose phase wanders, darker late wood every few mm.
        ys = np.arange(h, dtype=np.float32)[:, None]
        xs = np.arange(w, dtype=np.float32)[None, :]
        wander = cv2.resize(rng.standard_normal((6, 4)).astype(np.float32), (w, h),
                            interpolation=cv2.INTER_CUBIC) * 40
        period = float(rng.uniform(28, 60))
        phase = (ys + wander + 6 * np.sin(xs / 300 + float(rng.uniform(0, 6)))) / period
        stripes = np.abs(np.sin(np.pi * phase)) ** 6
        fine = cv2.resize(rng.standard_normal((h // 3 + 1, w // 40 + 1)).astype(np.float32),
                          (w, h), interpolation=cv2.INTER_LINEAR)
        base *= (1 - 0.16 * stripes - 0.03 * fine)[..., None]
    return base


def _perspective_quad(rng: np.random.Generator, centre: tuple[float, float], width: float,
                      height: float, turn: float, keystone: float) -> _Array:
    """The four corners (TL, TR, BR, BL) of a card ``width`` x ``height`` turned by ``turn``
    degrees about ``centre``, its top edge ``keystone`` shorter than its bottom."""
    half_w, half_h = width / 2, height / 2
    top = half_w * (1 - keystone / 2)
    bottom = half_w * (1 + keystone / 2)
    points = np.array([(-top, -half_h), (top, -half_h), (bottom, half_h), (-bottom, half_h)],
                      dtype=np.float64)
    t = np.radians(turn)
    rotation = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    quad: _Array = points @ rotation + np.array(centre)
    return quad


def _paste(canvas: _Array, image: Image.Image, quad: _Array) -> None:
    """Draw ``image`` onto ``canvas`` with its corners at ``quad`` (anti-aliased edges)."""
    h, w = canvas.shape[:2]
    source = np.array([(0, 0), (image.width, 0), (image.width, image.height),
                       (0, image.height)], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(source, quad.astype(np.float32))
    pixels = np.asarray(image.convert("RGB"), dtype=np.float32)
    warped = cv2.warpPerspective(pixels, matrix, (w, h), flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(np.ones(pixels.shape[:2], dtype=np.float32), matrix, (w, h),
                                flags=cv2.INTER_LINEAR)[..., None]
    # Blended only where the image lands (alpha > 0): elsewhere the blend leaves the canvas
    # as it was, to the bit, and a card covers a ninth of a binder page.
    covered = alpha[..., 0] > 0
    rows, columns = np.flatnonzero(covered.any(axis=1)), np.flatnonzero(covered.any(axis=0))
    if rows.size == 0:
        return
    window = np.s_[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]
    canvas[window] *= 1 - alpha[window]
    canvas[window] += warped[window] * alpha[window]


def _light(rng: np.random.Generator, canvas: _Array) -> _Array:
    """Uneven warm light: a lamp off to one side, a soft shadow across a corner."""
    h, w = canvas.shape[:2]
    lamp_x, lamp_y = float(rng.uniform(-0.4, 1.4)) * w, float(rng.uniform(-0.4, 0.3)) * h
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    distance = np.hypot(xs - lamp_x, ys - lamp_y) / max(w, h)
    light = 1.12 - 0.32 * np.clip(distance, 0, 1.4)
    shadow_angle = float(rng.uniform(0, 2 * np.pi))
    along = (xs / w - 0.5) * np.cos(shadow_angle) + (ys / h - 0.5) * np.sin(shadow_angle)
    light *= 1 - 0.12 / (1 + np.exp(-(along - 0.3) * 18))
    warmth = float(rng.uniform(0.04, 0.1))
    tint = np.array([1 + warmth, 1.0, 1 - 1.6 * warmth], dtype=np.float32)
    lit: _Array = canvas * light[..., None] * tint
    return lit


def _finish(rng: np.random.Generator, canvas: _Array) -> bytes:
    """Blur, sensor noise and a phone's JPEG."""
    blur = float(rng.uniform(0.8, 1.6))
    canvas = cv2.GaussianBlur(canvas, (0, 0), blur)
    canvas = canvas + rng.standard_normal(canvas.shape, dtype=np.float32) * float(
        rng.uniform(3, 7))
    image = Image.fromarray(np.clip(canvas, 0, 255).astype(np.uint8))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=int(rng.integers(80, 92)))
    return buffer.getvalue()


def _corners(quad: _Array) -> Corners:
    tl, tr, br, bl = ((float(x), float(y)) for x, y in quad)
    return (tl, tr, br, bl)


def _turn(rng: np.random.Generator) -> float:
    return float(rng.uniform(3.6, 7.8)) * (1 if rng.integers(2) else -1)


def card_photo(card: Mapping[str, Any], surface: str, seed: int) -> Photo:
    """One card photographed on ``surface``."""
    rng = np.random.default_rng(seed)
    w, h = PHOTO_SIZE
    canvas = _surface(rng, PHOTO_SIZE, surface)
    card_width = w * float(rng.uniform(0.55, 0.68))
    card_height = card_width * face.HEIGHT / face.WIDTH
    reach_x = (w - card_width * 1.25) / 2
    reach_y = (h - card_height * 1.2) / 2
    centre = (w / 2 + float(rng.uniform(-reach_x, reach_x)),
              h / 2 + float(rng.uniform(-reach_y, reach_y)))
    quad = _perspective_quad(rng, centre, card_width, card_height, _turn(rng),
                             float(rng.uniform(0.02, 0.05)))
    _paste(canvas, face.render_face(card), quad)
    jpeg = _finish(rng, _light(rng, canvas))
    return Photo(f"{surface} {seed}", jpeg, (card,), (_corners(quad),), surface)


def binder_photo(cards: Sequence[Mapping[str, Any]], page: str, seed: int,
                 surface: str | None = None) -> Photo:
    """Nine cards in the 3 x 3 pockets of a binder page on a ``page`` ("black" or "white")
    sheet, the whole page turned and in keystone, lying on ``surface`` (by default a dark
    desk under a white page, light oak under a black one); the pockets' clear plastic shows
    as faint seams between the cards."""
    if len(cards) != 9:
        raise ValueError(f"a binder page holds 9 cards, not {len(cards)}")
    if surface is not None and surface not in SURFACES:
        raise ValueError(f"no surface {surface!r}: choose among {', '.join(SURFACES)}")
    rng = np.random.default_rng(seed)
    w, h = BINDER_SIZE
    if surface is None:
        surface = "dark desk" if page == "white" else "light oak"
    canvas = _surface(rng, BINDER_SIZE, surface)
    # The page, then each card in its pocket, all in the page's frame before turning.
    page_w, page_h = w * 0.9, h * 0.9
    turn = _turn(rng) * 0.6
    keystone = float(rng.uniform(0.02, 0.05))
    centre = (w / 2 + float(rng.uniform(-20, 20)), h / 2 + float(rng.uniform(-20, 20)))
    page_colour = (22, 22, 24) if page == "black" else (236, 236, 232)
    sheet = Image.new("RGB", (int(page_w), int(page_h)), page_colour)
    pocket_w = page_w * 0.93 / 3
    pocket_h = page_h * 0.955 / 3
    card_w = pocket_w * 0.93
    card_h = card_w * face.HEIGHT / face.WIDTH
    margin_x = (page_w - 3 * pocket_w) / 2
    margin_y = (page_h - 3 * pocket_h) / 2
    seam = (70, 70, 74) if page == "black" else (205, 205, 200)
    sheet_pixels = np.asarray(sheet, dtype=np.float32).copy()
    placed: list[_Array] = []
    for index, card in enumerate(cards):
        row, col = divmod(index, 3)
        x0 = margin_x + col * pocket_w
        y0 = margin_y + row * pocket_h
        cv2.rectangle(sheet_pixels, (int(x0), int(y0)), (int(x0 + pocket_w), int(y0 + pocket_h)),
                      seam, 2)
        cx = x0 + pocket_w / 2 + float(rng.uniform(-4, 4))
        cy = y0 + pocket_h / 2 + float(rng.uniform(-4, 4))
        tilt = float(rng.uniform(-1.2, 1.2))  # a card sits loosely in its pocket
        local = _perspective_quad(rng, (cx, cy), card_w, card_h, tilt, 0.0)
        _paste(sheet_pixels, face.render_face(card), local)
        placed.append(local)
    sheet_image = Image.fromarray(np.clip(sheet_pixels, 0, 255).astype(np.uint8))
    page_quad = _perspective_quad(rng, centre, page_w, page_h, turn, keystone)
    _paste(canvas, sheet_image, page_quad)
    # The cards' corners through the same perspective map as the page.
    matrix = cv2.getPerspectiveTransform(
        np.array([(0, 0), (sheet_image.width, 0), (sheet_image.width, sheet_image.height),
                  (0, sheet_image.height)], dtype=np.float32), page_quad.astype(np.float32))
    corners = tuple(
        _corners(cv2.perspectiveTransform(local.reshape(1, 4, 2).astype(np.float32),
                                          matrix)[0].astype(np.float64))
        for local in placed)
    # A sheen on the plastic: a soft bright band across the page.
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    band = np.exp(-(((xs * 0.6 + ys * 0.8) / max(w, h) - float(rng.uniform(0.5, 0.9)))
                    / 0.05) ** 2)
    canvas += (band * 18)[..., None]
    jpeg = _finish(rng, _light(rng, canvas))
    return Photo(f"binder page on {page} {seed}", jpeg, tuple(cards), corners, surface)


def photo_set(cards: Sequence[Mapping[str, Any]], *, singles: int | None = None,
              binders: int = 2, pool: Sequence[Mapping[str, Any]] | None = None) -> list[Photo]:
    """The bench's photos: one card per photo (the first ``singles`` of ``cards``, on the
    surfaces in turn), and ``binders`` binder pages of nine cards of ``pool`` (``cards`` by
    default) each, spread over it, on a black and a white page. Seeded by position: the same
    arguments, the same photos."""
    names = list(SURFACES)
    count = len(cards) if singles is None else min(singles, len(cards))
    photos = [card_photo(card, names[index % len(names)], seed=index)
              for index, card in enumerate(cards[:count])]
    source = list(pool if pool is not None else cards)
    for page in range(binders):
        nine = [source[(page * 5 + 3 + i * len(source) // 9) % len(source)] for i in range(9)]
        photos.append(binder_photo(nine, ("black", "white")[page % 2], seed=1000 + page))
    return photos
