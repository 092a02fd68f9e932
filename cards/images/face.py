"""A rendered card face, drawn from the card data, for cards that have no scan.

Pure Python (Pillow only, no Django). :func:`render_face` takes a card data object (docs/design.md
§4 keys) and returns a 745 x 1040 RGB image laid out like a printed card (rulebook, "Card
Anatomy"); :func:`render_face_renditions` returns the same WebP renditions as a checked scan.

What is drawn, and the decisions behind it:

* The border tells the type, as on the printed cards: stone blocks for structures, brushed
  steel for personalities, items, invocations and events, wood grain for wanderers, plain
  slate when the type is unknown.
* ``None`` means *unknown*: an unknown number is drawn as "?", never as 0. The fields drawn
  for a type are those of :func:`rules.card_anatomy.applicable_keys`; a field that does not
  apply to the type is drawn only if it has a value (so no data is hidden). When the type
  itself is unknown, only the known values are drawn: a row of "?" for every field of every
  type would claim fields the card may not have.
* Costs are gems at the top right: economic (yellow), religious (blue), political (dark)
  circles; a single neutral gem for a structure's generic cost; none for wanderers. The
  strength requirement of invocations (religious, blue) and events (economic, yellow) is a
  faceted diamond at the far right, and is also spelled out in the type bar.
* There is no art, so the art panel is a pattern in the faction's colours (Kalim blue and
  white rays, Mosfin purple lattice, Guild gold chevrons, grey grid for none; a Kalim
  invocation wears Kalim's) with a large faction shield for personalities, or a drawn emblem
  of the type (hall, wall, tower, sword, shield, gem, star, lightning, claws, "?"). A red
  "RENDERED" sash in its corner and a "RENDERED - NO SCAN" ribbon in the footer keep it from
  passing for a scan (the red corner still shows on the 146 px thumbnail). Cards with
  ``official`` False also say "FICTIONAL DEMO CARD" in the footer.
* Ability text: each clause the ability parser recognises as a common ability is set in bold;
  the font shrinks step by step until the text fits, the quotation (italic, smaller) is
  dropped if it cannot fit as well, and as a last resort the text is cut with an ellipsis.
  An official card with no ability text says "Text not yet transcribed".
* Everything is drawn at twice the size and reduced, which anti-aliases the shapes.
  Textures vary per card but are derived from a SHA-256 of the card id, so the same data
  always gives the same pixels (the project does not use ``random`` outside the engine).
* Text fields are drawn on one line with whitespace collapsed and control characters
  removed (a newline in a name must not break the layout); the ability text keeps its lines.
  A value of the wrong type, or a type/subtype/faction outside the contract, counts as
  unknown: the renderer never raises on odd data.
* Fonts are DejaVu from :data:`FONT_DIR` when present, else Pillow's default font, so that a
  machine without them still renders (less handsomely). DejaVu has Latin, Greek and Cyrillic;
  other scripts and emoji show as boxes.

Bump :data:`FACE_VERSION` whenever the drawing changes: it is part of the hash the app uses
to decide whether a stored face must be redrawn.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageOps

from cards.images.scan import RENDITIONS, rendition_size, renditions_from_image
from rules.abilities import parse_abilities
from rules.card_anatomy import (
    FACTIONS,
    RARITIES,
    SUBTYPES,
    applicable_keys,
    border,
    personality_kind,
)

FACE_VERSION: Final = 1
WIDTH, HEIGHT = rendition_size(RENDITIONS["large"])  # 745 x 1040, the card ratio 63:88
SCALE: Final = 2  # drawn at twice the size, then reduced: anti-aliased shapes

FONT_DIR: Path = Path("/usr/share/fonts/truetype/dejavu")
_FONT_FILES: Final[Mapping[str, tuple[str, ...]]] = {
    "serif": ("DejaVuSerif.ttf", "DejaVuSans.ttf"),
    "serif-bold": ("DejaVuSerif-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf"),
    "serif-italic": ("DejaVuSerif-Italic.ttf", "DejaVuSerif.ttf", "DejaVuSans.ttf"),
    "sans": ("DejaVuSans.ttf",),
    "sans-bold": ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"),
    "condensed-bold": ("DejaVuSansCondensed-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans.ttf"),
}

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]
Fill = tuple[int, int, int, int]  # RGBA
Box = tuple[float, float, float, float]
Point = tuple[float, float]

# --- layout, in card pixels (745 x 1040) -----------------------------------------------------
EDGE: Final = 26  # border width at the top and the sides
BODY: Final[Box] = (EDGE, EDGE, WIDTH - EDGE, 966)
NAME_BAR: Final[Box] = (40, 40, WIDTH - 40, 104)
ART: Final[Box] = (48, 114, WIDTH - 48, 556)
TYPE_BAR: Final[Box] = (40, 566, WIDTH - 40, 630)
TEXT_BOX: Final[Box] = (48, 640, WIDTH - 48, 872)
STAT_ROW: Final[Box] = (48, 882, WIDTH - 48, 956)
FOOTER: Final[Box] = (40, 974, WIDTH - 40, 1030)

GEM_SIZE: Final = 46.0  # diameter of a cost gem; a requirement diamond is 8 taller
STAT_BAND: Final = 22  # height of a stat box's coloured label band
TEXT_PAD: Final[tuple[float, float]] = (18, 12)  # text box padding, x and y
QUOTE_RULE_HALF: Final = 90  # half the width of the rule between abilities and quotation

INK: Final[RGB] = (30, 24, 16)
QUOTE_INK: Final[RGB] = (72, 62, 50)
QUOTE_RULE: Final[RGB] = (176, 156, 120)
PARCHMENT_TOP: Final[RGB] = (249, 243, 226)
PARCHMENT_BOTTOM: Final[RGB] = (229, 214, 178)
TEXT_PARCHMENT_TOP: Final[RGB] = (250, 246, 236)  # the text box's, lighter
TEXT_PARCHMENT_BOTTOM: Final[RGB] = (238, 228, 204)
GEM_COLOURS: Final[Mapping[str, RGB]] = {
    "economic": (226, 178, 46),
    "religious": (40, 92, 184),
    "political": (34, 32, 38),
    "generic": (150, 150, 146),
}
RENDERED_RED: Final[RGB] = (156, 28, 30)


@dataclass(frozen=True)
class _FactionStyle:
    short: str
    initial: str
    light: RGB
    dark: RGB
    field: RGB  # shield field
    rim: RGB  # shield rim, banner
    letter: RGB
    body: RGB  # the card body between the panels


FACTION_STYLES: Final[Mapping[str | None, _FactionStyle]] = {
    "kalim": _FactionStyle(
        "KALIM", "K", (236, 242, 252), (34, 70, 140), (34, 74, 156), (222, 186, 84),
        (250, 250, 255), (30, 50, 88),
    ),
    "mosfin": _FactionStyle(
        "MOSFIN", "M", (128, 78, 156), (14, 6, 20), (74, 26, 98), (204, 204, 216),
        (236, 232, 244), (40, 20, 52),
    ),
    "guild": _FactionStyle(
        "GUILD", "G", (240, 204, 116), (96, 60, 22), (110, 66, 24), (232, 190, 82),
        (248, 222, 140), (76, 52, 24),
    ),
    None: _FactionStyle(
        "", "?", (222, 224, 227), (92, 96, 102), (98, 102, 110), (196, 198, 202),
        (244, 244, 246), (56, 60, 66),
    ),
}

TYPE_TITLES: Final[Mapping[str, str]] = {
    "structure": "Structure",
    "personality": "Personality",
    "item": "Item",
    "invocation": "Invocation",
    "event": "Event",
    "wanderer": "Wanderer",
}


@dataclass(frozen=True)
class Stat:
    """A stat box: the data key, its printed label, the icon and the colour of its band."""

    key: str
    label: str
    icon: str
    colour: RGB


# Stat boxes, in the order they are drawn along the bottom.
STATS: Final[tuple[Stat, ...]] = (
    Stat("offense", "OFF", "sword", (150, 40, 32)),
    Stat("defense", "DEF", "shield", (48, 78, 112)),
    Stat("vitality", "VIT", "heart", (170, 36, 64)),
    Stat("faction_influence", "FI", "star", (96, 66, 130)),
    Stat("strength_economic", "ECON", "coin", (196, 150, 30)),
    Stat("strength_religious", "RELIG", "coin", (40, 92, 184)),
    Stat("strength_political", "POLIT", "coin", (34, 32, 38)),
    Stat("aggression", "AGG", "claw", (184, 76, 26)),
    Stat("residencies", "RES", "house", (104, 76, 42)),
    Stat("bounty", "BOUNTY", "coin", (138, 110, 30)),
)
# A wall's residencies are how many attackers it blocks, and are labelled so.
WALL_BLOCK: Final = Stat("residencies", "BLOCK", "shield", (92, 92, 96))
# Card type -> (key, gem colour) of the strength requirement drawn as a diamond.
REQUIREMENTS: Final[Mapping[str, tuple[str, str]]] = {
    "invocation": ("strength_religious", "religious"),
    "event": ("strength_economic", "economic"),
}
# (key, gem colour) of the cost gems, left to right.
COSTS: Final = (
    ("cost_economic", "economic"),
    ("cost_religious", "religious"),
    ("cost_political", "political"),
    ("cost_generic", "generic"),
)


# --- layout of the variable parts -------------------------------------------------------------
# Where the name, gems, type line, text and stat boxes go. The drawing below and the scan reader
# (cards.images.ocr) both use these, so a reader's crops always match what is drawn.


@dataclass(frozen=True)
class NameBarLayout:
    name: Box  # the name is set left-aligned and centred vertically in this box
    sun: Point | None  # centre of the unique mark, if drawn
    gems: tuple[tuple[Point, float, str], ...]  # (centre, size, "circle"|"diamond"), l. to r.


def name_bar_layout(shapes: Sequence[str], unique: bool) -> NameBarLayout:
    """The name bar with the gems of ``shapes`` (left to right) and the unique mark or not."""
    cy = (NAME_BAR[1] + NAME_BAR[3]) / 2
    right = NAME_BAR[2] - 8
    gems: list[tuple[Point, float, str]] = []
    for shape in reversed(shapes):
        if shape == "diamond":
            gems.append(((right - GEM_SIZE / 2 - 2, cy), GEM_SIZE + 8, shape))
            right -= GEM_SIZE + 16
        else:
            gems.append(((right - GEM_SIZE / 2, cy), GEM_SIZE, shape))
            right -= GEM_SIZE + 6
    left = NAME_BAR[0] + 16
    sun: Point | None = None
    if unique:
        sun = (left + 17, cy)
        left += 42
    return NameBarLayout((left, NAME_BAR[1], right - 6, NAME_BAR[3]), sun, tuple(reversed(gems)))


@dataclass(frozen=True)
class TypeBarLayout:
    text: Box  # the type line (and the detail line under it, if any)
    shield: Box | None  # the faction's shield at the right end, if drawn


def type_bar_layout(has_faction: bool) -> TypeBarLayout:
    left, top, right, bottom = TYPE_BAR
    if not has_faction:
        return TypeBarLayout((left + 14, top, right - 16, bottom), None)
    h = bottom - top - 14
    cx = right - 14 - h * 0.4
    shield: Box = (cx - h * 0.8, top + 5, cx + h * 0.8, top + 7 + h + 4)
    return TypeBarLayout((left + 14, top, cx - h * 0.4 - 12, bottom), shield)


def text_box(has_stats: bool) -> Box:
    """The ability text box: without stats it takes their row too."""
    return TEXT_BOX if has_stats else (*TEXT_BOX[:3], STAT_ROW[3])


def stat_boxes(count: int) -> list[Box]:
    """The boxes of ``count`` stats, centred along the bottom in :data:`STATS` order."""
    if count < 1:
        return []
    left, top, right, bottom = STAT_ROW
    gap = 8.0
    width = min(82.0, (right - left - gap * (count - 1)) / count)
    x = (left + right) / 2 - (width * count + gap * (count - 1)) / 2
    boxes: list[Box] = []
    for _ in range(count):
        boxes.append((x, top, x + width, bottom))
        x += width + gap
    return boxes


# --- public API -------------------------------------------------------------------------------


def render_face(card: Mapping[str, object]) -> Image.Image:
    """Draw the face of ``card`` (a docs/design.md §4 card object); a 745 x 1040 RGB image."""
    data = _CardView(card)
    noise = _Noise(data.seed)
    canvas = _border_texture(data.card_type, noise)
    _draw_body(canvas, data)
    draw = ImageDraw.Draw(canvas)
    _draw_name_bar(canvas, draw, data)
    canvas.paste(_art_panel(data, noise), _dbox(ART)[:2])
    _draw_type_bar(canvas, draw, data)
    stats = _stats(data)
    # Without stats (events, invocations, unknown types) the text box takes their row too.
    _draw_text_box(canvas, draw, data, text_box(bool(stats)))
    _draw_stats(draw, stats)
    _draw_footer(canvas, draw, data)
    return canvas.reduce(SCALE)


def render_face_renditions(card: Mapping[str, object]) -> dict[str, bytes]:
    """The face of ``card`` as the WebP renditions of :data:`cards.images.scan.RENDITIONS`."""
    return renditions_from_image(render_face(card))


# --- reading the card -----------------------------------------------------------------------


class _CardView:
    """Typed, defensive access to a card object: anything of the wrong type counts as None."""

    def __init__(self, card: Mapping[str, object]) -> None:
        self.card = card
        self.card_type = self.text("type")
        if self.card_type not in TYPE_TITLES:
            self.card_type = None
        self.subtype = self.text("subtype")
        if self.subtype not in SUBTYPES.get(self.card_type or "", ()):
            self.subtype = None
        self.faction = self.text("faction")
        if self.faction not in FACTIONS:
            self.faction = None
        # The faction whose colours the card wears: its own, or Kalim for a Kalim invocation.
        self.colours = self.faction
        if self.card_type == "invocation" and self.subtype == "kalim":
            self.colours = self.faction or "kalim"
        self.official = card.get("official") is not False
        ident = self.text("id") or self.text("name") or ""
        self.seed = f"allegiance-face:{ident}"

    def text(self, key: str) -> str | None:
        """One line of text: runs of whitespace (newlines, tabs) become one space."""
        lines = self.lines(key)
        return " ".join(lines) if lines else None

    def lines(self, key: str) -> list[str]:
        """The non-blank lines of a text, control characters removed, spaces collapsed."""
        value = self.card.get(key)
        if not isinstance(value, str):
            return []
        lines = (
            " ".join("".join(c for c in line if c.isprintable() or c.isspace()).split())
            for line in value.splitlines()
        )
        return [line for line in lines if line]

    def number(self, key: str) -> int | None:
        value = self.card.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def shows(self, key: str) -> bool:
        """Whether the field ``key`` is drawn: it applies to the type, or it has a value."""
        if self.card.get(key) is not None:
            return True
        if self.card_type is None:
            return False
        return key in applicable_keys(self.card_type, self.subtype)


def _shown(value: int | None) -> str:
    return "?" if value is None else str(value)


# --- small helpers --------------------------------------------------------------------------


def _d(value: float) -> int:
    """Card pixels to drawing pixels."""
    return round(value * SCALE)


def _dbox(box: Box) -> tuple[int, int, int, int]:
    return (_d(box[0]), _d(box[1]), _d(box[2]), _d(box[3]))


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _luma(colour: RGB) -> float:
    return 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]


def ink_on(colour: RGB) -> RGB:
    """A text colour readable on ``colour``."""
    return INK if _luma(colour) > 150 else (250, 248, 242)


@functools.lru_cache(maxsize=256)
def _font(style: str, size: int) -> Font:
    """A font of ``style`` at ``size`` drawing pixels: DejaVu if present, else the default."""
    for name in _FONT_FILES[style]:
        try:
            return ImageFont.truetype(str(FONT_DIR / name), size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def _fit_font(style: str, text: str, max_width: float, size: int, min_size: int) -> Font:
    """The largest font of ``style`` (card pixels ``size`` down to ``min_size``) that fits."""
    for candidate in range(size, min_size - 1, -1):
        font = _font(style, _d(candidate))
        if font.getlength(text) <= _d(max_width):
            return font
    return _font(style, _d(min_size))


def _ellipsize(text: str, font: Font, max_width: int) -> str:
    """``text``, or its longest prefix that fits with an ellipsis (binary search: a name can
    be a few thousand characters long)."""
    if font.getlength(text) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if font.getlength(text[:middle] + "\u2026") <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "\u2026"


def _gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    """A vertical gradient: coloured as one column, then widened (cheap at any size)."""
    column = Image.linear_gradient("L").resize((1, size[1]), Image.Resampling.BILINEAR)
    return ImageOps.colorize(column, black=top, white=bottom).resize(
        size, Image.Resampling.NEAREST
    )


class _Noise:
    """Deterministic pseudo-random numbers from a seed: SHA-256 in counter mode."""

    def __init__(self, seed: str) -> None:
        self._key = hashlib.sha256(seed.encode()).digest()
        self._counter = 0
        self._buffer = b""

    def bytes(self, count: int) -> bytes:
        chunks = [self._buffer]
        have = len(self._buffer)
        while have < count:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            chunks.append(block)
            have += len(block)
        joined = b"".join(chunks)
        self._buffer = joined[count:]
        return joined[:count]

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * int.from_bytes(self.bytes(2), "big") / 65535

    def image(self, width: int, height: int) -> Image.Image:
        return Image.frombytes("L", (width, height), self.bytes(width * height))


# --- border and body ------------------------------------------------------------------------
# Textures are drawn at card size and scaled up: only the shapes drawn on top need the
# supersampling, and this keeps a face well under 0.2 s.


def _border_texture(card_type: str | None, noise: _Noise) -> Image.Image:
    size = (WIDTH, HEIGHT)
    kind = border(card_type)
    if kind == "stone":
        texture = _stone(size, noise)
    elif kind == "metallic":
        texture = _metal(size, noise)
    elif kind == "wood":
        texture = _wood(size, noise)
    else:
        texture = _gradient(size, (104, 108, 114), (62, 66, 72))
    # Nearest: the final reduction by SCALE then gives back exactly these pixels.
    return texture.resize((_d(WIDTH), _d(HEIGHT)), Image.Resampling.NEAREST)


def _stone(size: tuple[int, int], noise: _Noise) -> Image.Image:
    """Blocks of grey stone with mortar between, each lit from the top left."""
    width, height = size
    image = Image.new("RGB", size, (88, 88, 86))  # the mortar
    draw = ImageDraw.Draw(image)
    row = 26
    y = 0
    while y < height:
        x = -round(noise.uniform(0, 50))
        while x < width:
            block = round(noise.uniform(46, 88))
            shade = round(noise.uniform(124, 172))
            face: RGB = (shade, shade - 2, shade - 6)
            x1, y1 = x + block - 2, y + row - 2
            draw.rectangle((x, y, x1, y1), fill=face)
            draw.line((x, y, x1, y), fill=_mix(face, (255, 255, 255), 0.35))
            draw.line((x, y, x, y1), fill=_mix(face, (255, 255, 255), 0.25))
            draw.line((x, y1, x1, y1), fill=_mix(face, (0, 0, 0), 0.35))
            draw.line((x1, y, x1, y1), fill=_mix(face, (0, 0, 0), 0.3))
            x += block
        y += row
    # Mottling (large, soft) and grit (small, hard), both from the card's noise.
    mottle = noise.image(24, 34).resize(size, Image.Resampling.BICUBIC).point(lambda v: v // 5)
    grit = noise.image(width // 2, height // 2).resize(size, Image.Resampling.NEAREST)
    texture = ImageChops.add(mottle, grit.point(lambda v: v // 10))
    return ImageChops.add(image, Image.merge("RGB", (texture,) * 3), offset=-37)


def _metal(size: tuple[int, int], noise: _Noise) -> Image.Image:
    """Brushed steel with broad diagonal reflections."""
    width, height = size
    span = width + height
    phase_a, phase_b = noise.uniform(0, math.tau), noise.uniform(0, math.tau)
    profile = bytes(
        max(0, min(255, round(
            140
            + 60 * math.sin(math.tau * 1.4 * i / span + phase_a)
            + 28 * math.sin(math.tau * 4.3 * i / span + phase_b)
        )))
        for i in range(span)
    )
    strip = Image.frombytes("L", (span, 1), profile).resize((span, height))
    # out(x, y) = strip(x + y, y): bands running diagonally, like light on polished steel.
    diagonal = strip.transform(size, Image.Transform.AFFINE, (1, 1, 0, 0, 1, 0))
    brushed = noise.image(1, height).resize(size, Image.Resampling.BILINEAR)
    grey = Image.blend(diagonal, brushed, 0.14)
    return ImageOps.colorize(grey, black=(58, 64, 72), white=(244, 246, 250), mid=(150, 158, 168))


def _grain(length: int, thickness: int, noise: _Noise) -> Image.Image:
    """A plank with the grain running along its length (x)."""
    base: RGB = (132, 86, 46)
    image = _gradient((length, thickness), (148, 98, 54), (122, 78, 40))
    draw = ImageDraw.Draw(image)
    step = 6
    y = -2.0
    while y < thickness + 2:
        amplitude = noise.uniform(0.5, 3.5)
        wavelength = noise.uniform(120, 420)
        phase = noise.uniform(0, math.tau)
        dark = noise.uniform(0, 1) < 0.6
        colour = _mix(base, (58, 32, 14) if dark else (186, 136, 84), noise.uniform(0.3, 0.75))
        points = [
            (float(x), y + amplitude * math.sin(math.tau * x / wavelength + phase))
            for x in range(-step, length + 2 * step, step)
        ]
        draw.line(points, fill=colour, width=1)
        y += noise.uniform(1.2, 3.5)
    return image


def _wood(size: tuple[int, int], noise: _Noise) -> Image.Image:
    """Four planks, grain along each, mitred at the corners like a picture frame."""
    width, height = size
    edge = round(EDGE)
    bottom = height - round(BODY[3])
    image = Image.new("RGB", size)
    side = _grain(height, edge + 2, noise).transpose(Image.Transpose.ROTATE_90)
    image.paste(side, (0, 0))
    image.paste(side.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (width - side.width, 0))
    top = _grain(width, edge, noise)
    foot = _grain(width, bottom, noise)
    top_mask = Image.new("L", top.size, 0)
    ImageDraw.Draw(top_mask).polygon(
        [(0, 0), (width, 0), (width - edge, edge), (edge, edge)], fill=255
    )
    foot_mask = Image.new("L", foot.size, 0)
    ImageDraw.Draw(foot_mask).polygon(
        [(edge, 0), (width - edge, 0), (width, bottom), (0, bottom)], fill=255
    )
    image.paste(top, (0, 0), top_mask)
    image.paste(foot, (0, height - bottom), foot_mask)
    draw = ImageDraw.Draw(image)
    joint: RGB = (70, 42, 20)
    draw.line((0, 0, edge, edge), fill=joint, width=2)
    draw.line((width, 0, width - edge, edge), fill=joint, width=2)
    draw.line((0, height, edge, height - bottom), fill=joint, width=2)
    draw.line((width, height, width - edge, height - bottom), fill=joint, width=2)
    return image


def _draw_body(canvas: Image.Image, data: _CardView) -> None:
    style = FACTION_STYLES[data.colours]
    box = _dbox(BODY)
    size = (box[2] - box[0], box[3] - box[1])
    fill = _gradient(size, _mix(style.body, (255, 255, 255), 0.12), _mix(style.body, INK, 0.3))
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), _d(14), fill=255)
    canvas.paste(fill, box[:2], mask)
    draw = ImageDraw.Draw(canvas)
    # An inset bevel: dark outside, light inside.
    draw.rounded_rectangle(box, _d(14), outline=(16, 14, 12), width=_d(2.5))
    inner = (box[0] + _d(3), box[1] + _d(3), box[2] - _d(3), box[3] - _d(3))
    draw.rounded_rectangle(
        inner, _d(12), outline=_mix(style.body, (255, 255, 255), 0.3), width=_d(1)
    )


def _panel(
    canvas: Image.Image,
    box: Box,
    *,
    top: RGB = PARCHMENT_TOP,
    bottom: RGB = PARCHMENT_BOTTOM,
    radius: float = 10,
    outline: RGB = (40, 30, 20),
) -> None:
    dbox = _dbox(box)
    size = (dbox[2] - dbox[0], dbox[3] - dbox[1])
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), _d(radius), fill=255)
    canvas.paste(_gradient(size, top, bottom), dbox[:2], mask)
    ImageDraw.Draw(canvas).rounded_rectangle(dbox, _d(radius), outline=outline, width=_d(2))


# --- name bar and gems ----------------------------------------------------------------------


def _draw_name_bar(canvas: Image.Image, draw: ImageDraw.ImageDraw, data: _CardView) -> None:
    _panel(canvas, NAME_BAR, radius=12)
    gems = _gems(data)
    layout = name_bar_layout([shape for _, _, shape in gems], data.card.get("unique") is True)
    for (kind, value, shape), (centre, size, _) in zip(gems, layout.gems, strict=True):
        if shape == "diamond":
            _draw_diamond(draw, centre, size, kind, value)
        else:
            _draw_gem(draw, centre, size, kind, value)
    if layout.sun is not None:
        _draw_sun(draw, layout.sun, 19)
    left, top, right, bottom = layout.name
    cy = (top + bottom) / 2
    name = data.text("name") or "?"
    max_width = right - left
    font = _fit_font("serif-bold", name, max_width, 34, 15)
    draw.text(
        (_d(left), _d(cy + 1)), _ellipsize(name, font, _d(max_width)), font=font, fill=INK,
        anchor="lm",
    )


def _gems(data: _CardView) -> list[tuple[str, int | None, str]]:
    """(colour kind, value, shape) of each gem, left to right."""
    gems: list[tuple[str, int | None, str]] = []
    for key, kind in COSTS:
        if data.shows(key):
            gems.append((kind, data.number(key), "circle"))
    requirement = REQUIREMENTS.get(data.card_type or "")
    if requirement is not None:
        gems.append((requirement[1], data.number(requirement[0]), "diamond"))
    return gems


def _draw_gem(
    draw: ImageDraw.ImageDraw, centre: Point, diameter: float, kind: str, value: int | None
) -> None:
    colour = GEM_COLOURS[kind]
    cx, cy, r = centre[0], centre[1], diameter / 2
    draw.ellipse(_dbox((cx - r, cy - r + 2, cx + r, cy + r + 2)), fill=(0, 0, 0))  # shadow
    draw.ellipse(_dbox((cx - r, cy - r, cx + r, cy + r)), fill=_mix(colour, (0, 0, 0), 0.45))
    inner = r - 3
    draw.ellipse(_dbox((cx - inner, cy - inner, cx + inner, cy + inner)), fill=colour)
    shine = _mix(colour, (255, 255, 255), 0.4)
    draw.ellipse(
        _dbox((cx - inner * 0.72, cy - inner * 0.86, cx + inner * 0.5, cy - inner * 0.12)),
        fill=shine,
    )
    draw.ellipse(
        _dbox((cx - inner * 0.6, cy - inner * 0.78, cx + inner * 0.3, cy - inner * 0.3)),
        fill=_mix(shine, (255, 255, 255), 0.35),
    )
    text = _shown(value)
    font = _fit_font("sans-bold", text, diameter - 12, 27, 14)
    draw.text(
        (_d(cx), _d(cy + 1)), text, font=font, fill=ink_on(colour), anchor="mm",
        stroke_width=_d(1.5), stroke_fill=_mix(colour, (0, 0, 0), 0.5)
        if _luma(colour) <= 150 else _mix(colour, (255, 255, 255), 0.5),
    )


def _draw_diamond(
    draw: ImageDraw.ImageDraw, centre: Point, height: float, kind: str, value: int | None
) -> None:
    """A faceted requirement gem."""
    colour = GEM_COLOURS[kind]
    cx, cy = centre
    h, w = height / 2, height * 0.42
    top, right, bottom, left = (cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy)
    outline = _mix(colour, (0, 0, 0), 0.55)
    draw.polygon([_dpt(p) for p in (top, right, bottom, left)], fill=outline)
    k = 0.82
    t2, r2, b2, l2 = (
        (cx, cy - h * k), (cx + w * k, cy), (cx, cy + h * k), (cx - w * k, cy)
    )
    middle = (cx, cy)
    facets = (
        ((t2, middle, l2), _mix(colour, (255, 255, 255), 0.45)),
        ((t2, r2, middle), _mix(colour, (255, 255, 255), 0.15)),
        ((l2, middle, b2), colour),
        ((middle, r2, b2), _mix(colour, (0, 0, 0), 0.25)),
    )
    for points, fill in facets:
        draw.polygon([_dpt(p) for p in points], fill=fill)
    text = _shown(value)
    font = _fit_font("sans-bold", text, w * 1.3, 25, 12)
    draw.text(
        (_d(cx), _d(cy + 1)), text, font=font, fill=(255, 255, 255), anchor="mm",
        stroke_width=_d(2), stroke_fill=outline,
    )


def _dpt(point: Point) -> tuple[int, int]:
    return (_d(point[0]), _d(point[1]))


def _star(centre: Point, outer: float, inner: float, count: int, turn: float = 0) -> list[Point]:
    """A star of ``count`` points, the first pointing up (in whatever units it is given)."""
    cx, cy = centre
    points: list[Point] = []
    for i in range(count * 2):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + turn + math.pi * i / count
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _star_points(
    centre: Point, outer: float, inner: float, count: int, turn: float = 0
) -> list[tuple[int, int]]:
    """A star in card pixels, as drawing pixels."""
    return [_dpt(p) for p in _star(centre, outer, inner, count, turn)]


def _draw_sun(draw: ImageDraw.ImageDraw, centre: Point, radius: float) -> None:
    """The unique mark (anatomy 17): a sun/star, drawn, so no glyph can be missing."""
    rim: RGB = (110, 70, 10)
    draw.polygon(_star_points(centre, radius + 2, radius * 0.5 + 1, 8), fill=rim)
    draw.polygon(_star_points(centre, radius, radius * 0.5, 8), fill=(236, 176, 40))
    draw.polygon(
        _star_points(centre, radius * 0.7, radius * 0.38, 8, math.pi / 8), fill=(250, 214, 90)
    )
    cx, cy = centre
    core = radius * 0.34
    draw.ellipse(_dbox((cx - core, cy - core, cx + core, cy + core)), fill=(255, 240, 170),
                 outline=rim, width=_d(1))


# --- art panel --------------------------------------------------------------------------------


def _art_panel(data: _CardView, noise: _Noise) -> Image.Image:
    box = _dbox(ART)
    size = (box[2] - box[0], box[3] - box[1])
    style = FACTION_STYLES[data.colours]
    art = _gradient(size, style.light, style.dark).convert("RGBA")
    overlay = Image.new("RGBA", size, (0, 0, 0, 0))
    _art_pattern(ImageDraw.Draw(overlay), size, data.colours, noise)
    art = Image.alpha_composite(art, overlay)
    # Vignette: darker towards the edges.
    vignette = Image.radial_gradient("L").resize(size, Image.Resampling.BILINEAR)
    vignette = vignette.point(lambda v: max(0, min(170, (v - 90) * 2)))
    art = Image.alpha_composite(
        art, Image.merge("RGBA", (*Image.new("RGB", size, (0, 0, 0)).split(), vignette))
    )
    emblem = Image.new("RGBA", size, (0, 0, 0, 0))
    _draw_emblem(ImageDraw.Draw(emblem), size, data, style)
    art = Image.alpha_composite(art, emblem)
    _draw_sash(art)
    result = art.convert("RGB")
    frame = ImageDraw.Draw(result)
    frame.rectangle((0, 0, size[0] - 1, size[1] - 1), outline=(20, 16, 12), width=_d(3))
    frame.rectangle(
        (_d(3), _d(3), size[0] - 1 - _d(3), size[1] - 1 - _d(3)),
        outline=_mix(style.light, (255, 255, 255), 0.4), width=_d(1),
    )
    return result


def _art_pattern(
    draw: ImageDraw.ImageDraw, size: tuple[int, int], faction: str | None, noise: _Noise
) -> None:
    width, height = size
    if faction == "kalim":
        # Sun rays from above the centre: religious light.
        cx, cy = width / 2, height * 0.36
        reach = math.hypot(width, height)
        rays = 28
        turn = noise.uniform(0, math.pi / rays)
        for i in range(rays):
            if i % 2:
                continue
            a0 = turn + math.tau * i / rays
            a1 = turn + math.tau * (i + 1) / rays
            draw.polygon(
                [(cx, cy), (cx + reach * math.cos(a0), cy + reach * math.sin(a0)),
                 (cx + reach * math.cos(a1), cy + reach * math.sin(a1))],
                fill=(255, 255, 255, 46),
            )
        for radius in (0.16, 0.24):
            r = radius * height
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255, 34))
    elif faction == "mosfin":
        # A diamond lattice: intrigue and old money.
        step = _d(44)
        colour = (190, 140, 220, 48)
        for offset in range(-height, width + height, step):
            draw.line((offset, 0, offset + height, height), fill=colour, width=_d(1.5))
            draw.line((offset, height, offset + height, 0), fill=colour, width=_d(1.5))
        for x in range(0, width + step, step):
            for y in range(0, height + step, step):
                cx = x + (step / 2 if (y // step) % 2 else 0)
                draw.ellipse((cx - _d(2), y - _d(2), cx + _d(2), y + _d(2)),
                             fill=(220, 200, 240, 70))
    elif faction == "guild":
        # Chevrons, like a banner of the Veteran's Guild.
        step = _d(46)
        for i, y in enumerate(range(-height, 2 * height, step)):
            alpha = 40 if i % 2 else 14
            draw.polygon(
                [(0, y), (width / 2, y - width * 0.3), (width, y),
                 (width, y + step / 2), (width / 2, y - width * 0.3 + step / 2),
                 (0, y + step / 2)],
                fill=(255, 236, 170, alpha),
            )
    else:
        step = _d(22)
        for x in range(0, width, step):
            draw.line((x, 0, x, height), fill=(255, 255, 255, 22), width=_d(1))
        for y in range(0, height, step):
            draw.line((0, y, width, y), fill=(255, 255, 255, 22), width=_d(1))


def _shield_outline(cx: float, top: float, width: float, height: float) -> list[Point]:
    """A heading shield: flat top, straight sides, curved to a point at the bottom."""
    left, right = cx - width / 2, cx + width / 2
    shoulder = top + height * 0.42
    points: list[Point] = [(left, top), (right, top), (right, shoulder)]
    steps = 18
    for i in range(1, steps + 1):  # quadratic curve from the right shoulder to the point
        t = i / steps
        c = (right, top + height * 0.82)
        end = (cx, top + height)
        x = (1 - t) ** 2 * right + 2 * (1 - t) * t * c[0] + t * t * end[0]
        y = (1 - t) ** 2 * shoulder + 2 * (1 - t) * t * c[1] + t * t * end[1]
        points.append((x, y))
    for x, y in reversed(points[3:-1]):
        points.append((2 * cx - x, y))
    points.append((left, shoulder))
    return points


def _draw_shield(
    draw: ImageDraw.ImageDraw, cx: float, top: float, width: float, height: float,
    style: _FactionStyle, letter: str,
) -> None:
    """The faction shield (anatomy 8), coordinates in drawing pixels."""
    shadow = [(x + width * 0.03, y + width * 0.04) for x, y in
              _shield_outline(cx, top, width, height)]
    draw.polygon(shadow, fill=(0, 0, 0, 110))
    draw.polygon(_shield_outline(cx, top, width, height), fill=(*_mix(style.rim, INK, 0.5), 255))
    rim = width * 0.035
    draw.polygon(
        _shield_outline(cx, top + rim, width - 2 * rim, height - 2.4 * rim),
        fill=(*style.rim, 255),
    )
    inset = width * 0.085
    field = _shield_outline(cx, top + inset, width - 2 * inset, height - 2.3 * inset)
    draw.polygon(field, fill=(*style.field, 255))
    # A lighter left half, as if lit from the left.
    half = [(cx, field[0][1]), *[(x, y) for x, y in field[1:] if x <= cx + 0.01], field[0]]
    draw.polygon(half, fill=(*_mix(style.field, (255, 255, 255), 0.12), 255))
    font = _font("serif-bold", round(height * 0.5))
    draw.text(
        (cx, top + height * 0.44), letter, font=font, fill=(*style.letter, 255), anchor="mm",
        stroke_width=max(1, round(height * 0.012)), stroke_fill=(*_mix(style.field, INK, 0.6), 255),
    )


def _draw_banner(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, style: _FactionStyle
) -> None:
    font = _font("serif-bold", _d(24))
    half = font.getlength(text) / 2 + _d(26)
    h = _d(19)
    tail = _d(26)
    back = _mix(style.rim, INK, 0.35)
    for side in (-1, 1):  # swallow-tailed ends behind the banner
        x0 = cx + side * (half - _d(6))
        x1 = cx + side * (half + tail)
        draw.polygon(
            [(x0, cy - h + _d(8)), (x1, cy - h + _d(8)), (x1 - side * _d(12), cy + _d(4)),
             (x1, cy + h + _d(8)), (x0, cy + h + _d(8))],
            fill=(*back, 255),
        )
    draw.rectangle((cx - half, cy - h, cx + half, cy + h), fill=(*style.rim, 255),
                   outline=(*_mix(style.rim, INK, 0.6), 255), width=_d(1.5))
    draw.text((cx, cy + _d(1)), text, font=font, fill=(*_mix(style.rim, INK, 0.85), 255),
              anchor="mm")


def _draw_emblem(
    draw: ImageDraw.ImageDraw, size: tuple[int, int], data: _CardView, style: _FactionStyle
) -> None:
    width, height = size
    cx, cy = width / 2, height / 2
    if data.card_type == "personality":
        shield_h = height * 0.7
        shield_w = shield_h * 0.8
        top = cy - shield_h / 2 - height * 0.04
        _draw_shield(draw, cx, top, shield_w, shield_h, style, style.initial)
        _draw_banner(draw, cx, top + shield_h * 0.96, style.short or "FACTION ?", style)
        return
    light = (255, 255, 255, 200)
    dark = (0, 0, 0, 150)
    s = height * 0.36  # emblem half-height
    card_type = data.card_type
    if card_type == "structure" and data.subtype == "general":
        _hall(draw, cx, cy, s, light, dark)
    elif card_type == "structure":
        _tower(draw, cx, cy, s, light, dark, data.subtype == "wall")
    elif card_type == "item":
        if data.subtype in ("shield", "armor"):
            outline = _shield_outline(cx, cy - s, s * 1.3, s * 2)
            draw.polygon([(x + s * 0.05, y + s * 0.06) for x, y in outline], fill=dark)
            draw.polygon(outline, fill=light)
            inner = _shield_outline(cx, cy - s * 0.85, s * 1.05, s * 1.7)
            draw.polygon(inner, fill=(*style.field, 150))
        elif data.subtype == "other":
            _gem_emblem(draw, cx, cy, s, light, dark)
        else:
            _sword(draw, cx, cy, s, light, dark)
    elif card_type == "invocation":
        draw.polygon([(x + s * 0.04, y + s * 0.05) for x, y in
                      _star((cx, cy), s, s * 0.42, 12)], fill=dark)
        draw.polygon(_star((cx, cy), s, s * 0.42, 12), fill=light)
        draw.polygon(_star((cx, cy), s * 0.62, s * 0.3, 12, math.pi / 12),
                     fill=(255, 236, 170, 230))
        r = s * 0.24
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255, 240))
    elif card_type == "event":
        bolt = [(0.18, -1.0), (-0.42, 0.1), (-0.02, 0.1), (-0.24, 1.0), (0.46, -0.22),
                (0.04, -0.22), (0.34, -1.0)]
        pts = [(cx + x * s * 0.9, cy + y * s) for x, y in bolt]
        draw.polygon([(x + s * 0.05, y + s * 0.06) for x, y in pts], fill=dark)
        draw.polygon(pts, fill=light)
    elif card_type == "wanderer":
        _claws(draw, cx, cy, s, light, dark)
    else:
        font = _font("serif-bold", round(height * 0.55))
        draw.text((cx + s * 0.05, cy + s * 0.06), "?", font=font, fill=dark, anchor="mm")
        draw.text((cx, cy), "?", font=font, fill=light, anchor="mm")


def _tower(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, light: Fill, dark: Fill, wall: bool
) -> None:
    half = s * (1.1 if wall else 0.55)
    top, bottom = cy - s * (0.55 if wall else 0.8), cy + s
    merlon = half * 2 / (7 if wall else 5)
    body = [(cx - half, bottom), (cx - half, top)]
    for i in range(7 if wall else 5):
        x = cx - half + i * merlon
        if i % 2 == 0:
            body += [(x, top - merlon * 0.8), (x + merlon, top - merlon * 0.8), (x + merlon, top)]
        else:
            body += [(x + merlon, top)]
    body += [(cx + half, bottom)]
    draw.polygon([(x + s * 0.05, y + s * 0.06) for x, y in body], fill=dark)
    draw.polygon(body, fill=light)
    door_w = s * 0.2
    door_top = bottom - s * 0.55
    draw.rectangle((cx - door_w, door_top + door_w, cx + door_w, bottom), fill=dark)
    draw.pieslice((cx - door_w, door_top, cx + door_w, door_top + 2 * door_w), 180, 360, fill=dark)
    line_w = max(1, round(s * 0.012))
    for row in range(1, 6):
        y = top + (bottom - top) * row / 6
        if y < door_top:
            draw.line((cx - half, y, cx + half, y), fill=(0, 0, 0, 60), width=line_w)
    if not wall:
        w = s * 0.08
        draw.rectangle((cx - w, top + s * 0.2, cx + w, top + s * 0.48), fill=dark)


def _hall(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, light: Fill, dark: Fill
) -> None:
    """A pillared hall, for general structures (the stone column border)."""
    w = s * 1.1

    def rect(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]

    shapes = [
        [(cx - w, cy - s * 0.38), (cx, cy - s * 0.95), (cx + w, cy - s * 0.38)],  # pediment
        rect(cx - w * 0.94, cy - s * 0.36, cx + w * 0.94, cy - s * 0.2),  # architrave
        rect(cx - w * 0.94, cy + s * 0.66, cx + w * 0.94, cy + s * 0.8),  # stylobate
        rect(cx - w * 1.04, cy + s * 0.82, cx + w * 1.04, cy + s * 0.96),  # step
    ]
    columns = 5
    col_w = s * 0.16
    for i in range(columns):
        x = cx - w * 0.76 + i * (w * 1.52) / (columns - 1)
        shapes.append(rect(x - col_w / 2, cy - s * 0.18, x + col_w / 2, cy + s * 0.64))
    offset = (s * 0.05, s * 0.06)
    for shape in shapes:
        draw.polygon([(x + offset[0], y + offset[1]) for x, y in shape], fill=dark)
    for shape in shapes:
        draw.polygon(shape, fill=light)
    r = s * 0.11
    draw.ellipse((cx - r, cy - s * 0.6 - r, cx + r, cy - s * 0.6 + r), fill=dark)


def _sword(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, light: Fill, dark: Fill
) -> None:
    blade_w = s * 0.11
    shapes: list[list[Point]] = [
        [(cx - blade_w, cy + s * 0.45), (cx - blade_w, cy - s * 0.8), (cx, cy - s),
         (cx + blade_w, cy - s * 0.8), (cx + blade_w, cy + s * 0.45)],  # blade
        [(cx - s * 0.42, cy + s * 0.42), (cx + s * 0.42, cy + s * 0.42),
         (cx + s * 0.42, cy + s * 0.55), (cx - s * 0.42, cy + s * 0.55)],  # cross-guard
        [(cx - s * 0.06, cy + s * 0.55), (cx + s * 0.06, cy + s * 0.55),
         (cx + s * 0.06, cy + s * 0.86), (cx - s * 0.06, cy + s * 0.86)],  # grip
    ]
    for shape in shapes:
        draw.polygon([(x + s * 0.05, y + s * 0.06) for x, y in shape], fill=dark)
    for shape in shapes:
        draw.polygon(shape, fill=light)
    r = s * 0.1
    draw.ellipse((cx - r, cy + s * 0.86, cx + r, cy + s * 0.86 + 2 * r), fill=light)
    draw.line((cx, cy - s * 0.78, cx, cy + s * 0.4), fill=(0, 0, 0, 70),
              width=max(1, round(s * 0.02)))


def _gem_emblem(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, light: Fill, dark: Fill
) -> None:
    outline = [(cx - s * 0.8, cy - s * 0.3), (cx - s * 0.45, cy - s * 0.75),
               (cx + s * 0.45, cy - s * 0.75), (cx + s * 0.8, cy - s * 0.3), (cx, cy + s)]
    draw.polygon([(x + s * 0.05, y + s * 0.06) for x, y in outline], fill=dark)
    draw.polygon(outline, fill=light)
    facet = (0, 0, 0, 60)
    width = max(1, round(s * 0.02))
    draw.line((cx - s * 0.8, cy - s * 0.3, cx + s * 0.8, cy - s * 0.3), fill=facet, width=width)
    for a, b in (((-0.45, -0.75), (-0.25, -0.3)), ((0.45, -0.75), (0.25, -0.3)),
                 ((-0.25, -0.3), (0, 1)), ((0.25, -0.3), (0, 1))):
        draw.line((cx + a[0] * s, cy + a[1] * s, cx + b[0] * s, cy + b[1] * s), fill=facet,
                  width=width)


def _claws(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, light: Fill, dark: Fill
) -> None:
    """Three claw slashes: something that will not be tamed."""
    for offset in (-0.45, 0.0, 0.45):
        points_l: list[Point] = []
        points_r: list[Point] = []
        steps = 16
        for i in range(steps + 1):
            t = i / steps
            x = cx + (offset + 0.35 - 0.7 * t) * s + math.sin(t * math.pi) * 0.16 * s
            y = cy + (-0.95 + 1.9 * t) * s
            half = 0.09 * s * math.sin(t * math.pi) ** 0.8
            points_l.append((x - half, y - half * 0.4))
            points_r.append((x + half, y + half * 0.4))
        shape = points_l + points_r[::-1]
        draw.polygon([(x + s * 0.05, y + s * 0.06) for x, y in shape], fill=dark)
        draw.polygon(shape, fill=light)


def _draw_sash(art: Image.Image) -> None:
    """A red corner sash saying RENDERED, readable even on the smallest rendition."""
    reach = _d(124)
    band = _d(38)
    sash = Image.new("RGBA", art.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(sash)
    draw.polygon([(0, reach), (reach, 0), (reach + band, 0), (0, reach + band)],
                 fill=(0, 0, 0, 90))
    draw.polygon([(0, reach - _d(2)), (reach - _d(2), 0), (reach + band - _d(4), 0),
                  (0, reach + band - _d(4))], fill=(*RENDERED_RED, 255))
    font = _font("sans-bold", _d(17))
    label = Image.new("RGBA", (round(font.getlength("RENDERED")) + _d(8), _d(26)), (0, 0, 0, 0))
    ImageDraw.Draw(label).text((label.width / 2, label.height / 2), "RENDERED", font=font,
                               fill=(255, 255, 255, 255), anchor="mm")
    label = label.rotate(45, resample=Image.Resampling.BICUBIC, expand=True)
    centre = (reach + band / 2 - _d(2)) / 2
    sash.alpha_composite(label, (round(centre - label.width / 2), round(centre - label.height / 2)))
    art.alpha_composite(sash)


# --- type bar -------------------------------------------------------------------------------


def _type_line(data: _CardView) -> str:
    if data.card_type is None:
        line = "Type unknown"
    else:
        line = TYPE_TITLES[data.card_type]
        subtype = data.subtype
        if data.card_type == "personality":
            subtype = personality_kind(subtype, data.number("offense"), data.number("defense"))
        if subtype:
            line += f" \u2014 {subtype.replace('_', ' ').title()}"
    if data.faction is not None:
        line += f" \u00b7 {FACTIONS[data.faction]}"
    elif data.card_type == "personality":
        line += " \u00b7 Faction ?"
    return line


def _detail_line(data: _CardView) -> str:
    """Race, gender, profession (anatomy 4, 5), or the requirement of an invocation or event."""
    parts: list[str] = []
    for key, label in (("race", "Race"), ("gender", "Gender"), ("profession", "Profession")):
        value = data.text(key)
        if value is not None:
            parts.append(value)
        elif data.shows(key):
            parts.append(f"{label} ?")
    requirement = REQUIREMENTS.get(data.card_type or "")
    if requirement is not None:
        strength = "religious" if requirement[1] == "religious" else "economic/military"
        parts.append(f"Requires {strength} strength {_shown(data.number(requirement[0]))}")
    return " \u00b7 ".join(parts)


def _draw_type_bar(canvas: Image.Image, draw: ImageDraw.ImageDraw, data: _CardView) -> None:
    _panel(canvas, TYPE_BAR, radius=10)
    layout = type_bar_layout(data.faction is not None)
    if data.faction is not None and layout.shield is not None:
        s_left, s_top, s_right, s_bottom = layout.shield
        _draw_mini_shield(canvas, (s_left + s_right) / 2, s_top + 2, (s_right - s_left) / 2,
                          s_bottom - s_top - 6, FACTION_STYLES[data.faction])
    left, top, right, bottom = layout.text
    line = _type_line(data)
    detail = _detail_line(data)
    max_width = right - left
    main_font = _fit_font("sans-bold", line, max_width, 21, 12)
    if detail:
        detail_font = _fit_font("serif-italic", detail, max_width, 17, 11)
        draw.text((_d(left), _d(top + 20)), _ellipsize(line, main_font, _d(max_width)),
                  font=main_font, fill=INK, anchor="lm")
        draw.text((_d(left), _d(top + 46)), _ellipsize(detail, detail_font, _d(max_width)),
                  font=detail_font, fill=_mix(INK, PARCHMENT_BOTTOM, 0.2), anchor="lm")
    else:
        draw.text((_d(left), _d((top + bottom) / 2)),
                  _ellipsize(line, main_font, _d(max_width)), font=main_font, fill=INK,
                  anchor="lm")


def _draw_mini_shield(
    canvas: Image.Image, cx: float, top: float, width: float, height: float, style: _FactionStyle
) -> None:
    box = _dbox((cx - width, top - 2, cx + width, top + height + 4))
    region = canvas.crop(box).convert("RGBA")
    layer = Image.new("RGBA", region.size, (0, 0, 0, 0))
    _draw_shield(ImageDraw.Draw(layer), _d(cx) - box[0], _d(top) - box[1], _d(width),
                 _d(height), style, style.initial)
    region.alpha_composite(layer)
    canvas.paste(region.convert("RGB"), box[:2])


# --- text box -------------------------------------------------------------------------------

Word = tuple[str, str]  # (text, font style)


@dataclass(frozen=True)
class _TextLayout:
    lines: list[list[Word]]
    quote_lines: list[str]
    size: int
    quote_size: int
    height: float


def _ability_paragraphs(text: str) -> list[list[Word]]:
    """Paragraphs of (word, style), one per line of the text: the clauses the ability parser
    knows as common abilities (``E Worship.``) in bold, the rest in roman, running on."""
    paragraphs: list[list[Word]] = []
    for block in text.splitlines():
        words = [
            (word, "serif-bold" if clause.ability is not None else "serif")
            for clause in parse_abilities(block)
            for word in clause.text.split()
        ]
        if words:
            paragraphs.append(words)
    return paragraphs


@functools.lru_cache(maxsize=8192)
def _width(style: str, size: int, text: str) -> float:
    """Width of ``text`` in drawing pixels at ``size`` card pixels."""
    return _font(style, _d(size)).getlength(text)


def _wrap_words(words: Sequence[Word], size: int, max_width: int) -> list[list[Word]]:
    space = _width("serif", size, " ")
    lines: list[list[Word]] = []
    line: list[Word] = []
    width = 0.0
    for word, style in words:
        for piece in _split_long(word, style, size, max_width):
            w = _width(style, size, piece)
            if line and width + space + w > max_width:
                lines.append(line)
                line, width = [], 0.0
            width += (space if line else 0) + w
            line.append((piece, style))
    if line:
        lines.append(line)
    return lines


def _split_long(word: str, style: str, size: int, max_width: int) -> list[str]:
    """A word wider than the box, cut into pieces that fit (a URL, a typo)."""
    if _width(style, size, word) <= max_width:
        return [word]
    font = _font(style, _d(size))
    pieces: list[str] = []
    piece = ""
    for char in word:
        if piece and font.getlength(piece + char) > max_width:
            pieces.append(piece)
            piece = ""
        piece += char
    return [*pieces, piece] if piece else pieces


def _line_height(size: int) -> float:
    return size * 1.3


def _text_lines(paragraphs: list[list[Word]], size: int, max_width: int) -> list[list[Word]]:
    lines: list[list[Word]] = []
    for i, paragraph in enumerate(paragraphs):
        if i:
            lines.append([])  # a short gap between paragraphs
        lines += _wrap_words(paragraph, size, max_width)
    return lines


def _try_layout(
    paragraphs: list[list[Word]], quote: str | None, size: int, box: Box
) -> _TextLayout | None:
    """The text at ``size`` (and the quotation a little smaller), or None if it overflows."""
    max_width = _d(box[2] - box[0])
    lines = _text_lines(paragraphs, size, max_width)
    height = _text_height(lines, size)
    quote_size = max(10, round(size * 0.82))
    quote_lines: list[str] = []
    if quote:
        words = [(word, "serif-italic") for word in quote.split()]
        quote_lines = [
            " ".join(w for w, _ in line) for line in _wrap_words(words, quote_size, max_width)
        ]
        height += (size * 0.9 if lines else 0) + len(quote_lines) * _line_height(quote_size)
    if height > box[3] - box[1]:
        return None
    return _TextLayout(lines, quote_lines, size, quote_size, height)


def _layout_text(paragraphs: list[list[Word]], quote: str | None, box: Box) -> _TextLayout:
    """The largest text that fits the box: the ability text may shrink to 13 with the
    quotation, then to 11 without it; past that it is cut, ending with an ellipsis."""
    largest = 24
    for with_quote, smallest in ((quote, 13), (None, 11)) if quote else ((None, 11),):
        if _try_layout(paragraphs, with_quote, smallest, box) is None:
            continue
        low, high = smallest, largest  # binary search for the largest size that fits
        while low < high:
            middle = (low + high + 1) // 2
            if _try_layout(paragraphs, with_quote, middle, box) is not None:
                low = middle
            else:
                high = middle - 1
        layout = _try_layout(paragraphs, with_quote, low, box)
        assert layout is not None  # low always fits
        return layout
    size = 11
    lines = _text_lines(paragraphs, size, _d(box[2] - box[0]))
    while lines and (_text_height(lines, size) > box[3] - box[1] or not lines[-1]):
        lines.pop()
    if lines:
        *first, (word, style) = lines[-1]
        lines[-1] = [*first, (word + "\u2026", style)]
    return _TextLayout(lines, [], size, size, _text_height(lines, size))


def _text_height(lines: list[list[Word]], size: int) -> float:
    return sum(_line_height(size) * (1 if line else 0.45) for line in lines)


def _draw_text_box(
    canvas: Image.Image, draw: ImageDraw.ImageDraw, data: _CardView, box: Box
) -> None:
    _panel(canvas, box, top=TEXT_PARCHMENT_TOP, bottom=TEXT_PARCHMENT_BOTTOM, radius=6)
    left, top, right, bottom = box
    pad_x, pad_y = TEXT_PAD
    inner: Box = (left + pad_x, top + pad_y, right - pad_x, bottom - pad_y)
    abilities = "\n".join(data.lines("abilities")) or None
    quote = data.text("quotation")
    if abilities is None and data.official:
        draw.text(
            (_d((left + right) / 2), _d((top + bottom) / 2 - (14 if quote else 0))),
            "Text not yet transcribed", font=_font("serif-italic", _d(22)),
            fill=(120, 110, 96), anchor="mm",
        )
        if quote:
            font = _font("serif-italic", _d(15))
            draw.text((_d((left + right) / 2), _d((top + bottom) / 2 + 24)),
                      _ellipsize(quote, font, _d(inner[2] - inner[0])), font=font,
                      fill=(80, 70, 56), anchor="mm")
        return
    layout = _layout_text(_ability_paragraphs(abilities or ""), quote, inner)
    y = inner[1] + max(0.0, (inner[3] - inner[1] - layout.height) / 2)
    space = _font("serif", _d(layout.size)).getlength(" ")
    for line in layout.lines:
        if not line:
            y += _line_height(layout.size) * 0.45
            continue
        x = float(_d(inner[0]))
        for word, style in line:
            font = _font(style, _d(layout.size))
            draw.text((x, _d(y)), word, font=font, fill=INK)
            x += font.getlength(word) + space
        y += _line_height(layout.size)
    if layout.quote_lines:
        if layout.lines:
            rule_y = y + layout.size * 0.4
            mid = (inner[0] + inner[2]) / 2
            draw.line((_d(mid - QUOTE_RULE_HALF), _d(rule_y), _d(mid + QUOTE_RULE_HALF),
                       _d(rule_y)), fill=QUOTE_RULE, width=_d(1))
            y += layout.size * 0.9
        font = _font("serif-italic", _d(layout.quote_size))
        for text in layout.quote_lines:
            draw.text((_d(inner[0]), _d(y)), text, font=font, fill=QUOTE_INK)
            y += _line_height(layout.quote_size)


# --- stats ----------------------------------------------------------------------------------


def _stats(data: _CardView) -> list[tuple[Stat, int | None]]:
    requirement = REQUIREMENTS.get(data.card_type or "")
    shown: list[tuple[Stat, int | None]] = []
    for stat in STATS:
        if requirement is not None and stat.key == requirement[0]:
            continue  # drawn as the requirement gem
        if not data.shows(stat.key):
            continue
        if stat.key == "residencies" and data.subtype == "wall":
            stat = WALL_BLOCK
        shown.append((stat, data.number(stat.key)))
    return shown


def _draw_stats(draw: ImageDraw.ImageDraw, stats: list[tuple[Stat, int | None]]) -> None:
    if not stats:
        return
    for (stat, value), box in zip(stats, stat_boxes(len(stats)), strict=True):
        _draw_stat(draw, box, stat, value)


def _draw_stat(draw: ImageDraw.ImageDraw, box: Box, stat: Stat, value: int | None) -> None:
    left, top, right, bottom = box
    band = STAT_BAND
    draw.rounded_rectangle(_dbox((left, top + 2, right, bottom + 2)), _d(7), fill=(0, 0, 0))
    draw.rounded_rectangle(_dbox(box), _d(7), fill=(248, 244, 232),
                           outline=_mix(stat.colour, INK, 0.5), width=_d(2))
    draw.rounded_rectangle(_dbox((left, top, right, top + band)), _d(7), fill=stat.colour,
                           corners=(True, True, False, False),
                           outline=_mix(stat.colour, INK, 0.5), width=_d(2))
    fg = ink_on(stat.colour)
    font = _fit_font("condensed-bold", stat.label, right - left - 26, 13, 8)
    label_w = font.getlength(stat.label) / SCALE
    icon = 13
    start = (left + right) / 2 - (icon + 4 + label_w) / 2
    _icon(draw, stat.icon, (start + icon / 2, top + band / 2 + 0.5), icon, fg, stat.colour)
    draw.text((_d(start + icon + 4), _d(top + band / 2 + 0.5)), stat.label, font=font, fill=fg,
              anchor="lm")
    text = _shown(value)
    value_font = _fit_font("sans-bold", text, right - left - 10, 32, 10)
    draw.text((_d((left + right) / 2), _d((top + band + bottom) / 2 + 1)), text,
              font=value_font, fill=INK if value is not None else (140, 124, 100), anchor="mm")


def _icon(
    draw: ImageDraw.ImageDraw, name: str, centre: Point, size: float, fg: RGB, bg: RGB
) -> None:
    cx, cy = centre
    r = size / 2

    def pts(points: Sequence[Point]) -> list[tuple[int, int]]:
        return [_dpt((cx + x * r, cy + y * r)) for x, y in points]

    if name == "sword":
        draw.polygon(pts([(-0.85, 0.65), (0.55, -0.75), (0.95, -0.95), (0.75, -0.55),
                          (-0.65, 0.85)]), fill=fg)
        draw.line([_dpt((cx - 0.85 * r, cy + 0.15 * r)), _dpt((cx - 0.15 * r, cy + 0.85 * r))],
                  fill=fg, width=_d(1.6))
    elif name == "shield":
        draw.polygon([_dpt(p) for p in _shield_outline(cx, cy - r, 1.6 * r, 2 * r)], fill=fg)
    elif name == "heart":
        draw.ellipse(_dbox((cx - r, cy - 0.75 * r, cx + 0.05 * r, cy + 0.25 * r)), fill=fg)
        draw.ellipse(_dbox((cx - 0.05 * r, cy - 0.75 * r, cx + r, cy + 0.25 * r)), fill=fg)
        draw.polygon(pts([(-0.95, -0.1), (0.95, -0.1), (0, 0.95)]), fill=fg)
    elif name == "star":
        draw.polygon(_star_points(centre, r, r * 0.45, 5), fill=fg)
    elif name == "coin":
        draw.ellipse(_dbox((cx - r, cy - r, cx + r, cy + r)), fill=fg)
        inner = r * 0.55
        draw.ellipse(_dbox((cx - inner, cy - inner, cx + inner, cy + inner)), fill=bg)
    elif name == "house":
        draw.polygon(pts([(-1, -0.05), (0, -1), (1, -0.05)]), fill=fg)
        draw.rectangle(_dbox((cx - 0.7 * r, cy - 0.1 * r, cx + 0.7 * r, cy + r)), fill=fg)
        draw.rectangle(_dbox((cx - 0.2 * r, cy + 0.3 * r, cx + 0.2 * r, cy + r)), fill=bg)
    elif name == "claw":
        for dx in (-0.6, 0.0, 0.6):
            draw.line([_dpt((cx + (dx + 0.3) * r, cy - r)), _dpt((cx + (dx - 0.3) * r, cy + r))],
                      fill=fg, width=_d(1.8))


# --- footer ---------------------------------------------------------------------------------


def _draw_footer(canvas: Image.Image, draw: ImageDraw.ImageDraw, data: _CardView) -> None:
    left, top, right, bottom = FOOTER
    plate = Image.new("RGBA", (_d(right - left), _d(bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(plate).rounded_rectangle(
        (0, 0, plate.width - 1, plate.height - 1), _d(8), fill=(12, 10, 8, 170)
    )
    region = canvas.crop(_dbox(FOOTER)).convert("RGBA")
    region.alpha_composite(plate)
    canvas.paste(region.convert("RGB"), _dbox(FOOTER)[:2])

    light: RGB = (238, 232, 218)
    font = _font("sans", _d(14))
    bold = _font("sans-bold", _d(14))
    set_code = data.text("set") or "?"
    number = data.text("number") or "?"
    rarity_key = data.text("rarity")
    rarity = RARITIES.get(rarity_key, "?") if rarity_key else "Rarity ?"
    line_y = top + 15
    draw.text((_d(left + 12), _d(line_y)), f"{set_code} \u00b7 No. {number} \u00b7 {rarity}",
              font=bold, fill=light, anchor="lm")
    artist = f"Illus. {data.text('artist') or '?'}"
    draw.text((_d(right - 12), _d(line_y)), _ellipsize(artist, font, _d(300)), font=font,
              fill=light, anchor="rm")

    ribbon_y = top + 40
    ribbons = [("RENDERED \u2014 NO SCAN", RENDERED_RED)]
    if not data.official:
        ribbons.append(("FICTIONAL DEMO CARD", (176, 112, 14)))
    small = _font("sans-bold", _d(12))
    widths = [small.getlength(text) / SCALE + 30 for text, _ in ribbons]
    x = (left + right) / 2 - (sum(widths) + 10 * (len(widths) - 1)) / 2
    for (text, colour), width in zip(ribbons, widths, strict=True):
        _draw_ribbon(draw, (x, ribbon_y - 9, x + width, ribbon_y + 9), colour)
        draw.text((_d(x + width / 2), _d(ribbon_y + 0.5)), text, font=small,
                  fill=(255, 255, 255), anchor="mm")
        x += width + 10


def _draw_ribbon(draw: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    left, top, right, bottom = box
    notch = 7
    mid = (top + bottom) / 2
    draw.polygon(
        [_dpt(p) for p in ((left, top), (right, top), (right - notch, mid), (right, bottom),
                           (left, bottom), (left + notch, mid))],
        fill=colour,
    )
