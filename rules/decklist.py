"""The deck as plain data: the four parts of a deck (docs/design.md §5) and its canonical form.

Pure Python, no Django. Every deck format (``decks/formats``), the deck validator
(:mod:`rules.deck_rules`), the Initial Holdings advisor (:mod:`rules.holdings`) and the Django
app share these dataclasses; the app converts its models to them at one adapter.

A :class:`Decklist` keeps itself in a canonical form, so that two decks with the same content
compare equal whatever way they were built (and ``parse(render(deck)) == deck`` can hold):

* the entries of a section keep the order they were given in, and repeated entries of one
  card in one section are merged into the first, their counts summed;
* the name is one line: whitespace runs become one space, the ends are trimmed;
* the description uses ``\\n`` line breaks, has no trailing spaces on its lines and no blank
  lines at its start or end.

A count below 1 or a player count outside 2..6 is a programming error (``ValueError``):
input from users is checked by the format parsers, which report it as a line error instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

type SectionName = Literal["holdings", "structures", "personalities", "wanderers"]

SECTIONS: Final[tuple[SectionName, ...]] = ("holdings", "structures", "personalities", "wanderers")
SECTION_TITLES: Final[Mapping[SectionName, str]] = MappingProxyType(
    {
        "holdings": "Initial Holdings",
        "structures": "Structure Pile",
        "personalities": "Personality Pile",
        "wanderers": "Wanderer Pile",
    }
)

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
DEFAULT_PLAYERS: Final = 4


@dataclass(frozen=True)
class DeckEntry:
    card_id: str
    count: int


@dataclass(frozen=True)
class Decklist:
    name: str
    players: int = DEFAULT_PLAYERS
    description: str = ""
    holdings: tuple[DeckEntry, ...] = ()
    structures: tuple[DeckEntry, ...] = ()
    personalities: tuple[DeckEntry, ...] = ()
    wanderers: tuple[DeckEntry, ...] = ()

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {self.players}")
        # Frozen: the canonical form is set once, here, through object.__setattr__.
        object.__setattr__(self, "name", normalize_deck_name(self.name))
        object.__setattr__(self, "description", normalize_description(self.description))
        for section in SECTIONS:
            object.__setattr__(self, section, merge_entries(getattr(self, section)))

    def section(self, name: SectionName) -> tuple[DeckEntry, ...]:
        """The entries of one section; ``name`` is one of :data:`SECTIONS`."""
        if name not in SECTIONS:
            raise ValueError(f"unknown deck section {name!r}; expected one of {SECTIONS}")
        entries: tuple[DeckEntry, ...] = getattr(self, name)
        return entries

    def total(self, name: SectionName) -> int:
        """How many cards one section holds."""
        return sum(entry.count for entry in self.section(name))

    def all_entries(self) -> tuple[tuple[SectionName, DeckEntry], ...]:
        """Every (section, entry) pair, sections in the order of :data:`SECTIONS`."""
        return tuple((name, entry) for name in SECTIONS for entry in self.section(name))


def merge_entries(entries: Iterable[DeckEntry]) -> tuple[DeckEntry, ...]:
    """The entries in first-seen order, repeated cards merged by summing their counts."""
    counts: dict[str, int] = {}
    for entry in entries:
        if entry.count < 1:
            raise ValueError(f"count of {entry.card_id!r} must be at least 1, not {entry.count}")
        counts[entry.card_id] = counts.get(entry.card_id, 0) + entry.count
    return tuple(DeckEntry(card_id, count) for card_id, count in counts.items())


def normalize_deck_name(name: str) -> str:
    return " ".join(name.split())


def normalize_description(description: str) -> str:
    lines = description.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip("\n")
