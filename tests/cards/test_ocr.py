"""Reading card scans with Tesseract (cards.images.ocr): every Demo face reads back its name.

Skips, saying why, where Debian's tesseract-ocr is not installed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from cards.images import face, ocr
from cards.images.ocr import OcrUnavailable, clean_line, read_card

ROOT = Path(__file__).resolve().parents[2]
DEMO: list[dict[str, Any]] = json.loads(
    (ROOT / "fixtures" / "cards" / "demo.json").read_text(encoding="utf-8"))["cards"]
NUMBER_KEYS = ("offense", "defense", "vitality", "faction_influence", "strength_economic",
               "strength_religious", "strength_political", "aggression", "residencies", "bounty",
               "cost_economic", "cost_religious", "cost_political", "cost_generic")

ABSENT = ocr.ocr_available()
needs_tesseract = pytest.mark.skipif(ABSENT is not None, reason=f"OCR unavailable: {ABSENT}")


def demo_face(index: int) -> Image.Image:
    return face.render_face(DEMO[index])


@needs_tesseract
@pytest.mark.parametrize("index", range(len(DEMO)), ids=[c["id"] for c in DEMO])
def test_every_demo_face_reads_back_its_name_and_text(index: int) -> None:
    card = DEMO[index]
    reading = read_card(demo_face(index))
    assert reading.name is not None and reading.name.value == card["name"]
    assert 0 < reading.name.confidence <= 1
    assert reading.card_type is not None and reading.card_type.value == card["type"]
    assert (reading.subtype.value if reading.subtype else None) == card["subtype"]
    assert (reading.faction.value if reading.faction else None) == card["faction"]
    assert reading.unique is not None and reading.unique.value == bool(card["unique"])
    assert (reading.abilities.value if reading.abilities else "") == " ".join(
        (card["abilities"] or "").split())
    assert reading.quotation is not None
    # Numbers: where one is read it is the printed one (a rare digit may not be read).
    for key, number in reading.numbers.items():
        assert number.value == card[key], key
    printed = [k for k in NUMBER_KEYS if card.get(k) is not None]
    assert len(reading.numbers) >= len(printed) - 1
    collector = tuple(r.value if r else None for r in (reading.number, reading.rarity,
                                                        reading.artist))
    assert collector == (card["number"], card["rarity"], card["artist"])


@needs_tesseract
def test_fields_use_the_card_data_keys() -> None:
    index = next(i for i, c in enumerate(DEMO) if c["type"] == "personality")
    fields = read_card(demo_face(index)).fields()
    assert {"name", "type", "subtype", "faction", "abilities", "quotation", "offense",
            "cost_economic"} <= set(fields)
    assert all(0 <= reading.confidence <= 1 for reading in fields.values())


@needs_tesseract
def test_an_unknown_card_is_read_as_printed_not_matched_to_a_known_name() -> None:
    # A name no card has: it must come back as printed, not as the nearest catalogue name.
    card = {**DEMO[0], "id": "x-new", "name": "Emberhold Keeps of Yonder"}
    reading = read_card(face.render_face(card))
    assert reading.name is not None and reading.name.value == "Emberhold Keeps of Yonder"


@needs_tesseract
def test_a_blank_image_reads_nothing_rather_than_failing() -> None:
    reading = read_card(Image.new("RGB", (630, 880), "white"))
    assert reading.name is None and reading.abilities is None and not reading.numbers


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("  Beggars\u2019 Arch @\n", "Beggars' Arch"),
        ("%\u00a3Emberhold  Keep", "Emberhold Keep"),
        ("Templar-Captain Oswin Hale", "Templar-Captain Oswin Hale"),
        ("\u201cQuoted.\u201d", '"Quoted."'),
        ("(F)3 Crusade. |", "(F)3 Crusade."),
    ],
)
def test_clean_line_normalises_whitespace_and_punctuation_only(raw: str, clean: str) -> None:
    assert clean_line(raw) == clean


def test_missing_tesseract_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cards.images.ocr.shutil.which", lambda name: None)
    monkeypatch.setattr(ocr, "TESSDATA_DIRS", ())
    monkeypatch.delenv("TESSDATA_PREFIX", raising=False)
    ocr.tessdata_dir.cache_clear()
    monkeypatch.setattr(ocr._local, "engine", None, raising=False)
    try:
        with pytest.raises(OcrUnavailable, match="install Debian's tesseract-ocr"):
            read_card(Image.new("RGB", (745, 1040), "white"))
        assert "tesseract-ocr" in (ocr.ocr_available() or "")
    finally:
        ocr.tessdata_dir.cache_clear()
