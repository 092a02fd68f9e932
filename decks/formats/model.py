"""The deck as plain data, shared by every deck format (text, JSON, CSV, deck code, PDF).

Pure Python, no Django. The deck itself (:class:`Deck`, :class:`DeckEntry`, the section names
and player limits, the canonical-form helpers) lives in :mod:`rules.decklist`, so that the
rules package (the deck validator, the holdings advisor, the engine) can use it without
depending on this app; it is re-exported here unchanged, so ``from decks.formats.model import
Deck`` keeps working. What only the formats need stays here: :class:`CardRef` (what a format
knows about a catalogue card) and the resolver's answers (:class:`Unresolved`,
:data:`Resolution`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.decklist import DEFAULT_PLAYERS as DEFAULT_PLAYERS
from rules.decklist import MAX_PLAYERS as MAX_PLAYERS
from rules.decklist import MIN_PLAYERS as MIN_PLAYERS
from rules.decklist import SECTION_TITLES as SECTION_TITLES
from rules.decklist import SECTIONS as SECTIONS
from rules.decklist import Deck as Deck
from rules.decklist import DeckEntry as DeckEntry
from rules.decklist import SectionName as SectionName
from rules.decklist import merge_entries as merge_entries
from rules.decklist import normalize_deck_name as normalize_deck_name
from rules.decklist import normalize_description as normalize_description


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
