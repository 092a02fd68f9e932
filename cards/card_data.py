"""The card data file format (docs/design.md §4, a contract): validation without the database.

A file is either a list of card objects or ``{"set": {...}, "cards": [...]}``. Validation is
strict and collects every problem in the file, each naming the file, the card id and the key,
so that the importer can refuse the whole file and say exactly why.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rules.card_anatomy import CARD_TYPES, FACTIONS, RARITIES, SUBTYPES

ID_PATTERN: Final = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SET_CODE_PATTERN: Final = re.compile(r"^[A-Z0-9]{2,16}$")

INT_KEYS: Final = (
    "offense",
    "defense",
    "cost_economic",
    "cost_religious",
    "cost_political",
    "faction_influence",
    "vitality",
    "strength_economic",
    "strength_religious",
    "strength_political",
    "aggression",
    "residencies",
    "cost_generic",
    "bounty",
)
NULLABLE_STR_KEYS: Final = (
    "number", "abilities", "quotation", "race", "gender", "profession", "artist", "image"
)
# Every key of a card object, in the order exports write them.
CARD_KEYS: Final = (
    "id", "name", "set", "number", "rarity", "type", "subtype", "faction", "abilities",
    "quotation", "race", "gender", "profession", "offense", "defense", "cost_economic",
    "cost_religious", "cost_political", "faction_influence", "vitality", "strength_economic",
    "strength_religious", "strength_political", "unique", "aggression", "residencies",
    "cost_generic", "bounty", "artist", "image", "official", "sources",
)
REQUIRED_KEYS: Final = ("id", "name", "set")
# Identity and file-level keys: fixed by the catalogue, never changed by a card edit.
FIXED_KEYS: Final = ("id", "set", "official", "image")
# The keys a card edit may change (docs/design.md §13), and that carry per-field provenance.
EDITABLE_KEYS: Final = tuple(k for k in CARD_KEYS if k not in FIXED_KEYS)
# Optional beside the keys of §4: where each field's current value came from, in the form
# ``{"<key>": {"source": str, "editor": str | null, "date": ISO 8601 time, "edit": n | null}}``
# for keys of EDITABLE_KEYS. Files without it stay valid; export_cards writes it only for
# cards that have some.
PROVENANCE_KEY: Final = "provenance"
PROVENANCE_ENTRY_KEYS: Final = ("source", "editor", "date", "edit")
SET_KEYS: Final = ("code", "name", "official", "released", "size")
# A set's declared number of cards (War of Factions: 220), so its checklist shows every slot.
SET_SIZE_RANGE: Final = range(1, 10_000)
# Sane bounds: the printed values are whole numbers (never below zero) and small; anything
# past these is a typo.
INT_RANGE: Final = range(0, 100)
MAX_TEXT: Final = 4000


@dataclass(frozen=True)
class Problem:
    source: str
    card_id: str | None
    key: str | None
    message: str

    def __str__(self) -> str:
        where = [self.source]
        if self.card_id is not None:
            where.append(f"card {self.card_id!r}")
        if self.key is not None:
            where.append(f"key {self.key!r}")
        return f"{', '.join(where)}: {self.message}"


class CardDataError(ValueError):
    """A data file was refused; ``problems`` lists every reason."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        shown = "\n".join(f"  - {p}" for p in self.problems[:50])
        more = len(self.problems) - 50
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(f"{len(self.problems)} problem(s), nothing was written:\n{shown}{tail}")


@dataclass(frozen=True)
class SetInfo:
    code: str
    name: str
    official: bool
    released: dt.date | None
    # The declared number of cards; None when unknown. ``size_given`` is False when the file
    # left the key out: importing it then keeps the size the catalogue has.
    size: int | None = None
    size_given: bool = False


@dataclass
class CardFile:
    source: str
    set_info: SetInfo | None
    cards: list[dict[str, Any]] = field(default_factory=list)


def parse_card_document(doc: object, source: str) -> CardFile:
    """Validate a decoded JSON document; raise :class:`CardDataError` listing every problem."""
    problems: list[Problem] = []
    set_info: SetInfo | None = None
    if isinstance(doc, dict):
        unknown = sorted(set(doc) - {"set", "cards"})
        for key in unknown:
            problems.append(Problem(source, None, key, "unknown top-level key"))
        if "set" in doc:
            set_info = _parse_set(doc["set"], source, problems)
        raw_cards = doc.get("cards")
        if not isinstance(raw_cards, list):
            problems.append(Problem(source, None, "cards", "must be a list of card objects"))
            raw_cards = []
    elif isinstance(doc, list):
        raw_cards = doc
    else:
        raise CardDataError(
            [Problem(source, None, None, "expected a list of cards or {\"set\", \"cards\"}")]
        )

    cards: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_cards):
        card = _parse_card(raw, index, source, set_info, problems)
        if card is None:
            continue
        if card["id"] in seen:
            problems.append(Problem(source, card["id"], "id", "the same id appears twice"))
        seen.add(card["id"])
        cards.append(card)
    if problems:
        raise CardDataError(problems)
    return CardFile(source=source, set_info=set_info, cards=cards)


def _parse_set(raw: object, source: str, problems: list[Problem]) -> SetInfo | None:
    if not isinstance(raw, dict):
        problems.append(Problem(source, None, "set", "must be an object"))
        return None
    before = len(problems)
    for key in sorted(set(raw) - set(SET_KEYS)):
        problems.append(Problem(source, None, f"set.{key}", "unknown key"))
    code = raw.get("code")
    if not isinstance(code, str) or not SET_CODE_PATTERN.match(code):
        problems.append(
            Problem(source, None, "set.code", "must be 2-16 capital letters or digits")
        )
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(Problem(source, None, "set.name", "must be a non-empty string"))
    official = raw.get("official")
    if not isinstance(official, bool):
        problems.append(Problem(source, None, "set.official", "must be true or false"))
    released: dt.date | None = None
    raw_released = raw.get("released")
    if raw_released is not None:
        try:
            released = dt.date.fromisoformat(str(raw_released))
        except ValueError:
            problems.append(
                Problem(source, None, "set.released", "must be a date YYYY-MM-DD or null")
            )
    size = raw.get("size")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int)
                             or size not in SET_SIZE_RANGE):
        problems.append(Problem(source, None, "set.size",
                                f"must be a whole number from 1 to {SET_SIZE_RANGE.stop - 1}, "
                                "or null when unknown"))
    if len(problems) > before:
        return None
    assert isinstance(code, str) and isinstance(name, str) and isinstance(official, bool)
    return SetInfo(code=code, name=name.strip(), official=official, released=released,
                   size=size, size_given="size" in raw)


def _parse_card(
    raw: object,
    index: int,
    source: str,
    set_info: SetInfo | None,
    problems: list[Problem],
) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        problems.append(Problem(source, f"#{index + 1}", None, "a card must be a JSON object"))
        return None
    raw_id = raw.get("id")
    card_id = raw_id if isinstance(raw_id, str) else f"#{index + 1}"
    before = len(problems)

    def bad(key: str, message: str) -> None:
        problems.append(Problem(source, card_id, key, message))

    for key in sorted(set(raw) - {*CARD_KEYS, PROVENANCE_KEY}):
        bad(key, f"unknown key (known keys: {', '.join(CARD_KEYS)}, {PROVENANCE_KEY})")
    for key in REQUIRED_KEYS:
        # A card in a {"set", "cards"} document may leave out its set code.
        if raw.get(key) is None and not (key == "set" and set_info is not None):
            bad(key, "is required")
    if isinstance(raw_id, str) and not ID_PATTERN.match(raw_id):
        bad("id", "must be a slug: lowercase letters, digits and single hyphens")
    elif raw_id is not None and not isinstance(raw_id, str):
        bad("id", "must be a string")

    card: dict[str, Any] = {k: raw.get(k) for k in CARD_KEYS}
    _check_str(card, "name", bad, nullable=False)
    _check_set(card, set_info, bad)
    for key in NULLABLE_STR_KEYS:
        _check_str(card, key, bad, nullable=True)
    _check_enum(card, "rarity", RARITIES, bad)
    _check_enum(card, "type", CARD_TYPES, bad)
    _check_enum(card, "faction", FACTIONS, bad)
    _check_subtype(card, bad)
    for key in INT_KEYS:
        _check_int(card, key, bad)
    _check_bool(card, "unique", bad, nullable=True)
    if card["official"] is None and set_info is not None:
        card["official"] = set_info.official
    # In a bare list the importer takes a missing "official" from the card's set.
    _check_bool(card, "official", bad, nullable=set_info is None)
    _check_sources(card, bad)
    if PROVENANCE_KEY in raw:
        card[PROVENANCE_KEY] = _parse_provenance(raw[PROVENANCE_KEY], bad)
    return card if len(problems) == before else None


Bad = Any  # the local ``bad(key, message)`` closure


def _check_str(card: dict[str, Any], key: str, bad: Bad, *, nullable: bool) -> None:
    value = card[key]
    if value is None:
        return
    if not isinstance(value, str):
        bad(key, f"must be a string{' or null' if nullable else ''}, not {_json_type(value)}")
    elif len(value) > MAX_TEXT:
        bad(key, f"is {len(value)} characters; the limit is {MAX_TEXT}")
    elif key == "name" and not value.strip():
        bad(key, "must not be empty")


def _check_set(card: dict[str, Any], set_info: SetInfo | None, bad: Bad) -> None:
    value = card["set"]
    if value is None:
        if set_info is not None:
            card["set"] = set_info.code
        return
    if not isinstance(value, str):
        bad("set", "must be a set code string")
    elif set_info is not None and value != set_info.code:
        bad("set", f"is {value!r} but the file's set is {set_info.code!r}")


def _check_enum(card: dict[str, Any], key: str, allowed: Any, bad: Bad) -> None:
    value = card[key]
    if value is not None and not isinstance(value, str):
        bad(key, f"must be a string or null, not {_json_type(value)}")
    elif value is not None and value not in allowed:
        choices = ", ".join(allowed)
        bad(key, f"{value!r} is not one of: {choices} (or null when unknown)")


def _check_subtype(card: dict[str, Any], bad: Bad) -> None:
    value = card["subtype"]
    card_type = card["type"]
    if value is None:
        return
    if not isinstance(value, str):
        bad("subtype", "must be a string or null")
        return
    if card_type not in CARD_TYPES:
        allowed = sorted({s for subs in SUBTYPES.values() for s in subs})
        if value not in allowed:
            bad("subtype", f"{value!r} is not a known subtype")
        return
    allowed_for_type = SUBTYPES[card_type]
    if value not in allowed_for_type:
        if allowed_for_type:
            choices = ", ".join(allowed_for_type)
            bad("subtype", f"{value!r} is not a subtype of {card_type} ({choices}, or null)")
        else:
            bad("subtype", f"a {card_type} has no subtype; use null")


def _check_int(card: dict[str, Any], key: str, bad: Bad) -> None:
    value = card[key]
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        bad(key, f"must be a whole number or null, not {_json_type(value)}")
    elif value not in INT_RANGE:
        bad(key, f"{value} is out of range ({INT_RANGE.start}..{INT_RANGE.stop - 1})")


def _check_bool(card: dict[str, Any], key: str, bad: Bad, *, nullable: bool) -> None:
    value = card[key]
    if value is None:
        if not nullable:
            bad(key, "is required (true or false)")
        return
    if not isinstance(value, bool):
        bad(key, f"must be true or false{' or null' if nullable else ''}, not {_json_type(value)}")


def _check_sources(card: dict[str, Any], bad: Bad) -> None:
    value = card["sources"]
    if value is None:
        card["sources"] = []
        return
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        bad("sources", "must be a list of strings")


def _parse_provenance(raw: object, bad: Bad) -> dict[str, dict[str, Any]]:
    """The provenance map with its dates as aware datetimes; every bad part is a problem."""
    where = PROVENANCE_KEY
    if not isinstance(raw, dict):
        bad(where, "must be an object of {key: {source, editor, date, edit}}")
        return {}
    parsed: dict[str, dict[str, Any]] = {}
    for key, entry in raw.items():
        at = f"{where}.{key}"
        if key not in EDITABLE_KEYS:
            bad(at, f"is not a key that has provenance ({', '.join(EDITABLE_KEYS)})")
            continue
        if not isinstance(entry, dict) or set(entry) != set(PROVENANCE_ENTRY_KEYS):
            bad(at, f"must be an object with exactly {', '.join(PROVENANCE_ENTRY_KEYS)}")
            continue
        source, editor, date, edit = (entry[k] for k in PROVENANCE_ENTRY_KEYS)
        ok = True
        if not isinstance(source, str) or not source.strip() or len(source) > MAX_TEXT:
            bad(f"{at}.source", f"must be a non-empty string of at most {MAX_TEXT} characters")
            ok = False
        if editor is not None and (not isinstance(editor, str) or not editor or
                                   len(editor) > 150):
            bad(f"{at}.editor", "must be a user name (at most 150 characters) or null")
            ok = False
        when = parse_time(date)
        if when is None:
            bad(f"{at}.date", "must be a date and time with its offset, e.g. "
                "2026-05-01T12:00:00Z")
            ok = False
        if edit is not None and (isinstance(edit, bool) or not isinstance(edit, int)
                                 or edit < 1):
            bad(f"{at}.edit", "must be an edit number (a whole number from 1) or null")
            ok = False
        if ok:
            parsed[key] = {"source": source, "editor": editor, "date": when, "edit": edit}
    return parsed


def parse_time(value: object) -> dt.datetime | None:
    """An ISO 8601 time with an offset (``Z`` or ``+hh:mm``), or None if it is not one."""
    if not isinstance(value, str):
        return None
    try:
        when = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def format_time(when: dt.datetime) -> str:
    """The form of times in card data files: UTC, to the microsecond, ``Z``-suffixed, so that
    ``parse_time(format_time(t)) == t`` and files compare as text."""
    return when.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return "null"
