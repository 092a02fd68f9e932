"""Every card in a photo, found by its edges and its printed layout, not by the table's colour.

Pure Python (OpenCV, numpy; no Django). :func:`find_outlines`:

1. Edges: Canny on a copy at most :data:`WORK_SIZE` pixels long, on the grey image and on the
   two colour channels of Lab (a silver border on a light grey table differs in hue more than
   in brightness), closed by a small dilation.
2. Candidates: every closed curve whose convex hull is a quadrilateral with corners near right
   angles: the card's outline where it shows, else its body, its art panel or its text box
   (on a binder page, a card's outline runs into the pocket seams; its panels do not). Its
   sides are moved onto their edges in the full-size photo.
3. Hypotheses: each candidate is taken in turn as each part of the face it has the
   proportions of (:data:`KNOWN_BOXES`), which gives the card around it.
4. Snapping: the Demo faces (cards.images.face) print the same panels at the same places.
   Every point of their edges (:data:`FACE_LINES`) looks across itself for the step in
   brightness the face has there (parchment on the dark body: brighter into a panel, darker
   out of it), and a perspective map is fitted to where they found it (RANSAC), nearer each
   time (:func:`snap_layout`). Steps are averaged with their sign along each line, so a
   table's grain or a border's texture cancels out. A fit that leaves panel edges unfound is
   tried again from its start with a wider first reach (:data:`WIDER_REACHES`).
5. Judging: an outline is a card's when all nine panel edges (:data:`PANEL_EDGES`) step where
   it puts them; with one or two missing it is first fitted again from itself a few per cent
   larger and smaller (:data:`RESIZES`), and if still short kept as *doubtful* (the person
   places its corners); with more it is dropped. Of the outlines of one card the best is
   kept; an outline holding two or more cards is a page. Where the card's own edge shows
   against the table, each side is moved onto it (a fraction of a pixel; a side that would
   move further than a few pixels has found another edge, a pocket's seam, and stays), and
   the cards are put in reading order: rows from the top, left to right in a row.

A card not laid out as the Demo faces are is not found here: :mod:`cards.images.locate`
then falls back to finding one card by its contrast with a plain background.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
from PIL import Image

from cards.images import face

WORK_SIZE: Final = 1400
CARD_ASPECT: Final = face.HEIGHT / face.WIDTH  # 1040 / 745, the card's 88 / 63
ASPECT_TOLERANCE: Final = 0.08
MIN_SHARE: Final = 0.006  # of the photo's area: the text box of a card of a 3 x 4 binder page

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]
_Array = np.ndarray[Any, np.dtype[Any]]


@dataclass(frozen=True)
class Outline:
    """A card's outline in the photo's pixels, clockwise from its top left."""

    corners: Quad
    doubtful: str  # why the outline may not be the card's, or ""


def find_outlines(photo: Image.Image) -> list[Outline]:
    """The card outlines in ``photo``, in reading order (see the module's docstring)."""
    rgb = np.asarray(photo.convert("RGB"))
    height, width = rgb.shape[:2]
    scale = min(1.0, WORK_SIZE / max(width, height))
    small = cv2.resize(rgb, (max(1, round(width * scale)), max(1, round(height * scale))),
                       interpolation=cv2.INTER_AREA) if scale < 1 else rgb
    # The layout is scored on the full-size photo: on a binder page a card is ~200 pixels
    # wide in the small copy, too few for its printed lines.
    grey = cv2.cvtColor(cv2.GaussianBlur(rgb, (3, 3), 0), cv2.COLOR_RGB2GRAY).astype(np.float32)
    # A candidate's sides, placed on the small copy, moved onto its edges at full size: a
    # card grown from its text box multiplies the box's error by four.
    reach = max(4, round(2 / scale))
    hypotheses = [grown for quad in _candidates(small)
                  for grown in _hypotheses(np.array(_refine(grey, _as_quad(quad / scale), reach)),
                                           (width, height))]
    fitted = _fit_all(grey, hypotheses)
    # Of the fitted outlines of each card, the one with the most panel edges found, then
    # the best score; then one outline a card, pages and sheets left out.
    ranked = [(quad, score, panels_found(grey, quad)) for quad, score in fitted
              if score >= LAYOUT_STEP / 2 and _card_shaped(quad)]
    ranked = [item for item in ranked if item[2] >= len(PANEL_EDGES) - 2]
    ranked.sort(key=lambda item: (item[2], item[1]), reverse=True)
    kept = _distinct([(quad, float(found * 1000 + score)) for quad, score, found in ranked],
                     pages=True)
    refined = []
    for quad, rank in kept:
        found, score = int(rank // 1000), rank % 1000
        for _ in range(2):
            if found < len(PANEL_EDGES):
                quad, found, score = _resized(grey, quad, found, score)
        if found < len(PANEL_EDGES):
            why = "some of its printed panels were not found: check its corners"
        elif score < LAYOUT_STEP:
            why = "its printed lines are faint: check its corners"
        else:
            why = ""
        # The layout puts the outline within a pixel or two; where the card's own edge shows
        # against the table, the corners are moved onto it.
        reach = max(3, round(0.006 * _sides(quad)[0]))
        refined.append(Outline(_refine(grey, _as_quad(quad), reach), why))
    return reading_order(refined)


# --- candidates ---------------------------------------------------------------------------------


def _edges(small: _Array) -> _Array:
    blurred = cv2.GaussianBlur(small, (5, 5), 0)
    grey = cv2.cvtColor(blurred, cv2.COLOR_RGB2GRAY)
    edges = cv2.Canny(grey, 30, 90)
    lab = cv2.cvtColor(blurred, cv2.COLOR_RGB2LAB)
    for channel in (1, 2):
        edges = cv2.bitwise_or(edges, cv2.Canny(lab[..., channel], 12, 36))
    closed: _Array = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    return closed


def _candidates(small: _Array) -> list[_Array]:
    """Card-shaped quadrilaterals (float corners TL, TR, BR, BL) among the closed curves."""
    h, w = small.shape[:2]
    edges = _edges(small)
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    found: list[_Array] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < MIN_SHARE * w * h:
            continue
        hull = cv2.convexHull(contour)
        quad = _quadrilateral(hull)
        if quad is None or not _rectangular(quad):
            continue
        if cv2.contourArea(hull) > 0.97 * w * h:
            continue  # the frame of the photo itself
        found.append(quad)
    return found


def _quadrilateral(hull: _Array) -> _Array | None:
    """The hull as four corners in order, if it is one."""
    perimeter = cv2.arcLength(hull, True)
    for epsilon in (0.015, 0.025, 0.04):
        approx = cv2.approxPolyDP(hull, epsilon * perimeter, True)
        if len(approx) == 4:
            return order_corners(approx.reshape(4, 2).astype(np.float64))
    box = cv2.minAreaRect(hull)
    if cv2.contourArea(hull) >= 0.93 * box[1][0] * box[1][1]:
        return order_corners(cv2.boxPoints(box).astype(np.float64))
    return None


def order_corners(points: _Array) -> _Array:
    """Four points as top left, top right, bottom right, bottom left (the top is the side
    nearest to horizontal, running left to right)."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    ring = points[np.argsort(angles)]  # clockwise on screen, from the left
    # Start at the corner whose next side (clockwise) is a short one: the top.
    best = 0
    best_score = -np.inf
    for start in range(4):
        a, b = ring[start], ring[(start + 1) % 4]
        d = b - a
        if d[0] <= 0:
            continue  # the top runs left to right
        score = -abs(float(np.arctan2(d[1], d[0])))
        if score > best_score:
            best, best_score = start, score
    ordered = np.roll(ring, -best, axis=0)
    result: _Array = ordered
    return result


def _sides(quad: _Array) -> tuple[float, float]:
    width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    return float(width), float(height)


def _card_shaped(quad: _Array) -> bool:
    """A card's proportions, upright within 45 degrees, with corners near right angles."""
    width, height = _sides(quad)
    if width < 20 or height < width:
        return False
    if abs(height / width - CARD_ASPECT) > ASPECT_TOLERANCE * CARD_ASPECT:
        return False
    return _rectangular(quad)


def _rectangular(quad: _Array) -> bool:
    """Corners near right angles (a keystone or a turn of the camera bends them a little)."""
    if min(_sides(quad)) < 12:
        return False
    for i in range(4):
        a, b, c = quad[i - 1], quad[i], quad[(i + 1) % 4]
        u, v = a - b, c - b
        cosine = float(np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v) + 1e-9))
        if abs(cosine) > 0.2:
            return False
    return True


def _area(quad: _Array) -> float:
    return float(cv2.contourArea(quad.astype(np.float32)))


def _overlap(a: _Array, b: _Array) -> float:
    """The share of the smaller quadrilateral inside the larger."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(inter) / max(1e-9, min(_area(a), _area(b)))


def _distinct(scored: list[tuple[_Array, float]], *, pages: bool = False
              ) -> list[tuple[_Array, float]]:
    """One outline per card: of outlines that overlap (the card found through its outline and
    its body, or both sides of an edge line), the one whose printed lines fit best. With
    ``pages``, an outline holding two or more others is a page or a binder sheet, and goes."""
    holding = {
        i for i, (quad, _) in enumerate(scored)
        if sum(1 for j, (other, _) in enumerate(scored)
               if i != j and _area(other) < 0.5 * _area(quad) and _overlap(other, quad) > 0.9)
        >= 2
    } if pages else set()
    kept: list[tuple[_Array, float]] = []
    for i in sorted(range(len(scored)), key=lambda k: scored[k][1], reverse=True):
        quad, score = scored[i]
        if i in holding or any(_overlap(quad, other) > 0.5 for other, _ in kept):
            continue
        kept.append((quad, score))
    return kept


# --- the border ---------------------------------------------------------------------------------


def _homography(quad: _Array) -> _Array:
    """Map from the upright card (face.WIDTH x face.HEIGHT) to ``quad`` in the photo."""
    upright = np.array([(0, 0), (face.WIDTH, 0), (face.WIDTH, face.HEIGHT), (0, face.HEIGHT)],
                       dtype=np.float32)
    matrix: _Array = cv2.getPerspectiveTransform(upright, quad.astype(np.float32))
    return matrix


def _through(matrix: _Array, points: list[tuple[float, float]]) -> _Array:
    mapped: _Array = cv2.perspectiveTransform(np.array([points], dtype=np.float32),
                                              matrix)[0].astype(np.float64)
    return mapped


# The lines every Demo face draws at the same place (face.py's layout), as (x0, y0, x1, y1) in
# the face's pixels, and which way the brightness steps across each (+1: brighter, from left
# to right or from top to bottom), the same on every Demo face (measured on the renders): the
# edges of the name bar, the type bar and the text box (parchment on the dark body), the art
# panel's left and top edges and the footer's bottom.
FACE_LINES: Final = (
    ((face.NAME_BAR[0], 50.0, face.NAME_BAR[0], 95.0), 1),
    ((face.NAME_BAR[2], 50.0, face.NAME_BAR[2], 95.0), -1),
    ((70.0, face.NAME_BAR[1], 560.0, face.NAME_BAR[1]), 1),
    ((70.0, face.NAME_BAR[3], 560.0, face.NAME_BAR[3]), -1),
    ((face.TYPE_BAR[0], 575.0, face.TYPE_BAR[0], 620.0), 1),
    ((face.TYPE_BAR[2], 575.0, face.TYPE_BAR[2], 620.0), -1),
    ((70.0, face.TYPE_BAR[1], 675.0, face.TYPE_BAR[1]), 1),
    ((70.0, face.TYPE_BAR[3], 675.0, face.TYPE_BAR[3]), -1),
    ((face.TEXT_BOX[0], 660.0, face.TEXT_BOX[0], 860.0), 1),
    ((face.TEXT_BOX[2], 660.0, face.TEXT_BOX[2], 860.0), -1),
    ((70.0, face.TEXT_BOX[1], 675.0, face.TEXT_BOX[1]), 1),
    ((face.ART[0], 140.0, face.ART[0], 530.0), 1),
    ((70.0, face.ART[1], 675.0, face.ART[1]), 1),
    ((70.0, face.FOOTER[3], 675.0, face.FOOTER[3]), 1),
    ((70.0, face.TEXT_BOX[3], 675.0, face.TEXT_BOX[3]), -1),  # the text box's bottom: above
    ((70.0, face.STAT_ROW[3], 675.0, face.STAT_ROW[3]), -1),  # the stats, or where they'd be
)
LINE_SIGNS: Final = np.array([sign for _, sign in FACE_LINES], dtype=np.float64)
# The edges of the three parchment panels (name bar, type bar, text box: left, right, top)
# step strongly on every face: a card's outline puts all of them on the photo's lines; an
# outline shifted by a panel's height puts some of them on nothing.
PANEL_EDGES: Final = (0, 1, 2, 4, 5, 6, 8, 9, 10)
PANEL_SHARE: Final = 0.55  # of the panel edges' median step, each at least
# The last two lines are one or the other (a card with stats, or without): the better counts.
_EITHER: Final = 2
POINTS_A_LINE: Final = 16
# A card's lines step by this much brightness at least (grey levels, median over the lines).
LAYOUT_STEP: Final = 40.0
# Outlines the edges show of a card: the card itself; its body (the border blended into the
# table), down to its own bottom or merged with the footer plate, the text box or the stat
# row; the art panel; the text box, with or without the stat row. Each outline found is tried
# as each of these whose proportions it has, and the card around it is scored.
KNOWN_BOXES: Final = (
    (0.0, 0.0, float(face.WIDTH), float(face.HEIGHT)),
    *((face.BODY[0], face.BODY[1], face.BODY[2], bottom)
      for bottom in (face.BODY[3], face.FOOTER[3], face.TEXT_BOX[3], face.STAT_ROW[1],
                     face.STAT_ROW[3])),
    face.ART,
    face.text_box(True),
    face.text_box(False),
)
BOX_TOLERANCE: Final = 0.2  # of the box's proportions (a keystone, a turn, a rough outline)


def layout_score(grey: _Array, quad: _Array) -> float:
    """How well the face's printed lines (:data:`FACE_LINES`) fall where ``quad`` as the
    card's outline puts them: the mean, over the lines, of the step in brightness across
    each line (grey levels, 3 face pixels either side), counted against the fit where it
    goes the wrong way."""
    return float(layout_scores(grey, quad[None])[0])


def line_steps(grey: _Array, quad: _Array) -> _Array:
    """The signed step across each of :data:`FACE_LINES` where ``quad`` puts it."""
    matrix = _homography(quad)
    before = _sample_grid(grey, matrix, _line_points(-3.0))
    after = _sample_grid(grey, matrix, _line_points(3.0))
    steps: _Array = (after - before).reshape(len(FACE_LINES), -1).mean(axis=1) * LINE_SIGNS
    return steps


def panels_found(grey: _Array, quad: _Array) -> int:
    """How many of the :data:`PANEL_EDGES` step at least :data:`PANEL_SHARE` of their median
    where ``quad`` puts them (all of them on a card's outline)."""
    steps = line_steps(grey, quad)[list(PANEL_EDGES)]
    floor = max(8.0, PANEL_SHARE * float(np.median(steps)))
    return int((steps >= floor).sum())


def layout_scores(grey: _Array, quads: _Array, reach: float = 3.0) -> _Array:
    """:func:`layout_score` of each of ``quads`` (N x 4 x 2), in one pass, the brightness
    read ``reach`` face pixels either side of each line (further while the outline is far
    off: the step is still seen)."""
    matrices = np.stack([_homography(quad) for quad in quads])  # N x 3 x 3
    before, after = _line_points(-reach), _line_points(reach)
    both = np.concatenate([before, after])
    homogeneous = np.column_stack([both, np.ones(len(both))])  # M x 3
    mapped = np.einsum("nij,mj->nmi", matrices, homogeneous)
    xy = mapped[..., :2] / mapped[..., 2:3]
    values = _remap(grey, xy.reshape(-1, 2)).reshape(xy.shape[:2])
    half = len(before)
    steps = (values[:, half:] - values[:, :half]).reshape(len(quads), len(FACE_LINES), -1)
    signed = steps.mean(axis=2) * LINE_SIGNS
    either = signed[:, -_EITHER:].max(axis=1, keepdims=True)
    scores: _Array = np.concatenate([signed[:, :-_EITHER], either], axis=1).mean(axis=1)
    return scores


@functools.cache
def _line_points(offset: float) -> _Array:
    rows = []
    for (x0, y0, x1, y1), _ in FACE_LINES:
        ts = np.linspace(0.0, 1.0, POINTS_A_LINE)
        along = np.column_stack([x0 + ts * (x1 - x0), y0 + ts * (y1 - y0)])
        normal = np.array([1.0, 0.0]) if x0 == x1 else np.array([0.0, 1.0])
        rows.append(along + offset * normal)
    points: _Array = np.concatenate(rows)
    return points




def _through_points(matrix: _Array, points: _Array) -> _Array:
    mapped: _Array = cv2.perspectiveTransform(
        points.reshape(1, -1, 2).astype(np.float32), matrix)[0].astype(np.float64)
    return mapped


def _grown(quad: _Array, inner: tuple[float, ...]) -> _Array:
    """The card around ``quad`` taken as the face's ``inner`` box, through the same
    perspective."""
    left, top, right, bottom = inner
    upright = np.array([(left, top), (right, top), (right, bottom), (left, bottom)],
                       dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(upright, quad.astype(np.float32))
    return _through(matrix, [(0, 0), (face.WIDTH, 0), (face.WIDTH, face.HEIGHT),
                             (0, face.HEIGHT)])


def _hypotheses(quad: _Array, size: tuple[int, int]) -> list[_Array]:
    """The cards around ``quad`` taken as each of :data:`KNOWN_BOXES` it has the proportions
    of, that are card-shaped and within the photo."""
    w, h = size
    width, height = _sides(quad)
    found = []
    for box in KNOWN_BOXES:
        box_w, box_h = box[2] - box[0], box[3] - box[1]
        if abs(height / width / (box_h / box_w) - 1) > BOX_TOLERANCE:
            continue
        grown = _grown(quad, box)
        margin = 0.02 * _sides(grown)[0]
        if (grown[:, 0] < -margin).any() or (grown[:, 0] > w + margin).any() \
                or (grown[:, 1] < -margin).any() or (grown[:, 1] > h + margin).any():
            continue
        if _card_shaped(grown):
            found.append(grown)
    return found


# Snapping looks this far across each line (face pixels), then nearer each time. A hypothesis
# grown from a small panel (the text box: a quarter of the card's height) can start 60 to 80
# face pixels off: the near schedule settles most; those it leaves short are tried again
# from the same start with a wider first reach (too wide a reach can catch the next panel's
# edge instead, so each is tried in turn).
NEAR_REACHES: Final = (28.0, 14.0, 7.0, 3.5)
WIDER_REACHES: Final = ((40.0, 20.0, 10.0, 5.0, 2.5), (80.0, 40.0, 20.0, 10.0, 5.0, 2.5))


def _fit_all(grey: _Array, hypotheses: list[_Array]) -> list[tuple[_Array, float]]:
    """Each hypothesis snapped onto the layout: nearby first; those that leave some panel
    edges unfound, and do not lie on a card another hypothesis found whole, again from the
    same start with each of :data:`WIDER_REACHES` until one finds them all, and the best
    kept (the more panel edges found, then the higher score)."""
    near = [snap_layout(grey, quad, NEAR_REACHES) for quad in hypotheses]
    counts = [panels_found(grey, quad) for quad, _ in near]
    whole = [quad for (quad, score), count in zip(near, counts, strict=True)
             if _whole(count, score)]
    fitted = []
    for start, (quad, score), count in zip(hypotheses, near, counts, strict=True):
        if not _whole(count, score) and not any(_overlap(quad, other) > 0.5
                                                for other in whole):
            for reaches in WIDER_REACHES:
                wider, wider_score = snap_layout(grey, start, reaches)
                wider_count = panels_found(grey, wider)
                if (wider_count, wider_score) > (count, score):
                    quad, score, count = wider, wider_score, wider_count
                if _whole(count, score):
                    break
        fitted.append((quad, score))
    return fitted


def _whole(found: int, score: float) -> bool:
    """Whether a fit found every panel edge, its lines stepping as a card's do."""
    return found == len(PANEL_EDGES) and score >= LAYOUT_STEP


# A fit that leaves some panel edges unfound is often the card a few per cent too wide or
# too tall (its sides locked on the next edge out: a pocket's seam, the page's): it is
# snapped again from itself resized by these factors, across and along the card.
RESIZES: Final = tuple((across, along) for across in (0.97, 1.0, 1.03)
                       for along in (0.97, 1.0, 1.03) if (across, along) != (1.0, 1.0))


def _resized(grey: _Array, quad: _Array, found: int, score: float
             ) -> tuple[_Array, int, float]:
    """The best of ``quad`` and its fits from :data:`RESIZES` (the more panel edges found,
    then the higher score): the outline, its panel edges found and its score."""
    best = (found, score, quad)
    centre = quad.mean(axis=0)
    across = quad[1] - quad[0] + quad[2] - quad[3]
    across /= np.linalg.norm(across)
    along = np.array([-across[1], across[0]])
    offsets = quad - centre
    for factor_across, factor_along in RESIZES:
        start = centre + np.outer(offsets @ across * factor_across, across) \
            + np.outer(offsets @ along * factor_along, along)
        fitted, fitted_score = snap_layout(grey, start)
        if not _card_shaped(fitted):
            continue
        candidate = (panels_found(grey, fitted), fitted_score, fitted)
        if candidate[:2] > best[:2]:
            best = candidate
    return best[2], best[0], best[1]


def snap_layout(grey: _Array, quad: _Array,
                reaches: tuple[float, ...] = NEAR_REACHES) -> tuple[_Array, float]:
    """``quad`` moved until the face's printed lines fall on the photo's: each point of each
    line (:data:`FACE_LINES`, the one-or-the-other lines left out) looks across itself, up
    to ``reach`` face pixels, for the strongest step the right way, and a perspective map is
    fitted to where they found it (RANSAC drops the points that found something else); again,
    nearer each time. Returns the outline and its :func:`layout_score`."""
    points, normals, signs = _snap_points()
    matrix = _homography(quad)
    for reach in reaches:
        offsets = np.arange(-reach, reach + 0.5, 1.0)
        for _ in range(2):
            across = offsets[None, :, None] * normals[:, None, :]
            before = points[:, None, :] + across - 2.5 * normals[:, None, :]
            after = points[:, None, :] + across + 2.5 * normals[:, None, :]
            values = _sample_grid(grey, matrix, np.stack([before, after]))
            steps = (values[1] - values[0]) * signs[:, None]
            best = np.argmax(steps, axis=1)
            strength = steps[np.arange(len(points)), best]
            found = strength > 10
            if found.sum() < 24:
                break
            moved = points[found] + offsets[best[found], None] * normals[found]
            targets = _through_points(matrix, moved)
            scale = _sides(_through(matrix, [(0, 0), (face.WIDTH, 0), (face.WIDTH, face.HEIGHT),
                                             (0, face.HEIGHT)]))[0] / face.WIDTH
            fitted, _ = cv2.findHomography(points[found].astype(np.float32),
                                           targets.astype(np.float32), cv2.RANSAC,
                                           max(1.5, reach * scale * 0.25))
            if fitted is None:
                break
            matrix = fitted
    corners = _through(matrix, [(0, 0), (face.WIDTH, 0), (face.WIDTH, face.HEIGHT),
                                (0, face.HEIGHT)])
    return corners, layout_score(grey, corners)


@functools.cache
def _snap_points() -> tuple[_Array, _Array, _Array]:
    """The points of the lines :func:`snap_layout` uses, each with its normal and sign."""
    points, normals, signs = [], [], []
    for (x0, y0, x1, y1), sign in FACE_LINES[:-_EITHER]:
        ts = np.linspace(0.0, 1.0, 24)
        points.append(np.column_stack([x0 + ts * (x1 - x0), y0 + ts * (y1 - y0)]))
        normal = [1.0, 0.0] if x0 == x1 else [0.0, 1.0]
        normals.append(np.tile(normal, (24, 1)))
        signs.append(np.full(24, float(sign)))
    return np.concatenate(points), np.concatenate(normals), np.concatenate(signs)


def _sample_grid(grey: _Array, matrix: _Array, points: _Array) -> _Array:
    """The brightness at face ``points`` (any shape ending in 2) through ``matrix``."""
    flat = points.reshape(-1, 2)
    values = _remap(grey, _through_points(matrix, flat))
    result: _Array = values.reshape(points.shape[:-1])
    return result


def _remap(grey: _Array, xy: _Array) -> _Array:
    """The brightness at each of the points ``xy`` (K x 2), bilinear (OpenCV's remap takes
    maps under 32767 wide, so the points go in rows of 1024)."""
    count = len(xy)
    rows = -(-count // 1024)
    padded = np.zeros((rows * 1024, 2), dtype=np.float32)
    padded[:count] = xy
    values = cv2.remap(grey, padded[:, 0].reshape(rows, 1024), padded[:, 1].reshape(rows, 1024),
                       cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    result: _Array = values.reshape(-1)[:count].astype(np.float64)
    return result


# --- corners to a fraction of a pixel ------------------------------------------------------------


def _refine(grey: _Array, quad: Quad, reach: int) -> Quad:
    """Each side moved onto the strongest change of brightness across it, within ``reach``
    pixels, at 40 places along its middle 70 %; a line through those points (strays dropped)
    is the side."""
    corners = [np.array(p) for p in quad]
    centre = sum(corners) / 4
    h, w = grey.shape[:2]
    offsets = np.arange(-reach, reach + 1, dtype=np.float64)
    lines: list[tuple[_Array, _Array]] = []
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        direction = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
        normal = np.array([direction[1], -direction[0]])
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal
        ts = np.linspace(0.15, 0.85, 40)
        base = a + ts[:, None] * (b - a)
        samples = base[:, None, :] + offsets[None, :, None] * normal
        xs = np.clip(samples[..., 0], 0, w - 1).astype(np.float32)
        ys = np.clip(samples[..., 1], 0, h - 1).astype(np.float32)
        values = cv2.remap(grey, xs, ys, cv2.INTER_LINEAR).astype(np.float64)
        values = (values[:, :-2] + values[:, 1:-1] + values[:, 2:]) / 3
        gradient = np.abs(np.diff(values, axis=1))
        points: list[_Array] = []
        for row in range(gradient.shape[0]):
            j = int(np.argmax(gradient[row]))
            if gradient[row, j] < 4:
                continue
            # A parabola through the peak and its neighbours: the edge between pixels.
            shift = 0.0
            if 0 < j < gradient.shape[1] - 1:
                left, mid, right = gradient[row, j - 1], gradient[row, j], gradient[row, j + 1]
                denominator = left - 2 * mid + right
                if abs(denominator) > 1e-9:
                    shift = 0.5 * (left - right) / denominator
            offset = offsets[1:-1][j] + 0.5 + shift
            points.append(base[row] + offset * normal)
        side = (a, direction)
        if len(points) >= 12:
            fitted = line_through(np.array(points))
            if _moved_along(side, fitted, float(np.linalg.norm(b - a))) <= reach:
                side = fitted
        # Else the side jumped to another edge (a pocket's seam, a panel): the layout's
        # side is kept.
        lines.append(side)
    refined = [intersect(lines[i - 1], lines[i]) for i in range(4)]
    tl, tr, br, bl = ((float(p[0]), float(p[1])) for p in refined)
    return (tl, tr, br, bl)


def _moved_along(side: tuple[_Array, _Array], fitted: tuple[_Array, _Array],
                 length: float) -> float:
    """How far ``fitted`` lies from ``side`` (a point, a unit direction) at the side's two
    ends, ``length`` apart, at most."""
    (a, direction), (p, d) = side, fitted
    normal = np.array([-d[1], d[0]])
    return max(abs(float(np.dot(end - p, normal))) for end in (a, a + length * direction))


def line_through(points: _Array) -> tuple[_Array, _Array]:
    """(a point, a unit direction) of the line best through ``points``, strays dropped (also
    cards.images.locate's, for the outline it finds by colour)."""
    for _ in range(2):
        centre = points.mean(axis=0)
        _, _, vt = np.linalg.svd(points - centre)
        direction = vt[0]
        normal = np.array([-direction[1], direction[0]])
        residual = np.abs((points - centre) @ normal)
        keep = residual <= max(0.75, 2.5 * float(np.median(residual)))
        if keep.sum() < 10 or keep.all():
            break
        points = points[keep]
    return points.mean(axis=0), direction


def intersect(first: tuple[_Array, _Array], second: tuple[_Array, _Array]) -> _Array:
    """Where two lines (a point, a direction) meet."""
    (p, d), (q, e) = first, second
    matrix = np.array([[d[0], -e[0]], [d[1], -e[1]]])
    t = np.linalg.solve(matrix, q - p)[0]
    point: _Array = p + t * d
    return point


# --- order --------------------------------------------------------------------------------------


def _as_quad(points: _Array) -> Quad:
    tl, tr, br, bl = ((float(x), float(y)) for x, y in points)
    return (tl, tr, br, bl)


def reading_order(outlines: list[Outline]) -> list[Outline]:
    """Rows from the top, left to right in a row: a card starts a new row when its centre is
    below the current row's first card by more than half a card's height."""
    def centre(outline: Outline) -> tuple[float, float]:
        xs, ys = zip(*outline.corners, strict=True)
        return sum(xs) / 4, sum(ys) / 4

    def height(outline: Outline) -> float:
        tl, _, _, bl = outline.corners
        return float(np.hypot(bl[0] - tl[0], bl[1] - tl[1]))

    rows: list[list[Outline]] = []
    for outline in sorted(outlines, key=lambda o: centre(o)[1]):
        if rows and centre(outline)[1] - centre(rows[-1][0])[1] < height(rows[-1][0]) / 2:
            rows[-1].append(outline)
        else:
            rows.append([outline])
    return [o for row in rows for o in sorted(row, key=lambda o: centre(o)[0])]
