"""The strategy and condition language (rules/draw_strategy.py): parsing, errors, evaluation."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import CardFacts
from rules.draw_strategy import (
    CITIZENS,
    AllOf,
    AnyOf,
    CardTest,
    Count,
    Housed,
    Negation,
    PickStrategy,
    Pile,
    Residences,
    SpecError,
    Step,
    StrategyError,
    condition_tests,
    describe,
    holds,
    parse_condition,
    parse_picks,
    parse_strategy,
    residencies_of,
    split_strategy,
    uses_residencies,
)


def card(cid: str, type_: str, subtype: str | None = None, **fields: object) -> CardFacts:
    return CardFacts(cid, cid.replace("-", " ").title(), type_, subtype,
                     **fields)  # type: ignore[arg-type]


CARDS = {
    c.id: c
    for c in (
        card("house", "structure", "general", residencies=2),
        card("shack", "structure", "general", residencies=0),
        card("wall", "structure", "wall", residencies=3),
        card("keep", "structure", "stronghold", residencies=1, vitality=8),
        card("clerk", "personality", "citizen", faction="guild"),
        card("maid", "personality", None, faction="kalim", offense=0, defense=0),
        card("pikeman", "personality", "troop", faction="guild", offense=2, defense=2),
        card("templar", "personality", "troop", faction="kalim", offense=3, defense=2),
        card("sword", "item", "weapon"),
        card("prayer", "invocation", "kalim"),
        card("blessing", "invocation", "general"),
        card("charge", "event", "battle"),
        card("parry", "event", "interrupt"),
    )
}


class Hand:
    """A tally over a list of (card id, pile) with some holdings residencies."""

    def __init__(self, hand: Iterable[tuple[str, Pile]], holdings: int = 0,
                 draws: int | None = None) -> None:
        self.hand = list(hand)
        self.holdings = holdings
        self._draws = len(self.hand) if draws is None else draws

    def count(self, test: CardTest) -> int:
        return sum(1 for cid, pile in self.hand if test.matches(CARDS.get(cid), cid, pile))

    def residencies(self) -> int:
        return self.holdings + sum(residencies_of(CARDS.get(cid)) for cid, _ in self.hand)

    @property
    def draws(self) -> int:
        return self._draws


def hand(*ids: str, holdings: int = 0) -> Hand:
    return Hand(((cid, "structures" if CARDS[cid].type == "structure" else "personalities")
                 for cid in ids), holdings)


# --- parsing --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "steps"),
    [
        ("structures until 2 structures with residencies, then personalities",
         (Step("structures", Count(CardTest(type="structure", residencies=True), ">=", 2)),
          Step("personalities"))),
        ("personalities until 1 citizen, then structures until 1 structure with residencies, "
         "then personalities",
         (Step("personalities", Count(CITIZENS, ">=", 1)),
          Step("structures", Count(CardTest(type="structure", residencies=True), ">=", 1)),
          Step("personalities"))),
        ("structures until 3, then personalities",
         (Step("structures", Count(CardTest(pile="structures"), ">=", 3)),
          Step("personalities"))),
        ("alternate", (Step("alternate"),)),
        ("S until at most 1 wall then P",
         (Step("structures", Count(CardTest(type="structure", subtype="wall"), "<=", 1)),
          Step("personalities"))),
        ("p until exactly 2 kalim troops or no events, then alternate",
         (Step("personalities", AnyOf((
             Count(CardTest(type="personality", subtype="troop", faction="kalim"), "==", 2),
             Count(CardTest(type="event"), "==", 0)))),
          Step("alternate"))),
        ("structures until a wall and not (1 card \"Templar\")",
         (Step("structures", AllOf((
             Count(CardTest(type="structure", subtype="wall"), ">=", 1),
             Negation(Count(CardTest(card="templar"), ">=", 1))))),)),
        ("structures until >= 3 open residences", (Step("structures", Residences(">=", 3)),)),
        ("personalities until citizens housed", (Step("personalities", Housed()),)),
        ("alternate until 4", (Step("alternate", Count(CardTest(), ">=", 4)),)),
    ],
    ids=["residencies", "three-steps", "bare-number", "alternate", "letters-and-at-most",
         "or-and-exactly", "and-not-card", "open-residences", "citizens-housed",
         "alternate-bare-number"],
)
def test_strategies_parse_into_their_steps(spec: str, steps: tuple[Step, ...]) -> None:
    parsed = parse_strategy(spec)
    assert parsed.steps == steps
    assert parsed.split is None


@pytest.mark.parametrize(
    ("spec", "k"),
    [("structures=3", 3), ("structures = 0", 0), ("STRUCTURES==7", 7), ("personalities=2", 5),
     ("s=4", 4), ("p=7", 0)],
    ids=["plain", "spaces-zero", "upper-double-equals", "personalities", "letter-s",
         "letter-p"],
)
def test_the_fixed_split_is_read_by_the_same_parser(spec: str, k: int) -> None:
    assert parse_strategy(spec) == split_strategy(k)
    assert parse_strategy(spec).spec == f"structures={k}"


def test_a_fixed_split_is_the_same_rule_as_structures_until_k() -> None:
    rule = parse_strategy("structures until 3, then personalities")
    assert rule.steps == split_strategy(3).steps


@pytest.mark.parametrize(
    ("spec", "position", "expected"),
    [
        ("", 0, "structures=K"),
        ("draw structures", 0, "structures, personalities or alternate"),
        ("structures untl 2 walls", 11, "'until'"),
        ("structures until", 16, "a number"),
        ("structures until 2 wizards", 19, "a noun"),
        ("structures until 2 walls then", 29, "structures, personalities or alternate"),
        ("structures, personalities", 0, "'until CONDITION'"),
        ("structures=8", 11, "0 to 7"),
        ("structures until (2 walls", 25, "')'"),
        ("structures until 2 battle structures", 19, "battle events"),
        ("structures until 2 kalim guild troops", 25, "a noun"),
        ("structures until 2 walls from the graveyard", 34, "the structure pile"),
        ("structures until 2 open doors", 24, "residences"),
        ("structures until 2 card \"\"", 24, "card \"NAME OR ID\""),
        ("structures until 2 walls; then p", 24, "a word"),
        ("structures until 2 card \"Bell", 24, "a closing"),
        ("structures until 2 matching \"t:troop\"", 28, "a card phrase"),
        ("structures until 100 walls", 17, "0 to 99"),
        ("structures until 2 walls with doors", 30, "residencies"),
    ],
    ids=["empty", "unknown-action", "misspelt-until", "no-count", "unknown-noun",
         "dangling-then", "step-without-until", "split-too-big", "unclosed-paren",
         "battle-structures", "two-factions", "unknown-pile", "open-doors", "empty-card-name",
         "bad-character", "unterminated-quote", "query-without-catalogue", "number-too-big",
         "with-what"],
)
def test_bad_strategies_say_where_and_what_was_expected(
    spec: str, position: int, expected: str
) -> None:
    with pytest.raises(StrategyError) as raised:
        parse_strategy(spec)
    assert raised.value.position == position
    assert expected in (raised.value.expected or "")
    assert isinstance(raised.value, ValueError)
    assert raised.value.as_dict()["position"] == position
    assert "^" in raised.value.pointer(spec)


def test_deep_nesting_is_refused_before_the_recursion_limit() -> None:
    with pytest.raises(StrategyError, match="nested"):
        parse_strategy("structures until " + "(" * 400 + "1 wall" + ")" * 400)


def test_matching_asks_the_resolver_for_the_ids_of_the_query() -> None:
    asked: list[str] = []

    def resolve(query: str) -> frozenset[str]:
        asked.append(query)
        return frozenset({"pikeman", "templar"})

    parsed = parse_strategy('personalities until 2 matching "t:troop", then s', resolve)
    assert asked == ["t:troop"]
    until = parsed.steps[0].until
    assert isinstance(until, Count)
    assert until.test.ids == frozenset({"pikeman", "templar"})


def test_a_bad_query_inside_a_strategy_points_into_the_strategy_text() -> None:
    class QueryError(ValueError):
        position = 2
        message = "unknown key"
        expected = "a key"

    def resolve(query: str) -> frozenset[str]:
        raise QueryError("unknown key")

    spec = 'structures until 1 matching "t:troop zz:1"'
    with pytest.raises(StrategyError) as raised:
        parse_strategy(spec, resolve)
    assert raised.value.position == spec.index('"') + 1 + 2
    assert "unknown key" in raised.value.message and raised.value.expected == "a key"


# --- card tests -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phrase", "counted"),
    [
        ("cards", set(CARDS)),
        ("structures", {"house", "shack", "wall", "keep"}),
        ("structures with residencies", {"house", "keep"}),
        ("cards with residencies", {"house", "keep"}),
        ("walls", {"wall"}),
        ("general structures", {"house", "shack"}),
        ("strongholds", {"keep"}),
        ("personalities", {"clerk", "maid", "pikeman", "templar"}),
        ("citizens", {"clerk", "maid"}),
        ("troops", {"pikeman", "templar"}),
        ("guild troops", {"pikeman"}),
        ("faction kalim cards", {"maid", "templar"}),
        ("kalim", {"maid", "templar"}),
        ("kalim invocations", {"prayer"}),
        ("general invocations", {"blessing"}),
        ("invocations", {"prayer", "blessing"}),
        ("weapons", {"sword"}),
        ("items", {"sword"}),
        ("battle events", {"charge"}),
        ("interrupts", {"parry"}),
        ("interrupt events", {"parry"}),
        ("events", {"charge", "parry"}),
        ('card "TEMPLAR"', {"templar"}),
        ('card "house"', {"house"}),
        ("cards from the structure pile", {"house", "shack", "wall", "keep"}),
        ("troops from personalities", {"pikeman", "templar"}),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_each_noun_phrase_counts_the_cards_it_names(phrase: str, counted: set[str]) -> None:
    condition = parse_condition(f"1 {phrase}")
    assert isinstance(condition, Count)
    every = Hand((cid, "structures" if CARDS[cid].type == "structure" else "personalities")
                 for cid in CARDS)
    found = {cid for cid, pile in every.hand if condition.test.matches(CARDS[cid], cid, pile)}
    assert found == counted


def test_a_card_whose_facts_are_unknown_is_counted_only_by_id_and_pile() -> None:
    assert CardTest(card="ghost").matches(None, "ghost", "personalities")
    assert CardTest(pile="structures").matches(None, "ghost", "structures")
    assert not CardTest(type="structure").matches(None, "ghost", "structures")


# --- evaluation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("condition", "cards", "holdings", "expected"),
    [
        (">= 1 citizen", ("clerk",), 0, True),
        (">= 2 citizens", ("clerk", "pikeman"), 0, False),
        ("1 citizen and 1 troop", ("clerk", "pikeman"), 0, True),
        ("2 citizens or 1 troop", ("pikeman",), 0, True),
        ("not 1 troop", ("pikeman",), 0, False),
        ("no walls", ("house", "shack"), 0, True),
        ("< 2 structures", ("house", "shack"), 0, False),
        ("> 1 structures", ("house", "shack"), 0, True),
        ("!= 2 structures", ("house", "shack"), 0, False),
        (">= 1 open residence", (), 1, True),
        (">= 1 open residence", ("wall",), 0, False),
        (">= 4 open residences", ("house", "keep", "wall"), 1, True),
        ("citizens housed", ("clerk", "maid"), 1, False),
        ("citizens housed", ("clerk", "maid", "house"), 0, True),
        ("citizens housed", ("pikeman",), 0, True),
    ],
    ids=["one-citizen", "two-citizens-missing", "and", "or", "not", "no", "fewer-than",
         "more-than", "not-exactly", "holdings-residence", "walls-house-no-one",
         "holdings-plus-hand", "citizens-without-homes", "citizens-with-homes",
         "no-citizens-housed"],
)
def test_conditions_read_the_hand_and_the_holdings(
    condition: str, cards: tuple[str, ...], holdings: int, expected: bool
) -> None:
    assert holds(parse_condition(condition), hand(*cards, holdings=holdings)) is expected


def test_conditions_list_the_tests_they_count_with_once_each() -> None:
    condition = parse_condition("1 citizen and (2 troops or not 1 citizen) and citizens housed")
    assert condition_tests(condition) == (
        CITIZENS, CardTest(type="personality", subtype="troop"))
    assert uses_residencies(condition)
    assert not uses_residencies(parse_condition("2 troops"))


@pytest.mark.parametrize(
    ("text", "english"),
    [
        (">= 2 structures with residencies", "at least 2 structures with residencies"),
        ("1 citizen", "at least 1 citizen"),
        ("no walls", "no walls"),
        ("at most 1 guild troop", "at most 1 guild troop"),
        ("(1 wall or 2 troops) and 3 open residences",
         "(at least 1 wall or at least 2 troops) and at least 3 open residences"),
    ],
    ids=["plural", "singular", "none", "faction", "grouped"],
)
def test_conditions_explain_themselves_in_english(text: str, english: str) -> None:
    assert describe(parse_condition(text)) == english


def test_a_step_rule_draws_from_the_first_pile_whose_condition_does_not_hold() -> None:
    strategy = parse_strategy(
        "personalities until 1 citizen, then structures until 1 structure with residencies, "
        "then personalities")
    assert strategy.choose(hand()) == "personalities"
    assert strategy.choose(hand("pikeman")) == "personalities"
    assert strategy.choose(hand("clerk")) == "structures"
    assert strategy.choose(hand("clerk", "shack")) == "structures"
    assert strategy.choose(hand("clerk", "house")) == "personalities"


def test_when_every_step_has_passed_the_other_pile_is_drawn() -> None:
    strategy = parse_strategy("structures until 1 wall")
    assert strategy.choose(hand()) == "structures"
    assert strategy.choose(hand("wall")) == "personalities"


def test_alternate_starts_with_structures_and_balances_the_hand() -> None:
    strategy = parse_strategy("alternate")
    sequence: list[Pile] = []
    held: list[tuple[str, Pile]] = []
    for _ in range(7):
        pile = strategy.choose(Hand(held))
        assert pile is not None
        sequence.append(pile)
        held.append(("shack" if pile == "structures" else "clerk", pile))
    assert [p[0] for p in sequence] == list("spspsps")


@pytest.mark.parametrize("k", range(8), ids=lambda k: f"K={k}")
def test_a_fixed_split_draws_its_structures_first(k: int) -> None:
    strategy = split_strategy(k)
    held: list[tuple[str, Pile]] = []
    for _ in range(7):
        pile = strategy.choose(Hand(held))
        assert pile is not None
        held.append(("shack" if pile == "structures" else "clerk", pile))
    assert [p for _, p in held] == ["structures"] * k + ["personalities"] * (7 - k)


def test_a_split_outside_the_hand_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match=r"0\.\.7"):
        split_strategy(8)


# --- picks ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("picks", "piles"),
    [("s,p,p", ("structures", "personalities", "personalities")),
     (" S , Personalities ", ("structures", "personalities")),
     (["structures", "p"], ("structures", "personalities")),
     ("", ())],
    ids=["letters", "words-and-spaces", "list", "none"],
)
def test_picks_are_read_from_letters_or_pile_names(picks: str | list[str],
                                                   piles: tuple[Pile, ...]) -> None:
    assert parse_picks(picks).picks == piles


@pytest.mark.parametrize(("picks", "position"),
                         [("s,p,x", 4), ("s , structures ,  q", 18), (["s", "x"], 1),
                          ("s,,p", 2)],
                         ids=["letters", "spaces", "list-index", "empty-pick"])
def test_a_bad_pick_is_an_error_at_its_position(picks: str | list[str], position: int) -> None:
    with pytest.raises(StrategyError) as raised:
        parse_picks(picks)
    assert raised.value.position == position


def test_picks_answer_in_order_then_wait_or_hand_over() -> None:
    picks = parse_picks("p,s")
    assert [picks.choose(Hand([], draws=n)) for n in range(3)] == [
        "personalities", "structures", None]
    more = PickStrategy(picks.picks, split_strategy(0))
    assert more.choose(Hand([], draws=2)) == "personalities"
    assert more.spec == "picks=p,s; then structures=0"


# --- properties -----------------------------------------------------------------------------

WORDS = st.sampled_from([
    "structures", "personalities", "alternate", "until", "then", ",", "and", "or", "not", "(",
    ")", "1", "2", "7", ">=", "=", "at", "least", "most", "no", "a", "citizen", "troops",
    "walls", "with", "residencies", "open", "residence", "card", '"Bell Tower"', "kalim",
    "guild", "battle", "events", "from", "the", "pile", "housed", "citizens", "s", "p",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=14).map(" ".join))
def test_any_word_salad_parses_or_fails_with_a_strategy_error(spec: str) -> None:
    try:
        parsed = parse_strategy(spec)
    except StrategyError as error:
        assert 0 <= error.position <= len(spec)
        return
    assert parsed.describe()
    assert parsed.choose(hand("clerk")) in ("structures", "personalities")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_parses_or_fails_with_a_spec_error(text: str) -> None:
    try:
        parse_condition(text)
    except SpecError as error:
        assert 0 <= error.position <= len(text)
