"""Dealing an opening hand by the rules, and drawing back to seven in the rounds after it.

Pure Python, no Django; every shuffle goes through :class:`rules.rng.Rng`, so the same deck,
seed and strategy always give the same hand, whatever else uses Python's ``random``.

Setup (:func:`prepare`), in the rulebook's order ("Setup", "Initial Holdings"):

1. The player has 4 economic, 4 religious and 4 political tokens.
2. The Initial Holdings are the deck's own when they include a stronghold
   (``holdings_source == "deck"``); otherwise the holdings advisor's
   (:func:`rules.holdings.advise_holdings` over the deck's structures, ``"advisor"``), with the
   advisor's explanation as the note; if the advisor finds no legal holdings the deal goes on
   with none and the note says why. Holdings the advisor takes leave the Structure Pile; cards
   of the deck's own non-stronghold holdings go back to it (:func:`rules.holdings.apply_advice`).
3. They are bought from the tokens (:func:`pay`): each structure's typed costs from their own
   colour, then every generic cost one token at a time from the colour with the most tokens
   left (ties: economic, then religious, then political), which leaves the most balanced pool
   possible. Unknown (null) costs count 0 and are listed in the notes; a cost the tokens cannot
   cover (an illegal deck) is reported as ``unpaid`` rather than refused, so that any deck can
   be test-drawn.

Dealing (:func:`deal`):

4. Each pile is a list in deck order with the copies expanded (the Structure Pile *without* the
   holdings); ``Rng(seed)`` shuffles the Structure, the Personality and the Wanderer Pile, in
   that order. A pile is drawn from its end. Nothing is revealed from the Wanderer Pile.
5. The hand is drawn to seven one card at a time; before each draw the strategy
   (:mod:`rules.draw_strategy`) sees the hand so far and names a pile. An empty pile is never drawn
   from: the other pile is; when both are empty the hand stays short. Recycling a pile costs 5
   tokens and needs a discard pile: before play the discard piles are empty, so the opening
   deal never recycles, and :func:`next_round` does not either (played cards go into play, not
   to a discard pile), so there is never anything to recycle here.
6. A :class:`~rules.draw_strategy.PickStrategy` may run out of picks: the deal then stops with
   ``waiting`` set and the hand short, and replaying the same seed with more picks continues it.

:func:`next_round` removes the played cards from the hand and draws back to seven the same way.
Results are immutable; :meth:`Deal.to_dict` gives the JSON shape of the ``draw`` command.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Final, Literal

from rules.cards import CardFacts
from rules.decklist import DeckEntry, Decklist
from rules.draw_strategy import (
    HAND_SIZE,
    CardTest,
    Pile,
    Strategy,
    other_pile,
    residencies_of,
)
from rules.holdings import advise_holdings, apply_advice, deck_structures
from rules.rng import Rng

type HoldingsSource = Literal["deck", "advisor"]
type Cost = tuple[int, int, int, int]  # economic, religious, political, generic

TOKENS_PER_KIND: Final = 4


class DealError(ValueError):
    """A request the deal cannot follow (e.g. playing a card that is not in the hand)."""


@dataclass(frozen=True, slots=True)
class Tokens:
    economic: int
    religious: int
    political: int

    @property
    def total(self) -> int:
        return self.economic + self.religious + self.political

    def to_dict(self) -> dict[str, int]:
        return {"economic": self.economic, "religious": self.religious,
                "political": self.political}


STARTING_TOKENS: Final = Tokens(TOKENS_PER_KIND, TOKENS_PER_KIND, TOKENS_PER_KIND)


def holding_cost(card: CardFacts) -> Cost:
    """What buying a structure costs: (economic, religious, political, generic); unknown (null)
    costs count 0. (A public twin of the validator's private helper, which returns None for an
    unknown generic cost.)"""
    return (card.cost_economic or 0, card.cost_religious or 0, card.cost_political or 0,
            card.cost_generic or 0)


def pay(costs: Iterable[Cost], tokens: Tokens = STARTING_TOKENS) -> tuple[Tokens, int]:
    """The tokens left after paying ``costs``, and how much could not be paid.

    Typed costs come from their own colour; then the generic costs, one token at a time, from
    the colour with the most left (ties: economic, religious, political): of all the ways to pay,
    this leaves the pool whose smallest colour is largest, and is the same every time.
    """
    left = [tokens.economic, tokens.religious, tokens.political]
    unpaid = 0
    generic = 0
    for cost in costs:
        for colour in range(3):
            take = min(left[colour], cost[colour])
            left[colour] -= take
            unpaid += cost[colour] - take
        generic += cost[3]
    for _ in range(generic):
        colour = max(range(3), key=lambda c: (left[c], -c))
        if left[colour] == 0:
            unpaid += 1
            continue
        left[colour] -= 1
    return Tokens(*left), unpaid


@dataclass(frozen=True)
class Setup:
    """Everything fixed before the shuffle: the holdings bought, the tokens left, and the
    three piles in deck order (copies expanded, holdings taken out)."""

    holdings: tuple[DeckEntry, ...]
    holdings_source: HoldingsSource
    holdings_note: str
    tokens: Tokens
    unpaid: int
    residencies: int  # the holdings' residencies (walls house no one)
    structures: tuple[str, ...]
    personalities: tuple[str, ...]
    wanderers: tuple[str, ...]
    notes: tuple[str, ...] = ()
    cards: Mapping[str, CardFacts] = field(default_factory=dict, compare=False, repr=False)
    _memo: dict[tuple[CardTest, str, Pile], bool] = field(
        default_factory=dict, compare=False, repr=False)

    def pile(self, pile: Pile) -> tuple[str, ...]:
        return self.structures if pile == "structures" else self.personalities

    def name(self, card_id: str) -> str:
        card = self.cards.get(card_id)
        return card.name if card is not None and card.name else card_id

    def matches(self, test: CardTest, card_id: str, pile: Pile) -> bool:
        """``test.matches`` for a card of this deck, remembered."""
        key = (test, card_id, pile)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = test.matches(self.cards.get(card_id), card_id, pile)
        return found

    def to_dict(self) -> dict[str, object]:
        return {
            "holdings": [{"id": e.card_id, "count": e.count, "name": self.name(e.card_id)}
                         for e in self.holdings],
            "holdings_source": self.holdings_source,
            "holdings_note": self.holdings_note,
            "tokens": self.tokens.to_dict(),
            "unpaid": self.unpaid,
            "residencies": self.residencies,
        }


def prepare(deck: Decklist, cards: Mapping[str, CardFacts]) -> Setup:
    """Holdings, tokens and unshuffled piles for ``deck`` (see the module docstring)."""
    own = any((c := cards.get(e.card_id)) is not None and c.is_stronghold for e in deck.holdings)
    notes: list[str] = []
    if own:
        source: HoldingsSource = "deck"
        note = "The deck's own Initial Holdings (they include a stronghold)."
        dealt = deck
    else:
        advice = advise_holdings(deck_structures(deck), cards)
        source, note = "advisor", advice.explanation
        dealt = apply_advice(deck, advice)
    costs: list[Cost] = []
    residencies = 0
    for entry in dealt.holdings:
        card = cards.get(entry.card_id)
        if card is None:
            continue
        if card.cost_generic is None:
            notes.append(f"{card.name}'s cost is not known yet; it was counted as 0.")
        costs += [holding_cost(card)] * entry.count
        residencies += residencies_of(card) * entry.count
    tokens, unpaid = pay(costs)
    if unpaid:
        notes.append(f"The Initial Holdings cost {unpaid} more than the 12 starting tokens.")
    ids = {e.card_id for _, e in dealt.all_entries()}
    return Setup(
        dealt.holdings, source, note, tokens, unpaid, residencies,
        _expand(dealt.structures), _expand(dealt.personalities), _expand(dealt.wanderers),
        tuple(notes), MappingProxyType({cid: cards[cid] for cid in sorted(ids) if cid in cards}),
    )


def _expand(entries: Sequence[DeckEntry]) -> tuple[str, ...]:
    return tuple(e.card_id for e in entries for _ in range(e.count))


# --- dealing --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    """One card drawn: which, from which pile, in which round, and its number in the deal."""

    card: str
    name: str
    pile: Pile
    round: int
    number: int

    def to_dict(self) -> dict[str, object]:
        return {"card": self.card, "name": self.name, "pile": self.pile, "round": self.round,
                "draw": self.number}


class HandTally:
    """The :class:`rules.draw_strategy.Tally` of a hand being dealt."""

    __slots__ = ("_draws", "hand", "setup")

    def __init__(self, setup: Setup, hand: Sequence[tuple[str, Pile]], draws: int) -> None:
        self.setup = setup
        self.hand = hand
        self._draws = draws

    def count(self, test: CardTest) -> int:
        matches = self.setup.matches
        return sum(1 for cid, pile in self.hand if matches(test, cid, pile))

    def residencies(self) -> int:
        cards = self.setup.cards
        return self.setup.residencies + sum(residencies_of(cards.get(cid)) for cid, _ in self.hand)

    @property
    def draws(self) -> int:
        return self._draws


def shuffled(setup: Setup, rng: Rng) -> dict[str, list[str]]:
    """The three piles shuffled by ``rng``: Structure, Personality, Wanderer, in that order."""
    structures, personalities, wanderers = (
        list(setup.structures), list(setup.personalities), list(setup.wanderers))
    rng.shuffle(structures)
    rng.shuffle(personalities)
    rng.shuffle(wanderers)
    return {"structures": structures, "personalities": personalities, "wanderers": wanderers}


def draw_to_seven(
    setup: Setup, piles: Mapping[str, list[str]], hand: list[tuple[str, Pile]],
    strategy: Strategy, drawn: int,
) -> tuple[list[tuple[str, Pile]], bool]:
    """Draw into ``hand`` (changed in place) from the ends of ``piles`` (changed in place) until
    it holds seven; returns the cards drawn and whether the strategy stopped (picks ran out)."""
    new: list[tuple[str, Pile]] = []
    while len(hand) < HAND_SIZE:
        pile = strategy.choose(HandTally(setup, hand, drawn + len(new)))
        if pile is None:
            return new, True
        if not piles[pile]:
            pile = other_pile(pile)
            if not piles[pile]:
                break
        card = (piles[pile].pop(), pile)
        hand.append(card)
        new.append(card)
    return new, False


@dataclass(frozen=True)
class Deal:
    """A deal in progress: the hand and how it was drawn. ``hand`` is in draw order; ``draws``
    is every draw of the deal (all rounds); the piles left are hidden state (their sizes are
    public): a pile's top is the end of its tuple."""

    seed: int | str
    strategy: Strategy
    setup: Setup
    hand: tuple[Draw, ...]
    draws: tuple[Draw, ...]
    round: int = 0
    played: tuple[str, ...] = ()
    waiting: bool = False
    structure_pile: tuple[str, ...] = field(default=(), repr=False)
    personality_pile: tuple[str, ...] = field(default=(), repr=False)
    wanderer_pile: tuple[str, ...] = field(default=(), repr=False)

    @property
    def complete(self) -> bool:
        return len(self.hand) == HAND_SIZE

    @property
    def hand_ids(self) -> tuple[str, ...]:
        return tuple(d.card for d in self.hand)

    def to_dict(self) -> dict[str, object]:
        notes = list(self.setup.notes)
        if self.waiting:
            notes.append(f"Waiting for the next pick: the hand holds {len(self.hand)} of "
                         f"{HAND_SIZE}.")
        elif not self.complete:
            notes.append("Both draw piles are empty: the hand stays short (nothing to recycle).")
        return {
            "seed": self.seed,
            "strategy": self.strategy.spec,
            "strategy_explained": self.strategy.describe(),
            "round": self.round,
            **self.setup.to_dict(),
            "hand": [d.to_dict() for d in self.hand],
            "drawn": [d.to_dict() for d in self.draws if d.round == self.round],
            "played": list(self.played),
            "piles": {"structures": len(self.structure_pile),
                      "personalities": len(self.personality_pile),
                      "wanderers": len(self.wanderer_pile)},
            "complete": self.complete,
            "waiting": self.waiting,
            "notes": notes,
        }


def deal(deck: Decklist, cards: Mapping[str, CardFacts], seed: int | str,
         strategy: Strategy) -> Deal:
    """The opening hand of ``deck`` for ``seed``, drawn as ``strategy`` decides."""
    return deal_setup(prepare(deck, cards), seed, strategy)


def deal_setup(setup: Setup, seed: int | str, strategy: Strategy) -> Deal:
    """:func:`deal` for a prepared setup (to deal many hands of one deck)."""
    piles = shuffled(setup, Rng(seed))
    hand: list[tuple[str, Pile]] = []
    new, waiting = draw_to_seven(setup, piles, hand, strategy, 0)
    draws = tuple(Draw(cid, setup.name(cid), pile, 0, n + 1) for n, (cid, pile) in
                  enumerate(new))
    return Deal(seed, strategy, setup, draws, draws, 0, (), waiting,
                tuple(piles["structures"]), tuple(piles["personalities"]),
                tuple(piles["wanderers"]))


def next_round(deal: Deal, played: Sequence[str], strategy: Strategy | None = None) -> Deal:
    """The next round's hand: the ``played`` cards (ids, one per copy) leave the hand, then it
    is drawn back to seven as ``strategy`` (default: the deal's own) decides."""
    hand = list(deal.hand)
    for cid in played:
        index = next((i for i, d in enumerate(hand) if d.card == cid), None)
        if index is None:
            raise DealError(f"{deal.setup.name(cid)!r} ({cid}) is not in the hand")
        del hand[index]
    strategy = strategy or deal.strategy
    piles: dict[str, list[str]] = {"structures": list(deal.structure_pile),
                                    "personalities": list(deal.personality_pile)}
    held = [(d.card, d.pile) for d in hand]
    new, waiting = draw_to_seven(deal.setup, piles, held, strategy, len(deal.draws))
    round_ = deal.round + 1
    fresh = tuple(Draw(cid, deal.setup.name(cid), pile, round_, len(deal.draws) + n + 1)
                  for n, (cid, pile) in enumerate(new))
    return replace(
        deal, strategy=strategy, hand=(*hand, *fresh), draws=(*deal.draws, *fresh),
        round=round_, played=(*deal.played, *played), waiting=waiting,
        structure_pile=tuple(piles["structures"]),
        personality_pile=tuple(piles["personalities"]),
    )
