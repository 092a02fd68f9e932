"""POST /api/scans/ (docs/design.md §13): every card in a photo, read; nothing stored."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
from django.test import Client
from PIL import Image

from cards.images import face, ocr
from edits.models import Edit, EditScan
from tests.edits.makers import card, client_for, make_user

ABSENT = ocr.ocr_available()
STRANGER = {"id": "demo-stranger", "name": "Ashen Wayfarer", "set": "DEMO", "number": "7",
            "type": "wanderer", "race": "Human", "gender": "Male", "offense": 3, "defense": 2,
            "vitality": 4, "aggression": 2, "bounty": 1, "unique": False,
            "abilities": "Fleetfoot.", "quotation": "", "rarity": "common", "official": False}


def jpeg(image: Image.Image) -> io.BytesIO:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=92)
    buffer.seek(0)
    buffer.name = "photo.jpg"
    return buffer


def two_cards() -> tuple[Image.Image, list[tuple[int, int]]]:
    """The test set's Lamplighter and a card the catalogue lacks, side by side on a desk."""
    table = Image.new("RGB", (1800, 1300), (36, 32, 30))
    places = [(960, 130), (90, 110)]  # the right card a little lower: read second
    for data, place in zip((card("tst-lamplighter").as_data(), STRANGER), places, strict=True):
        table.paste(face.render_face(data), place)
    return table, places


@pytest.mark.skipif(ABSENT is not None, reason=f"OCR unavailable: {ABSENT}")
def test_scans_reads_every_card_in_reading_order_with_corners_and_catalogue_card() -> None:
    photo, places = two_cards()
    answer = client_for(make_user("ada")).post("/api/scans/", {"image": jpeg(photo)})
    assert answer.status_code == 200, answer.content
    cards = answer.json()["cards"]
    assert [c["fields"]["name"] for c in cards] == ["Ashen Wayfarer", "Lamplighter"]
    assert [c["card"] for c in cards] == [None, "tst-lamplighter"]
    left, top = places[1]
    expected = [[left, top], [left + 745, top], [left + 745, top + 1040], [left, top + 1040]]
    assert np.abs(np.array(cards[0]["corners"]) - expected).max() < 6
    wanderer = cards[0]["fields"]
    assert wanderer["type"] == "wanderer" and wanderer["offense"] == 3
    assert "cost_economic" not in wanderer  # a wanderer prints no costs
    assert set(cards[0]["doubtful"]) <= set(wanderer)


def test_scans_of_a_photo_without_a_card_is_200_with_a_warning() -> None:
    answer = client_for(make_user("ada")).post(
        "/api/scans/", {"image": jpeg(Image.new("RGB", (900, 1200), (222, 190, 140)))})
    assert answer.status_code == 200
    assert answer.json()["cards"] == []
    assert "no card found" in answer.json()["warnings"][0]


@pytest.mark.parametrize(("body", "code"), [
    ({"image": io.BytesIO(b"GIF89a not an image")}, "bad_image"),
    ({}, "invalid"),
])
def test_scans_refuses_what_is_not_a_photo_with_a_problem(body: dict[str, Any], code: str
                                                          ) -> None:
    answer = client_for(make_user("ada")).post("/api/scans/", body)
    assert answer.status_code == 400
    assert answer["Content-Type"].startswith("application/problem+json")
    assert answer.json()["code"] == code


def test_scans_needs_a_signed_in_user() -> None:
    answer = Client().post("/api/scans/", {"image": jpeg(Image.new("RGB", (50, 50)))})
    assert answer.status_code in (401, 403)


def test_scans_stores_nothing(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = str(tmp_path)
    photo, _ = two_cards()
    client_for(make_user("ada")).post("/api/scans/", {"image": jpeg(photo)})
    assert not any(tmp_path.rglob("*.*"))
    assert not Edit.objects.exists() and not EditScan.objects.exists()


def test_scans_matches_artists_read_to_those_the_catalogue_names(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cards.images.photo_cards import PhotoReading
    from edits.api import views

    named = card("tst-lamplighter")
    named.artist = "Ilse Varga"
    named.save(update_fields=["artist"])
    seen: dict[str, Any] = {}

    def read_photo(data: bytes, **options: Any) -> PhotoReading:
        seen.update(options)
        return PhotoReading((10, 10), [], ["no card found in the photo"])

    monkeypatch.setattr(views, "read_photo", read_photo)
    answer = client_for(make_user("ada")).post(
        "/api/scans/", {"image": jpeg(Image.new("RGB", (90, 120), (222, 190, 140)))})
    assert answer.status_code == 200
    assert "Ilse Varga" in seen["hints"].artists and "" not in seen["hints"].artists
