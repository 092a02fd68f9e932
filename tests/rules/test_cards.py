"""Card facts for the deck rules (rules/cards.py)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from rules.cards import CardFacts, facts_by_id

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cards"


def load(name: str) -> list[dict[str, object]]:
    cards: list[dict[str, object]] = json.loads((FIXTURES / name).read_text("utf-8"))["cards"]
    return cards


def test_from_data_reads_every_rules_key_of_a_card() -> None:
    data = next(c for c in load("demo.json") if c["id"] == "demo-emberhold-keep")
    card = CardFacts.from_data(data)
    assert (card.id, card.name, card.type, card.subtype) == (
        "demo-emberhold-keep", "Emberhold Keep", "structure", "stronghold"
    )
    assert (card.unique, card.cost_generic, card.residencies, card.vitality) == (True, 5, 2, 10)
    assert card.abilities == data["abilities"]
    assert card.cost_economic is None and card.faction is None


def test_missing_keys_and_values_of_the_wrong_type_are_unknown() -> None:
    card = CardFacts.from_data({"id": "x", "name": "X", "unique": 1, "offense": True,
                                "defense": "3", "type": "structure"})
    assert (card.unique, card.offense, card.defense, card.cost_generic) == (None, None, None, None)


@pytest.mark.parametrize("name", ["demo.json", "wof.json"])
def test_every_fixture_card_converts_and_keeps_its_id(name: str) -> None:
    data = load(name)
    facts = facts_by_id(data)
    assert sorted(facts) == sorted(str(c["id"]) for c in data)


@pytest.mark.parametrize(
    ("fields", "kind", "stronghold", "wall"),
    [
        ({"subtype": "stronghold"}, "stronghold", True, False),
        ({"subtype": "wall"}, "wall", False, True),
        ({"subtype": "general"}, "general", False, False),
        ({"subtype": None, "vitality": 8}, "stronghold", True, False),
        ({"subtype": None, "vitality": None}, None, False, False),
        ({"subtype": "general", "vitality": 8}, "general", False, False),
    ],
    ids=["stronghold", "wall", "general", "vitality-means-stronghold", "unknown",
         "subtype-decides"],
)
def test_the_structure_kind_comes_from_the_subtype_else_the_vitality(
    fields: dict[str, object], kind: str | None, stronghold: bool, wall: bool
) -> None:
    card = CardFacts.from_data({"id": "s", "name": "S", "type": "structure", **fields})
    assert (card.structure_kind, card.is_stronghold, card.is_wall) == (kind, stronghold, wall)


@pytest.mark.parametrize(
    ("card", "kind"),
    [
        (CardFacts("p", "P", "personality", "citizen"), "citizen"),
        (CardFacts("p", "P", "personality", None, offense=2, defense=1), "troop"),
        (CardFacts("p", "P", "personality", None, offense=0, defense=0), "citizen"),
        (CardFacts("p", "P", "personality"), None),
        (CardFacts("w", "W", "wanderer", offense=2, defense=2), None),
    ],
    ids=["subtype", "troop-by-stats", "citizen-by-stats", "unknown", "not-a-personality"],
)
def test_personality_kind_follows_the_rulebook(card: CardFacts, kind: str | None) -> None:
    assert card.personality_kind == kind


@pytest.mark.parametrize(
    ("card_type", "pile"),
    [("structure", "structures"), ("personality", "personalities"), ("item", "personalities"),
     ("invocation", "personalities"), ("event", "personalities"), ("wanderer", "wanderers"),
     (None, None)],
)
def test_the_pile_follows_the_card_type(card_type: str | None, pile: str | None) -> None:
    assert CardFacts("c", "C", card_type).pile == pile


def test_replacing_a_field_recomputes_the_derived_facts() -> None:
    card = CardFacts("s", "S", "structure", "stronghold")
    assert dataclasses.replace(card, subtype="wall").is_wall
    assert dataclasses.replace(card, type="wanderer").pile == "wanderers"


def test_card_facts_are_frozen_and_compare_by_their_data() -> None:
    card = CardFacts("s", "S", "structure", "wall")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.name = "T"  # type: ignore[misc]
    assert card == CardFacts("s", "S", "structure", "wall")
