"""The real catalogue holds only the public facts of shared/data, nothing invented."""

from __future__ import annotations

import json

import pytest

from cards.card_data import INT_KEYS, parse_card_document
from cards.public_data import public_catalogue
from tests.conftest import FIXTURES, SHARED

TSV = SHARED / "data" / "war_of_factions_public.tsv"
WOF = json.loads((FIXTURES / "cards" / "wof.json").read_text(encoding="utf-8"))


@pytest.mark.skipif(not TSV.exists(), reason="shared/ is not beside the checkout")
def test_the_fixture_is_exactly_the_conversion_of_the_public_facts() -> None:
    assert public_catalogue(TSV.read_text(encoding="utf-8")) == WOF


def test_the_fixture_is_a_valid_card_data_file() -> None:
    parsed = parse_card_document(WOF, "wof.json")
    assert parsed.set_info is not None and parsed.set_info.official
    assert len(parsed.cards) == 34


@pytest.mark.parametrize("card", WOF["cards"], ids=lambda c: c["id"])
def test_no_real_card_has_an_invented_stat(card: dict[str, object]) -> None:
    assert all(card[key] is None for key in INT_KEYS)
    for key in ("abilities", "quotation", "race", "gender", "profession", "artist", "image",
                "unique", "number"):
        assert card[key] is None, key
    assert card["official"] is True and card["sources"]


def test_cards_sharing_a_name_get_the_faction_in_their_id() -> None:
    ids = {c["id"] for c in WOF["cards"] if c["name"] in ("Bowman", "Catapult")}
    assert ids == {"wof-bowman-kalim", "wof-bowman-mosfin", "wof-bowman-guild",
                   "wof-catapult-mosfin", "wof-catapult-guild"}


@pytest.mark.parametrize(
    ("card_id", "card_type", "subtype", "faction", "rarity"),
    [
        ("wof-ariams-temple", "structure", "stronghold", None, "common"),
        ("wof-blacksmiths-shop", "structure", "general", None, "common_starter"),
        ("wof-bishop-ospin", "personality", None, "kalim", "rare"),
        ("wof-bannion-rowens", "personality", None, "guild", "uncommon"),
        ("wof-cave-troll", None, None, None, None),
        ("wof-footman", "personality", None, None, None),
    ],
)
def test_each_column_maps_to_the_contract_values(
    card_id: str, card_type: str | None, subtype: str | None, faction: str | None,
    rarity: str | None,
) -> None:
    card = next(c for c in WOF["cards"] if c["id"] == card_id)
    assert (card["type"], card["subtype"], card["faction"], card["rarity"]) == (
        card_type, subtype, faction, rarity
    )


def test_every_real_card_s_source_is_a_public_address_never_a_repository_path() -> None:
    sources = {s for card in WOF["cards"] for s in card["sources"]}
    assert sources and all(s.startswith(("http://", "https://")) for s in sources), sources
