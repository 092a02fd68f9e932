"""Reading every card of a phone photo (cards.images.photo_cards, card_fields): the fields
its type prints, the misses of issue 36 fixed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.phone_photos import card_photo
from cards.images import ocr
from cards.images.card_fields import cross_checked, detail_values, printed_keys
from cards.images.ocr import _expected_stats, _has_shield, even_light, pronoun_i
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
    # Separators OCR reads as guillemets and pluses; dots lost, the gender parts the rest.
    ("Dwarf \u00ab Female - Abbess", "personality",
     {"race": "Dwarf", "gender": "Female", "profession": "Abbess"}),
    ("Crow +\u00bb Mixed", "wanderer", {"race": "Crow", "gender": "Mixed"}),
    ("Human Male Baron", "personality", {"race": "Human", "gender": "Male",
                                         "profession": "Baron"}),
    ("Half Elf Female - Archer", "personality", {"race": "Half Elf", "gender": "Female",
                                                 "profession": "Archer"}),
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


@pytest.mark.parametrize(("fields", "doubtful"), [
    ({"name": "Ledger Warden", "artist": "Demo Artist Ilse Varga"}, set()),
    ({"name": "Signet of the Nine Bells", "artist": "Anne-Marie O'Neil"}, set()),
    ({"name": "Ledger Warden CoTT"}, {"name"}),  # the gems read into the name
    ({"name": "Fortified Manor House 3 GS"}, {"name"}),
    ({"artist": "Demo Artist lise Varga"}, {"artist"}),  # a capital I read as l
    ({"artist": "Demo Artist Kestre! Vane"}, {"artist"}),
    ({"race": "Ghow", "gender": "Mate", "profession": None}, {"race", "gender"}),
    ({"race": "Human", "gender": "Male", "profession": "Baron"}, set()),
])
def test_a_value_whose_form_no_card_prints_is_doubtful(fields: dict[str, object],
                                                      doubtful: set[str]) -> None:
    assert cross_checked(fields) == doubtful


@pytest.mark.parametrize(("read", "meant"), [
    ("1 walked here from the Salt Coast.", "I walked here from the Salt Coast."),
    ("Every battle is a contract. | always collect.",
     "Every battle is a contract. I always collect."),
    ("They said l would not.", "They said I would not."),
    ("He paid 1 coin for it.", "He paid 1 coin for it."),
    ("1, 2, 3.", "1, 2, 3."),
])
def test_a_quotation_s_pronoun_i_read_as_a_bar_or_a_one_is_put_back(read: str, meant: str
                                                                     ) -> None:
    assert pronoun_i(read) == meant


def _lamp_lit(card: dict[str, Any]) -> Any:
    """``card``'s face under a lamp to its left: dimmer to the right, warm."""
    import numpy as np

    from cards.images import face

    pixels = np.asarray(face.render_face(card).convert("RGB"), dtype=np.float64)
    falloff = np.linspace(1.0, 0.62, pixels.shape[1])[None, :, None]
    return np.clip(pixels * falloff * np.array([1.05, 0.97, 0.82]), 0, 255)


def test_the_light_on_a_card_is_evened_from_its_parchment() -> None:
    import numpy as np

    from cards.images import face

    card = BY_NAME["Baron Kassim Orlov"]
    clean = np.asarray(face.render_face(card).convert("RGB"), dtype=np.float64)
    lit = _lamp_lit(card)
    evened = even_light(lit)
    panel = (slice(660, 860), slice(60, 685))  # the text box
    assert np.abs(lit[panel] - clean[panel]).mean() > 25
    assert np.abs(evened[panel] - clean[panel]).mean() < 6


def test_a_plain_card_shaped_image_is_not_evened() -> None:
    import numpy as np

    from cards.images import face

    blank = np.full((face.HEIGHT, face.WIDTH, 3), 60.0)
    assert even_light(blank) is blank


def test_a_dark_faction_shield_under_a_lamp_is_still_the_shield() -> None:
    from cards.images import face

    # The purple shield at the dim end of the type bar: luminance and saturation thresholds
    # took it for text, and the type line was read with the shield in it.
    shield = face.type_bar_layout(True).shield
    assert shield is not None
    assert _has_shield(even_light(_lamp_lit(BY_NAME["Baron Kassim Orlov"])), shield)
    assert not _has_shield(even_light(_lamp_lit(BY_NAME["Siege Maul"])), shield)


@pytest.mark.parametrize(("line", "number", "sure"), [
    ("DEMO - No. 034 - Rare", "034", True),
    ("DEMO · No. ? · Rare", None, True),
    # Blurred on a binder page: "No." read as "Me", "We.", or lost; doubtful (half as sure).
    ("DEMO Me 092 Common", "092", False),
    ("O8MO0 We. 122 - Common", "122", False),
    ("mete) Me @33 Rare", "033", False),
    ("meso te O48 Commen", "048", False),
    ("DEMO Ne. OT? Rare", None, True),
    ("DEMO - No. O37 - Common", "037", True),  # a digit read as a letter
    ("DEMO - No. P3 - Promo", "P3", True),
])
def test_the_collector_number_is_read_after_no_or_what_a_blur_makes_of_it(
        line: str, number: str | None, sure: bool) -> None:
    from cards.images.ocr import _collector_number

    read = _collector_number(line, 0.8)
    assert (read.value if read else None) == number
    if read is not None:
        assert (read.confidence >= 0.6) == sure


ARTISTS = ["Demo Artist Ilse Varga", "Demo Artist Mira Ostrand", "Demo Artist Sela Marrow",
           "Demo Artist Kestrel Vane"]


@pytest.mark.parametrize(("read", "known"), [
    ("Demo Artist lise Varga", "Demo Artist Ilse Varga"),  # I read as l, l as i
    ("Derno Artist Mira Ostrand", "Demo Artist Mira Ostrand"),  # m read as rn
    ("Demo Artist Kestre! Vane", "Demo Artist Kestrel Vane"),
    ("Demo Artist Sela Marrow", "Demo Artist Sela Marrow"),
    ("Demo Artist Tobin Quill", None),  # an artist the catalogue does not know yet
    ("Ceres Att bee Qu", None),
])
def test_an_artist_read_is_matched_to_one_the_catalogue_knows(read: str, known: str | None
                                                              ) -> None:
    from cards.images.card_fields import known_artist

    assert known_artist(read, ARTISTS) == known


def test_two_artists_as_near_as_each_other_match_neither() -> None:
    from cards.images.card_fields import known_artist

    assert known_artist("Ann Lee", ["Ann Lea", "Ann Lec"]) is None


@pytest.mark.parametrize(("text", "number"), [
    ("0", 0), ("12", 12), ("O", 0), ("U", 0), ("D", 0),  # a blurred 0
    ("I", 1), ("l", 1), ("|", 1), ("i", 1),  # a 1: "I" was taken for 0
    ("S", 5), ("B", 8), ("?", None), ("as", None), ("3 =", None), ("", None),
])
def test_a_lone_number_read_maps_letters_taken_for_digits_back(text: str,
                                                              number: int | None) -> None:
    from cards.images.ocr import number_read

    assert number_read(text) == number


HINTS_CARDS: list[dict[str, Any]] = [
    {"name": "Baron Kassim Orlov", "set": "DEMO", "number": "063", "race": "Human",
     "profession": "Baron", "artist": "Demo Artist Ilse Varga",
     "abilities": "Campaign. Fear.", "quotation": "Run, and let the saints carry your boots."},
    {"name": "Captain Marro Vantis", "set": "DEMO", "number": "077", "race": "Human",
     "profession": "Captain", "abilities": None, "quotation": "Lock shields."},
    {"name": "Old Toll", "set": "OTHER", "number": "005"},
]


@pytest.mark.parametrize(("fields", "doubtful"), [
    # The text box's last full stop lost to a blur, or read as a comma and cleaned away.
    ({"quotation": "praying with every arrow"}, {"quotation"}),
    ({"quotation": "praying with every arrow.", "abilities": "Fear!"}, set()),
    ({"quotation": '"Go," he said. "Now."'}, set()),
    ({"abilities": "Ranged. Worship"}, {"abilities"}),
    # A sentence begun in lower case: a comma read as a full stop.
    ({"quotation": "A small flame. carefully kept."}, {"quotation"}),
    ({"quotation": "Heer ye. hear ye: House Mosfin remembers."}, {"quotation"}),
    # A race or profession no card of the catalogue has: "Beron", "Captair".
    ({"race": "Human", "gender": "Male", "profession": "Beron"}, {"profession"}),
    ({"race": "Human", "gender": "Male", "profession": "Captain"}, set()),
    ({"race": "Humen", "gender": "Male"}, {"race"}),
    # A name a letter from a catalogue card's, not one of its own.
    ({"name": "Baron Kassirn Orlov"}, {"name"}),
    ({"name": "Baron  Kassim Orlov"}, set()),  # spacing aside
    ({"name": "Harbour Warehouses"}, set()),  # a card the catalogue lacks
    # A collector number another card of the set has, or past the set's size.
    ({"name": "Captain Marro Vantis", "number": "063"}, {"number"}),
    ({"name": "Captain Marro Vantis", "number": "077"}, set()),
    ({"name": "Captain Marro Vantis", "number": "005"}, set()),  # another set's
    ({"name": "Captain Marro Vantis", "number": "167"}, {"number"}),  # the set has 133
    ({"name": "Captain Marro Vantis", "number": "000"}, {"number"}),
    ({"name": "Captain Marro Vantis", "number": "e"}, {"number"}),  # a letter, no digit
    ({"name": "Captain Marro Vantis", "number": "O77"}, {"number"}),
])
def test_a_value_the_catalogue_contradicts_is_doubtful(fields: dict[str, object],
                                                       doubtful: set[str]) -> None:
    from cards.images.card_fields import CatalogueHints

    hints = CatalogueHints.from_cards(HINTS_CARDS, set_code="demo", set_size=133)
    assert cross_checked(fields, hints) == doubtful


def test_without_hints_only_the_checks_of_form_are_made() -> None:
    fields = {"name": "Baron Kassirn Orlov", "profession": "Beron", "number": "999",
              "quotation": "No stop"}
    assert cross_checked(fields) == {"quotation"}


@pytest.mark.parametrize(("weak", "doubtful"), [
    (("fet",), {"quotation"}),  # "let" read as "fet": a real word, but no card's
    (("shields.", "The"), set()),  # unsure, but words the catalogue's text uses
    (("|",), set()),  # no letter: the pronoun I, put back
    ((), set()),
])
def test_a_word_read_unsure_that_no_card_uses_makes_its_text_doubtful(
        weak: tuple[str, ...], doubtful: set[str]) -> None:
    from cards.images.card_fields import CatalogueHints, weak_word_keys
    from cards.images.ocr import Reading

    hints = CatalogueHints.from_cards(HINTS_CARDS)
    readings = {"quotation": Reading[object]("Run, and fet the saints.", 0.91, weak),
                "abilities": Reading[object]("Fear.", 0.95)}
    assert weak_word_keys(readings, hints.words) == doubtful


@pytest.mark.parametrize(("detail", "gem", "disagrees"), [
    ("Requires religious strength 1", 0, "strength_religious"),  # a gem's 1 read as 0
    ("Requires religious strength |", 1, None),  # the line's 1 read as a bar
    ("Requires economic/military strength 2", 2, None),
    ("Requires economic/military strength 2", None, None),  # the gem not read
    ("Requires economic/military strength ?", 3, None),
    ("Human · Male", 0, None),
])
def test_a_requirement_gem_the_detail_line_contradicts_is_found(
        detail: str, gem: int | None, disagrees: str | None) -> None:
    from cards.images.card_fields import requirement_disagrees
    from cards.images.ocr import CardReading, Reading

    key = "strength_religious" if "religious" in detail else "strength_economic"
    numbers = {key: Reading(gem, 0.9)} if gem is not None else {}
    reading = CardReading(detail_line=Reading(detail, 0.8), numbers=numbers)
    assert requirement_disagrees(reading) == disagrees
