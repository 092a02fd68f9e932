"""Finding and straightening a card in a photo (cards.images.locate), and the scan intake."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from bench.card_photos import photograph
from cards.images import face, ocr
from cards.images.intake import read_scan
from cards.images.locate import OUTPUT_SIZE, locate_card
from cards.images.scan import RENDITIONS, check_scan

ROOT = Path(__file__).resolve().parents[2]
DEMO: list[dict[str, Any]] = json.loads(
    (ROOT / "fixtures" / "cards" / "demo.json").read_text(encoding="utf-8"))["cards"]
ABSENT = ocr.ocr_available()


def corner_error(found: Any, truth: Any) -> float:
    return max(float(np.hypot(a[0] - b[0], a[1] - b[1])) for a, b in zip(found, truth,
                                                                         strict=True))


@pytest.mark.parametrize("seed", range(8))
def test_a_photographed_card_is_found_and_straightened(seed: int) -> None:
    index = seed * 16 % len(DEMO)  # every type and border
    photo, corners = photograph(face.render_face(DEMO[index]), seed, max_turn=8)
    location = locate_card(check_scan(photo).image)
    assert location.outcome == "found", location.message
    assert location.corners is not None
    assert corner_error(location.corners, corners) < 3  # pixels, in a 880 x 1160 photo
    assert location.image.size == OUTPUT_SIZE
    assert "turned" in location.message


def test_a_straightened_card_matches_its_face() -> None:
    rendered = face.render_face(DEMO[3])
    photo, _ = photograph(rendered, 3)
    straight = locate_card(check_scan(photo).image).image
    difference = np.abs(np.asarray(straight, dtype=np.float64)
                        - np.asarray(rendered, dtype=np.float64)).mean()
    assert difference < 20  # blur, noise and JPEG remain; a shift of a few pixels would not


def test_a_scan_cut_to_the_card_is_taken_whole() -> None:
    location = locate_card(face.render_face(DEMO[0]))
    assert location.outcome == "whole" and location.is_card
    assert location.image.size == OUTPUT_SIZE


@pytest.mark.parametrize(
    ("photo", "why"),
    [
        (Image.new("RGB", (800, 600), (40, 90, 40)), "nothing stands out"),
        (Image.linear_gradient("L").resize((900, 700)).convert("RGB"), "plain background"),
    ],
    ids=["empty table", "no background"],
)
def test_no_card_gives_the_image_back_and_says_so(photo: Image.Image, why: str) -> None:
    location = locate_card(photo)
    assert location.outcome == "not_found" and not location.is_card
    assert location.image is photo
    assert why in location.message and "no card found" in location.message


def test_a_square_that_is_not_card_shaped_is_not_taken_for_a_card() -> None:
    photo = Image.new("RGB", (900, 900), (30, 30, 30))
    photo.paste((230, 220, 200), (250, 250, 650, 650))
    location = locate_card(photo)
    assert location.outcome == "not_found"
    assert "not a card's" in location.message


def test_intake_stores_renditions_of_the_straightened_card() -> None:
    photo, _ = photograph(face.render_face(DEMO[5]), 5)
    result = read_scan(photo, read_text=False)
    assert result.location.outcome == "found"
    assert list(result.renditions) == list(RENDITIONS)
    large = Image.open(io.BytesIO(result.renditions["large"]))
    assert large.size == OUTPUT_SIZE
    assert result.reading is None


@pytest.mark.skipif(ABSENT is not None, reason=f"OCR unavailable: {ABSENT}")
@pytest.mark.parametrize("seed", range(4))
def test_a_photographed_card_reads_back_its_name(seed: int) -> None:
    index = seed * 29 % len(DEMO)
    photo, _ = photograph(face.render_face(DEMO[index]), seed)
    result = read_scan(photo)
    assert result.reading is not None and result.reading.name is not None
    assert result.reading.name.value == DEMO[index]["name"]
    assert "check each value" in result.message


def test_intake_without_tesseract_keeps_the_scan_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def unavailable(image: Image.Image) -> None:
        raise ocr.OcrUnavailable("Tesseract is not installed: install Debian's tesseract-ocr")

    monkeypatch.setattr("cards.images.intake.read_card", unavailable)
    buffer = io.BytesIO()
    face.render_face(DEMO[0]).save(buffer, "PNG")
    result = read_scan(buffer.getvalue())
    assert result.reading is None and result.renditions
    assert "install Debian's tesseract-ocr" in result.message
