"""Reading goldfish reports (pure): the per-card table's order, the report's charts, and the
difference between two runs with its 95% interval."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from simulations.charts import report_charts, victory_histogram, won_by_round
from simulations.stats import (
    Difference,
    card_rows,
    compare_reports,
    histogram_moments,
    mean_round_difference,
    never_played_note,
    victory_rate_difference,
)

CARDS = {
    "b": {"name": "Bell Tower", "drawn": 0.5, "played": 0.4, "stuck_in_hand": 0.1,
          "opening_hand": 0.2, "victory_round_difference": None},
    "a": {"name": "acolyte", "drawn": 0.9, "played": 0.4, "stuck_in_hand": 0.0,
          "opening_hand": 0.5, "victory_round_difference": -0.5},
    "c": {"name": "Canticle", "drawn": 0.7, "played": 0.6, "stuck_in_hand": 0.3,
          "opening_hand": 0.3, "victory_round_difference": 0.25},
}


def report(histogram: dict[str, int], games: int, **extra: Any) -> dict[str, Any]:
    return {"games": games, "victories": sum(histogram.values()), "seed": 1, "policy": "greedy",
            "target": 25, "players": 1, "rules_version": "r1",
            "victory_round": {"histogram": histogram}, "cards": CARDS, **extra}


@pytest.mark.parametrize(
    ("sort", "order", "expected", "used"),
    [
        ("", None, ["c", "a", "b"], ("played", True)),  # ties by name: acolyte before Bell
        ("played", False, ["a", "b", "c"], ("played", False)),
        ("name", None, ["a", "b", "c"], ("name", False)),  # names ignore case
        ("name", True, ["c", "b", "a"], ("name", True)),
        ("drawn", None, ["a", "c", "b"], ("drawn", True)),
        ("victory_round_difference", None, ["c", "a", "b"], ("victory_round_difference", True)),
        ("victory_round_difference", False, ["a", "c", "b"],
         ("victory_round_difference", False)),  # no figure: last either way
        ("__class__", None, ["c", "a", "b"], ("played", True)),  # not a column
    ],
)
def test_the_card_table_sorts_by_any_column(sort: str, order: bool | None, expected: list[str],
                                            used: tuple[str, bool]) -> None:
    rows, column, descending = card_rows({"cards": CARDS}, sort, order)
    assert [r.card_id for r in rows] == expected
    assert (column, descending) == used


@pytest.mark.parametrize(
    ("histogram", "count", "mean", "variance"),
    [({}, 0, None, None), ({"4": 1}, 1, 4.0, None), ({"4": 1, "6": 1}, 2, 5.0, 2.0),
     ({"2": 3, "5": 1}, 4, 2.75, 2.25)],
)
def test_moments_of_a_histogram(histogram: dict[str, int], count: int, mean: float | None,
                                variance: float | None) -> None:
    moments = histogram_moments(histogram)
    assert (moments.count, moments.mean, moments.variance) == (count, mean, variance)


def test_the_mean_round_difference_is_welch_s_interval() -> None:
    a = {"5": 50, "7": 50}  # mean 6, variance 100/99
    b = {"4": 30, "6": 30}  # mean 5, variance 60/59
    d = mean_round_difference(a, b)
    se = math.sqrt((100 / 99) / 100 + (60 / 59) / 60)
    assert d is not None and d.estimate == -1.0
    assert d.low == pytest.approx(-1 - 1.959964 * se, abs=1e-4)
    assert d.high == pytest.approx(-1 + 1.959964 * se, abs=1e-4)
    assert d.beyond_noise and d.size == 1.0
    assert mean_round_difference({"5": 1}, b) is None  # one victory: no variance


def test_the_victory_rate_difference_is_the_two_proportion_interval() -> None:
    d = victory_rate_difference(80, 100, 90, 100)
    se = math.sqrt(0.8 * 0.2 / 100 + 0.9 * 0.1 / 100)
    assert d is not None and d.estimate == pytest.approx(0.1)
    assert (d.low, d.high) == (pytest.approx(0.1 - 1.959964 * se, abs=1e-4),
                               pytest.approx(0.1 + 1.959964 * se, abs=1e-4))
    assert victory_rate_difference(0, 0, 1, 1) is None


@pytest.mark.parametrize(
    ("difference", "beyond"),
    [(Difference(1, 0.1, 1.9), True), (Difference(-1, -1.9, -0.1), True),
     (Difference(0.5, -0.2, 1.2), False), (Difference(0, 0, 0), False)],
)
def test_a_difference_is_more_than_noise_when_its_interval_excludes_0(
    difference: Difference, beyond: bool
) -> None:
    assert difference.beyond_noise is beyond


def test_identical_runs_differ_by_nothing_within_noise() -> None:
    same = report({"5": 40, "6": 50, "7": 10}, 120)
    comparison = compare_reports(same, same)
    assert comparison.mean_round is not None and comparison.victory_rate is not None
    assert comparison.mean_round.estimate == 0 and not comparison.mean_round.beyond_noise
    assert comparison.victory_rate.estimate == 0 and not comparison.victory_rate.beyond_noise
    assert comparison.notes == ()


def test_a_comparison_says_when_the_runs_were_not_alike() -> None:
    a = report({"5": 4, "6": 5}, 10)
    b = report({"5": 4, "6": 5}, 20, seed=2, policy="random")
    notes = compare_reports(a, b).notes
    assert notes == ("The runs have different seeds (1 and 2).",
                     "The runs have different numbers of games (10 and 20).",
                     "The runs have different policies (greedy and random).")


def test_the_histogram_chart_shows_every_round_between_the_first_and_last_victory() -> None:
    chart = victory_histogram(report({"4": 3, "7": 1, "5": 2}, 10))
    assert chart.categories == ("4", "5", "6", "7")
    assert chart.series[0].values == (3, 2, 0, 1)
    assert victory_histogram(report({}, 10)).empty


def test_the_cumulative_curve_climbs_to_the_victory_rate() -> None:
    curve = won_by_round(report({"4": 3, "6": 1, "5": 2}, 8))
    assert curve.points == ((4, 3 / 8), (5, 5 / 8), (6, 6 / 8))
    assert curve.rows() == [("4", ("37.5%",)), ("5", ("62.5%",)), ("6", ("75.0%",))]
    assert won_by_round(report({}, 8)).empty


@pytest.mark.parametrize("histogram", [{"4": 3, "6": 1, "5": 2}, {"2": 1}, {},
                                       {str(r): r for r in range(2, 41)}])
def test_both_charts_are_accessible_well_formed_svg(histogram: dict[str, int]) -> None:
    for chart in report_charts(report(histogram, 900)):
        svg = ET.fromstring(chart.svg("test"))
        ns = "{http://www.w3.org/2000/svg}"
        assert svg.get("role") == "img"
        assert svg.find(f"{ns}title") is not None and svg.find(f"{ns}desc") is not None


@pytest.mark.parametrize(("reason", "offered", "note"), [
    ("no_use", 0.25, "Offered a play in 25% of the games, never played: the goldfish player "
                     "always chose otherwise, a limit of the player as much as of the card."),
    # A report from before offers were counted: the sentence without the share.
    ("no_use", None, "Drawn and offered, but never played: the goldfish player always chose "
                     "otherwise, a limit of the player as much as of the card."),
    ("never_offered", 0.0, "Drawn but never played: the rules never offered it a play in these "
                           "games (no bearer, target or tokens for it while it was in hand), a "
                           "limit of the deck, not of the player."),
    ("interrupt", 0.0, "Drawn but never played: an interrupt answers another player's action, "
                       "and solo there is none."),
    (None, 0.5, ""),  # played, or never drawn
    ("unknown", None, ""),  # a reason this version does not know: no sentence
])
def test_a_card_never_played_gets_the_sentence_of_its_reason(
        reason: str | None, offered: float | None, note: str) -> None:
    assert never_played_note(reason, offered) == note
