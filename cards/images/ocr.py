"""Reading a straightened card image with Tesseract, region by region.

Pure Python (Pillow, numpy and the tesserocr binding; no Django). :func:`read_card` takes an
upright card image (a rendered face, a flat scan, or a photo straightened by
:mod:`cards.images.locate`), scales it to the rendered face's 745 x 1040 and reads each region
where :mod:`cards.images.face` draws it, with the page segmentation mode that suits it: the
name and the stat values as single lines, the type bar and the text box as blocks.

What is read is what is printed. Post-processing only normalises whitespace and punctuation
(curly quotes and dashes, stray marks at a line's ends); a name is never corrected against
the catalogue's names, since the card being read may be one the catalogue lacks. Closed
vocabularies are another matter: the type line is matched against the six types, their
subtypes and the three factions (docs/design.md §4), and a stat box is told by its label's colour.

Every value comes with a confidence between 0 and 1: Tesseract's own (its mean word
confidence), lowered when a value had to be matched loosely.

Tesseract is Debian's ``tesseract-ocr`` with ``tesseract-ocr-eng``: the binding (its wheel
bundles the library) needs the English data those packages install. Without it,
:func:`read_card` raises :class:`OcrUnavailable` with a message saying what to install.
"""

from __future__ import annotations

import difflib
import itertools
import os
import re
import shutil
import subprocess
import threading
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np
from PIL import Image, ImageFilter, ImageOps

from cards.images import face
from rules.card_anatomy import FACTIONS, RARITIES, SUBTYPES, applicable_keys

INSTALL_HINT: Final = (
    "install Debian's tesseract-ocr and tesseract-ocr-eng "
    "(apt-get install tesseract-ocr tesseract-ocr-eng)"
)
# Debian's data folders (bookworm's 5, bullseye's 4.00); TESSDATA_PREFIX, if set, comes first.
TESSDATA_DIRS: Final = (
    "/usr/share/tesseract-ocr/5/tessdata",
    "/usr/share/tesseract-ocr/4.00/tessdata",
    "/usr/share/tessdata",
)
NUMBER_HEIGHT: Final = 24
# The text box is scaled up less than the one-line regions: its letters are mostly 16+ px
# already, and Tesseract's time grows with the pixels.
TEXT_SCALE: Final = 1.5

_Array = np.ndarray[Any, np.dtype[np.float64]]


class OcrUnavailable(RuntimeError):
    """Tesseract (or its English data) is not installed; the message says what to install."""


@dataclass(frozen=True)
class Reading[T]:
    """A value read from the scan and how sure the reader is of it (0 to 1)."""

    value: T
    confidence: float
    # The words Tesseract was unsure of (under WEAK_WORD), as read: a confident block can
    # hold one wrong word ("fet" for "let"), which its mean confidence hides.
    weak: tuple[str, ...] = ()


# A word read with a confidence under this is weak (cards.images.card_fields checks it
# against the catalogue's words).
WEAK_WORD: Final = 0.8


@dataclass(frozen=True)
class CardReading:
    """What was read from a card, field by field; None where nothing could be read."""

    name: Reading[str] | None = None
    type_line: Reading[str] | None = None  # as printed, e.g. "Personality — Troop · House Mosfin"
    detail_line: Reading[str] | None = None  # race · gender · profession, or the requirement
    card_type: Reading[str] | None = None
    subtype: Reading[str] | None = None
    faction: Reading[str] | None = None
    unique: Reading[bool] | None = None
    abilities: Reading[str] | None = None
    quotation: Reading[str] | None = None
    # docs/design.md §4 number keys (cost_economic, offense, vitality, ...) that were read.
    numbers: Mapping[str, Reading[int]] = field(default_factory=dict)
    # The collector line: "DEMO · No. 001 · Rare" and "Illus. <artist>".
    number: Reading[str] | None = None
    rarity: Reading[str] | None = None
    artist: Reading[str] | None = None

    def fields(self) -> dict[str, Reading[object]]:
        """The readings under their card data keys (docs/design.md §4), for prefilling an edit
        form."""
        out: dict[str, Reading[object]] = {}
        for key, reading in (
            ("name", self.name), ("type", self.card_type), ("subtype", self.subtype),
            ("faction", self.faction), ("unique", self.unique), ("abilities", self.abilities),
            ("quotation", self.quotation), ("number", self.number), ("rarity", self.rarity),
            ("artist", self.artist),
        ):
            if reading is not None:
                out[key] = Reading(reading.value, reading.confidence, reading.weak)
        for key, number in self.numbers.items():
            out[key] = Reading(number.value, number.confidence)
        return out


# --- Tesseract ----------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def tessdata_dir() -> str:
    """The folder holding ``eng.traineddata``; raises :class:`OcrUnavailable` if there is none."""
    candidates = [os.environ.get("TESSDATA_PREFIX", ""), *TESSDATA_DIRS]
    binary = shutil.which("tesseract")
    if binary:
        # `tesseract --list-langs` names its data folder on its first line.
        try:
            listed = subprocess.run(
                [binary, "--list-langs"], capture_output=True, text=True, timeout=10, check=False
            )
            match = re.search(r'"([^"]+)"', listed.stdout + listed.stderr)
            if match:
                candidates.append(match.group(1))
        except (OSError, subprocess.SubprocessError):
            pass
    for folder in candidates:
        if folder and (Path(folder) / "eng.traineddata").is_file():
            return folder
    if binary is None:
        raise OcrUnavailable(f"Tesseract is not installed: {INSTALL_HINT}")
    raise OcrUnavailable(f"Tesseract has no English data: {INSTALL_HINT}")


def ocr_available() -> str | None:
    """None if scans can be read here, else why not (a sentence to show as it is)."""
    try:
        _engine()
    except OcrUnavailable as exc:
        return str(exc)
    return None


class _Engine:
    """One Tesseract instance: loading the model costs ~0.1 s, so it is kept (one per thread:
    an instance is not thread-safe)."""

    def __init__(self) -> None:
        try:
            import tesserocr  # here, so that a machine without it fails only when reading
        except ImportError as exc:
            raise OcrUnavailable(
                f"the tesserocr package is missing (pip install -e .); also {INSTALL_HINT}"
            ) from exc
        self._psm = tesserocr.PSM
        try:
            self._api = tesserocr.PyTessBaseAPI(path=tessdata_dir(), lang="eng")
        except RuntimeError as exc:
            raise OcrUnavailable(f"Tesseract could not start ({exc}): {INSTALL_HINT}") from exc
        # Cards are not dictionary prose: names and jargon must not be "corrected" to words.
        self._api.SetVariable("load_system_dawg", "0")
        self._api.SetVariable("load_freq_dawg", "0")

    def read(self, image: Image.Image, mode: str, whitelist: str = "") -> tuple[str, float]:
        """Text and mean confidence (0 to 1) of ``image`` read as a ``mode``."""
        psm = {"line": self._psm.SINGLE_LINE, "block": self._psm.SINGLE_BLOCK,
               "word": self._psm.SINGLE_WORD, "char": self._psm.SINGLE_CHAR}[mode]
        if float(np.percentile(np.asarray(image.convert("L")), 0.5)) > 160:
            return "", 0.0  # no ink at all: Tesseract would make letters out of nothing
        self._api.SetPageSegMode(psm)
        self._api.SetVariable("tessedit_char_whitelist", whitelist)
        self._api.SetImage(image)
        text = str(self._api.GetUTF8Text())
        if not text.strip():
            # Tesseract's own threshold sometimes leaves a clear line of grey-haloed letters
            # empty (a photo's collector line); in black and white it reads.
            self._api.SetImage(_binarised(image))
            text = str(self._api.GetUTF8Text())
        confidence = max(0, int(self._api.MeanTextConf())) / 100
        return text, confidence

    def weak_words(self) -> tuple[str, ...]:
        """The words of the last :meth:`read` whose confidence is under :data:`WEAK_WORD`."""
        try:
            words = self._api.MapWordConfidences()
        except RuntimeError:  # nothing was read
            return ()
        return tuple(str(word) for word, conf in words if conf / 100 < WEAK_WORD)


def _binarised(image: Image.Image) -> Image.Image:
    """``image`` in black and white, split half-way (the regions are stretched from ink at
    0 to paper at 255 first: Otsu's split would thicken bold letters into blots)."""
    return image.convert("L").point(lambda v: 255 if v > 127 else 0)


_local = threading.local()


def _engine() -> _Engine:
    engine = getattr(_local, "engine", None)
    if engine is None:
        engine = _Engine()
        _local.engine = engine
    assert isinstance(engine, _Engine)
    return engine


# --- text normalisation -------------------------------------------------------------------------

_QUOTES: Final = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201b": "'", "`": "'",
                                "\u00b4": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
                                "\u2013": "-"})


def clean_line(text: str) -> str:
    """One line: whitespace collapsed, curly quotes straightened, stray marks at its ends
    (the specks Tesseract reads in a border or an ornament) removed."""
    text = unicodedata.normalize("NFC", text).translate(_QUOTES)
    text = " ".join(text.split())
    text = re.sub(r"^[^\w('\"]+", "", text)
    text = re.sub(r"[^\w.!?)'\"]+$", "", text)
    return text


def clean_block(text: str) -> str:
    """A block of text: its lines joined (the printing wraps them, the data does not)."""
    return clean_line(" ".join(text.splitlines()))


# --- regions ------------------------------------------------------------------------------------

Box = tuple[float, float, float, float]
SIZE: Final = (face.WIDTH, face.HEIGHT)


def read_card(image: Image.Image) -> CardReading:
    """Read an upright card image region by region (see the module's docstring).

    Raises :class:`OcrUnavailable` when Tesseract is not installed.
    """
    engine = _engine()
    card = image.convert("RGB")
    if card.size != SIZE:
        card = card.resize(SIZE, Image.Resampling.LANCZOS)
    pixels = even_light(np.asarray(card, dtype=np.float64))
    card = Image.fromarray(pixels.astype(np.uint8))

    name, unique, gem_numbers = _read_name_bar(engine, card, pixels)
    type_line, detail, card_type, subtype, faction = _read_type_bar(engine, card, pixels)
    stats = _stat_boxes(pixels)
    abilities, quotation = _read_text_box(engine, card, pixels, face.text_box(bool(stats)))
    expected = _expected_stats(card_type.value if card_type else None,
                               subtype.value if subtype else None)
    numbers = _read_numbers(engine, [*gem_numbers, *_stat_numbers(pixels, stats, expected)])
    number, rarity, artist = _read_collector_line(engine, card)
    return CardReading(
        name=name, type_line=type_line, detail_line=detail, card_type=card_type,
        subtype=subtype, faction=faction, unique=unique, abilities=abilities,
        quotation=quotation, numbers=numbers, number=number, rarity=rarity, artist=artist,
    )


# The parchment panels (name bar, type bar, text box) and the colours face.py paints each of
# them, from its top to its bottom: the light on the card is measured on them.
_PAPER: Final = (
    (face.NAME_BAR, face.PARCHMENT_TOP, face.PARCHMENT_BOTTOM),
    (face.TYPE_BAR, face.PARCHMENT_TOP, face.PARCHMENT_BOTTOM),
    (face.TEXT_BOX, face.TEXT_PARCHMENT_TOP, face.TEXT_PARCHMENT_BOTTOM),
)
_PAPER_TILE: Final = 16  # face pixels: a tile's brightest tenth is paper, not ink
# A card whose panels are not parchment where the Demo faces print them (another layout, a
# blank) is left as it is: the light fitted would be its printing.
_LIGHT_RANGE: Final = (0.35, 1.6)
_LIGHT_RESIDUAL: Final = 0.08


def _paper_tiles() -> tuple[_Array, _Array]:
    """The centres (x, y) of the tiles over the parchment panels, inside their outlines and
    clear of the gems and the faction shield, and each tile's painted colour."""
    centres, colours = [], []
    tile = _PAPER_TILE
    for (left, top, right, bottom), upper, lower in _PAPER:
        if bottom - top < 100:  # a bar: its right end holds the gems or the shield
            right = min(right, face.WIDTH * 0.62)
        for y in np.arange(top + 8 + tile / 2, bottom - 8 - tile / 2 + 1, tile):
            share = (y - top) / (bottom - top)
            colour = [a + (b - a) * share for a, b in zip(upper, lower, strict=True)]
            for x in np.arange(left + 10 + tile / 2, right - 10 - tile / 2 + 1, tile):
                centres.append((x, y))
                colours.append(colour)
    return np.array(centres), np.array(colours)


def even_light(pixels: _Array) -> _Array:
    """``pixels`` (an upright card, face.py's size) with the light evened out: a phone's
    lamp to one side, its warm tint and a soft shadow. The paper of the parchment panels is
    compared with the colours face.py paints them, a smooth surface (a quadratic in x and y,
    each channel) is fitted to the ratio, strays dropped, and the card divided by it. A
    card without parchment where the Demo faces have it is returned as it is."""
    centres, painted = _paper_tiles()
    half = _PAPER_TILE // 2
    offsets = np.arange(-half, half)
    rows = (np.round(centres[:, 1]).astype(int)[:, None, None] + offsets[None, :, None])
    columns = (np.round(centres[:, 0]).astype(int)[:, None, None] + offsets[None, None, :])
    tiles = pixels[rows, columns].reshape(len(centres), -1, 3)  # N x tile pixels x RGB
    measured = np.percentile(tiles, 90, axis=1)
    ratio = measured / painted
    u = centres[:, 0] / face.WIDTH - 0.5
    v = centres[:, 1] / face.HEIGHT - 0.5
    design = np.column_stack([np.ones_like(u), u, v, u * u, u * v, v * v])
    keep = np.ones(len(u), dtype=bool)
    coefficients = np.zeros((6, 3))
    for _ in range(3):
        coefficients = np.linalg.lstsq(design[keep], ratio[keep], rcond=None)[0]
        residual = np.abs(design @ coefficients - ratio).max(axis=1)
        keep = residual <= max(0.03, 2.5 * float(np.median(residual[keep])))
    if float(np.median(residual[keep])) > _LIGHT_RESIDUAL or keep.mean() < 0.5:
        return pixels
    # The surface is smooth: computed on a grid an eighth the size, then scaled up.
    height, width = pixels.shape[:2]
    ys, xs = np.mgrid[0:height // 8, 0:width // 8]
    # Beyond the panels (the border, the footer) the light is held at the panels' edge: a
    # quadratic carried further can swing far off.
    gu = np.clip((xs + 0.5) / (width // 8) - 0.5, u.min(), u.max())
    gv = np.clip((ys + 0.5) / (height // 8) - 0.5, v.min(), v.max())
    grid = np.stack([np.ones_like(gu), gu, gv, gu * gu, gu * gv, gv * gv], axis=-1)
    light = cv2.resize((grid @ coefficients).astype(np.float32), (width, height),
                       interpolation=cv2.INTER_LINEAR).astype(np.float64)
    if light.min() < _LIGHT_RANGE[0] or light.max() > _LIGHT_RANGE[1]:
        return pixels
    evened: _Array = np.clip(pixels / light, 0, 255)
    return evened


def _crop(card: Image.Image, box: Box, scale: float = 2.0, invert: bool = False) -> Image.Image:
    """A region in grey on an even white ground, scaled up (Tesseract reads best with letters
    30+ pixels tall).

    The panels are gradients and photos are lit unevenly, so each row is divided by its own
    paper brightness (a high percentile: ink covers far less than a row) before the
    contrast is stretched; stretching alone would turn a gradient into bands of grey.
    """
    region = card.crop(tuple(round(v) for v in box)).convert("L")  # type: ignore[arg-type]
    grey = np.asarray(region, dtype=np.float64)
    if invert:
        grey = 255 - grey
    paper = np.maximum(np.percentile(grey, 85, axis=1, keepdims=True), 1.0)
    flat = np.clip(grey / paper * 255, 0, 255)
    darkest = float(np.percentile(flat, 0.5))
    if darkest < 200:
        flat = np.clip((flat - darkest) / (255 - darkest) * 255, 0, 255)
    region = Image.fromarray(flat.astype(np.uint8))
    if scale != 1:
        size = (round(region.width * scale), round(region.height * scale))
        region = region.resize(size, Image.Resampling.LANCZOS)
    return region


def _luma(pixels: _Array) -> _Array:
    result: _Array = pixels @ np.array([0.299, 0.587, 0.114])
    return result


def _samples(pixels: _Array, points: Sequence[tuple[float, float]]) -> _Array:
    """The RGB pixels at ``points`` (clipped to the image)."""
    xs = np.clip(np.round([p[0] for p in points]).astype(int), 0, pixels.shape[1] - 1)
    ys = np.clip(np.round([p[1] for p in points]).astype(int), 0, pixels.shape[0] - 1)
    result: _Array = pixels[ys, xs]
    return result


def _ring(centre: tuple[float, float], radius: float, count: int = 36) -> list[tuple[float, float]]:
    angles = np.linspace(0, 2 * np.pi, count, endpoint=False)
    return [(centre[0] + radius * float(np.cos(a)), centre[1] + radius * float(np.sin(a)))
            for a in angles]


# --- name bar: unique mark, gems, name ---------------------------------------------------------

# The parchment's colour half-way down a bar (face.py paints it as a gradient).
_BAR_PAPER: Final = np.add(face.PARCHMENT_TOP, face.PARCHMENT_BOTTOM) / 2


# The gem rows a name bar can have (face._gems): none (wanderers), one generic gem
# (structures), three costs (personalities, items), three costs and a requirement diamond.
_GEM_ROWS: Final[tuple[tuple[str, ...], ...]] = (
    ("circle", "circle", "circle", "diamond"),
    ("circle", "circle", "circle"),
    ("circle",),
    (),
)


def _is_gem(pixels: _Array, centre: tuple[float, float], size: float, shape: str) -> bool:
    """A gem is there if its dark rim is: almost all of a ring around its centre is dark."""
    if shape == "diamond":
        h, w = size / 2 * 0.91, size * 0.42 * 0.91
        cx, cy = centre
        corners = [(cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy), (cx, cy - h)]
        points = [
            (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            for a, b in itertools.pairwise(corners)
            for t in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
        ]
    else:
        points = _ring(centre, size / 2 - 1.5)
        # Or its fill: a ring inside the rim all far from the parchment's colour (a gold
        # gem's rim, lit by a lamp, is not dark all round).
        fill = _samples(pixels, _ring(centre, size / 2 - 6))
        if float(np.mean(np.sqrt(((fill - _BAR_PAPER) ** 2).sum(axis=1)) > 70)) >= 0.9:
            return True
    return float(np.mean(_luma(_samples(pixels, points)) < 150)) >= 0.75


def _has_sun(pixels: _Array, centre: tuple[float, float]) -> bool:
    """The unique mark is a gold sun: bright, strongly yellow pixels around its centre."""
    ring = _samples(pixels, _ring(centre, 8) + _ring(centre, 11))
    gold = (ring[:, 0] > 170) & (ring[:, 0] - ring[:, 2] > 90)
    return float(np.mean(gold)) >= 0.6


def _gem_kind(pixels: _Array, centre: tuple[float, float], size: float, shape: str) -> str:
    """The gem's colour (economic, religious, political, generic): the nearest colour of
    face.GEM_COLOURS to the median of a ring inside its rim, clear of the number (for a
    diamond, of its lower left facet, the one drawn in the plain colour)."""
    cx, cy = centre
    if shape == "diamond":
        points = [(cx + dx, cy + dy) for dx, dy in
                  ((-15, 1.5), (-13, 3), (-11, 6), (-7, 12), (-4, 15))]
    else:
        points = _ring(centre, size / 2 - 6, 48)
    colour = np.median(_samples(pixels, points), axis=0)
    return min(face.GEM_COLOURS,
               key=lambda k: float(np.sum((colour - np.array(face.GEM_COLOURS[k])) ** 2)))


def _read_name_bar(
    engine: _Engine, card: Image.Image, pixels: _Array
) -> tuple[Reading[str] | None, Reading[bool], list[tuple[str, Image.Image]]]:
    shapes: tuple[str, ...] = ()
    for row in _GEM_ROWS:
        layout = face.name_bar_layout(row, unique=False)
        if all(_is_gem(pixels, c, s, shape) for c, s, shape in layout.gems):
            shapes = row
            break
    probe = face.name_bar_layout(shapes, unique=True)
    assert probe.sun is not None
    unique = _has_sun(pixels, probe.sun)
    layout = face.name_bar_layout(shapes, unique=unique)

    left, top, right, bottom = layout.name
    text, confidence = engine.read(_crop(card, (left - 4, top + 6, right + 2, bottom - 6)), "line")
    name = clean_line(text)

    numbers: list[tuple[str, Image.Image]] = []
    costs = {kind: key for key, kind in face.COSTS}
    requirements = {kind: key for key, kind in face.REQUIREMENTS.values()}
    for centre, size, shape in layout.gems:
        kind = _gem_kind(pixels, centre, size, shape)
        key = (requirements if shape == "diamond" else costs).get(kind)
        half = size * (0.36 if shape == "circle" else 0.3)
        # A diamond's number is white; a gem's is in face.ink_on of its colour.
        ink = (255, 255, 255) if shape == "diamond" else face.ink_on(face.GEM_COLOURS[kind])
        light = _luma(np.array(ink, dtype=np.float64)) > 128
        box = (centre[0] - half, centre[1] - half, centre[0] + half, centre[1] + half)
        image = _number_image(pixels, box, bool(light), round_=True)
        if key is not None and image is not None:
            numbers.append((key, image))
    return (
        Reading(name, confidence) if name else None,
        Reading(unique, 0.9),
        numbers,
    )


def _number_image(
    pixels: _Array, box: Box, light: bool, round_: bool = False
) -> Image.Image | None:
    """The number printed in ``box`` (a gem when ``round_``), light or dark on its ground,
    made ready for Tesseract; None if nothing is printed there.

    Only the digits' own pixels are kept (black on white, the rim and the gem's shine left
    out), cut to their box and scaled to :data:`NUMBER_HEIGHT`: Tesseract's reading of a
    lone digit swings with its size, and at 24 px it read every number of the Demo faces.
    """
    left, top, right, bottom = (round(v) for v in box)
    luma = _luma(pixels[top:bottom, left:right])
    if light:
        # Half-way between the gem (the box's median) and the digit's white: a fixed level
        # broke a white digit on a gem a lamp left dim into thin pieces.
        ground = float(np.median(luma))
        digit = luma > max(ground + 40, (ground + float(np.percentile(luma, 99))) / 2)
    else:
        digit = luma < min(110.0, float(np.percentile(luma, 1)) + 60)
    if round_:
        h, w = luma.shape
        ys, xs = np.mgrid[0:h, 0:w]
        digit &= np.hypot(xs - (w - 1) / 2, ys - (h - 1) / 2) <= min(w, h) / 2 - 1.5
    mask = Image.fromarray(np.where(digit, 0, 255).astype(np.uint8)).filter(
        ImageFilter.MedianFilter(3))  # specks of noise would widen the number's box
    ink = np.asarray(mask) < 128
    if round_:
        ink = _central(ink)
        mask = Image.fromarray(np.where(ink, 0, 255).astype(np.uint8))
    if ink.sum() < 12:
        return None
    ys, xs = np.nonzero(ink)
    image = mask.crop((int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1))
    scale = NUMBER_HEIGHT / image.height
    return image.resize((max(1, round(image.width * scale)), NUMBER_HEIGHT),
                        Image.Resampling.LANCZOS)


def _central(ink: np.ndarray[Any, np.dtype[np.bool_]]) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Of the ink in a gem's box, the strokes that reach its middle third: a digit is
    centred, the gem's shine (a bright arc near its rim) is not."""
    count, labels = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
    h, w = ink.shape
    middle = labels[h // 3:h - h // 3, w // 3:w - w // 3]
    kept = [label for label in range(1, count) if (middle == label).any()]
    central: np.ndarray[Any, np.dtype[np.bool_]] = np.isin(labels, kept)
    return central


def _read_numbers(
    engine: _Engine, images: Sequence[tuple[str, Image.Image]]
) -> dict[str, Reading[int]]:
    """Read the numbers of ``images`` (key, prepared image), one at a time (read together in
    one line, spaced apart, Tesseract ran digits together), as text without a whitelist: a
    lone "0" is read far more reliably so. Letters taken for digits are mapped back; "?" is
    no number."""
    numbers: dict[str, Reading[int]] = {}
    for key, image in images:
        text, confidence = engine.read(ImageOps.expand(image, 12, fill=255), "line")
        value = number_read(text)
        if value is not None and key not in numbers:
            numbers[key] = Reading(value, confidence)
    return numbers


# Letters Tesseract reads for a lone digit: a blurred 0 as O, D, Q or U, a 1 as I, l, | or
# i, and so on.
_DIGIT_LOOKALIKES: Final = str.maketrans("OoDQUIl|!iSsZzBGgT", "000001111155228997")


def number_read(text: str) -> int | None:
    """The number of one to two digits that ``text``, read from a gem or a stat box, is
    (letters read for digits mapped back), or None ("?" or anything else is no number)."""
    digits = text.strip().translate(_DIGIT_LOOKALIKES)
    return int(digits) if re.fullmatch(r"\d{1,2}", digits) else None


# --- type bar -----------------------------------------------------------------------------------

_TYPE_WORDS: Final = {title.lower(): key for key, title in face.TYPE_TITLES.items()}


def _has_shield(pixels: _Array, shield: Box) -> bool:
    """The faction shield covers half its box or more with colours far from the parchment
    (on the Demo faces 46 % to 57 %); the end of a long type line, at most a few per cent.
    (Luminance and saturation thresholds missed a dark purple shield under a lamp.)"""
    region = pixels[round(shield[1]) + 6:round(shield[3]) - 6,
                    round(shield[0]) + 6:round(shield[2]) - 6]
    far = np.sqrt(((region - _BAR_PAPER) ** 2).sum(axis=2)) > 60
    return float(np.mean(far)) > 0.25


def _similar(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def _find_phrase(words: list[str], phrases: Mapping[str, str]) -> tuple[str, float, int, int]:
    """The best (key, similarity, start, end) of ``phrases`` (text -> key) among runs of
    ``words``; similarity 0 when none is close."""
    best = ("", 0.0, 0, 0)
    for phrase, key in phrases.items():
        length = len(phrase.split())
        for start in range(max(1, len(words) - length + 1)):
            run = " ".join(words[start:start + length])
            score = _similar(run, phrase)
            if score > best[1]:
                best = (key, score, start, start + length)
    return best


def _read_type_bar(engine: _Engine, card: Image.Image, pixels: _Array) -> tuple[
    Reading[str] | None, Reading[str] | None, Reading[str] | None, Reading[str] | None,
    Reading[str] | None,
]:
    shielded = face.type_bar_layout(True)
    assert shielded.shield is not None
    layout = shielded if _has_shield(pixels, shielded.shield) else face.type_bar_layout(False)
    left, top, right, bottom = layout.text
    text, confidence = engine.read(_crop(card, (left - 6, top + 4, right + 4, bottom - 4)),
                                   "block")
    lines = [clean_line(line) for line in text.splitlines() if clean_line(line)]
    if not lines:
        return None, None, None, None, None
    line = lines[0]
    detail = Reading(lines[1], confidence) if len(lines) > 1 else None
    words = re.sub(r"[^a-z' ]", " ", line.lower().replace("\u2019", "'")).split()

    card_type = subtype = faction = None
    faction_key, score, start, end = _find_phrase(
        words, {name.lower(): key for key, name in FACTIONS.items()})
    if score >= 0.8:
        faction = Reading(faction_key, confidence * score)
        words = words[:start] + words[end:]
    type_key, score, start, end = _find_phrase(words, _TYPE_WORDS)
    if score >= 0.75:
        card_type = Reading(type_key, confidence * score)
        subtypes = {s.replace("_", " "): s for s in SUBTYPES.get(type_key, ())}
        if subtypes and words[end:]:
            sub_key, score, _, _ = _find_phrase(words[end:], subtypes)
            if score >= 0.75:
                subtype = Reading(sub_key, confidence * score)
    return Reading(line, confidence), detail, card_type, subtype, faction


# --- text box: abilities and quotation ----------------------------------------------------------


def _rule_row(pixels: _Array, box: Box) -> int | None:
    """The row of the rule between abilities and quotation, if drawn: a short centred line
    that is even along its length, with blank parchment either side of it."""
    left, top, right, bottom = (round(v) for v in box)
    mid = (left + right) // 2
    half = face.QUOTE_RULE_HALF
    luma = _luma(pixels[top:bottom])
    centre = luma[:, mid - half + 10:mid + half - 10]
    sides = np.concatenate([luma[:, left + 8:mid - half - 12], luma[:, mid + half + 12:right - 8]],
                           axis=1)
    darker = sides.mean(axis=1) - centre.mean(axis=1)
    even = centre.std(axis=1) < 18
    blank_sides = sides.std(axis=1) < 14
    candidates = np.flatnonzero((darker > 10) & even & blank_sides)  # blurred: faint
    if candidates.size == 0:
        return None
    best = candidates[np.argmax(darker[candidates])]
    return int(top + best)


def _slant(region: Image.Image) -> float:
    """How slanted the strokes of a text region are (0 upright, ~0.2 italic): the shear that
    makes the column profile of its vertical edges sharpest. Upright Demo text measures at
    most 0.05, the italic quotations at least 0.15."""
    grey = np.asarray(region.convert("L"), dtype=np.float64)
    edges = np.abs(grey[:, 2:] - grey[:, :-2])
    ys, xs = np.nonzero(edges > 40)
    if xs.size < 100:
        return 0.0
    weights = edges[ys, xs]
    best, best_score = 0.0, -1.0
    for shear in np.arange(-0.15, 0.41, 0.02):
        shifted = np.round(xs + shear * (ys - ys.mean())).astype(int)
        counts = np.bincount(shifted - shifted.min(), weights=weights)
        score = float(np.sum(counts**2))
        if score > best_score:
            best, best_score = float(shear), score
    return best


def _read_text_box(
    engine: _Engine, card: Image.Image, pixels: _Array, box: Box
) -> tuple[Reading[str] | None, Reading[str] | None]:
    pad_x, pad_y = face.TEXT_PAD
    inner = (box[0] + pad_x - 6, box[1] + pad_y - 6, box[2] - pad_x + 6, box[3] - pad_y + 6)
    rule = _rule_row(pixels, inner)
    if rule is not None:
        parts = [(inner[0], inner[1], inner[2], rule - 2), (inner[0], rule + 3, inner[2], inner[3])]
        kinds = ["abilities", "quotation"]
    else:
        parts = [inner]
        kinds = ["quotation" if _slant(_crop(card, inner)) > 0.1 else "abilities"]
    found: dict[str, Reading[str]] = {}
    for part, kind in zip(parts, kinds, strict=True):
        text, confidence = engine.read(_crop(card, part, scale=TEXT_SCALE), "block")
        cleaned = clean_block(text)
        if kind == "quotation":
            cleaned = pronoun_i(cleaned)
        if cleaned:
            found[kind] = Reading(cleaned, confidence, engine.weak_words())
    return found.get("abilities"), found.get("quotation")


def pronoun_i(prose: str) -> str:
    """A quotation's "I" put back where Tesseract read the italic capital as "|" or "l" (a
    word of its own before a lower-case word), or as "1" opening a sentence ("1 walked
    here", "a contract. | always collect"; "paid 1 coin" stays)."""
    prose = re.sub(r"(?:^|(?<= ))[|l](?= [a-z'])", "I", prose)
    return re.sub(r"(?:^|(?<=[.!?] ))1(?= [a-z'])", "I", prose)


# --- stat boxes ---------------------------------------------------------------------------------


def _stat_boxes(pixels: _Array) -> list[Box]:
    """The stat boxes drawn along the bottom: light boxes on the dark body, found by the
    count whose layout (face.stat_boxes) fits the light runs of a row through them."""
    top = face.STAT_ROW[1] + face.STAT_BAND + 4
    row = _luma(pixels[round(top):round(top) + 4]).mean(axis=0)
    best: list[Box] = []
    best_score = 0.0
    for count in range(1, len(face.STATS) + 1):
        boxes = face.stat_boxes(count)
        inside = np.concatenate([row[round(b[0]) + 4:round(b[2]) - 4] for b in boxes])
        gaps = [row[round(a[2]) + 2:round(b[0]) - 2] for a, b in itertools.pairwise(boxes)]
        outside = np.concatenate([row[round(face.STAT_ROW[0]):round(boxes[0][0]) - 2],
                                  row[round(boxes[-1][2]) + 2:round(face.STAT_ROW[2])], *gaps])
        if outside.size == 0 or inside.mean() < 170:
            continue
        score = float(np.percentile(inside, 10) - np.percentile(outside, 90))
        if score > 40 and score > best_score:
            best, best_score = boxes, score
    return best


def _stat_key(pixels: _Array, box: Box) -> str | None:
    """Which stat a box holds, told by the colour of its label band (face.STATS)."""
    band = pixels[round(box[1]) + 4:round(box[1] + face.STAT_BAND) - 3,
                  round(box[0]) + 4:round(box[2]) - 4].reshape(-1, 3)
    colour = np.median(band, axis=0)
    stats = [*face.STATS, face.WALL_BLOCK]
    distances = [float(np.sum((colour - np.array(s.colour)) ** 2)) for s in stats]
    nearest = int(np.argmin(distances))
    return stats[nearest].key if distances[nearest] < 60 ** 2 else None


def _expected_stats(card_type: str | None, subtype: str | None) -> list[str]:
    """The stat boxes a card of this type draws, in order (face._stats): those its type prints
    but the requirement drawn as a diamond."""
    if card_type is None:
        return []
    printed = set(applicable_keys(card_type, subtype))
    requirement = face.REQUIREMENTS.get(card_type, ("", ""))[0]
    return [s.key for s in face.STATS if s.key in printed and s.key != requirement]


def _stat_numbers(pixels: _Array, boxes: list[Box], expected: Sequence[str] = ()
                  ) -> list[tuple[str, Image.Image]]:
    """The number in each stat box, under its key: by the order the type draws them in when
    as many boxes are found (a lamp's warm light makes the label colours of economic strength
    and bounty alike), else by the colour of its label."""
    numbers: list[tuple[str, Image.Image]] = []
    by_order = len(expected) == len(boxes)
    for index, box in enumerate(boxes):
        key = expected[index] if by_order else _stat_key(pixels, box)
        value_box = (box[0] + 4, box[1] + face.STAT_BAND + 3, box[2] - 4, box[3] - 3)
        image = _number_image(pixels, value_box, light=False)
        if key is not None and image is not None:
            numbers.append((key, image))
    return numbers


# --- collector line -----------------------------------------------------------------------------

# Longest first: "Common Starter" is matched whole before "Common" can match its first word.
_RARITY_WORDS: Final = {title.lower(): key for key, title in sorted(
    RARITIES.items(), key=lambda item: -len(item[1].split()))}
# The footer's two texts (face._draw_footer), light on its dark plate: the set, number and
# rarity from the left, the artist right-aligned.
_COLLECTOR_LEFT: Final = (face.FOOTER[0] + 6, face.FOOTER[1] + 4, 420.0, face.FOOTER[1] + 27)
_COLLECTOR_RIGHT: Final = (380.0, face.FOOTER[1] + 4, face.FOOTER[2] - 7, face.FOOTER[1] + 27)


def _trimmed(region: Image.Image) -> Image.Image:
    """``region`` cut to the columns its text covers, a margin either side: a long blank of
    speckled plate beside a short line of text makes Tesseract read nothing at all."""
    ink = (np.asarray(region) < 100).sum(axis=0) >= 2
    columns = np.flatnonzero(ink)
    if columns.size == 0:
        return region
    margin = region.height // 2
    left = max(0, int(columns[0]) - margin)
    right = min(region.width, int(columns[-1]) + 1 + margin)
    return region.crop((left, 0, right, region.height))


def _collector_number(line: str, confidence: float) -> Reading[str] | None:
    """The collector number of the line read ("DEMO · No. 048 · Common"): after "No.", or,
    blurred, after what it was read as ("Ne", "Me 092", "We. 122"), or a lone three-digit
    word ("meso te O48"); the last two at half the confidence (doubtful)."""
    found = re.search(r"\bN[o0]\.?\s*([0-9A-Za-z]+)", line)
    if found:
        value = found.group(1)
        if value == "?":
            return None
        # "O37": a number with a letter read for one of its digits.
        mostly_digits = value[:1].isdigit() or sum(c.isdigit() for c in value) >= 2
        return Reading(value.translate(_DIGIT_LOOKALIKES) if mostly_digits else value,
                       confidence)
    blurred = re.search(r"\b[NMWH][eo0]\.?\s+([0-9O@][0-9A-Za-z@]{2})\b", line)
    words = [blurred.group(1)] if blurred else re.findall(r"\b[0-9O@][0-9O@]{2}\b", line)
    for word in words:
        digits = word.replace("@", "0").translate(_DIGIT_LOOKALIKES)
        if re.fullmatch(r"\d{3}", digits) and sum(c.isdigit() for c in word) >= 2:
            return Reading(digits, confidence / 2)
    return None


def _read_collector_line(engine: _Engine, card: Image.Image) -> tuple[
    Reading[str] | None, Reading[str] | None, Reading[str] | None,
]:
    """The collector number, the rarity (matched to docs/design.md §4's words) and the artist
    (after "Illus."); "?" (not yet known on the card) is no value."""
    text, confidence = engine.read(
        _trimmed(_crop(card, _COLLECTOR_LEFT, scale=2.5, invert=True)), "line")
    line = clean_line(text)
    number = rarity = artist = None
    number = _collector_number(line, confidence)
    words = re.sub(r"[^a-z ]", " ", line.lower()).split()
    if words:
        key, score, _, _ = _find_phrase(words[-2:], _RARITY_WORDS)
        if score >= 0.75:
            rarity = Reading(key, confidence * score)
    text, confidence = engine.read(
        _trimmed(_crop(card, _COLLECTOR_RIGHT, scale=2.5, invert=True)), "line")
    parts = clean_line(text).split(None, 1)
    # "Illus." is read as "illus.", "Itlus.", "Hius."...: the first word, if it ends in "us.".
    if len(parts) == 2 and re.fullmatch(r"\S{0,5}us\.?", parts[0]) and parts[1] != "?":
        artist = Reading(parts[1], confidence)
    return number, rarity, artist
