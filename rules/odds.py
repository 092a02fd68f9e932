"""Exact opening-hand odds over the two draw piles, goals, the split advisor and a sampler.

Pure Python, no Django; probabilities are :class:`fractions.Fraction` s, computed exactly. The
sampler (:func:`sample`) deals real hands with :mod:`rules.draws` and exists to be checked
against the exact values (and for what depends on play); nothing here samples when it can count.

What is counted
---------------

The opening hand is drawn from the Structure Pile (``S`` cards, the Initial Holdings taken out)
and the Personality Pile (``P`` cards) exactly as :func:`rules.draws.deal` draws it: one card at
a time, the strategy naming the pile, an empty pile sending the draw to the other one.

**A fixed split** ``structures=K`` draws ``s = min(K, S)`` structures and ``p = min(7 - s, P)``
personalities, then tops up from the Structure Pile if the Personality Pile ran short. A GROUP
(a set of card ids: one card, a type, a faction, a search query) has ``a`` cards in the
Structure Pile and ``b`` in the Personality Pile; the group's count in the hand is the sum of
two independent hypergeometrics, ``H(S, a, s) + H(P, b, p)``, whose distribution is their
convolution (:func:`split_group_odds`).

**Any strategy** (adaptive rules, picks, and the splits too) is a dynamic programme over the
draw sequence (:func:`hand_distribution`):

* Each card is put in a *class*: its pile, the answer of every card test the strategy (and the
  goal, when there is one) looks at, and, when residencies matter, its residencies. Cards of
  one class are interchangeable for every decision and every question asked.
* A state is the number of cards of each class drawn so far. The number drawn from each pile
  is the sum over that pile's classes, so the remaining composition and the hand size follow
  from the state. From a state the strategy names a pile (its conditions are evaluated on the
  class counts, through the same :class:`rules.draw_strategy.Tally` interface the dealer uses); each
  class ``c`` of that pile with ``r_c`` cards left is drawn with probability ``r_c / R``, ``R``
  the cards left in the pile.
* States are merged layer by layer (one layer per card drawn) and carry an integer weight, the
  sum over the paths reaching them of the product of the ``r_c``: since every path to a state
  draws the same number of cards from each pile, its probability is that weight divided by the
  falling factorials ``S (S-1) ... (S-s+1) * P (P-1) ... (P-p+1)``. Fractions are formed once,
  at the end. A 60-card deck gives at most a few hundred states.

Within a class, the strategy cannot tell cards apart, so *given the final count of each class*
the cards drawn from a class are a uniformly random subset of it, independent between classes.
So one programme over the strategy's own classes answers every per-card and per-group question
by hypergeometrics conditioned on the class counts (:func:`card_table`, :func:`group_odds`);
goals, which may combine several counts, refine the classes by the goal's tests instead
(:func:`goal_odds`). The tests check each way against the others and against the sampler.

Goals
-----

A goal is a condition in the language of :mod:`rules.draw_strategy` (``>= 1 citizen and >= 1 open
residence``, ``>= 1 structure with residencies and >= 2 personalities``, ``>= 1 card "Ember
Templar"``, ``(2 troops or 1 wall) and not 1 event``, ``>= 2 matching "t:troop off>=3"``), read
on the opening hand (and the holdings, for residences). ``open residences`` are the residencies
of the Initial Holdings plus those of the structures in the hand, walls excluded: nothing lives
in them before play, so all are open (whether the hand's structures can be paid for is not
modelled); ``citizens housed`` asks for at least as many open residences as citizens in the
hand. Errors are :class:`GoalError` with the position.

The split advisor (:func:`advise_split`) gives the exact probability of a goal for every fixed
split 0..7; the best is the most likely, and among equally likely splits the one with the
fewest structures (the Personality Pile holds the cards that act: personalities, items,
events).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from rules.draw_strategy import (
    HAND_SIZE,
    PILES,
    CardTest,
    Condition,
    Count,
    Pile,
    Resolver,
    SpecError,
    Strategy,
    condition_tests,
    describe,
    holds,
    parse_condition,
    residencies_of,
    split_strategy,
    uses_residencies,
)
from rules.draws import HandTally, Setup, draw_to_seven, shuffled
from rules.rng import Rng

type Vector = tuple[int, ...]
TABLE_COUNTS = (1, 2, 3)
#: The most states one layer of the programme may hold. A 60-card deck with the strategies and
#: goals people write needs a few hundred; a goal naming dozens of cards one by one could need
#: millions, and is refused instead of keeping a server busy.
MAX_STATES = 100_000


class GoalError(SpecError):
    code = "bad_goal"


class TooComplexError(ValueError):
    """The strategy and goal together separate the deck into too many classes of cards for
    the exact programme (see :data:`MAX_STATES`)."""

    code = "too_complex"

    def __init__(self, classes: int, states: int) -> None:
        super().__init__(
            f"The strategy and the goal split the deck into {classes} kinds of cards, which "
            f"needs more than {states:,} hand states to count exactly; ask about fewer "
            "separate cards or conditions at once.")
        self.message = str(self)


def fraction_text(value: Fraction) -> str:
    """``"p/q"``, always with the denominator (``"1/1"``, ``"0/1"``)."""
    return f"{value.numerator}/{value.denominator}"


def probability_dict(value: Fraction) -> dict[str, object]:
    """The contract's layout for one probability: ``{"probability": float, "exact": "p/q"}``."""
    return {"probability": float(value), "exact": fraction_text(value)}


# --- goals ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Goal:
    text: str
    condition: Condition

    def describe(self) -> str:
        return f"the opening hand holds {describe(self.condition)}"


def parse_goal(text: str, resolve: Resolver | None = None) -> Goal:
    """A goal (see the module docstring); raises :class:`GoalError` with the position."""
    return Goal(" ".join(text.split()), parse_condition(text, GoalError, resolve))


def group_goal(ids: Iterable[str], at_least: int, label: str = "cards of the group") -> Goal:
    """``>= at_least`` cards whose ids are ``ids``: a query as a goal (for the split advisor)."""
    test = CardTest(ids=frozenset(ids), label=label)
    return Goal(f">= {at_least} {label}", Count(test, ">=", at_least))


# --- hypergeometrics -----------------------------------------------------------------------


@lru_cache(maxsize=4096)
def hypergeometric(population: int, successes: int, draws: int) -> tuple[Fraction, ...]:
    """P(k successes) for k = 0..min(successes, draws), drawing ``draws`` of ``population``
    cards without replacement, ``successes`` of them successes."""
    total = comb(population, draws)
    return tuple(
        Fraction(comb(successes, k) * comb(population - successes, draws - k), total)
        for k in range(min(successes, draws) + 1)
    )


def convolve(first: Sequence[Fraction], second: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """The distribution of the sum of two independent counts."""
    out = [Fraction(0)] * (len(first) + len(second) - 1)
    for i, a in enumerate(first):
        if a:
            for j, b in enumerate(second):
                out[i + j] += a * b
    return tuple(out)


def at_least(pmf: Sequence[Fraction], k: int) -> Fraction:
    return sum(pmf[k:], Fraction(0))


def mean(pmf: Sequence[Fraction]) -> Fraction:
    return sum((k * p for k, p in enumerate(pmf)), Fraction(0))


def split_counts(structures: int, pile_s: int, pile_p: int) -> tuple[int, int]:
    """Cards drawn from each pile by ``structures=K`` when the piles hold ``pile_s`` and
    ``pile_p`` cards: K structures, the rest personalities, a short pile topped up by the
    other (as the dealer does)."""
    s = min(structures, pile_s)
    p = min(HAND_SIZE - s, pile_p)
    s = min(pile_s, HAND_SIZE - p)
    return s, p


# --- the dynamic programme -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardClass:
    """Interchangeable cards: one pile, the same answer to every test, the same residencies."""

    pile: Pile
    bits: tuple[bool, ...]
    residencies: int
    size: int
    cards: tuple[tuple[str, int], ...]  # (card id, copies), in pile order


class _StateTally:
    """The :class:`rules.draw_strategy.Tally` of a state of the programme."""

    __slots__ = ("_draws", "dist", "vector")

    def __init__(self, dist: HandDistribution, vector: Vector, draws: int) -> None:
        self.dist = dist
        self.vector = vector
        self._draws = draws

    def count(self, test: CardTest) -> int:
        vector = self.vector
        return sum(vector[i] for i in self.dist.members[test])

    def residencies(self) -> int:
        vector = self.vector
        return self.dist.base_residencies + sum(
            n * c.residencies for n, c in zip(vector, self.dist.classes, strict=True) if n)

    @property
    def draws(self) -> int:
        return self._draws


@dataclass(frozen=True)
class HandDistribution:
    """The exact distribution of the opening hand over card classes: every final state with
    its integer weight and the denominator that makes it a probability."""

    strategy: str
    classes: tuple[CardClass, ...]
    tests: tuple[CardTest, ...]
    members: Mapping[CardTest, tuple[int, ...]]  # test -> the classes it counts
    base_residencies: int
    states: tuple[tuple[Vector, int, int], ...]  # (class counts, weight, denominator)

    def tally(self, vector: Vector) -> _StateTally:
        return _StateTally(self, vector, sum(vector))

    def _sum(self, pairs: Iterable[tuple[int, int]]) -> Fraction:
        by_denominator: dict[int, int] = {}
        for weight, denominator in pairs:
            by_denominator[denominator] = by_denominator.get(denominator, 0) + weight
        return sum((Fraction(w, d) for d, w in by_denominator.items()), Fraction(0))

    def total(self) -> Fraction:
        """Always 1: a check of the programme."""
        return self._sum((w, d) for _, w, d in self.states)

    def probability(self, condition: Condition) -> Fraction:
        return self._sum((w, d) for v, w, d in self.states if holds(condition, self.tally(v)))

    def distribution(self, key: Callable[[Vector], tuple[int, ...]]
                     ) -> dict[tuple[int, ...], Fraction]:
        """P(key(final state) == x) for every x."""
        grouped: dict[tuple[int, ...], dict[int, int]] = {}
        for vector, weight, denominator in self.states:
            bucket = grouped.setdefault(key(vector), {})
            bucket[denominator] = bucket.get(denominator, 0) + weight
        return {
            x: sum((Fraction(w, d) for d, w in bucket.items()), Fraction(0))
            for x, bucket in grouped.items()
        }

    def count_pmf(self, test: CardTest) -> tuple[Fraction, ...]:
        """P(the hand holds k cards the test counts), k = 0.. (the test must be one of the
        programme's)."""
        members = self.members[test]
        found = self.distribution(lambda v: (sum(v[i] for i in members),))
        top = max(k for (k,) in found)
        return tuple(found.get((k,), Fraction(0)) for k in range(top + 1))

    def subset_pmf(self, parts: Sequence[tuple[int, int]]) -> tuple[Fraction, ...]:
        """P(k cards of a subset are drawn), the subset being ``parts``: (class index, how many
        of the class's cards are in it). Exact by the exchangeability of a class's cards."""
        if not parts:
            return (Fraction(1),)
        index = tuple(i for i, _ in parts)
        joint = self.distribution(lambda v: tuple(v[i] for i in index))
        out: list[Fraction] = [Fraction(0)] * (sum(m for _, m in parts) + 1)
        for drawn, chance in joint.items():
            pmf: tuple[Fraction, ...] = (Fraction(1),)
            for (i, m), n in zip(parts, drawn, strict=True):
                pmf = convolve(pmf, hypergeometric(self.classes[i].size, m, n))
            for k, p in enumerate(pmf):
                out[k] += chance * p
        while len(out) > 1 and out[-1] == 0:
            out.pop()
        return tuple(out)

    def class_of(self) -> dict[tuple[Pile, str], int]:
        """(pile, card id) -> the index of its class."""
        return {(c.pile, cid): i for i, c in enumerate(self.classes) for cid, _ in c.cards}


def hand_distribution(setup: Setup, strategy: Strategy, tests: Iterable[CardTest] = (),
                      residencies: bool = False) -> HandDistribution:
    """The exact distribution of the opening hand drawn by ``strategy``, over classes that
    separate the strategy's tests, ``tests`` and (if asked) residencies. See the module
    docstring. Raises :class:`TooComplexError` past :data:`MAX_STATES` states in a layer."""
    tests = tuple(dict.fromkeys((*strategy.tests(), *tests)))
    residencies = residencies or strategy.uses_residencies()
    keys: dict[tuple[Pile, tuple[bool, ...], int], dict[str, int]] = {}
    for pile in PILES:
        for cid in setup.pile(pile):
            card = setup.cards.get(cid)
            bits = tuple(setup.matches(t, cid, pile) for t in tests)
            res = residencies_of(card) if residencies else 0
            members = keys.setdefault((pile, bits, res), {})
            members[cid] = members.get(cid, 0) + 1
    classes = tuple(
        CardClass(pile, bits, res, sum(members.values()), tuple(members.items()))
        for (pile, bits, res), members in keys.items()
    )
    dist = HandDistribution(
        strategy.spec, classes, tests,
        {t: tuple(i for i, c in enumerate(classes) if c.bits[n]) for n, t in enumerate(tests)},
        setup.residencies, (),
    )
    sizes = {pile: len(setup.pile(pile)) for pile in PILES}
    in_pile = {pile: tuple(i for i, c in enumerate(classes) if c.pile == pile) for pile in PILES}
    structure_classes = in_pile["structures"]
    layer: dict[Vector, int] = {(0,) * len(classes): 1}
    final: dict[Vector, int] = {}
    for drawn in range(HAND_SIZE):
        following: dict[Vector, int] = {}
        for vector, weight in layer.items():
            chosen = strategy.choose(_StateTally(dist, vector, drawn))
            if chosen is None:
                final[vector] = weight
                continue
            pile = chosen
            from_s = sum(vector[i] for i in structure_classes)
            left = sizes[pile] - (from_s if pile == "structures" else drawn - from_s)
            if left == 0:
                pile = "personalities" if pile == "structures" else "structures"
                left = sizes[pile] - (from_s if pile == "structures" else drawn - from_s)
                if left == 0:
                    final[vector] = weight
                    continue
            for i in in_pile[pile]:
                remaining = classes[i].size - vector[i]
                if remaining:
                    step = (*vector[:i], vector[i] + 1, *vector[i + 1:])
                    following[step] = following.get(step, 0) + weight * remaining
        if len(following) > MAX_STATES:
            raise TooComplexError(len(classes), MAX_STATES)
        layer = following
    final.update(layer)
    states = []
    for vector, weight in final.items():
        from_s = sum(vector[i] for i in structure_classes)
        from_p = sum(vector) - from_s
        states.append((vector, weight, _falling(sizes["structures"], from_s)
                       * _falling(sizes["personalities"], from_p)))
    return HandDistribution(dist.strategy, classes, tests, dist.members, dist.base_residencies,
                            tuple(states))


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


# --- results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GroupOdds:
    """How many cards of a group the opening hand holds: the whole distribution."""

    strategy: str
    at_least: int
    in_structures: int  # the group's cards in the Structure Pile
    in_personalities: int
    pmf: tuple[Fraction, ...]  # P(exactly k), k = 0..

    @property
    def exact(self) -> Fraction:
        return at_least(self.pmf, self.at_least)

    @property
    def probability(self) -> float:
        return float(self.exact)

    @property
    def expected(self) -> Fraction:
        return mean(self.pmf)

    def to_dict(self) -> dict[str, object]:
        return {
            **probability_dict(self.exact),
            "at_least": self.at_least,
            "strategy": self.strategy,
            "expected": float(self.expected),
            "expected_exact": fraction_text(self.expected),
            "group_size": {"structures": self.in_structures,
                           "personalities": self.in_personalities,
                           "total": self.in_structures + self.in_personalities},
            "table": {str(k): probability_dict(at_least(self.pmf, k)) for k in TABLE_COUNTS},
            "distribution": [probability_dict(p) for p in self.pmf],
        }


def group_counts(setup: Setup, ids: frozenset[str]) -> tuple[int, int]:
    return (sum(1 for cid in setup.structures if cid in ids),
            sum(1 for cid in setup.personalities if cid in ids))


def split_group_odds(setup: Setup, structures: int, ids: Iterable[str],
                     at_least_n: int = 1) -> GroupOdds:
    """The closed form for a fixed split: the convolution of two hypergeometrics."""
    group = frozenset(ids)
    a, b = group_counts(setup, group)
    pile_s, pile_p = len(setup.structures), len(setup.personalities)
    s, p = split_counts(structures, pile_s, pile_p)
    pmf = convolve(hypergeometric(pile_s, a, s), hypergeometric(pile_p, b, p))
    return GroupOdds(f"structures={structures}", at_least_n, a, b, pmf)


def group_odds(setup: Setup, strategy: Strategy, ids: Iterable[str],
               at_least_n: int = 1) -> GroupOdds:
    """The group's count in the opening hand under any strategy (closed form for a split)."""
    group = frozenset(ids)
    if strategy.split is not None:
        odds = split_group_odds(setup, strategy.split, group, at_least_n)
        return GroupOdds(strategy.spec, at_least_n, odds.in_structures,
                         odds.in_personalities, odds.pmf)
    dist = hand_distribution(setup, strategy)
    parts: list[tuple[int, int]] = []
    for i, card_class in enumerate(dist.classes):
        m = sum(n for cid, n in card_class.cards if cid in group)
        if m:
            parts.append((i, m))
    a, b = group_counts(setup, group)
    return GroupOdds(strategy.spec, at_least_n, a, b, dist.subset_pmf(parts))


@dataclass(frozen=True, slots=True)
class CardOdds:
    card: str
    name: str
    pile: Pile
    copies: int
    pmf: tuple[Fraction, ...]

    def to_dict(self) -> dict[str, object]:
        expected = mean(self.pmf)
        return {
            "card": self.card, "name": self.name, "pile": self.pile, "copies": self.copies,
            "at_least_1": probability_dict(at_least(self.pmf, 1)),
            "at_least_2": probability_dict(at_least(self.pmf, 2)),
            "expected": float(expected), "expected_exact": fraction_text(expected),
        }


@dataclass(frozen=True)
class OddsTable:
    """For every distinct card of the two draw piles: P(>= 1), P(>= 2) and the expected
    copies in the opening hand (the NetrunnerDB table, exact over two piles)."""

    strategy: str
    rows: tuple[CardOdds, ...]

    def row(self, card: str) -> CardOdds:
        return next(r for r in self.rows if r.card == card)

    def to_dict(self) -> dict[str, object]:
        return {"strategy": self.strategy, "cards": [r.to_dict() for r in self.rows]}


def card_table(setup: Setup, strategy: Strategy) -> OddsTable:
    """:class:`OddsTable` for ``strategy``, in pile order (Structure Pile first, then deck
    order). A card in both piles (a misplaced copy) gets one row per pile."""
    rows: list[CardOdds] = []
    sizes = {pile: len(setup.pile(pile)) for pile in PILES}
    if strategy.split is not None:
        s, p = split_counts(strategy.split, sizes["structures"], sizes["personalities"])
        drawn = {"structures": s, "personalities": p}
        for pile in PILES:
            for cid, copies in _copies(setup.pile(pile)).items():
                pmf = hypergeometric(sizes[pile], copies, drawn[pile])
                rows.append(CardOdds(cid, setup.name(cid), pile, copies, pmf))
        return OddsTable(strategy.spec, tuple(rows))
    dist = hand_distribution(setup, strategy)
    where = dist.class_of()
    for pile in PILES:
        for cid, copies in _copies(setup.pile(pile)).items():
            pmf = dist.subset_pmf([(where[(pile, cid)], copies)])
            rows.append(CardOdds(cid, setup.name(cid), pile, copies, pmf))
    return OddsTable(strategy.spec, tuple(rows))


def _copies(pile: Sequence[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for cid in pile:
        found[cid] = found.get(cid, 0) + 1
    return found


@dataclass(frozen=True)
class GoalOdds:
    goal: Goal
    strategy: str
    exact: Fraction

    @property
    def probability(self) -> float:
        return float(self.exact)

    def to_dict(self) -> dict[str, object]:
        return {**probability_dict(self.exact), "goal": self.goal.text,
                "explained": self.goal.describe(), "strategy": self.strategy}


def goal_odds(setup: Setup, strategy: Strategy, goal: Goal) -> GoalOdds:
    """P(the goal holds for the opening hand), exactly."""
    dist = hand_distribution(setup, strategy, condition_tests(goal.condition),
                             uses_residencies(goal.condition))
    return GoalOdds(goal, strategy.spec, dist.probability(goal.condition))


@dataclass(frozen=True)
class SplitAdvice:
    goal: Goal
    splits: tuple[Fraction, ...]  # index K: P(goal) for structures=K

    @property
    def best(self) -> int:
        """The most likely split; ties go to the fewest structures."""
        return max(range(len(self.splits)), key=lambda k: (self.splits[k], -k))

    def to_dict(self) -> dict[str, object]:
        return {
            "goal": self.goal.text,
            "explained": self.goal.describe(),
            "splits": [{"structures": k, "personalities": HAND_SIZE - k, **probability_dict(p)}
                       for k, p in enumerate(self.splits)],
            "best": {"structures": self.best, "strategy": f"structures={self.best}",
                     **probability_dict(self.splits[self.best])},
        }


def advise_split(setup: Setup, goal: Goal) -> SplitAdvice:
    """P(goal) for every fixed split 0..7 (see the module docstring for the best one)."""
    return SplitAdvice(goal, tuple(
        goal_odds(setup, split_strategy(k), goal).exact for k in range(HAND_SIZE + 1)))


# --- the sampler ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Estimate:
    """How often something held in ``samples`` dealt hands."""

    hits: int
    samples: int

    @property
    def frequency(self) -> float:
        return self.hits / self.samples if self.samples else 0.0

    def standard_error(self, exact: Fraction) -> float:
        """The standard error of the frequency if ``exact`` is the true probability."""
        p = float(exact)
        return (p * (1 - p) / self.samples) ** 0.5 if self.samples else 0.0

    def agrees(self, exact: Fraction, sigmas: float = 4.0) -> bool:
        """Within ``sigmas`` standard errors of ``exact`` (equal, when exact is 0 or 1)."""
        return abs(self.frequency - float(exact)) <= sigmas * self.standard_error(exact) + 1e-12

    def to_dict(self) -> dict[str, object]:
        return {"hits": self.hits, "samples": self.samples, "frequency": self.frequency}


def sample(setup: Setup, strategy: Strategy, samples: int, seed: int | str,
           holds_for: Callable[[HandTally], bool]) -> Estimate:
    """Deal ``samples`` opening hands with the real dealer (one :class:`Rng` seeded with
    ``seed`` shuffles them all, in order) and count those for which ``holds_for`` is true."""
    rng = Rng(seed)
    hits = 0
    for _ in range(samples):
        piles = shuffled(setup, rng)
        hand: list[tuple[str, Pile]] = []
        draw_to_seven(setup, piles, hand, strategy, 0)
        if holds_for(HandTally(setup, hand, len(hand))):
            hits += 1
    return Estimate(hits, samples)


def sample_goal(setup: Setup, strategy: Strategy, goal: Goal, samples: int,
                seed: int | str) -> Estimate:
    return sample(setup, strategy, samples, seed, lambda t: holds(goal.condition, t))


def sample_group(setup: Setup, strategy: Strategy, ids: Iterable[str], at_least_n: int,
                 samples: int, seed: int | str) -> Estimate:
    test = CardTest(ids=frozenset(ids))
    return sample(setup, strategy, samples, seed, lambda t: t.count(test) >= at_least_n)
