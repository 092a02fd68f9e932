"""Deck differences: what history and compare pages show."""

from __future__ import annotations

from decks.diff import deck_diff
from decks.formats.json_format import deck_from_dict, deck_to_dict
from rules.decklist import DeckEntry, Decklist

BASE = Decklist(
    name="Kalim Faithful",
    holdings=(DeckEntry("temple", 1),),
    structures=(DeckEntry("tower", 2), DeckEntry("shop", 1)),
    personalities=(DeckEntry("bishop", 2),),
    wanderers=(DeckEntry("troll", 3),),
)


def test_a_new_deck_differs_from_nothing_by_all_its_cards() -> None:
    diff = deck_diff(None, BASE)
    assert diff.fields["name"] == (None, "Kalim Faithful")
    assert sum(c.delta for c in diff.cards) == 9
    assert diff.summary() == "new deck, 9 cards added"


def test_count_changes_additions_and_removals_are_listed_per_section() -> None:
    after = Decklist(
        name="Kalim Faithful",
        holdings=(DeckEntry("temple", 1),),
        structures=(DeckEntry("tower", 1), DeckEntry("well", 2)),
        personalities=(DeckEntry("bishop", 2),),
        wanderers=(DeckEntry("troll", 3),),
    )
    diff = deck_diff(BASE, after)
    assert diff.fields == {}
    assert [(c.section, c.card_id, c.before, c.after) for c in diff.cards] == [
        ("structures", "tower", 2, 1),
        ("structures", "shop", 1, 0),
        ("structures", "well", 0, 2),
    ]
    assert diff.summary() == "2 cards added, 2 cards removed"


def test_an_unchanged_deck_has_an_empty_diff() -> None:
    assert deck_diff(BASE, BASE).empty
    assert deck_diff(BASE, BASE).summary() == "no changes"


def test_the_json_shape_round_trips() -> None:
    assert deck_from_dict(deck_to_dict(BASE)) == BASE
    assert deck_to_dict(BASE)["holdings"] == [{"id": "temple", "count": 1}]
