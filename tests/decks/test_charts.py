"""decks/charts.py: the deck statistics, counted and drawn as SVG (pure, no database)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from decks.charts import (
    UNKNOWN,
    Chart,
    Series,
    battle_event_strength,
    card_types,
    cost_curve,
    deck_charts,
    faction_influence,
    factions,
    invocation_strength,
    residencies,
)
from rules.cards import CardFacts
from rules.decklist import DeckEntry, Decklist

SVG = "{http://www.w3.org/2000/svg}"

CARDS = {
    c.id: c
    for c in (
        CardFacts("keep", "Keep", "structure", "stronghold", cost_generic=5, residencies=2,
                  vitality=10),
        CardFacts("hovel", "Hovel", "structure", "general", cost_generic=0, residencies=1),
        CardFacts("wall", "Wall", "structure", "wall", cost_generic=2, residencies=3),
        CardFacts("ruin", "Ruin", "structure", "general"),  # real card: cost, residencies null
        CardFacts("bowman", "Bowman", "personality", "troop", "kalim", cost_economic=1,
                  cost_religious=1, cost_political=0, faction_influence=2,
                  strength_economic=2, strength_religious=1),
        CardFacts("deacon", "Deacon", "personality", "citizen", "kalim", cost_economic=0,
                  cost_religious=3, cost_political=0, faction_influence=1,
                  strength_economic=0, strength_religious=3),
        CardFacts("envoy", "Envoy", "personality", "citizen", "mosfin"),  # costs, FI unknown
        CardFacts("stranger", "Stranger", "personality"),  # faction and kind unknown
        CardFacts("rite", "Rite", "invocation", "kalim", cost_economic=0, cost_religious=2,
                  cost_political=0, strength_religious=3),
        CardFacts("prayer", "Prayer", "invocation", "general", cost_economic=0,
                  cost_religious=1, cost_political=0),  # requirement unknown
        CardFacts("charge", "Charge", "event", "battle", cost_economic=2, cost_religious=0,
                  cost_political=0, strength_economic=2),
        CardFacts("rats", "Rats", "wanderer"),
    )
}


def deck(**parts: list[tuple[str, int]]) -> Decklist:
    return Decklist("Test", 4, "", **{k: tuple(DeckEntry(c, n) for c, n in v)
                                  for k, v in parts.items()})


def values(chart: Chart, series: int = 0) -> dict[str, int | None]:
    return dict(zip(chart.categories, chart.series[series].values, strict=True))


def test_a_card_with_an_unknown_cost_is_counted_as_unknown_never_as_zero() -> None:
    chart = cost_curve(deck(structures=[("hovel", 2), ("ruin", 3)],
                            personalities=[("bowman", 2), ("envoy", 1)]), CARDS)
    structures, personalities = values(chart, 0), values(chart, 1)
    assert structures["0"] == 2 and structures[UNKNOWN] == 3
    assert personalities["2"] == 2 and personalities[UNKNOWN] == 1
    assert personalities["0"] == 0
    assert any("unknown" in note for note in chart.notes)


def test_the_cost_curve_counts_the_piles_only_not_the_holdings() -> None:
    chart = cost_curve(deck(holdings=[("keep", 1)], structures=[("hovel", 1)]), CARDS)
    assert sum(v or 0 for v in chart.series[0].values) == 1
    assert UNKNOWN not in chart.categories


def test_high_costs_share_the_last_column() -> None:
    pricey = {"big": CardFacts("big", "Big", "structure", "general", cost_generic=12)}
    chart = cost_curve(deck(structures=[("big", 1)]), pricey)
    assert chart.categories[-1] == "8+" and values(chart)["8+"] == 1


def test_card_types_count_unknown_ids_and_types_as_unknown() -> None:
    chart = card_types(deck(holdings=[("keep", 1)], personalities=[("bowman", 2),
                                                                   ("nowhere", 1)],
                            wanderers=[("rats", 3)]), CARDS)
    assert values(chart) == {"Structures": 1, "Personalities": 2, "Wanderers": 3, UNKNOWN: 1}


def test_factions_count_personalities_and_unknown_factions() -> None:
    chart = factions(deck(personalities=[("bowman", 2), ("envoy", 1), ("stranger", 2),
                                         ("rite", 1)]), CARDS)
    assert values(chart) == {"Kalim": 2, "Mosfin": 1, UNKNOWN: 2}


def test_unknown_faction_influence_is_named_not_added_as_zero() -> None:
    chart = faction_influence(deck(personalities=[("bowman", 2), ("deacon", 1),
                                                  ("envoy", 2)]), CARDS)
    assert values(chart) == {"Kalim": 5, "Mosfin": 0}
    assert chart.notes and "2 personality cards with unknown faction influence" in chart.notes[0]


def test_residencies_count_holdings_but_not_walls_against_citizens() -> None:
    chart = residencies(deck(holdings=[("keep", 1), ("wall", 1)],
                             structures=[("hovel", 2), ("ruin", 1)],
                             personalities=[("deacon", 2), ("envoy", 1), ("bowman", 1),
                                            ("stranger", 1)]), CARDS)
    assert values(chart) == {"Residencies": 4, "Citizens": 3, "unknown residencies": 1,
                             "unknown citizen/troop": 1}
    assert len(chart.notes) == 2


def test_invocations_against_the_personalities_that_meet_them() -> None:
    chart = invocation_strength(deck(personalities=[
        ("bowman", 2), ("deacon", 1), ("envoy", 1), ("rite", 2), ("prayer", 1),
    ]), CARDS)
    needing, meeting, kalim = (values(chart, i) for i in range(3))
    assert needing == {"3": 2, UNKNOWN: 1}
    assert meeting == {"3": 1, UNKNOWN: None}  # no one can be said to meet an unknown need
    assert kalim["3"] == 1
    assert any("unknown religious strength" in note for note in chart.notes)  # the envoy


def test_battle_events_against_troops_only() -> None:
    chart = battle_event_strength(deck(personalities=[("bowman", 1), ("deacon", 2),
                                                      ("charge", 2)]), CARDS)
    assert values(chart, 0) == {"2": 2} and values(chart, 1) == {"2": 1}


def test_a_deck_without_invocations_says_so() -> None:
    chart = invocation_strength(deck(personalities=[("bowman", 1)]), CARDS)
    assert chart.empty and "No invocations" in chart.description()
    assert "No invocations" in chart.svg()


def every_chart() -> list[Chart]:
    full = deck(holdings=[("keep", 1)], structures=[("hovel", 2), ("ruin", 1), ("wall", 1)],
                personalities=[("bowman", 2), ("deacon", 1), ("envoy", 1), ("rite", 2),
                               ("prayer", 1), ("charge", 1), ("stranger", 1), ("gone", 1)],
                wanderers=[("rats", 3)])
    return [*deck_charts(full, CARDS), *deck_charts(deck(), CARDS)]


@pytest.mark.parametrize("chart", every_chart(), ids=lambda c: c.key)
def test_every_chart_is_a_well_formed_accessible_svg(chart: Chart) -> None:
    root = ET.fromstring(chart.svg(id_prefix="t"))
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and desc is not None
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert title.text == chart.title and desc.text == chart.description()
    bars = root.findall(f"{SVG}rect")
    drawn = [v for s in chart.series for v in s.values if v]
    assert len([b for b in bars if b.find(f"{SVG}title") is not None]) >= len(drawn)


def test_text_in_a_chart_is_escaped() -> None:
    chart = Chart("x", "A <b> & c", "summary & more", ("<1>",), (Series("s & t", (3,)),))
    root = ET.fromstring(chart.svg())
    assert root.find(f"{SVG}title").text == "A <b> & c"  # type: ignore[union-attr]
    assert "<1>: 3." in chart.description()


def test_the_description_states_every_number() -> None:
    chart = card_types(deck(structures=[("hovel", 2)], wanderers=[("rats", 3)]), CARDS)
    assert "Structures: 2." in chart.description() and "Wanderers: 3." in chart.description()
    assert chart.rows() == [("Structures", (2,)), ("Wanderers", (3,))]
