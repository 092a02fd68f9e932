"""Derived card facts (rulebook "Card Types", "Card Anatomy")."""

from __future__ import annotations

from typing import Any

import pytest

from rules import card_anatomy


@pytest.mark.parametrize(
    ("card_type", "border", "pile"),
    [
        ("structure", "stone", "structures"),
        ("personality", "metallic", "personalities"),
        ("item", "metallic", "personalities"),
        ("invocation", "metallic", "personalities"),
        ("event", "metallic", "personalities"),
        ("wanderer", "wood", "wanderers"),
        (None, None, None),
    ],
)
def test_border_and_pile_follow_the_card_type(
    card_type: str | None, border: str | None, pile: str | None
) -> None:
    assert card_anatomy.border(card_type) == border
    assert card_anatomy.pile(card_type) == pile


@pytest.mark.parametrize(
    ("subtype", "offense", "defense", "kind"),
    [
        ("citizen", None, None, "citizen"),
        ("troop", None, None, "troop"),
        (None, 0, 0, "citizen"),
        (None, 2, 1, "troop"),
        (None, 0, 3, None),  # neither rule of the rulebook fits
        (None, None, 2, None),
        (None, None, None, None),
    ],
)
def test_citizen_or_troop_comes_from_the_subtype_else_offense_and_defense(
    subtype: str | None, offense: int | None, defense: int | None, kind: str | None
) -> None:
    assert card_anatomy.personality_kind(subtype, offense, defense) == kind


@pytest.mark.parametrize(
    ("card", "total"),
    [
        ({"type": "personality", "cost_economic": 1, "cost_religious": 2, "cost_political": 0}, 3),
        ({"type": "personality", "cost_economic": 1, "cost_religious": None,
          "cost_political": 0}, None),
        ({"type": "structure", "cost_generic": 4, "cost_economic": None}, 4),
        ({"type": "structure", "cost_generic": None}, None),
        ({"type": "wanderer"}, 0),
        ({"type": None, "cost_economic": 1, "cost_religious": 1, "cost_political": 1,
          "cost_generic": 1}, 4),
    ],
)
def test_total_cost_adds_the_printed_costs_and_is_unknown_if_one_is(
    card: dict[str, Any], total: int | None
) -> None:
    assert card_anatomy.total_cost(card) == total


def test_an_untranscribed_real_personality_lists_every_field_it_prints() -> None:
    card = {"type": "personality", "name": "Footman", "rarity": None, "unique": None}
    missing = card_anatomy.unknown_fields(card)
    assert "rarity" in missing and "offense" in missing and "faction_influence" in missing
    assert "aggression" not in missing and "cost_generic" not in missing
    assert "name" not in missing


def test_a_card_of_unknown_type_may_lack_any_field() -> None:
    missing = card_anatomy.unknown_fields({"name": "Cave Troll", "type": None})
    assert {"type", "aggression", "bounty", "cost_generic", "offense"} <= set(missing)


def test_only_strongholds_among_structures_print_a_vitality() -> None:
    vitality = next(f for f in card_anatomy.ANATOMY if f.keys == ("vitality",))
    assert vitality.applies_to("structure", "stronghold")
    assert not vitality.applies_to("structure", "general")
    assert vitality.applies_to("structure", None)  # subtype unknown: it might


def test_the_anatomy_chart_has_the_rulebooks_21_fields_in_order() -> None:
    assert [f.number for f in card_anatomy.ANATOMY] == list(range(1, 22))
