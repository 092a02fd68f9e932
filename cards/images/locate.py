"""Finding a card in a photo and straightening it.

Pure Python (Pillow and numpy; no Django). :func:`locate_card` takes a photo of one card lying
on a plain background that contrasts with it (a table, a sheet of paper), turned by up to
:data:`MAX_TURN` degrees and anywhere in the frame, and returns the card cut out, upright, at
the card's 63 x 88 mm shape. A photo in which no card can be found is returned as it is, and
the answer says so.

How, on a copy at most :data:`WORK_SIZE` pixels long (fast, and the scaling averages noise):

1. The background colour is the median of a ring of pixels along the photo's edges; a pixel
   whose colour (smoothed) is further from it than the ring's own pixels ever are, by half as
   much again, is card. Specks are then removed (a morphological opening) and small holes
   filled (a closing).
2. The card's turn is the angle at which the box around its pixels is smallest (a filled
   rectangle's box is tightest when it is aligned); the extremes are taken as percentiles, so
   stray pixels do not widen the box.
3. In that turned frame the outermost card pixel of every row and column near the middle of
   each side gives the side's edge points; a straight line is fitted to each side (least
   squares, twice, dropping points far off the first fit), and the four intersections are the
   card's corners. Four lines rather than a rectangle also take out a slight perspective.
4. The quadrilateral is accepted if it has a card's shape (height / width within
   :data:`ASPECT_TOLERANCE` of 88 / 63), a fair share of the photo, a margin of background all
   round, and is mostly card inside; it is then mapped onto an upright card image with a
   perspective transform from the full-size photo.

An image that is itself the shape of a card, in which no smaller card stands out, is taken to
be a scan already cut to the card (the border of the card is then the image's edge).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from cards.images.card_outlines import find_outlines, intersect, line_through
from cards.images.scan import CARD_HEIGHT_MM, CARD_WIDTH_MM, RENDITIONS, rendition_size

CARD_ASPECT: Final = CARD_HEIGHT_MM / CARD_WIDTH_MM  # 1.397
OUTPUT_SIZE: Final = rendition_size(RENDITIONS["large"])  # 745 x 1040, the rendered face's
WORK_SIZE: Final = 640
MAX_TURN: Final = 25.0  # degrees either way
ASPECT_TOLERANCE: Final = 0.08
SCAN_ASPECT_TOLERANCE: Final = 0.04
MIN_SHARE: Final = 0.08  # of the photo's area
MIN_CONTRAST: Final = 30.0  # colour distance between card and background, out of 441
# A plain background's colours stay this close to their median along the photo's edges; a
# scan cut to the card has its border there instead, far more varied (100 and more).
MAX_BACKGROUND_SPREAD: Final = 60.0
# Why a card found by its contrast with the table (not by a card's printed layout) is
# doubtful.
CONTRAST_ONLY: Final = ("found by its contrast with the table, not by a card's printed "
                        "layout: check that the outline is the card's edge, not a panel "
                        "inside it")

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]  # top left, top right, bottom right, bottom left
_Array = np.ndarray[Any, np.dtype[np.float64]]


@dataclass(frozen=True)
class Location:
    """Where the card is in a photo, and the card cut out of it."""

    image: Image.Image  # the card, upright, OUTPUT_SIZE; or the photo as given if not found
    outcome: Literal["found", "whole", "not_found"]  # "whole": the image is the card already
    corners: Quad | None  # in the photo's pixels, when found
    angle: float  # degrees the card is turned (counter-clockwise positive), when found
    message: str  # what was done, in words for the uploader

    @property
    def is_card(self) -> bool:
        """Whether :attr:`image` is an upright card (found in the photo, or the whole image)."""
        return self.outcome != "not_found"


def locate_card(photo: Image.Image) -> Location:
    """Find the card in ``photo`` and straighten it: by its edges and printed layout
    (:mod:`cards.images.card_outlines`) first, else as the module's docstring says. Of
    several cards, the first in reading order."""
    rgb = photo.convert("RGB")
    outlines = find_outlines(rgb)
    width, height = rgb.size
    if len(outlines) == 1 and _is_whole(outlines[0].corners, width, height):
        outlines = []  # the image is the card: a scan cut to it (below)
    if outlines:
        first = outlines[0]
        (x0, y0), (x1, y1) = first.corners[0], first.corners[1]
        angle = float(np.degrees(np.arctan2(y0 - y1, x1 - x0)))
        message = f"card found, turned {abs(angle):.1f}\u00b0, and straightened"
        if len(outlines) > 1:
            message = f"{len(outlines)} cards found; the first, turned {abs(angle):.1f}\u00b0, " \
                "straightened"
        if first.doubtful:
            message += f" ({first.doubtful})"
        return Location(straighten(rgb, first.corners), "found", first.corners, angle, message)
    scale = min(1.0, WORK_SIZE / max(width, height))
    small = rgb.resize((max(1, round(width * scale)), max(1, round(height * scale))),
                       Image.Resampling.BOX) if scale < 1 else rgb
    found = _find_quad(small)
    if isinstance(found, tuple):
        quad_small, angle, background = found
        quad = _refine(np.asarray(rgb, dtype=np.float64), _scaled(quad_small, 1 / scale),
                       background, reach=max(4, round(3 / scale) + 2))
        card = straighten(rgb, quad)
        return Location(card, "found", quad, angle,
                        f"card found, turned {abs(angle):.1f}\u00b0, and straightened")
    why = found
    if abs(height / width - CARD_ASPECT) <= SCAN_ASPECT_TOLERANCE * CARD_ASPECT:
        whole = rgb.resize(OUTPUT_SIZE, Image.Resampling.LANCZOS) if rgb.size != OUTPUT_SIZE \
            else rgb.copy()
        return Location(whole, "whole", None, 0.0, "the image is the card's shape: read as it is")
    return Location(photo, "not_found", None, 0.0,
                    f"no card found in the photo ({why}); it is kept as it is. Crop the scan "
                    "to the card, or photograph the card flat on a plain, contrasting background")


# --- finding the outline ------------------------------------------------------------------------


def _find_quad(small: Image.Image) -> tuple[Quad, float, _Array] | str:
    """The card's corners, turn and the background's colour in ``small``, or why there is no
    card."""
    pixels = np.asarray(small, dtype=np.float64)
    h, w = pixels.shape[:2]
    if min(h, w) < 40:
        return "the image is too small"
    ring = max(2, round(min(h, w) * 0.02))
    edge = np.concatenate([pixels[:ring].reshape(-1, 3), pixels[-ring:].reshape(-1, 3),
                           pixels[:, :ring].reshape(-1, 3), pixels[:, -ring:].reshape(-1, 3)])
    background = np.median(edge, axis=0)
    distance = np.sqrt(((pixels - background) ** 2).sum(axis=2))
    smooth_image = Image.fromarray(np.clip(distance, 0, 255).astype(np.uint8)).filter(
        ImageFilter.BoxBlur(2))
    smooth = np.asarray(smooth_image, dtype=np.float64)
    # The background's own spread (noise, uneven light) measured on the ring; whatever is
    # clearly further from its colour is card. (Otsu's split would part the card's light
    # panels from its darker border instead.)
    ring_distance = np.concatenate([smooth[:ring].ravel(), smooth[-ring:].ravel(),
                                    smooth[:, :ring].ravel(), smooth[:, -ring:].ravel()])
    spread = float(np.percentile(ring_distance, 99))
    if spread > MAX_BACKGROUND_SPREAD:
        return "the edges of the image are not a plain background"
    threshold = max(MIN_CONTRAST / 2, spread * 1.5 + 6)
    if float(np.percentile(smooth, 99)) < max(threshold, MIN_CONTRAST):
        return "nothing stands out from the background"
    mask_image = smooth_image.point(lambda v: 255 if v > threshold else 0)
    radius = max(1, min(h, w) // 200)  # ~1 % of the image across
    mask_image = _dilate(_erode(mask_image, radius), radius)  # opening: specks go
    mask_image = _erode(_dilate(mask_image, radius), radius)  # closing: small holes fill
    mask = np.asarray(mask_image) > 127
    if mask.mean() < MIN_SHARE:
        return "no large enough shape stands out from the background"

    ys, xs = np.nonzero(mask)
    points = np.column_stack([xs, ys]).astype(np.float64) + 0.5
    angle = _turn(points)
    quad = _fit_sides(points, angle)
    if quad is None:
        return "its edges are not straight lines"
    return _check_quad(quad, mask, w, h) or (quad, angle, background)


def _erode(mask: Image.Image, radius: int) -> Image.Image:
    """Binary erosion by a square: a box blur is all white only where the box is (fast,
    unlike Pillow's rank filters)."""
    return mask.filter(ImageFilter.BoxBlur(radius)).point(lambda v: 255 if v > 250 else 0)


def _dilate(mask: Image.Image, radius: int) -> Image.Image:
    return mask.filter(ImageFilter.BoxBlur(radius)).point(lambda v: 255 if v > 4 else 0)


def _rotate(points: _Array, degrees: float) -> _Array:
    """Points turned clockwise on screen by ``degrees`` (y points down)."""
    t = np.radians(degrees)
    c, s = np.cos(t), np.sin(t)
    rotated: _Array = points @ np.array([[c, s], [-s, c]])
    return rotated


def _box_area(points: _Array) -> float:
    low = np.percentile(points, 0.5, axis=0)
    high = np.percentile(points, 99.5, axis=0)
    return float(np.prod(high - low))


def _turn(points: _Array) -> float:
    """The angle (degrees) that turns the card upright: the tightest box around its pixels."""
    step = max(1, len(points) // 4000)
    sample = points[::step] - points.mean(axis=0)
    best = 0.0
    for spread, stride in ((MAX_TURN, 2.0), (2.0, 0.25), (0.25, 0.05)):
        angles = np.arange(best - spread, best + spread + stride / 2, stride)
        best = float(min(angles, key=lambda a: _box_area(_rotate(sample, float(a)))))
    return best


def _fit_sides(points: _Array, angle: float) -> Quad | None:
    """Fit a line to each side of the card in the frame turned by ``angle``; the corners in
    the image's frame (top left, top right, bottom right, bottom left)."""
    centre = points.mean(axis=0)
    upright = _rotate(points - centre, angle)
    u, v = upright[:, 0], upright[:, 1]
    u0, u1 = np.percentile(u, [0.5, 99.5])
    v0, v1 = np.percentile(v, [0.5, 99.5])
    rows = np.floor(v).astype(int)
    cols = np.floor(u).astype(int)
    # Edge points from the middle 70 % of each side, clear of the (possibly rounded) corners.
    sides = {
        "left": _extremes(rows, u, np.min, v0 + 0.15 * (v1 - v0), v1 - 0.15 * (v1 - v0)),
        "right": _extremes(rows, u, np.max, v0 + 0.15 * (v1 - v0), v1 - 0.15 * (v1 - v0)),
        "top": _extremes(cols, v, np.min, u0 + 0.15 * (u1 - u0), u1 - 0.15 * (u1 - u0)),
        "bottom": _extremes(cols, v, np.max, u0 + 0.15 * (u1 - u0), u1 - 0.15 * (u1 - u0)),
    }
    lines: dict[str, tuple[float, float]] = {}
    for name, (along, across) in sides.items():
        if along.size < 10:
            return None
        lines[name] = _robust_line(along, across)
    corners_upright = [
        _meet(lines["top"], lines["left"]), _meet(lines["top"], lines["right"]),
        _meet(lines["bottom"], lines["right"]), _meet(lines["bottom"], lines["left"]),
    ]
    back = _rotate(np.array(corners_upright), -angle) + centre
    tl, tr, br, bl = (tuple(float(c) for c in p) for p in back)
    return ((tl[0], tl[1]), (tr[0], tr[1]), (br[0], br[1]), (bl[0], bl[1]))


def _extremes(
    keys: np.ndarray[Any, np.dtype[np.int_]], values: _Array, pick: Any, low: float, high: float
) -> tuple[_Array, _Array]:
    """For each integer ``key`` within [low, high], the smallest or largest ``value``: the
    outermost card pixel of each row or column. Returns (key + 0.5, value), the value moved
    half a pixel outwards to the pixel's edge."""
    inside = (keys >= low) & (keys <= high)
    keys, values = keys[inside], values[inside]
    if keys.size == 0:
        empty: _Array = np.zeros(0)
        return empty, empty
    first = keys.min()
    size = int(keys.max() - first + 1)
    if pick is np.min:
        out = np.full(size, np.inf)
        np.minimum.at(out, keys - first, values)
        shift = -0.5
    else:
        out = np.full(size, -np.inf)
        np.maximum.at(out, keys - first, values)
        shift = 0.5
    present = np.isfinite(out)
    along: _Array = np.flatnonzero(present).astype(np.float64) + first + 0.5
    across: _Array = out[present] + shift
    return along, across


def _robust_line(along: _Array, across: _Array) -> tuple[float, float]:
    """``across = slope * along + offset``, fitted twice: the second time without the points
    far from the first fit (a notch or a smudge on the edge)."""
    slope, offset = np.polyfit(along, across, 1)
    residual = np.abs(across - (slope * along + offset))
    keep = residual <= max(1.0, 2.5 * float(np.median(residual)))
    if keep.sum() >= 10:
        slope, offset = np.polyfit(along[keep], across[keep], 1)
    return float(slope), float(offset)


def _meet(horizontal: tuple[float, float], vertical: tuple[float, float]) -> Point:
    """Where ``v = a*u + b`` (a top or bottom side) meets ``u = c*v + d`` (a left or right)."""
    a, b = horizontal
    c, d = vertical
    v = (a * d + b) / (1 - a * c)
    return (c * v + d, v)


def _check_quad(quad: Quad, mask: np.ndarray[Any, np.dtype[np.bool_]], w: int, h: int) -> str:
    """Why ``quad`` is not a card, or "" if it may be one."""
    tl, tr, br, bl = (np.array(p) for p in quad)
    width = (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
    height = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
    if width < 1 or abs(height / width - CARD_ASPECT) > ASPECT_TOLERANCE * CARD_ASPECT:
        return f"the shape that stands out is not a card's (height/width {height / width:.2f})"
    xs = [p[0] for p in quad]
    ys = [p[1] for p in quad]
    margin = 0.01 * min(w, h)
    if min(xs) < margin or min(ys) < margin or max(xs) > w - margin or max(ys) > h - margin:
        return "the card touches the edge of the photo"
    if width * height < MIN_SHARE * w * h:
        return "the card is too small in the photo"
    inside = Image.new("L", (w, h), 0)
    ImageDraw.Draw(inside).polygon(list(quad), fill=255)
    region = np.asarray(inside) > 127
    if float(mask[region].mean()) < 0.6:
        return "the outline found is mostly background inside"
    return ""


# --- the edges to a fraction of a pixel ----------------------------------------------------------


def _refine(pixels: _Array, quad: Quad, background: _Array, reach: int) -> Quad:
    """Each side moved to where the full-size photo actually changes from card to background.

    The outline found on the small copy is a pixel or two too wide (the smoothing and the low
    threshold both grow it). Across each side, at 40 places, the colour distance from the
    background is read from ``reach`` pixels inside to ``reach`` outside, and the edge is
    where it falls halfway from the card's level to the background's; a line through those
    points (dropping strays) is the side.
    """
    corners = [np.array(p) for p in quad]
    centre = sum(corners) / 4
    lines: list[tuple[_Array, _Array]] = []
    offsets = np.arange(-reach, reach + 1, dtype=np.float64)
    h, w = pixels.shape[:2]
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        direction = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
        normal = np.array([direction[1], -direction[0]])
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal  # pointing out of the card
        ts = np.linspace(0.15, 0.85, 40)
        base = a + ts[:, None] * (b - a)
        samples = base[:, None, :] + offsets[None, :, None] * normal
        xs = np.clip(np.round(samples[..., 0]).astype(int), 0, w - 1)
        ys = np.clip(np.round(samples[..., 1]).astype(int), 0, h - 1)
        distance = np.sqrt(((pixels[ys, xs] - background) ** 2).sum(axis=2))
        distance = (distance[:, :-2] + distance[:, 1:-1] + distance[:, 2:]) / 3
        steps = offsets[1:-1]
        inner = np.median(distance[:, : reach // 2], axis=1)
        outer = np.median(distance[:, -(reach // 2):], axis=1)
        points: list[_Array] = []
        for row, (card_level, ground_level) in enumerate(zip(inner, outer, strict=True)):
            if card_level - ground_level < MIN_CONTRAST / 2:
                continue
            middle = (card_level + ground_level) / 2
            below = np.flatnonzero(distance[row] < middle)
            if below.size == 0 or below[0] == 0:
                continue
            j = int(below[0])  # the first step out of the card
            d0, d1 = distance[row, j - 1], distance[row, j]
            frac = (d0 - middle) / max(d0 - d1, 1e-9)
            points.append(base[row] + (steps[j - 1] + frac) * normal)
        if len(points) < 10:
            return quad  # too few clear crossings: keep the coarse outline
        lines.append(line_through(np.array(points)))
    refined = [intersect(lines[i - 1], lines[i]) for i in range(4)]
    # lines[i] runs from corner i to corner i + 1, so corner i is where lines[i - 1] meets it.
    tl, tr, br, bl = ((float(p[0]), float(p[1])) for p in refined)
    return (tl, tr, br, bl)


# --- straightening ------------------------------------------------------------------------------


def _scaled(quad: Quad, factor: float) -> Quad:
    tl, tr, br, bl = ((x * factor, y * factor) for x, y in quad)
    return (tl, tr, br, bl)


def straighten(photo: Image.Image, quad: Quad) -> Image.Image:
    """The quadrilateral ``quad`` of ``photo`` mapped onto an upright OUTPUT_SIZE image."""
    out_w, out_h = OUTPUT_SIZE
    targets = [(0.0, 0.0), (float(out_w), 0.0), (float(out_w), float(out_h)), (0.0, float(out_h))]
    # PIL wants the map from output to input: x = (a u + b v + c) / (g u + h v + 1), etc.
    rows: list[list[float]] = []
    rhs: list[float] = []
    for (u, v), (x, y) in zip(targets, quad, strict=True):
        rows.append([u, v, 1, 0, 0, 0, -u * x, -v * x])
        rows.append([0, 0, 0, u, v, 1, -u * y, -v * y])
        rhs += [x, y]
    coefficients = np.linalg.solve(np.array(rows), np.array(rhs))
    return photo.transform(OUTPUT_SIZE, Image.Transform.PERSPECTIVE,
                           tuple(float(c) for c in coefficients), Image.Resampling.BICUBIC)


# --- every card in a photo ----------------------------------------------------------------------


@dataclass(frozen=True)
class CardOutline:
    """One card found in a photo: its corners and the card cut out, upright."""

    corners: Quad  # in the photo's pixels, clockwise from the card's top left
    image: Image.Image  # OUTPUT_SIZE
    doubtful: str = ""  # why its outline may not be the card's, or ""


@dataclass(frozen=True)
class Located:
    """The cards found in a photo, in reading order, and why there are none when there are
    none (or what looked doubtful)."""

    cards: list[CardOutline]
    warnings: list[str]


def locate_cards(photo: Image.Image) -> Located:
    """Every card in ``photo``, in reading order (rows from the top, left to right).

    Cards are found by their edges and printed layout (:mod:`cards.images.card_outlines`),
    whatever the table; where that finds none (a card not laid out as the Demo faces are),
    by its contrast with a plain background (:func:`locate_card`: doubtful, see
    :data:`CONTRAST_ONLY`), or as the whole image when it is a scan cut to the card.
    """
    rgb = photo.convert("RGB")
    outlines = find_outlines(rgb)
    if len(outlines) == 1 and _is_whole(outlines[0].corners, *rgb.size):
        outlines = []  # a scan cut to the card: read whole (below)
    if outlines:
        cards = [CardOutline(o.corners, straighten(rgb, o.corners), o.doubtful) for o in outlines]
        warnings = [f"card {n} ({_where(o.corners, rgb.size)}): {o.doubtful}"
                    for n, o in enumerate(outlines, 1) if o.doubtful]
        return Located(cards, warnings)
    location = locate_card(photo)
    if location.outcome == "found" and location.corners is not None:
        # Found by its contrast alone, its edge is checked against no layout: on a table of
        # its border's colour the contrast outlines an inner panel, so the person checks.
        where = _where(location.corners, rgb.size)
        return Located([CardOutline(location.corners, location.image, CONTRAST_ONLY)],
                       [f"card 1 ({where}): {CONTRAST_ONLY}"])
    if location.outcome == "whole":
        w, h = photo.size
        whole: Quad = ((0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h)))
        return Located([CardOutline(whole, location.image)], [])
    return Located([], [location.message])


def _is_whole(corners: Quad, width: int, height: int) -> bool:
    """Whether ``corners`` are the image's own, within 2 % of its size."""
    frame = ((0, 0), (width, 0), (width, height), (0, height))
    return all(abs(x - fx) <= 0.02 * width and abs(y - fy) <= 0.02 * height
               for (x, y), (fx, fy) in zip(corners, frame, strict=True))


def _where(corners: Quad, size: tuple[int, int]) -> str:
    """Where a card lies in the photo, in words: "top left", "middle", ..."""
    x = sum(p[0] for p in corners) / 4 / size[0]
    y = sum(p[1] for p in corners) / 4 / size[1]
    row = "top" if y < 1 / 3 else "bottom" if y > 2 / 3 else "middle"
    column = "left" if x < 1 / 3 else "right" if x > 2 / 3 else ""
    if row == "middle" and column:
        return column
    return f"{row} {column}".strip()
