"""How much of a set is known: per anatomy field, how many of the cards that print it are
transcribed. Pure over card data dicts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules import card_facts


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
    for field in card_facts.ANATOMY:
        applicable = [c for c in rows if field.applies_to(c.get("type"), c.get("subtype"))]
        known = [c for c in applicable if all(c.get(k) is not None for k in field.keys)]
        result.append(FieldCompleteness(field.number, field.label, len(known), len(applicable)))
    return result
