"""The Initial Holdings advisor (rules/holdings.py)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.formats.card_refs import CardRef
from decks.formats.text import CatalogueResolver, parse_text
from rules.cards import CardFacts, facts_by_id
from rules.deck_rules import validate_deck
from rules.decklist import DeckEntry, Decklist
from rules.holdings import HoldingsAdvice, advise_holdings, apply_advice, deck_structures

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
HOLDINGS_CODES = {
    "no_stronghold", "too_many_strongholds", "too_many_zero_cost_structures",
    "unique_structure_in_holdings", "holdings_over_budget", "too_many_walls",
}


def s(cid: str, kind: str | None = "general", cost: int | None = 2, res: int | None = 1,
      unique: bool | None = False, abilities: str | None = "", **fields: object) -> CardFacts:
    return CardFacts(cid, cid.title(), "structure", kind, unique=unique, cost_generic=cost,
                     residencies=res, abilities=abilities, **fields)  # type: ignore[arg-type]


def keep(cid: str, cost: int = 4, res: int = 1, abilities: str = "") -> CardFacts:
    return s(cid, "stronghold", cost=cost, res=res, unique=True, abilities=abilities, vitality=8)


INCOME = "E Collect 1 economic influence from the city's influence pool."
CARDS: dict[str, CardFacts] = {
    c.id: c
    for c in (
        keep("k-small", cost=4, res=1),
        keep("k-big", cost=7, res=3),
        keep("k-cheap", cost=4, res=1, abilities=INCOME),
        keep("k-huge", cost=13, res=5),
        s("a-house", cost=2, res=2),
        s("b-house", cost=2, res=2),
        s("hall", cost=4, res=3),
        s("income", cost=2, res=0, abilities=INCOME),
        s("plain", cost=2, res=0),
        s("slum-1", cost=0, res=1),
        s("slum-2", cost=0, res=1),
        s("slum-3", cost=0, res=1),
        s("wall-1", "wall", cost=1, res=2),
        s("wall-2", "wall", cost=1, res=1),
        s("cathedral", cost=4, res=6, unique=True),
        s("econ-5", cost=0, res=4, cost_economic=5),
        s("econ-4", cost=0, res=4, cost_economic=4),
        s("no-cost", cost=None, res=9),
        s("no-kind", None, res=9),
        s("no-unique", unique=None, res=9),
        s("no-res", res=None),
        CardFacts("troop", "Troop", "personality", "troop"),
    )
}


def advise(pool: Mapping[str, int], pile_minimum: int = 0) -> HoldingsAdvice:
    return advise_holdings(pool, CARDS, pile_minimum=pile_minimum)


ROWS: list[tuple[str, dict[str, int], dict[str, int]]] = [
    ("most-residencies-stronghold", {"k-small": 1, "k-big": 1}, {"k-big": 1}),
    ("useful-stronghold-on-equal-residencies", {"k-small": 1, "k-cheap": 1}, {"k-cheap": 1}),
    ("residencies-before-tokens", {"k-small": 1, "a-house": 2, "hall": 1},
     {"k-small": 1, "a-house": 2, "hall": 1}),
    ("budget-limits-the-houses", {"k-big": 1, "a-house": 2, "b-house": 2},
     {"k-big": 1, "a-house": 2}),
    ("at-most-two-zero-cost", {"k-small": 1, "slum-1": 2, "slum-2": 1, "slum-3": 1},
     {"k-small": 1, "slum-1": 2}),
    ("at-most-one-wall", {"k-small": 1, "wall-1": 1, "wall-2": 1}, {"k-small": 1, "wall-1": 1}),
    ("useful-before-tokens", {"k-small": 1, "income": 1, "plain": 1},
     {"k-small": 1, "income": 1}),
    ("nothing-useless", {"k-small": 1, "plain": 2}, {"k-small": 1}),
    ("no-unique-besides-the-stronghold", {"k-small": 1, "cathedral": 1}, {"k-small": 1}),
    ("each-kind-of-token-within-4", {"k-small": 1, "econ-5": 1, "econ-4": 1},
     {"k-small": 1, "econ-4": 1}),
    ("tie-broken-by-id", {"k-big": 1, "b-house": 2, "a-house": 1},
     {"k-big": 1, "a-house": 1, "b-house": 1}),
    ("unknown-fields-left-out",
     {"k-small": 1, "no-cost": 1, "no-kind": 1, "no-unique": 1, "no-res": 1}, {"k-small": 1}),
    ("no-stronghold-no-holdings", {"a-house": 2, "hall": 1}, {}),
    ("stronghold-over-budget", {"k-huge": 1, "a-house": 1}, {}),
]


@pytest.mark.parametrize(("pool", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_the_advice_is_the_best_legal_holdings(
    pool: dict[str, int], expected: dict[str, int]
) -> None:
    advice = advise(pool)
    assert dict(advice.holdings) == expected
    assert advice.found == bool(expected)
    if expected:
        assert advice.stronghold is not None and advice.stronghold.startswith("k-")
        assert advice.tokens_spent + advice.tokens_left == 12


def test_the_advice_reports_its_objective_values_and_explains_them() -> None:
    advice = advise({"k-small": 1, "a-house": 2, "income": 1, "cathedral": 1})
    assert dict(advice.holdings) == {"k-small": 1, "a-house": 2, "income": 1}
    assert (advice.residencies, advice.useful) == (5, 1)
    assert (advice.tokens_spent, advice.tokens_left) == (10, 2)
    assert "most residencies (5)" in advice.explanation
    assert "Cathedral (unique" in advice.explanation
    assert advice.to_dict()["holdings"] == {"k-small": 1, "a-house": 2, "income": 1}


@pytest.mark.parametrize(
    ("card", "reason"),
    [
        ("no-cost", "not considered: field cost_generic unknown"),
        ("no-kind", "not considered: field subtype unknown"),
        ("no-unique", "not considered: field unique unknown"),
        ("no-res", "not considered: field residencies unknown"),
        ("cathedral", "unique: only the stronghold may be a unique holding"),
        ("troop", "not a structure"),
        ("missing", "not in the catalogue"),
    ],
)
def test_structures_that_cannot_be_weighed_are_listed_with_the_reason(
    card: str, reason: str
) -> None:
    advice = advise({"k-small": 1, card: 1})
    assert advice.not_considered == ((card, reason),)
    assert dict(advice.holdings) == {"k-small": 1}


def test_the_structure_pile_keeps_fifteen_cards() -> None:
    pool = {"k-small": 1, "a-house": 2, "b-house": 2, "hall": 1, "plain": 2, "income": 2,
            "slum-1": 2, "slum-2": 2, "wall-2": 2}  # 16 cards: one card may be held
    advice = advise_holdings(pool, CARDS)
    assert dict(advice.holdings) == {"k-small": 1}
    assert "at least 15 cards left" in advice.explanation
    more = advise_holdings({**pool, "b-house": 2, "plain": 2, "econ-4": 2}, CARDS)
    assert sum(more.holdings.values()) == 3


def test_with_too_few_structures_for_the_pile_the_advice_says_so() -> None:
    advice = advise_holdings({"k-small": 1, "a-house": 2}, CARDS)
    assert dict(advice.holdings) == {"k-small": 1, "a-house": 2}
    assert "too few to keep 15 in the Structure Pile" in advice.explanation


def test_apply_advice_moves_the_chosen_cards_and_returns_the_old_holdings() -> None:
    deck = Decklist(
        "D",
        holdings=(DeckEntry("k-small", 1), DeckEntry("plain", 1)),
        structures=(DeckEntry("k-big", 1), DeckEntry("a-house", 2)),
    )
    advice = advise(deck_structures(deck))
    assert dict(advice.holdings) == {"k-big": 1, "a-house": 2}
    applied = apply_advice(deck, advice)
    assert applied.holdings == (DeckEntry("k-big", 1), DeckEntry("a-house", 2))
    assert applied.structures == (DeckEntry("k-small", 1), DeckEntry("plain", 1))
    with pytest.raises(ValueError, match="the advice takes"):
        apply_advice(Decklist("Empty"), advice)


# --- the sample decks ----------------------------------------------------------------------


def catalogue() -> tuple[dict[str, CardFacts], CatalogueResolver]:
    data: list[dict[str, object]] = []
    for name in ("wof.json", "demo.json"):
        data += json.loads((FIXTURES / "cards" / name).read_text("utf-8"))["cards"]
    resolver = CatalogueResolver(
        CardRef(str(c["id"]), str(c["name"]), c["type"], c["faction"])  # type: ignore[arg-type]
        for c in data
    )
    return facts_by_id(data), resolver


FACTS, RESOLVER = catalogue()
SAMPLES = sorted((FIXTURES / "decklists").glob("*.txt"))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_the_advice_for_each_sample_deck_is_legal(path: Path) -> None:
    deck = parse_text(path.read_text("utf-8"), RESOLVER).deck
    assert deck is not None
    advice = advise_holdings(deck_structures(deck), FACTS)
    assert advice.found
    assert all(why.startswith("unique") for _, why in advice.not_considered)
    validation = validate_deck(apply_advice(deck, advice), FACTS)
    assert validation.legal, validation.problems
    assert not HOLDINGS_CODES & {p.code for p in validation.problems}
    # At least as many residencies as the holdings the deck was built with.
    built = sum((FACTS[e.card_id].residencies or 0) * e.count for e in deck.holdings
                if not FACTS[e.card_id].is_wall)
    assert advice.residencies >= built


# --- against brute force -------------------------------------------------------------------

DEMO_STRUCTURES = sorted(c for c in FACTS if c.startswith("demo-") and FACTS[c].type == "structure")
SMALL_POOLS = st.dictionaries(
    st.sampled_from(DEMO_STRUCTURES + sorted(CARDS)), st.integers(1, 2), max_size=7
)


def brute_force(pool: Mapping[str, int], cards: Mapping[str, CardFacts], max_cards: int
                ) -> tuple[tuple[int, int, int, int], tuple[str, ...]] | None:
    """Every legal holdings of the pool, the best by the documented objective."""
    usable = {}
    for cid, copies in pool.items():
        card = cards.get(cid)
        if card is None or card.type != "structure" or card.structure_kind is None:
            continue
        if card.cost_generic is None or (card.residencies is None and not card.is_wall):
            continue
        if not card.is_stronghold and card.unique is not False:
            continue
        usable[cid] = copies
    ids = sorted(usable)
    best: tuple[tuple[int, int, int, int], tuple[str, ...]] | None = None
    for counts in itertools.product(*(range(usable[c] + 1) for c in ids)):
        chosen = [cards[c] for c, n in zip(ids, counts, strict=True) for _ in range(n)]
        if sum(c.is_stronghold for c in chosen) != 1 or len(chosen) > max_cards:
            continue
        others = [c for c in chosen if not c.is_stronghold]
        free = [c for c in others if not any(
            (c.cost_generic, c.cost_economic, c.cost_religious, c.cost_political))]
        if len(free) > 2 or sum(c.is_wall for c in others) > 1:
            continue
        typed = [sum(getattr(c, k) or 0 for c in chosen)
                 for k in ("cost_economic", "cost_religious", "cost_political")]
        spent = sum(typed) + sum(c.cost_generic or 0 for c in chosen)
        if spent > 12 or max(typed) > 4:
            continue
        residencies = sum(0 if c.is_wall else c.residencies or 0 for c in chosen)
        useful = sum(1 for c in chosen if c.is_wall or (c.abilities or "").strip())
        objective = (residencies, useful, 12 - spent, -len(chosen))
        names = tuple(sorted(c.id for c in chosen))
        if best is None or objective > best[0] or (objective == best[0] and names < best[1]):
            best = (objective, names)
    return best


@settings(max_examples=200, deadline=None)
@given(pool=SMALL_POOLS, pile_cards=st.integers(0, 3))
def test_the_advice_matches_a_brute_force_search(pool: dict[str, int], pile_cards: int) -> None:
    cards = {**FACTS, **CARDS}
    total = sum(n for cid, n in pool.items() if cid in cards and cards[cid].type == "structure")
    # pile_minimum chosen so that between 0 and 3 cards must stay in the pile (or none can).
    minimum = max(0, total - pile_cards - 1)
    advice = advise_holdings(pool, cards, pile_minimum=minimum)
    max_cards = total - minimum if total - minimum >= 1 else total
    expected = brute_force(pool, cards, max_cards)
    if expected is None:
        assert not advice.found
        return
    chosen = tuple(sorted(cid for cid, n in advice.holdings.items() for _ in range(n)))
    assert (advice.residencies, advice.useful, advice.tokens_left) == expected[0][:3]
    assert chosen == expected[1]
