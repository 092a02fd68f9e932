"""The card data format (docs/design.md §4): what is accepted, and how each refusal is worded."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.card_data import CARD_KEYS, CardDataError, parse_card_document

SET = {"code": "TST", "name": "Test set", "official": False, "released": None}


def card(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = dict.fromkeys(CARD_KEYS)
    base.update(
        id="tst-guard", name="Guard", set="TST", type="personality", subtype="troop",
        faction="kalim", offense=2, defense=2, unique=False, official=False, sources=["test"],
    )
    base.update(overrides)
    return base


def document(*cards: dict[str, Any]) -> dict[str, Any]:
    return {"set": copy.deepcopy(SET), "cards": list(cards)}


def problems_of(doc: object) -> list[str]:
    with pytest.raises(CardDataError) as caught:
        parse_card_document(doc, "cards.json")
    return [str(p) for p in caught.value.problems]


def test_a_complete_card_is_accepted_with_its_set() -> None:
    parsed = parse_card_document(document(card()), "cards.json")
    assert parsed.set_info is not None and parsed.set_info.code == "TST"
    assert parsed.cards[0]["name"] == "Guard"
    assert set(parsed.cards[0]) == set(CARD_KEYS)


def test_a_bare_list_of_cards_is_accepted() -> None:
    parsed = parse_card_document([card()], "cards.json")
    assert parsed.set_info is None and len(parsed.cards) == 1


def test_missing_optional_keys_mean_unknown_and_official_comes_from_the_set() -> None:
    parsed = parse_card_document(
        document({"id": "tst-x", "name": "X", "set": "TST"}), "cards.json"
    )
    only = parsed.cards[0]
    assert only["offense"] is None and only["type"] is None
    assert only["official"] is False and only["sources"] == []


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"colour": "red"}, "cards.json, card 'tst-guard', key 'colour': unknown key"),
        ({"type": "spell"}, "key 'type': 'spell' is not one of"),
        ({"rarity": "mythic"}, "key 'rarity': 'mythic' is not one of"),
        ({"faction": "darkmoor"}, "key 'faction': 'darkmoor' is not one of"),
        ({"subtype": "wall"}, "key 'subtype': 'wall' is not a subtype of personality"),
        ({"type": "wanderer", "subtype": "troop"}, "a wanderer has no subtype"),
        ({"offense": "3"}, "key 'offense': must be a whole number or null, not a string"),
        ({"offense": 2.5}, "not a decimal number"),
        ({"defense": True}, "key 'defense': must be a whole number or null, not a boolean"),
        ({"vitality": 1000}, "key 'vitality': 1000 is out of range"),
        ({"offense": -1}, "key 'offense': -1 is out of range (0..99)"),
        ({"unique": "yes"}, "key 'unique': must be true or false or null"),
        ({"official": None}, None),  # filled from the set: accepted
        ({"sources": "wiki"}, "key 'sources': must be a list of strings"),
        ({"name": ""}, "key 'name': must not be empty"),
        ({"name": None}, "key 'name': is required"),
        ({"id": "Not A Slug"}, "card 'Not A Slug', key 'id': must be a slug"),
        ({"set": "OTHER"}, "key 'set': is 'OTHER' but the file's set is 'TST'"),
        ({"abilities": 7}, "key 'abilities': must be a string or null, not a number"),
    ],
    ids=lambda v: str(v)[:40],
)
def test_each_bad_value_is_refused_naming_file_card_and_key(
    overrides: dict[str, Any], expected: str | None
) -> None:
    doc = document(card(**overrides))
    if expected is None:
        parse_card_document(doc, "cards.json")
        return
    found = problems_of(doc)
    assert any(expected in p for p in found), found
    assert all(p.startswith("cards.json") for p in found)


def test_every_problem_in_a_file_is_listed_not_just_the_first() -> None:
    found = problems_of(document(card(offense="x"), card(id="tst-b", type="spell")))
    assert len(found) == 2
    assert "'tst-guard'" in found[0] and "'tst-b'" in found[1]


def test_a_repeated_id_is_refused() -> None:
    assert any("the same id appears twice" in p for p in problems_of(document(card(), card())))


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        ("just a string", "expected a list of cards"),
        ({"set": SET, "cards": "nope"}, "key 'cards': must be a list"),
        ({"set": SET, "cards": [], "extra": 1}, "key 'extra': unknown top-level key"),
        ({"set": {**SET, "code": "t s"}, "cards": []}, "key 'set.code'"),
        ({"set": {**SET, "released": "2004"}, "cards": []}, "key 'set.released'"),
        ({"set": {**SET, "official": "yes"}, "cards": []}, "key 'set.official'"),
        ([42], "card '#1': a card must be a JSON object"),
    ],
    ids=["not-a-list", "cards-not-list", "extra-key", "bad-code", "bad-date", "bad-official",
         "card-not-object"],
)
def test_a_malformed_document_is_refused_with_the_reason(doc: object, expected: str) -> None:
    found = problems_of(doc)
    assert any(expected in p for p in found), found


def test_the_error_message_says_nothing_was_written() -> None:
    with pytest.raises(CardDataError, match="nothing was written"):
        parse_card_document(document(card(type="spell")), "cards.json")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=6),
    max_leaves=20,
)
card_like = st.fixed_dictionaries(
    {}, optional={k: json_values for k in CARD_KEYS} | {"extra": json_values}
)


@pytest.mark.slow
@given(st.one_of(json_values, st.lists(card_like, max_size=4),
                 st.fixed_dictionaries({"set": json_values, "cards": st.lists(card_like)})))
@settings(max_examples=100, deadline=None)
def test_any_json_document_is_either_accepted_or_refused_with_problems(doc: object) -> None:
    try:
        parsed = parse_card_document(doc, "fuzz.json")
    except CardDataError as exc:
        assert exc.problems and all(p.source == "fuzz.json" for p in exc.problems)
    else:
        assert all(set(card) == set(CARD_KEYS) for card in parsed.cards)
