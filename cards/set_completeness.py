"""How much of a set is known: per anatomy field, how many of the cards that print it are
transcribed; and for a set with a declared size, the checklist of its numbers (each complete,
partly transcribed, known only by name, or missing). Pure over card data dicts."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules import card_anatomy


@dataclass(frozen=True)
class FieldCompleteness:
    number: int
    label: str
    known: int
    applicable: int

    @property
    def percent(self) -> int:
        return round(100 * self.known / self.applicable) if self.applicable else 100


def completeness(cards: Iterable[Mapping[str, Any]]) -> list[FieldCompleteness]:
    rows = list(cards)
    result = []
    for field in card_anatomy.ANATOMY:
        applicable = [c for c in rows if field.applies_to(c.get("type"), c.get("subtype"))]
        known = [c for c in applicable if all(c.get(k) is not None for k in field.keys)]
        result.append(FieldCompleteness(field.number, field.label, len(known), len(applicable)))
    return result


# The checklist of a set with a declared size: every collector number from 1 to the size.
COMPLETE, PARTIAL, NAME_ONLY, MISSING = "complete", "partial", "name_only", "missing"
STATES: dict[str, str] = {
    COMPLETE: "complete",
    PARTIAL: "partly transcribed",
    NAME_ONLY: "known only by name",
    MISSING: "missing",
}
# Facts a public checklist gives with the name (shared/data): a card known by these alone is
# still "known only by name" as far as its printed text and numbers go.
_CHECKLIST_KEYS = frozenset({"name", "faction"})
_NUMBER = re.compile(r"^0*(\d{1,5})(?:\s*/\s*\d+)?$")  # "7", "007", "7/220"


@dataclass(frozen=True)
class ChecklistCard:
    id: str
    name: str
    state: str
    faction: str | None = None  # tells apart cards that share a name (three Bowmen)


@dataclass(frozen=True)
class Slot:
    number: int
    state: str  # the most complete of its cards' states, or MISSING
    cards: tuple[ChecklistCard, ...]  # usually one; more means a number given twice

    @property
    def label(self) -> str:
        return STATES[self.state]


@dataclass(frozen=True)
class Checklist:
    size: int
    slots: list[Slot]
    unnumbered: list[ChecklistCard]  # no number, or one that is not a slot of the set
    counts: dict[str, int]  # slots per state

    @property
    def known(self) -> int:
        return self.size - self.counts[MISSING]

    @property
    def unnumbered_complete(self) -> int:
        return sum(1 for c in self.unnumbered if c.state == COMPLETE)

    @property
    def unnumbered_counts(self) -> dict[str, int]:
        """The cards without a known number, per state (the slots' counts leave them out)."""
        return {state: sum(1 for c in self.unnumbered if c.state == state)
                for state in (COMPLETE, PARTIAL, NAME_ONLY)}


def card_state(card: Mapping[str, Any]) -> str:
    """Complete (nothing printed is unknown), known only by name (nothing printed but its name
    and faction is known), or partly transcribed."""
    if not card_anatomy.unknown_fields(card):
        return COMPLETE
    printed = card_anatomy.applicable_keys(card.get("type"), card.get("subtype"))
    if all(card.get(k) is None for k in printed if k not in _CHECKLIST_KEYS):
        return NAME_ONLY
    return PARTIAL


def slot_number(number: object, size: int) -> int | None:
    """The slot a collector number fills, or None when it is not one of 1..size."""
    found = _NUMBER.match(number.strip()) if isinstance(number, str) else None
    if found is None:
        return None
    value = int(found.group(1))
    return value if 1 <= value <= size else None


def checklist(cards: Iterable[Mapping[str, Any]], size: int) -> Checklist:
    by_slot: dict[int, list[ChecklistCard]] = {}
    unnumbered: list[ChecklistCard] = []
    for card in cards:
        faction = card_anatomy.FACTIONS.get(card.get("faction") or "")
        entry = ChecklistCard(str(card["id"]), str(card["name"]), card_state(card), faction)
        slot = slot_number(card.get("number"), size)
        if slot is None:
            unnumbered.append(entry)
        else:
            by_slot.setdefault(slot, []).append(entry)
    order = [COMPLETE, PARTIAL, NAME_ONLY, MISSING]
    slots = []
    for number in range(1, size + 1):
        held = tuple(by_slot.get(number, ()))
        state = min((c.state for c in held), key=order.index, default=MISSING)
        slots.append(Slot(number, state, held))
    counts = {state: sum(1 for s in slots if s.state == state) for state in order}
    return Checklist(size, slots, unnumbered, counts)
