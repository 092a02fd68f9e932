"""The 21 anatomy fields of a card as rows for its page: value, unknown, or not printed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards.models import Card
from rules import card_facts

NOT_TRANSCRIBED = "not yet transcribed"


@dataclass(frozen=True)
class AnatomyRow:
    number: int
    label: str
    value: str
    state: str  # "known", "unknown" or "absent" (the field is not printed on this type)


def anatomy_rows(card: Card) -> list[AnatomyRow]:
    data = card.as_data()
    return [_row(f, data) for f in card_facts.ANATOMY]


def _row(field: card_facts.AnatomyField, data: dict[str, Any]) -> AnatomyRow:
    applies = field.applies_to(data["type"], data["subtype"])
    values = [data[k] for k in field.keys]
    if all(v is None for v in values):
        if applies:
            return AnatomyRow(field.number, field.label, NOT_TRANSCRIBED, "unknown")
        return AnatomyRow(field.number, field.label, "—", "absent")
    shown = " · ".join(_show(k, v) for k, v in zip(field.keys, values, strict=True))
    return AnatomyRow(field.number, field.label, shown, "known")


def _show(key: str, value: Any) -> str:
    if value is None:
        return "?"
    if key == "faction":
        return card_facts.FACTIONS.get(value, value)
    if key == "unique":
        return "Unique" if value else "Not unique"
    if key == "abilities" and value == "":
        return "No abilities"
    if key == "quotation" and value == "":
        return "No quotation"
    return str(value)
