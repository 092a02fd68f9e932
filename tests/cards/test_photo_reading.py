"""Reading every card of a phone photo (cards.images.photo_cards, card_fields): the fields
its type prints, the misses of issue 36 fixed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.phone_photos import card_photo
from cards.images import ocr
from cards.images.card_fields import detail_values, printed_keys
from cards.images.ocr import _expected_stats
from cards.images.photo_cards import read_photo

ROOT = Path(__file__).resolve().parents[2]
DEMO: list[dict[str, Any]] = json.loads(
    (ROOT / "fixtures" / "cards" / "demo.json").read_text(encoding="utf-8"))["cards"]
ABSENT = ocr.ocr_available()
BY_NAME = {c["name"]: c for c in DEMO}


@pytest.mark.parametrize(("card_type", "subtype", "expected"), [
    ("personality", "troop", ["offense", "defense", "vitality", "faction_influence",
                              "strength_economic", "strength_religious",
                              "strength_political"]),
    ("wanderer", None, ["offense", "defense", "vitality", "aggression", "bounty"]),
    ("structure", "wall", ["offense", "defense", "residencies"]),
    ("event", "general", []),
    (None, None, []),
])
def test_the_stat_boxes_a_type_draws_in_order(card_type: str | None, subtype: str | None,
                                              expected: list[str]) -> None:
    assert _expected_stats(card_type, subtype) == expected


@pytest.mark.parametrize(("card_type", "has", "lacks"), [
    ("wanderer", {"profession", "race", "bounty", "number", "artist"}, {"cost_economic",
                                                                        "faction"}),
    ("personality", {"faction", "subtype", "strength_economic", "rarity"}, {"bounty"}),
    ("event", {"cost_economic", "strength_economic"}, {"offense", "race"}),
])
def test_only_the_keys_a_type_prints_are_fields(card_type: str, has: set[str], lacks: set[str]
                                                ) -> None:
    keys = set(printed_keys(card_type, None))
    assert has <= keys and not lacks & keys


@pytest.mark.parametrize(("line", "card_type", "expected"), [
    ("Troll · Male · Hunter", "wanderer", {"race": "Troll", "gender": "Male",
                                           "profession": "Hunter"}),
    ("Troll · Male", "wanderer", {"race": "Troll", "gender": "Male"}),
    ("Human - Female : Priest", "personality", {"race": "Human", "gender": "Female",
                                                "profession": "Priest"}),
    ("Race ? · Male · Profession ?", "personality", {"gender": "Male"}),
    ("Human Male", "personality", {}),
])
def test_the_detail_line_gives_race_gender_and_a_wanderer_s_profession(
        line: str, card_type: str, expected: dict[str, str]) -> None:
    assert detail_values(line, card_type) == expected


@pytest.mark.skipif(ABSENT is not None, reason=f"OCR unavailable: {ABSENT}")
@pytest.mark.parametrize("name", ["Ember Templar", "Lady Seraphine Voss"])
def test_the_economic_strength_box_is_not_read_as_bounty_under_warm_light(name: str) -> None:
    card = BY_NAME[name]
    photo = card_photo(card, "white table", seed=8)
    reading = read_photo(photo.jpeg)
    fields = reading.cards[0].fields
    assert "bounty" not in fields  # a personality prints none
    assert fields["strength_economic"] == card["strength_economic"]


@pytest.mark.skipif(ABSENT is not None, reason=f"OCR unavailable: {ABSENT}")
def test_the_collector_line_gives_number_rarity_and_artist() -> None:
    card = BY_NAME["Tallow-Iron Hauberk"]
    fields = read_photo(card_photo(card, "white table", seed=15).jpeg).cards[0].fields
    assert (fields["number"], fields["rarity"], fields["artist"]) == (
        card["number"], card["rarity"], card["artist"])
