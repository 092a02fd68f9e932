"""Which owned copies each deck can use: the collection shared out among sleeved decks.

Pure Python, no Django. A sleeved deck is built from real cards, so its copies are not free
for any other deck. :func:`allocate` shares the owned copies out among the sleeved decks in
the order given (the adapter passes them by creation date, then id, so the oldest deck keeps
its cards): each deck takes, card by card, as many of the copies it needs as are still free,
and what it cannot get is its shortfall. Two decks therefore never count the same physical
card, and the answer depends only on the counts and that order.

A sleeved deck can then use the copies it took; any other deck (unsleeved, or someone else's
public deck) can use the free copies, those no sleeved deck holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rules.decklist import Decklist


def deck_needs(deck: Decklist) -> dict[str, int]:
    """Copies of each card the deck holds, all parts together, in the deck's order."""
    needs: dict[str, int] = {}
    for _, entry in deck.all_entries():
        needs[entry.card_id] = needs.get(entry.card_id, 0) + entry.count
    return needs


@dataclass(frozen=True)
class CardNeed:
    """One card of a deck against the collection."""

    card_id: str
    needed: int
    owned: int  # copies in the collection
    elsewhere: int  # of those, held by other sleeved decks
    have: int  # copies this deck can use, at most ``needed``

    @property
    def missing(self) -> int:
        return self.needed - self.have


@dataclass(frozen=True)
class Ownership:
    """A deck against the collection: can it be built now, and what is missing."""

    cards: tuple[CardNeed, ...]

    @property
    def needed(self) -> int:
        return sum(c.needed for c in self.cards)

    @property
    def have(self) -> int:
        return sum(c.have for c in self.cards)

    @property
    def missing(self) -> int:
        return self.needed - self.have

    @property
    def buildable(self) -> bool:
        return self.missing == 0

    def missing_cards(self) -> dict[str, int]:
        return {c.card_id: c.missing for c in self.cards if c.missing}


@dataclass(frozen=True)
class DeckShare:
    """What one sleeved deck took from the collection, and what it lacks."""

    deck: int
    taken: Mapping[str, int]
    short: Mapping[str, int]


@dataclass(frozen=True)
class Allocation:
    owned: Mapping[str, int]
    decks: tuple[DeckShare, ...]
    _held: Mapping[str, int] = field(default_factory=dict, repr=False)

    def held(self, card_id: str) -> int:
        """Copies of the card in sleeved decks."""
        return self._held.get(card_id, 0)

    def free(self, card_id: str) -> int:
        return self.owned.get(card_id, 0) - self.held(card_id)

    def share(self, deck: int) -> DeckShare | None:
        return next((share for share in self.decks if share.deck == deck), None)

    def ownership(self, needs: Mapping[str, int], deck: int | None = None) -> Ownership:
        """``needs`` against the collection: a sleeved deck of this allocation uses the copies
        it took; any other deck the free copies."""
        share = self.share(deck) if deck is not None else None
        cards = []
        for card_id, needed in needs.items():
            if share is not None:
                have = share.taken.get(card_id, 0)
                elsewhere = self.held(card_id) - have
            else:
                elsewhere = self.held(card_id)
                have = min(needed, self.free(card_id))
            cards.append(CardNeed(card_id, needed, self.owned.get(card_id, 0), elsewhere, have))
        return Ownership(tuple(cards))


def allocate(owned: Mapping[str, int],
             decks: Sequence[tuple[int, Mapping[str, int]]]) -> Allocation:
    """Share ``owned`` (copies per card id) out among ``decks`` ((deck id, needs) pairs, the
    first in the list served first)."""
    free = {card_id: count for card_id, count in owned.items() if count > 0}
    shares = []
    for deck, needs in decks:
        taken: dict[str, int] = {}
        short: dict[str, int] = {}
        for card_id, needed in needs.items():
            got = min(needed, free.get(card_id, 0))
            if got:
                taken[card_id] = got
                free[card_id] -= got
            if needed > got:
                short[card_id] = needed - got
        shares.append(DeckShare(deck, taken, short))
    return Allocation(dict(owned), tuple(shares), _held=_held_copies(shares))


def _held_copies(shares: Iterable[DeckShare]) -> dict[str, int]:
    held: dict[str, int] = {}
    for share in shares:
        for card_id, count in share.taken.items():
            held[card_id] = held.get(card_id, 0) + count
    return held
