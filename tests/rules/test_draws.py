"""Dealing by the rules (rules/draws.py): holdings and tokens, shuffles, drawing one card at a
time, the empty-pile rule, picks, later rounds and determinism."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import CardFacts
from rules.decklist import DeckEntry, Decklist
from rules.draw_strategy import (
    CardTest,
    Pile,
    Tally,
    parse_picks,
    parse_strategy,
    split_strategy,
)
from rules.draws import (
    STARTING_TOKENS,
    Deal,
    DealError,
    Tokens,
    deal,
    deal_setup,
    holding_cost,
    next_round,
    pay,
    prepare,
)
from rules.rng import Rng
from tests.rules.game.engine_helpers import catalogue, sample

# --- a small synthetic world, shared with test_odds ------------------------------------------


def structure(cid: str, res: int = 1, cost: int | None = 1, kind: str = "general",
              **fields: object) -> CardFacts:
    return CardFacts(cid, cid.replace("-", " ").title(), "structure", kind, unique=False,
                     cost_generic=cost, residencies=res, **fields)  # type: ignore[arg-type]


def person(cid: str, kind: str = "troop", faction: str = "guild") -> CardFacts:
    stats = (0, 0) if kind == "citizen" else (2, 2)
    return CardFacts(cid, cid.replace("-", " ").title(), "personality", kind, faction=faction,
                     offense=stats[0], defense=stats[1])


WORLD: dict[str, CardFacts] = {
    c.id: c
    for c in (
        CardFacts("keep", "Keep", "structure", "stronghold", unique=True, cost_generic=5,
                  residencies=2, vitality=8),
        structure("house", res=2, cost=2),
        structure("shack", res=0, cost=0),
        structure("hall", res=3, cost=4),
        structure("tower", res=1, cost=1),
        structure("hut", res=1, cost=0),
        structure("wall", res=2, cost=1, kind="wall"),
        person("clerk", "citizen"),
        person("maid", "citizen", "kalim"),
        person("pikeman"),
        person("templar", faction="kalim"),
        person("archer"),
        CardFacts("sword", "Sword", "item", "weapon"),
        CardFacts("rally", "Rally", "event", "general"),
        CardFacts("prayer", "Prayer", "invocation", "kalim"),
        CardFacts("wolf", "Wolf", "wanderer"),
    )
}
STRUCTURE_IDS = ("house", "shack", "hall", "tower", "hut", "wall")
PERSONALITY_IDS = ("clerk", "maid", "pikeman", "templar", "archer", "sword", "rally", "prayer")


def entries(counts: Mapping[str, int]) -> tuple[DeckEntry, ...]:
    return tuple(DeckEntry(cid, n) for cid, n in counts.items() if n)


def make_deck(structures: Mapping[str, int], personalities: Mapping[str, int],
              holdings: Mapping[str, int] | None = None, wanderers: int = 3) -> Decklist:
    return Decklist("Test", holdings=entries({"keep": 1} if holdings is None else holdings),
                structures=entries(structures), personalities=entries(personalities),
                wanderers=entries({"wolf": wanderers}))


BIG = make_deck({cid: 2 for cid in STRUCTURE_IDS} | {"tower": 4},
                {cid: 2 for cid in PERSONALITY_IDS} | {"clerk": 3})


@st.composite
def small_decks(draw: st.DrawFn, max_structures: int = 6, max_personalities: int = 8) -> Decklist:
    """Decks small enough to enumerate: up to 6 structures and 8 personality cards."""
    def pile(ids: tuple[str, ...], most: int) -> dict[str, int]:
        counts = draw(st.lists(st.sampled_from(ids), max_size=most).map(Counter))
        return dict(sorted(counts.items()))

    return make_deck(pile(STRUCTURE_IDS, max_structures),
                     pile(PERSONALITY_IDS, max_personalities))


RULES = (
    "structures until 2 structures with residencies, then personalities",
    "personalities until 1 citizen, then structures until 1 structure with residencies, "
    "then personalities",
    "alternate",
    "structures until 1 open residence and 1 wall or 2 troops",
    "personalities until citizens housed, then alternate",
    "structures until no walls, then personalities until 2 kalim",
)
strategies = st.one_of(
    st.integers(0, 7).map(split_strategy),
    st.sampled_from(RULES).map(parse_strategy),
)


def load_sample(name: str = "guild-veterans.txt") -> tuple[Decklist, dict[str, CardFacts]]:
    return sample(name), catalogue()


# --- tokens ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("costs", "left", "unpaid"),
    [
        ([], (4, 4, 4), 0),
        ([(0, 0, 0, 5)], (2, 2, 3), 0),
        ([(0, 0, 0, 6)], (2, 2, 2), 0),
        ([(0, 0, 0, 5), (0, 0, 0, 2)], (1, 2, 2), 0),
        ([(2, 0, 0, 0), (0, 0, 0, 3)], (2, 2, 3), 0),
        ([(0, 3, 1, 0), (0, 0, 0, 4)], (1, 1, 2), 0),
        ([(0, 0, 0, 12)], (0, 0, 0), 0),
        ([(0, 0, 0, 14)], (0, 0, 0), 2),
        ([(5, 0, 0, 0)], (0, 4, 4), 1),
    ],
    ids=["nothing", "generic-from-the-largest", "even-split", "two-generic-costs",
         "typed-first-then-generic", "typed-and-generic", "exactly-twelve", "over-budget",
         "typed-over-its-colour"],
)
def test_holdings_are_paid_leaving_the_most_balanced_pool(
    costs: list[tuple[int, int, int, int]], left: tuple[int, int, int], unpaid: int
) -> None:
    tokens, short = pay(costs)
    assert (tokens.economic, tokens.religious, tokens.political) == left
    assert short == unpaid
    assert tokens.total == 12 - (sum(map(sum, costs)) - unpaid)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(*[st.integers(0, 3)] * 3, st.integers(0, 6)), max_size=4))
def test_no_payment_leaves_a_larger_smallest_colour(
    costs: list[tuple[int, int, int, int]]
) -> None:
    tokens, unpaid = pay(costs)
    typed = [4 - sum(c[i] for c in costs) for i in range(3)]
    generic = sum(c[3] for c in costs)
    if unpaid or min(typed) < 0:
        return
    # Every other way to pay the generic cost: the smallest colour is never larger.
    best = max(
        min(typed[0] - a, typed[1] - b, typed[2] - (generic - a - b))
        for a in range(generic + 1) for b in range(generic + 1 - a)
        if typed[0] >= a and typed[1] >= b and typed[2] >= generic - a - b
    )
    assert min(tokens.economic, tokens.religious, tokens.political) == best


def test_a_structure_costs_its_typed_and_generic_costs_with_unknown_as_zero() -> None:
    assert holding_cost(structure("x", cost=3, cost_economic=1)) == (1, 0, 0, 3)
    assert holding_cost(structure("y", cost=None)) == (0, 0, 0, 0)


# --- setup ----------------------------------------------------------------------------------


def test_the_decks_own_holdings_with_a_stronghold_are_used() -> None:
    setup = prepare(make_deck({"house": 2}, {"clerk": 1}, {"keep": 1, "hut": 1}), WORLD)
    assert setup.holdings_source == "deck"
    assert [(e.card_id, e.count) for e in setup.holdings] == [("keep", 1), ("hut", 1)]
    assert setup.structures == ("house", "house")
    assert setup.tokens == Tokens(2, 2, 3)  # 5 generic: one at a time from the largest
    assert setup.residencies == 3


def test_without_a_stronghold_in_the_holdings_the_advisor_buys_them() -> None:
    deck = make_deck({"keep": 1, "house": 2, "shack": 1}, {"clerk": 1}, holdings={"hut": 1})
    setup = prepare(deck, WORLD)
    assert setup.holdings_source == "advisor"
    held = {e.card_id: e.count for e in setup.holdings}
    assert held["keep"] == 1
    assert "keep" not in setup.structures
    # Whatever the advisor took left the pile; the rest (the old holding too) is in it.
    assert Counter(setup.structures) + Counter(held) == Counter(
        {"keep": 1, "house": 2, "shack": 1, "hut": 1})
    assert "most residencies" in setup.holdings_note
    assert setup.tokens.total == 12 - sum(
        holding_cost(WORLD[cid])[3] * n for cid, n in held.items())


def test_a_deck_without_any_stronghold_is_dealt_without_holdings() -> None:
    setup = prepare(make_deck({"house": 2}, {"clerk": 1}, holdings={}), WORLD)
    assert setup.holdings == () and setup.holdings_source == "advisor"
    assert "No legal Initial Holdings" in setup.holdings_note
    assert setup.tokens == STARTING_TOKENS


def test_unknown_costs_and_an_over_budget_are_noted_not_refused() -> None:
    cards = {**WORLD, "mystery": structure("mystery", cost=None),
             "palace": structure("palace", cost=9)}
    setup = prepare(make_deck({"house": 1}, {"clerk": 1},
                              {"keep": 1, "mystery": 1, "palace": 1}), cards)
    assert setup.unpaid == 2
    assert any("Mystery's cost is not known" in note for note in setup.notes)
    assert any("cost 2 more" in note for note in setup.notes)


def test_the_sample_deck_buys_its_own_holdings() -> None:
    deck, cards = load_sample()
    setup = prepare(deck, cards)
    assert setup.holdings_source == "deck"
    assert (len(setup.structures), len(setup.personalities), len(setup.wanderers)) == (17, 28, 13)
    assert setup.tokens == Tokens(2, 2, 2)


# --- dealing --------------------------------------------------------------------------------


def piles_of(result: Deal) -> dict[str, Counter[str]]:
    return {"structures": Counter(result.structure_pile),
            "personalities": Counter(result.personality_pile)}


def test_the_opening_hand_is_seven_cards_each_from_the_pile_it_was_drawn_from() -> None:
    result = deal(BIG, WORLD, 7, parse_strategy("alternate"))
    setup = result.setup
    assert result.complete and not result.waiting and result.round == 0
    assert [d.number for d in result.hand] == list(range(1, 8))
    assert [d.pile[0] for d in result.hand] == list("spspsps")
    for draw in result.hand:
        assert draw.card in setup.pile(draw.pile)
    left = piles_of(result)
    drawn = Counter((d.pile, d.card) for d in result.hand)
    for pile in ("structures", "personalities"):
        assert left[pile] + Counter({c: n for (p, c), n in drawn.items() if p == pile}) == (
            Counter(setup.pile(pile)))
    assert len(result.wanderer_pile) == 3


def test_the_same_seed_gives_the_same_hand_whatever_the_global_random_state() -> None:
    strategy = parse_strategy(RULES[1])
    first = deal(BIG, WORLD, 1234, strategy)
    random.seed(99)
    random.shuffle(list(range(50)))
    again = deal(BIG, WORLD, 1234, strategy)
    assert again == first
    assert again.to_dict() == first.to_dict()


def test_different_seeds_give_different_hands() -> None:
    hands = {deal(BIG, WORLD, seed, split_strategy(3)).hand_ids for seed in range(20)}
    assert len(hands) > 10


def test_the_piles_are_shuffled_structures_then_personalities_then_wanderers() -> None:
    setup = prepare(BIG, WORLD)
    rng = Rng(5)
    structures, personalities, wanderers = (
        list(setup.structures), list(setup.personalities), list(setup.wanderers))
    rng.shuffle(structures)
    rng.shuffle(personalities)
    rng.shuffle(wanderers)
    result = deal_setup(setup, 5, split_strategy(7))
    assert result.hand_ids == tuple(reversed(structures[-7:]))
    assert result.personality_pile == tuple(personalities)
    assert result.wanderer_pile == tuple(wanderers)


def test_the_strategy_sees_every_card_drawn_before_choosing_the_next() -> None:
    seen: list[tuple[int, int]] = []

    class Recorder:
        spec = "recorder"
        split = None

        def choose(self, tally: Tally) -> Pile:
            seen.append((tally.draws, tally.count(CardTest())))
            return "personalities"

        def tests(self) -> tuple[CardTest, ...]:
            return ()

        def uses_residencies(self) -> bool:
            return False

        def describe(self) -> str:
            return "record"

    deal(BIG, WORLD, 3, Recorder())  # type: ignore[arg-type]
    assert seen == [(n, n) for n in range(7)]


def test_an_adaptive_rule_stops_drawing_structures_once_it_holds_what_it_wants() -> None:
    strategy = parse_strategy(RULES[0])
    for seed in range(30):
        result = deal(BIG, WORLD, seed, strategy)
        piles = [d.pile for d in result.hand]
        housed = [d for d in result.hand if d.pile == "structures"
                  and WORLD[d.card].residencies and WORLD[d.card].structure_kind == "general"]
        assert len(housed) == 2
        last = max(i for i, p in enumerate(piles) if p == "structures")
        assert result.hand[last] == housed[-1]
        assert set(piles[last + 1:]) <= {"personalities"}


def test_an_empty_pile_sends_the_draw_to_the_other_pile() -> None:
    result = deal(make_deck({"house": 2}, {"clerk": 8}), WORLD, 1, split_strategy(5))
    assert [d.pile for d in result.hand] == ["structures"] * 2 + ["personalities"] * 5
    short = deal(make_deck({"house": 8}, {"clerk": 1}), WORLD, 1, split_strategy(0))
    assert [d.pile for d in short.hand] == ["personalities"] + ["structures"] * 6


def test_when_both_piles_run_out_the_hand_stays_short_without_recycling() -> None:
    result = deal(make_deck({"house": 2}, {"clerk": 2}), WORLD, 1, split_strategy(3))
    assert len(result.hand) == 4 and not result.complete and not result.waiting
    assert any("Both draw piles are empty" in n for n in result.to_dict()["notes"])  # type: ignore[attr-defined]


# --- picks ----------------------------------------------------------------------------------


def test_picks_choose_each_pile_and_the_deal_waits_when_they_run_out() -> None:
    result = deal(BIG, WORLD, 11, parse_picks("p,s,p"))
    assert [d.pile for d in result.hand] == ["personalities", "structures", "personalities"]
    assert result.waiting and not result.complete
    assert any("Waiting" in n for n in result.to_dict()["notes"])  # type: ignore[attr-defined]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["s", "p"]), min_size=7, max_size=7), st.integers(0, 5),
       st.integers(0, 10**6))
def test_replaying_more_picks_with_the_same_seed_extends_the_same_hand(
    picks: list[str], cut: int, seed: int
) -> None:
    full = deal(BIG, WORLD, seed, parse_picks(picks))
    part = deal(BIG, WORLD, seed, parse_picks(picks[:cut]))
    assert full.hand[:cut] == part.hand
    assert full.complete


def test_picks_can_hand_over_to_a_strategy() -> None:
    result = deal(BIG, WORLD, 2, parse_picks("p,p", split_strategy(7)))
    assert [d.pile for d in result.hand] == ["personalities"] * 2 + ["structures"] * 5


# --- later rounds ---------------------------------------------------------------------------


def test_the_next_round_removes_the_played_cards_and_draws_back_to_seven() -> None:
    opening = deal(BIG, WORLD, 21, split_strategy(3))
    played = [opening.hand[0].card, opening.hand[4].card]
    after = next_round(opening, played)
    assert after.round == 1 and after.complete and after.played == tuple(played)
    kept = [d for i, d in enumerate(opening.hand) if i not in (0, 4)]
    assert list(after.hand[:5]) == kept
    fresh = after.hand[5:]
    assert [d.round for d in fresh] == [1, 1] and [d.number for d in fresh] == [8, 9]
    # structures=3 keeps three structures in the hand: one was played, so one is drawn.
    assert sum(d.pile == "structures" for d in after.hand) == 3
    assert len(after.structure_pile) + len(after.personality_pile) == (
        len(opening.structure_pile) + len(opening.personality_pile) - 2)
    assert after.to_dict()["drawn"] == [d.to_dict() for d in fresh]


def test_the_next_round_is_deterministic_too() -> None:
    opening = deal(BIG, WORLD, 8, parse_strategy("alternate"))
    play = [opening.hand[1].card]
    assert next_round(opening, play) == next_round(deal(BIG, WORLD, 8,
                                                        parse_strategy("alternate")), play)


def test_playing_a_card_that_is_not_in_the_hand_is_refused() -> None:
    opening = deal(BIG, WORLD, 8, split_strategy(3))
    with pytest.raises(DealError, match="not in the hand"):
        next_round(opening, ["wolf"])
    card = opening.hand[0].card
    copies = opening.hand_ids.count(card)
    with pytest.raises(DealError):
        next_round(opening, [card] * (copies + 1))


def test_a_deal_as_a_dict_has_everything_the_command_prints() -> None:
    document = deal(BIG, WORLD, 4, split_strategy(2)).to_dict()
    assert set(document) == {
        "seed", "strategy", "strategy_explained", "round", "holdings", "holdings_source",
        "holdings_note", "tokens", "unpaid", "residencies", "hand", "drawn", "played", "piles",
        "complete", "waiting", "notes",
    }
    assert document["tokens"] == {"economic": 2, "religious": 2, "political": 3}
    assert document["holdings"] == [{"id": "keep", "count": 1, "name": "Keep"}]
    assert json.loads(json.dumps(document)) == document


# --- properties -----------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(small_decks(), strategies, st.integers(0, 2**32))
def test_any_deck_deals_what_its_piles_allow_the_same_way_every_time(
    deck: Decklist, strategy: object, seed: int
) -> None:
    result = deal(deck, WORLD, seed, strategy)  # type: ignore[arg-type]
    setup = result.setup
    assert len(result.hand) == min(7, len(setup.structures) + len(setup.personalities))
    for pile in ("structures", "personalities"):
        drawn = Counter(d.card for d in result.hand if d.pile == pile)
        assert not drawn - Counter(setup.pile(pile))
    assert deal(deck, WORLD, seed, strategy) == result  # type: ignore[arg-type]
