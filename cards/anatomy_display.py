"""The 21 anatomy fields of a card as rows for its page: value, unknown, or not printed; and
each data key's label, as the card page, the edit form and the edit diff name it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards.models import Card
from rules import card_anatomy

NOT_TRANSCRIBED = "not yet transcribed"

# Keys that share an anatomy field get a label each; keys outside the chart are named too.
_OWN_LABELS = {
    "race": "Race", "gender": "Gender", "number": "Collector number", "rarity": "Rarity",
    "type": "Type", "subtype": "Subtype", "artist": "Artist", "sources": "Sources",
}
FIELD_NUMBERS: dict[str, int] = {k: f.number for f in card_anatomy.ANATOMY for k in f.keys}
FIELD_LABELS: dict[str, str] = {
    **{k: f.label for f in card_anatomy.ANATOMY for k in f.keys}, **_OWN_LABELS,
}


@dataclass(frozen=True)
class AnatomyRow:
    number: int
    label: str
    value: str
    state: str  # "known", "unknown" or "absent" (the field is not printed on this type)
    keys: tuple[str, ...] = ()
    # Where its value came from: the provenance entries of its keys (edit, editor, date, source).
    sources: tuple[dict[str, Any], ...] = ()


def anatomy_rows(card: Card, provenance: dict[str, dict[str, Any]] | None = None
                 ) -> list[AnatomyRow]:
    data = card.as_data()
    return [_row(f, data, provenance or {}) for f in card_anatomy.ANATOMY]


def _row(field: card_anatomy.AnatomyField, data: dict[str, Any],
         provenance: dict[str, dict[str, Any]]) -> AnatomyRow:
    applies = field.applies_to(data["type"], data["subtype"])
    values = [data[k] for k in field.keys]
    # Keys of one field set by one edit (race and gender) show it once.
    sources = tuple({(e["edit"], e["source"], e["editor"]): e for e in
                     (provenance[k] for k in field.keys if k in provenance)}.values())
    if all(v is None for v in values):
        if applies:
            return AnatomyRow(field.number, field.label, NOT_TRANSCRIBED, "unknown", field.keys,
                              sources)
        return AnatomyRow(field.number, field.label, "—", "absent", field.keys, sources)
    shown = " · ".join(_show(k, v) for k, v in zip(field.keys, values, strict=True))
    return AnatomyRow(field.number, field.label, shown, "known", field.keys, sources)


def show_value(key: str, value: Any) -> str:
    """A value as the pages show it; None is "unknown"."""
    if value is None:
        return "unknown"
    if key == "type":
        return str(value).title()
    if key == "subtype":
        return str(value).title()
    if key == "rarity":
        return card_anatomy.RARITIES.get(value, value)
    if key == "sources" and isinstance(value, list):
        return "; ".join(value)
    return _show(key, value)


def _show(key: str, value: Any) -> str:
    if value is None:
        return "?"
    if key == "faction":
        return card_anatomy.FACTIONS.get(value, value)
    if key == "unique":
        return "Unique" if value else "Not unique"
    if key == "abilities" and value == "":
        return "No abilities"
    if key == "quotation" and value == "":
        return "No quotation"
    return str(value)
