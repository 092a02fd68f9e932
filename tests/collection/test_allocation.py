"""Sharing owned copies among sleeved decks (collection/allocation.py): pure, no database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from collection.allocation import allocate, deck_needs
from rules.decklist import DeckEntry, Decklist

type Needs = dict[str, int]


@pytest.mark.parametrize(
    ("owned", "decks", "taken", "short", "free"),
    [
        pytest.param({"a": 2}, [], {}, {}, {"a": 2}, id="no-sleeved-deck-every-copy-free"),
        pytest.param({"a": 2, "b": 1}, [(1, {"a": 2, "b": 1})], {1: {"a": 2, "b": 1}}, {1: {}},
                     {"a": 0, "b": 0}, id="one-deck-fully-owned"),
        pytest.param({"a": 3}, [(1, {"a": 2}), (2, {"a": 2})], {1: {"a": 2}, 2: {"a": 1}},
                     {1: {}, 2: {"a": 1}}, {"a": 0}, id="the-first-deck-keeps-its-copies"),
        pytest.param({"a": 2}, [(9, {"a": 2}), (3, {"a": 2})], {9: {"a": 2}, 3: {}},
                     {9: {}, 3: {"a": 2}}, {"a": 0}, id="list-order-not-id-decides"),
        pytest.param({}, [(1, {"a": 1})], {1: {}}, {1: {"a": 1}}, {"a": 0},
                     id="a-card-not-owned-is-short"),
        pytest.param({"a": 5}, [(1, {"a": 2}), (2, {"a": 1})], {1: {"a": 2}, 2: {"a": 1}},
                     {1: {}, 2: {}}, {"a": 2}, id="surplus-copies-stay-free"),
        pytest.param({"a": 0, "b": 1}, [(1, {"a": 1, "b": 2})], {1: {"b": 1}},
                     {1: {"a": 1, "b": 1}}, {"a": 0, "b": 0}, id="zero-owned-and-partly-owned"),
        pytest.param({"a": 1, "b": 1}, [(1, {"a": 1}), (2, {"b": 1}), (3, {"a": 1, "b": 1})],
                     {1: {"a": 1}, 2: {"b": 1}, 3: {}}, {1: {}, 2: {}, 3: {"a": 1, "b": 1}},
                     {"a": 0, "b": 0}, id="a-late-deck-gets-what-is-left"),
    ],
)
def test_owned_copies_go_to_sleeved_decks_in_order(
    owned: Needs, decks: list[tuple[int, Needs]], taken: dict[int, Needs],
    short: dict[int, Needs], free: Needs,
) -> None:
    allocation = allocate(owned, decks)
    assert {s.deck: dict(s.taken) for s in allocation.decks} == taken
    assert {s.deck: dict(s.short) for s in allocation.decks} == short
    assert {card: allocation.free(card) for card in free} == free


def test_a_sleeved_deck_counts_its_own_copies_and_any_other_deck_the_free_ones() -> None:
    allocation = allocate({"a": 3, "b": 1}, [(1, {"a": 2}), (2, {"a": 2, "b": 1})])
    second = allocation.ownership({"a": 2, "b": 1}, deck=2)
    assert [(c.card_id, c.owned, c.elsewhere, c.have, c.missing) for c in second.cards] == [
        ("a", 3, 2, 1, 1), ("b", 1, 0, 1, 0),
    ]
    assert not second.buildable and second.missing == 1 and second.missing_cards() == {"a": 1}
    # An unsleeved deck (or someone else's) gets only what no sleeved deck holds.
    other = allocation.ownership({"a": 1, "b": 1, "c": 2})
    assert [(c.card_id, c.elsewhere, c.have) for c in other.cards] == [
        ("a", 3, 0), ("b", 1, 0), ("c", 0, 0),
    ]
    assert other.needed == 4 and other.have == 0 and other.missing == 4


def test_an_unsleeved_deck_is_buildable_from_free_copies() -> None:
    allocation = allocate({"a": 4}, [(1, {"a": 2})])
    ownership = allocation.ownership({"a": 2})
    assert ownership.buildable and ownership.have == 2


def test_needs_add_up_every_part_in_deck_order() -> None:
    deck = Decklist("d", holdings=(DeckEntry("keep", 1),),
                structures=(DeckEntry("tower", 2), DeckEntry("keep", 1)),
                personalities=(DeckEntry("bowman", 2),))
    assert list(deck_needs(deck).items()) == [("keep", 2), ("tower", 2), ("bowman", 2)]


CARD_IDS = st.sampled_from(["a", "b", "c", "d"])
COUNTS = st.dictionaries(CARD_IDS, st.integers(0, 4))


@given(COUNTS, st.lists(COUNTS, max_size=5))
def test_no_copy_is_ever_counted_twice(owned: Needs, needs: list[Needs]) -> None:
    decks = list(enumerate(needs))
    allocation = allocate(owned, decks)
    for card in "abcd":
        held = sum(s.taken.get(card, 0) for s in allocation.decks)
        assert held <= owned.get(card, 0)
        assert allocation.free(card) == owned.get(card, 0) - held >= 0
    for share, (_, wanted) in zip(allocation.decks, decks, strict=True):
        for card, n in wanted.items():
            assert share.taken.get(card, 0) + share.short.get(card, 0) == n
    assert allocate(owned, decks) == allocation  # the same counts, the same answer
