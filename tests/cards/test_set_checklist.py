"""The checklist of a set with a declared size: every number complete, partly transcribed,
known only by name, or missing; cards without a usable number apart. Pure over card data."""

from __future__ import annotations

from typing import Any

import pytest

from cards.card_data import CARD_KEYS
from cards.set_completeness import checklist, slot_number


def card(card_id: str, **values: Any) -> dict[str, Any]:
    data: dict[str, Any] = dict.fromkeys(CARD_KEYS)
    data.update({"id": card_id, "name": card_id.title(), "set": "TST"}, **values)
    return data


# A made-up event: every printed field known (never a real card's values).
COMPLETE = {"type": "event", "subtype": "general", "rarity": "common", "abilities": "",
            "quotation": "", "cost_economic": 1, "cost_religious": 0, "cost_political": 0,
            "strength_economic": 2, "unique": False}


@pytest.mark.parametrize(("number", "slot"), [
    ("7", 7), ("007", 7), (" 7 ", 7), ("7/10", 7), ("0", None), ("11", None), ("7a", None),
    (None, None), ("", None),
])
def test_a_number_fills_its_slot_when_it_is_one_of_the_set(number: Any, slot: Any) -> None:
    assert slot_number(number, 10) == slot


def test_each_slot_says_how_much_of_its_card_is_known() -> None:
    result = checklist([
        card("a", number="1", **COMPLETE),
        card("b", number="2", type="event", cost_economic=3),
        card("c", number="3", type="personality", faction="kalim", rarity="rare"),
        card("d", number=None, type="item"),
        card("e", number="99"),
    ], size=5)
    assert [s.state for s in result.slots] == [
        "complete", "partial", "name_only", "missing", "missing"]
    assert result.counts == {"complete": 1, "partial": 1, "name_only": 1, "missing": 2}
    assert [c.id for c in result.unnumbered] == ["d", "e"]
    assert result.slots[2].cards[0].faction == "The Glory of Kalim"
    assert result.known == 3 and result.unnumbered_complete == 0


def test_a_number_given_twice_keeps_both_cards_and_shows_the_more_complete() -> None:
    result = checklist([card("a", number="1"), card("b", number="01", **COMPLETE)], size=1)
    assert result.slots[0].state == "complete"
    assert {c.id for c in result.slots[0].cards} == {"a", "b"}


@pytest.mark.django_db
def test_the_set_page_counts_the_cards_without_a_number_apart_by_state(client: Any) -> None:
    page = client.get("/sets/wof/").content.decode()
    # The real set: no card has a known number yet, and every one is known by name only.
    assert "Of its 220 numbers: 0 complete, 0 partly transcribed, 0 known only by name, 220 " \
           "with no card known yet." in page
    assert "): 0 complete, 0 partly transcribed, 34 known only by name." in page
