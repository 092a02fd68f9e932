"""What an edit proposes, checked by the card data contract (docs/design.md §4, cards.card_data),
and whether it still fits the card it was made against.

Errors name the key at fault as the API shows it: ``changes.offense``, ``new_card.type``,
``source``. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cards.card_data import (
    CARD_KEYS,
    EDITABLE_KEYS,
    FIXED_KEYS,
    MAX_TEXT,
    PROVENANCE_KEY,
    CardDataError,
    parse_card_document,
)
from cards.models import Card, CardSet
from edits.models import Edit

Errors = dict[str, list[str]]


def _add(errors: Errors, key: str, message: str) -> None:
    errors.setdefault(key, []).append(message)


def check_text(errors: Errors, *, source: object, note: object) -> tuple[str, str]:
    """The source (required: where the facts come from) and the note (optional), stripped."""
    clean_source = source.strip() if isinstance(source, str) else ""
    if not clean_source:
        _add(errors, "source", "is required: say where the facts come from (my own copy of the "
             "card, an attached scan, a web address, a printed checklist, ...).")
    elif len(clean_source) > MAX_TEXT:
        _add(errors, "source", f"is {len(clean_source)} characters; the limit is {MAX_TEXT}.")
    if note is None:
        note = ""
    if not isinstance(note, str):
        _add(errors, "note", "must be a string.")
        note = ""
    elif len(note) > MAX_TEXT:
        _add(errors, "note", f"is {len(note)} characters; the limit is {MAX_TEXT}.")
    return clean_source, note.strip()


def check_changes(card: Card, changes: object, errors: Errors) -> dict[str, Any]:
    """The changes to ``card`` as the contract reads them (``{key: value}``); every problem
    goes to ``errors``. The card with the changes must pass the card data checks whole (a new
    type whose old subtype no longer fits is refused, naming ``changes.subtype``)."""
    if not isinstance(changes, Mapping) or not changes:
        _add(errors, "changes", "must be an object of {key: value} with at least one key.")
        return {}
    allowed: dict[str, Any] = {}
    for key, value in changes.items():
        if key in FIXED_KEYS:
            _add(errors, f"changes.{key}", f"may not be changed by an edit (fixed keys: "
                 f"{', '.join(FIXED_KEYS)}).")
        elif key not in EDITABLE_KEYS:
            _add(errors, f"changes.{key}", f"is not a card data key (keys: "
                 f"{', '.join(EDITABLE_KEYS)}).")
        else:
            allowed[key] = value
    if not allowed:
        return {}
    current = card.as_data()
    parsed = _parse_one({**current, **allowed}, "changes", errors)
    if parsed is None:
        return {}
    proposed = {key: parsed[key] for key in changes if key in allowed}
    if all(current[key] == value for key, value in proposed.items()):
        _add(errors, "changes", "change nothing: every value is already the card's.")
        return {}
    return proposed


@dataclass(frozen=True)
class NewCard:
    card_id: str
    card_set: CardSet
    changes: dict[str, Any]  # the card's keys as given, less id, set, official and image


def check_new_card(new_card: object, errors: Errors) -> NewCard | None:
    """A card that is not in the catalogue yet, as a card object of the contract, in a set that
    is."""
    if not isinstance(new_card, Mapping):
        _add(errors, "new_card", "must be a card object (docs/design.md §4 keys).")
        return None
    before = len(errors)
    if new_card.get("image") is not None:
        _add(errors, "new_card.image", "must be null: attach a scan to the edit instead.")
    if PROVENANCE_KEY in new_card:
        _add(errors, f"new_card.{PROVENANCE_KEY}", "is recorded when the edit is applied; "
             "leave it out.")
    raw = {k: v for k, v in new_card.items() if k != PROVENANCE_KEY}
    parsed = _parse_one(raw, "new_card", errors)
    if parsed is None or len(errors) > before:
        return None
    card_set = CardSet.objects.filter(code=parsed["set"]).first()
    if card_set is None:
        _add(errors, "new_card.set", f"unknown set {parsed['set']!r}.")
        return None
    if "official" in new_card and parsed["official"] != card_set.official:
        _add(errors, "new_card.official", f"must be {str(card_set.official).lower()}, as the "
             f"set {card_set.code} is (or leave it out).")
        return None
    if Card.objects.filter(id=parsed["id"]).exists():
        _add(errors, "new_card.id", f"{parsed['id']!r} is already in the catalogue: propose "
             "changes to it instead.")
        return None
    changes = {key: parsed[key] for key in EDITABLE_KEYS if key in new_card}
    return NewCard(card_id=parsed["id"], card_set=card_set, changes=changes)


def _parse_one(raw: dict[str, Any], prefix: str, errors: Errors) -> dict[str, Any] | None:
    """One card through the card data checks; problems named ``prefix.key``."""
    try:
        parsed = parse_card_document([raw], prefix)
    except CardDataError as error:
        for problem in error.problems:
            _add(errors, f"{prefix}.{problem.key}" if problem.key else prefix,
                 problem.message)
        return None
    return parsed.cards[0]


def current_values(card: Card, keys: list[str]) -> dict[str, Any]:
    data = card.as_data()
    return {key: data[key] for key in keys if key in CARD_KEYS}


def conflicts_of(edit: Edit, card: Card | None) -> list[dict[str, Any]]:
    """Each field the edit changes whose value is no longer the one it was proposed against:
    ``{"field", "proposed_against", "current", "proposed"}``. A new card conflicts with a card
    of the same id added since."""
    if edit.kind == Edit.NEW_CARD:
        if card is None:
            return []
        return [{"field": "id", "proposed_against": None, "current": card.id,
                 "proposed": edit.card_slug}]
    if card is None:
        return [{"field": "id", "proposed_against": edit.card_slug, "current": None,
                 "proposed": edit.card_slug}]
    now = current_values(card, list(edit.changes))
    return [
        {"field": key, "proposed_against": edit.before.get(key), "current": now[key],
         "proposed": edit.changes[key]}
        for key in edit.changes
        if key in now and now[key] != edit.before.get(key)
    ]


def conflict_message(edit: Edit, conflicts: list[dict[str, Any]]) -> str:
    if edit.kind == Edit.NEW_CARD:
        return (f"A card with the id {edit.card_slug!r} was added since this edit was "
                "proposed: propose changes to it instead.")
    if any(c["field"] == "id" for c in conflicts):
        return f"The card {edit.card_slug!r} is no longer in the catalogue."
    parts = [
        f"{c['field']} was {_shown(c['proposed_against'])} when the edit was proposed and is "
        f"now {_shown(c['current'])} (the edit would make it {_shown(c['proposed'])})"
        for c in conflicts
    ]
    return ("The card has changed since this edit was proposed: " + "; ".join(parts)
            + ". Propose the edit again from the card as it is now.")


def _shown(value: Any) -> str:
    return "unknown (null)" if value is None else repr(value)
