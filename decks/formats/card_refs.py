"""What the deck formats know about catalogue cards: :class:`CardRef`, and a resolver's
answers (:class:`Unresolved`, :data:`Resolution`). Pure Python, no Django. The decklist itself
(:class:`rules.decklist.Decklist`, :class:`DeckEntry`, the section names and player limits) is
in :mod:`rules.decklist`, so that the rules package can use it without depending on this app.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class CardRef:
    """What a format needs to know about a catalogue card: what a resolver returns."""

    id: str
    name: str
    type: str | None
    faction: str | None


@dataclass(frozen=True)
class Unresolved:
    """A name that did not resolve to exactly one card.

    ``unknown``: no card matches; ``candidates`` are the closest cards, best first, including
    every card that shares a suggested name (so that the suggestions can be disambiguated).
    ``ambiguous``: several cards match; ``candidates`` are all of them.
    """

    reason: Literal["unknown", "ambiguous"]
    candidates: tuple[CardRef, ...] = ()


type Resolution = CardRef | Unresolved
