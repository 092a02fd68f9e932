"""Exact odds (rules/odds.py): closed forms, the dynamic programme, goals, the split advisor,
and the sampler checked against them. Exhaustive enumeration of every shuffle of small decks is
the oracle for the exact values; the exact values are the oracle for the sampler."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.decklist import Decklist
from rules.draw_strategy import Pile, Strategy, holds, parse_picks, parse_strategy, split_strategy
from rules.draws import HandTally, Setup, draw_to_seven, prepare
from rules.odds import (
    GoalError,
    TooComplexError,
    advise_split,
    card_table,
    convolve,
    fraction_text,
    goal_odds,
    group_goal,
    group_odds,
    hand_distribution,
    hypergeometric,
    parse_goal,
    sample_goal,
    sample_group,
    split_counts,
    split_group_odds,
)
from tests.rules.test_draws import (
    BIG,
    PERSONALITY_IDS,
    RULES,
    STRUCTURE_IDS,
    WORLD,
    load_sample,
    make_deck,
    small_decks,
    strategies,
)

GOALS = (
    ">= 1 citizen and >= 1 open residence",
    ">= 1 structure with residencies and >= 2 personalities",
    '>= 1 card "Templar"',
    "(2 troops or 1 wall) and not 2 events",
    "citizens housed and 1 citizen",
    "at most 1 structure",
    "exactly 2 kalim or >= 4 open residences",
)


def citizens(setup: Setup) -> frozenset[str]:
    return frozenset(cid for cid in setup.personalities
                     if setup.cards[cid].personality_kind == "citizen")


# --- closed forms ---------------------------------------------------------------------------


@pytest.mark.parametrize(("population", "successes", "draws"),
                         [(10, 3, 4), (5, 5, 2), (7, 0, 7), (20, 2, 0), (3, 2, 3)],
                         ids=["typical", "all-successes", "no-successes", "no-draws",
                              "draw-everything"])
def test_a_hypergeometric_sums_to_one_and_has_the_right_mean(
    population: int, successes: int, draws: int
) -> None:
    pmf = hypergeometric(population, successes, draws)
    assert sum(pmf) == 1
    assert sum(k * p for k, p in enumerate(pmf)) == Fraction(draws * successes, population)


@pytest.mark.parametrize(
    ("k", "pile_s", "pile_p", "drawn"),
    [(3, 20, 30, (3, 4)), (0, 20, 30, (0, 7)), (7, 20, 30, (7, 0)), (5, 2, 30, (2, 5)),
     (1, 20, 3, (4, 3)), (4, 2, 3, (2, 3)), (3, 0, 0, (0, 0))],
    ids=["usual", "all-personalities", "all-structures", "short-structure-pile",
         "short-personality-pile", "both-short", "empty"],
)
def test_a_split_tops_a_short_pile_up_from_the_other(
    k: int, pile_s: int, pile_p: int, drawn: tuple[int, int]
) -> None:
    assert split_counts(k, pile_s, pile_p) == drawn


@pytest.mark.parametrize("k", range(8), ids=lambda k: f"structures={k}")
def test_at_least_one_citizen_for_a_split_is_the_textbook_formula(k: int) -> None:
    deck, cards = load_sample()
    setup = prepare(deck, cards)
    big_p = len(setup.personalities)
    c = sum(1 for cid in setup.personalities if cards[cid].personality_kind == "citizen")
    assert c > 0
    closed = 1 - Fraction(comb(big_p - c, 7 - k), comb(big_p, 7 - k))
    assert split_group_odds(setup, k, citizens(setup)).exact == closed
    assert goal_odds(setup, split_strategy(k), parse_goal(">= 1 citizen")).exact == closed


def test_a_split_group_is_two_independent_hypergeometrics_convolved() -> None:
    setup = prepare(BIG, WORLD)
    group = {"house", "hall", "clerk", "maid"}
    odds = split_group_odds(setup, 3, group, at_least_n=2)
    pile_s, pile_p = len(setup.structures), len(setup.personalities)
    assert (odds.in_structures, odds.in_personalities) == (4, 5)
    expected = convolve(hypergeometric(pile_s, 4, 3), hypergeometric(pile_p, 5, 4))
    assert odds.pmf == expected
    assert odds.expected == Fraction(3 * 4, pile_s) + Fraction(4 * 5, pile_p)


# --- the dynamic programme: exhaustive enumeration as the oracle -----------------------------


def enumerate_hands(setup: Setup, strategy: Strategy,
                    test: Callable[[HandTally], bool]) -> Fraction:
    """P(test holds for the opening hand), by dealing every distinct order of both piles."""
    orders_s = set(itertools.permutations(setup.structures))
    orders_p = set(itertools.permutations(setup.personalities))
    hits = 0
    for order_s in orders_s:
        for order_p in orders_p:
            piles = {"structures": list(order_s), "personalities": list(order_p)}
            hand: list[tuple[str, Pile]] = []
            draw_to_seven(setup, piles, hand, strategy, 0)
            hits += test(HandTally(setup, hand, len(hand)))
    return Fraction(hits, len(orders_s) * len(orders_p))


tiny_decks = small_decks(max_structures=5, max_personalities=6)


@settings(max_examples=25, deadline=None)
@given(tiny_decks, strategies, st.sampled_from(GOALS))
def test_goal_odds_equal_dealing_every_shuffle_of_a_small_deck(
    deck: Decklist, strategy: Strategy, goal: str
) -> None:
    setup = prepare(deck, WORLD)
    parsed = parse_goal(goal)
    oracle = enumerate_hands(setup, strategy, lambda t: holds(parsed.condition, t))
    assert goal_odds(setup, strategy, parsed).exact == oracle


@settings(max_examples=25, deadline=None)
@given(tiny_decks, strategies,
       st.sets(st.sampled_from(STRUCTURE_IDS + PERSONALITY_IDS), min_size=1),
       st.integers(0, 3))
def test_group_odds_equal_dealing_every_shuffle_of_a_small_deck(
    deck: Decklist, strategy: Strategy, group: set[str], k: int
) -> None:
    setup = prepare(deck, WORLD)
    odds = group_odds(setup, strategy, group, k)
    oracle = enumerate_hands(
        setup, strategy, lambda t: sum(cid in group for cid, _ in t.hand) >= k)
    assert odds.exact == oracle


@settings(max_examples=40, deadline=None)
@given(small_decks(), strategies)
def test_the_programme_is_a_probability_distribution(deck: Decklist, strategy: Strategy) -> None:
    setup = prepare(deck, WORLD)
    dist = hand_distribution(setup, strategy)
    assert dist.total() == 1
    hand = min(7, len(setup.structures) + len(setup.personalities))
    assert all(sum(vector) == hand for vector, _, _ in dist.states)


@settings(max_examples=40, deadline=None)
@given(small_decks(), st.integers(0, 7),
       st.sets(st.sampled_from(STRUCTURE_IDS + PERSONALITY_IDS), min_size=1),
       st.integers(1, 3))
def test_the_programme_agrees_with_the_closed_form_for_a_split(
    deck: Decklist, k: int, group: set[str], n: int
) -> None:
    setup = prepare(deck, WORLD)
    closed = split_group_odds(setup, k, group, n)
    goal = group_goal(group, n)
    assert goal_odds(setup, split_strategy(k), goal).exact == closed.exact
    dist = hand_distribution(setup, split_strategy(k), [goal.condition.test])  # type: ignore[union-attr]
    pmf = dist.count_pmf(goal.condition.test)  # type: ignore[union-attr]
    assert pmf == closed.pmf[:len(pmf)] and sum(closed.pmf[len(pmf):]) == 0


@settings(max_examples=40, deadline=None)
@given(small_decks(), st.sampled_from(RULES).map(parse_strategy),
       st.sets(st.sampled_from(STRUCTURE_IDS + PERSONALITY_IDS), min_size=1),
       st.integers(1, 3))
def test_group_odds_by_hypergeometrics_agree_with_a_refined_programme(
    deck: Decklist, strategy: Strategy, group: set[str], n: int
) -> None:
    setup = prepare(deck, WORLD)
    assert group_odds(setup, strategy, group, n).exact == goal_odds(
        setup, strategy, group_goal(group, n)).exact


@pytest.mark.parametrize("strategy", [split_strategy(3), *map(parse_strategy, RULES)],
                         ids=lambda s: s.spec)
def test_each_row_of_the_card_table_is_the_odds_of_that_card_alone(strategy: Strategy) -> None:
    setup = prepare(BIG, WORLD)
    table = card_table(setup, strategy)
    assert {r.card for r in table.rows} == set(setup.structures) | set(setup.personalities)
    for row in table.rows:
        alone = group_odds(setup, strategy, {row.card})
        assert row.pmf == alone.pmf[:len(row.pmf)]
        assert sum(alone.pmf[len(row.pmf):]) == 0
    # Linearity: the expected cards of the hand add up to the hand's size.
    total = sum((sum(k * p for k, p in enumerate(r.pmf)) for r in table.rows), Fraction(0))
    assert total == 7


def test_picks_fixed_in_advance_have_the_odds_of_the_same_split() -> None:
    setup = prepare(BIG, WORLD)
    group = citizens(setup) | {"house"}
    picks = parse_picks("p,s,p,p,s,p,s")
    assert group_odds(setup, picks, group, 2).exact == split_group_odds(setup, 3, group, 2).exact


def test_an_adaptive_rule_beats_the_splits_at_its_own_goal() -> None:
    setup = prepare(BIG, WORLD)
    goal = parse_goal(">= 1 structure with residencies and >= 1 citizen")
    adaptive = goal_odds(setup, parse_strategy(
        "structures until 1 structure with residencies, then personalities until 1 citizen, "
        "then alternate"), goal)
    splits = advise_split(setup, goal)
    assert adaptive.exact > max(splits.splits)


def test_the_sample_deck_is_fast_enough_to_have_a_few_hundred_states_at_most() -> None:
    deck, cards = load_sample()
    setup = prepare(deck, cards)
    for spec in RULES:
        goal = parse_goal(GOALS[0])
        dist = hand_distribution(setup, parse_strategy(spec), (), True)
        assert dist.total() == 1 and len(dist.states) < 500
        assert 0 < goal_odds(setup, parse_strategy(spec), goal).exact <= 1


# --- goals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [("", 0, "a number"), (">= 1 citizen and", 16, "a number"), (">= citizens", 3, "number"),
     ("1 citizen or or", 13, "a number"), ("2 dragons", 2, "a noun"),
     (">= 1 citizen extra", 13, "'and' or 'or'"), ("1 card \"x\" 2", 11, "'and' or 'or'")],
    ids=["empty", "dangling-and", "no-number", "double-or", "unknown-noun", "trailing-words",
         "trailing-number"],
)
def test_bad_goals_say_where_and_what_was_expected(text: str, position: int,
                                                   expected: str) -> None:
    with pytest.raises(GoalError) as raised:
        parse_goal(text)
    assert raised.value.position == position
    assert expected in (raised.value.expected or "")
    assert raised.value.code == "bad_goal"


def test_open_residences_count_the_holdings_and_not_the_walls() -> None:
    # The keep (2 residencies) is held; the pile's only structure is a wall.
    setup = prepare(make_deck({"wall": 2}, {"clerk": 8}), WORLD)
    assert setup.residencies == 2
    assert goal_odds(setup, split_strategy(2), parse_goal(">= 2 open residences")).exact == 1
    assert goal_odds(setup, split_strategy(2), parse_goal(">= 3 open residences")).exact == 0
    assert goal_odds(setup, split_strategy(0), parse_goal("citizens housed")).exact == 0


def test_a_goal_and_its_advice_become_the_documented_dicts() -> None:
    setup = prepare(BIG, WORLD)
    goal = parse_goal(">= 1 citizen and >= 1 open residence")
    document = goal_odds(setup, split_strategy(3), goal).to_dict()
    exact = Fraction(str(document["exact"]))
    assert exact == goal_odds(setup, split_strategy(3), goal).exact
    assert document["probability"] == float(exact)
    assert document["goal"] == goal.text and document["strategy"] == "structures=3"
    advice = advise_split(setup, goal).to_dict()
    splits = advice["splits"]
    assert isinstance(splits, list) and [row["structures"] for row in splits] == list(range(8))
    assert fraction_text(Fraction(0)) == "0/1" and fraction_text(Fraction(1)) == "1/1"


def test_the_split_advisor_prefers_the_most_likely_split_then_fewer_structures() -> None:
    setup = prepare(BIG, WORLD)
    goal = parse_goal(">= 2 citizens")
    advice = advise_split(setup, goal)
    assert advice.best == 0 and advice.splits[0] == max(advice.splits)
    assert advice.splits[7] == 0
    certain = advise_split(setup, parse_goal("at most 7 cards"))
    assert set(certain.splits) == {1} and certain.best == 0
    structures = advise_split(setup, parse_goal(">= 3 structures with residencies"))
    assert structures.best == max(range(8), key=lambda k: (structures.splits[k], -k))
    assert structures.best >= 3


# --- the sampler ----------------------------------------------------------------------------


@settings(max_examples=20, deadline=None, derandomize=True)
@given(small_decks(), strategies, st.sampled_from(GOALS), st.integers(0, 2**32))
def test_the_sampler_lands_within_four_standard_errors_of_the_exact_goal_odds(
    deck: Decklist, strategy: Strategy, goal: str, seed: int
) -> None:
    setup = prepare(deck, WORLD)
    parsed = parse_goal(goal)
    exact = goal_odds(setup, strategy, parsed).exact
    estimate = sample_goal(setup, strategy, parsed, 1500, seed)
    assert estimate.agrees(exact), (estimate, float(exact))


@settings(max_examples=20, deadline=None, derandomize=True)
@given(small_decks(), strategies,
       st.sets(st.sampled_from(STRUCTURE_IDS + PERSONALITY_IDS), min_size=1),
       st.integers(1, 3), st.integers(0, 2**32))
def test_the_sampler_lands_within_four_standard_errors_of_the_exact_group_odds(
    deck: Decklist, strategy: Strategy, group: set[str], n: int, seed: int
) -> None:
    setup = prepare(deck, WORLD)
    exact = group_odds(setup, strategy, group, n).exact
    estimate = sample_group(setup, strategy, group, n, 1500, seed)
    assert estimate.agrees(exact), (estimate, float(exact))


@pytest.mark.parametrize("strategy", [split_strategy(3), parse_strategy(RULES[0])],
                         ids=["split", "adaptive"])
def test_the_sampler_agrees_with_the_exact_odds_on_the_sample_deck(strategy: Strategy) -> None:
    deck, cards = load_sample()
    setup = prepare(deck, cards)
    goal = parse_goal(">= 1 citizen and >= 2 troops")
    exact = goal_odds(setup, strategy, goal).exact
    estimate = sample_goal(setup, strategy, goal, 4000, "oracle")
    assert estimate.agrees(exact)
    assert 0 < estimate.standard_error(exact) < 0.01


def test_the_sampler_is_deterministic_for_a_seed() -> None:
    setup = prepare(BIG, WORLD)
    goal = parse_goal(">= 2 troops")
    strategy = parse_strategy("alternate")
    assert sample_goal(setup, strategy, goal, 300, 9) == sample_goal(
        setup, strategy, goal, 300, 9)
    assert sample_goal(setup, strategy, goal, 300, 9).to_dict()["samples"] == 300


def test_a_goal_that_needs_too_many_states_is_refused_not_counted_forever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("rules.odds.MAX_STATES", 20)
    setup = prepare(BIG, WORLD)
    goal = parse_goal(" or ".join(f'1 card "{cid}"' for cid in PERSONALITY_IDS))
    with pytest.raises(TooComplexError, match="kinds of cards") as raised:
        goal_odds(setup, parse_strategy("alternate"), goal)
    assert raised.value.code == "too_complex"
    assert goal_odds(setup, split_strategy(0), parse_goal("1 citizen")).exact > 0
