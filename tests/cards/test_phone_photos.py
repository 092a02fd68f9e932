"""bench.phone_photos: the phone photos the scans bench and tests read, made deterministically."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from bench.phone_photos import SURFACES, _paste, binder_photo, card_photo, photo_set
from bench.scans_bench import WORKFLOW, matches, score_card, truth_fields

ROOT = Path(__file__).resolve().parents[2]
DEMO = json.loads((ROOT / "fixtures" / "cards" / "demo.json").read_text(encoding="utf-8"))["cards"]


@pytest.mark.parametrize("quad", [
    ((40, 30), (150, 42), (140, 190), (32, 176)),  # inside the canvas, turned
    ((-60, -20), (70, -10), (60, 120), (-70, 110)),  # over the top left corner
    ((300, 300), (400, 300), (400, 400), (300, 400)),  # off the canvas altogether
])
def test_pasting_blends_only_where_the_image_lands_to_the_bit(
        quad: tuple[tuple[int, int], ...]) -> None:
    rng = np.random.default_rng(7)
    canvas = rng.uniform(0, 255, (200, 180, 3)).astype(np.float32)
    image = Image.fromarray(rng.integers(0, 255, (90, 60, 3), dtype=np.uint8))
    corners = np.array(quad, dtype=np.float64)
    # The whole canvas blended, as before the paste kept to the image's window.
    matrix = cv2.getPerspectiveTransform(
        np.array([(0, 0), (60, 0), (60, 90), (0, 90)], dtype=np.float32),
        corners.astype(np.float32))
    warped = cv2.warpPerspective(np.asarray(image, dtype=np.float32), matrix, (180, 200),
                                 flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(np.ones((90, 60), dtype=np.float32), matrix, (180, 200),
                                flags=cv2.INTER_LINEAR)[..., None]
    whole = canvas * (1 - alpha) + warped * alpha
    _paste(canvas, image, corners)
    assert canvas.tobytes() == whole.astype(np.float32).tobytes()


def test_a_card_photo_is_the_same_for_the_same_seed() -> None:
    first = card_photo(DEMO[40], "pine", seed=3)
    assert first.jpeg == card_photo(DEMO[40], "pine", seed=3).jpeg
    assert first.jpeg != card_photo(DEMO[40], "pine", seed=4).jpeg


@pytest.mark.parametrize("surface", ["white table", "dark desk"])
def test_a_card_photo_has_the_card_turned_and_in_keystone(surface: str) -> None:
    photo = card_photo(DEMO[40], surface, seed=1)
    (tl, tr, br, bl), = photo.corners
    turn = np.degrees(np.arctan2(bl[0] - tl[0], bl[1] - tl[1]))
    assert 3.0 < abs(turn) < 9.0
    top = np.hypot(tr[0] - tl[0], tr[1] - tl[1])
    bottom = np.hypot(br[0] - bl[0], br[1] - bl[1])
    assert 0.019 < 1 - top / bottom < 0.051
    image = Image.open(io.BytesIO(photo.jpeg))
    assert image.format == "JPEG" and image.size == (1500, 2000)
    # The surface's colour at a corner of the photo, lit warm and unevenly.
    corner = np.asarray(image.convert("RGB"))[5:40, 5:40].reshape(-1, 3).mean(axis=0)
    assert abs(corner.mean() - np.mean(SURFACES[surface][0])) < 60


def test_a_binder_page_holds_nine_cards_in_reading_order() -> None:
    photo = binder_photo(DEMO[:9], "black", seed=7)
    assert len(photo.corners) == 9
    centres = [np.mean(c, axis=0) for c in photo.corners]
    rows = [centres[i:i + 3] for i in (0, 3, 6)]
    for row in rows:
        assert row[0][0] < row[1][0] < row[2][0]
    assert rows[0][0][1] < rows[1][0][1] < rows[2][0][1]


def test_a_binder_page_refuses_other_than_nine_cards() -> None:
    with pytest.raises(ValueError, match="holds 9 cards, not 8"):
        binder_photo(DEMO[:8], "white", seed=1)


def test_the_photo_set_has_singles_on_every_surface_and_binder_pages() -> None:
    photos = photo_set(DEMO[:2], singles=2, binders=1)
    assert [len(p.cards) for p in photos] == [1, 1, 9]


def test_an_outline_matches_within_two_percent_of_the_card_s_width() -> None:
    truth = ((100.0, 100.0), (600.0, 100.0), (600.0, 800.0), (100.0, 800.0))
    assert matches(tuple((x + 7, y - 7) for x, y in truth), truth)
    assert not matches(tuple((x + 11, y) for x, y in truth), truth)


def test_a_card_not_found_costs_every_printed_field_typed() -> None:
    card = next(c for c in DEMO if c["type"] == "personality")
    score = score_card(card, None, WORKFLOW, 1.0)
    assert not score.found and score.right == 0
    assert score.printed == len(truth_fields(card)) and "name" in score.misses


def test_a_card_read_right_costs_a_tick_per_region_not_per_value() -> None:
    from bench.scans_bench import TICK_PER_VALUE
    from cards.images.photo_cards import CardFound

    card = next(c for c in DEMO if c["type"] == "personality")
    truth = truth_fields(card)
    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    read = CardFound(corners, Image.new("RGB", (1, 1)), dict(truth), [])
    now, before = (score_card(card, read, flow, 1 / 9) for flow in (WORKFLOW, TICK_PER_VALUE))
    assert now.right == before.right == len(truth)
    assert now.seconds < before.seconds - len(truth)  # a click saved on most values
    doubtful = CardFound(corners, Image.new("RGB", (1, 1)), dict(truth), ["name"])
    assert score_card(card, doubtful, WORKFLOW, 1 / 9).seconds > now.seconds  # ticked alone


def test_the_bench_counts_each_field_read_right_and_names_the_worst() -> None:
    from bench.scans_bench import CardScore, by_field, worst_fields

    scores = [CardScore(True, 2, 3, 0.0, ["artist"], ("name", "number", "artist")),
              CardScore(True, 1, 3, 0.0, ["artist", "number"], ("name", "number", "artist")),
              CardScore(False, 0, 1, 0.0, ["name"], ("name",))]
    assert by_field(scores) == {"name": (2, 3), "number": (1, 2), "artist": (0, 2)}
    assert worst_fields(scores) == "artist 0/2, number 1/2, name 2/3"
    assert worst_fields(scores[:0]) == ""


def test_a_value_read_wrong_without_a_doubt_mark_is_counted_unmarked() -> None:
    from cards.images.photo_cards import CardFound

    card = next(c for c in DEMO if c["type"] == "personality")
    read = dict(truth_fields(card), name=card["name"] + "x", number="999", rarity=None)
    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    found = CardFound(corners, Image.new("RGB", (1, 1)), read, ["number"])
    score = score_card(card, found, WORKFLOW, 1.0)
    # The name is wrong and unmarked; the number is wrong but marked; the rarity not read.
    assert score.unmarked == ("name",)
    assert {"name", "number", "rarity"} <= set(score.misses)
