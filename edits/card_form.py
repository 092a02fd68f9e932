"""The card edit form ("Improve this card", "Add a missing card"): laid out as a card is printed,
read from a POST into card data values, and turned into a proposal for edits.services.

Only the fields printed on the card's type are shown (rules.card_anatomy.applicable_keys), plus
any field that holds a value, grouped as printed: the name bar (name, unique mark, cost gems),
the type line (type, subtype, faction, race and gender, profession, the requirement of events
and invocations), the text box (abilities, quotation), the stat boxes, and the collector line
(number, rarity, artist).

An empty field is unknown (null), never 0. A value read from a scan by OCR is marked until the
person confirms it (a checkbox) or types another value; a proposal with unconfirmed values is
refused, naming each. Nothing here writes: edits.views.form calls the services.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.utils.text import slugify

from cards.anatomy_display import FIELD_LABELS, FIELD_NUMBERS
from cards.card_data import CARD_KEYS, EDITABLE_KEYS, INT_RANGE, MAX_TEXT
from cards.images.card_fields import detail_values
from rules import card_anatomy

TEXT, LONG, NUMBER, CHOICE, YES_NO = "text", "long", "number", "choice", "yes_no"
CHANGE, NEW_CARD = "change", "new_card"


@dataclass(frozen=True)
class Spec:
    key: str
    kind: str
    choices: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return FIELD_LABELS.get(self.key, self.key)

    @property
    def number(self) -> int | None:
        return FIELD_NUMBERS.get(self.key)


def _choices(values: Mapping[str, str] | tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    if isinstance(values, Mapping):
        return tuple(values.items())
    return tuple((v, v.title()) for v in values)


ALL_SUBTYPES: Final = tuple(sorted({s for subs in card_anatomy.SUBTYPES.values() for s in subs}))
SPECS: Final[dict[str, Spec]] = {s.key: s for s in (
    Spec("name", TEXT), Spec("unique", YES_NO),
    Spec("cost_economic", NUMBER), Spec("cost_religious", NUMBER),
    Spec("cost_political", NUMBER), Spec("cost_generic", NUMBER),
    Spec("type", CHOICE, _choices(card_anatomy.CARD_TYPES)),
    Spec("subtype", CHOICE, _choices(ALL_SUBTYPES)),
    Spec("faction", CHOICE, _choices(card_anatomy.FACTIONS)),
    Spec("race", TEXT), Spec("gender", TEXT), Spec("profession", TEXT),
    Spec("abilities", LONG), Spec("quotation", LONG),
    Spec("offense", NUMBER), Spec("defense", NUMBER), Spec("faction_influence", NUMBER),
    Spec("vitality", NUMBER), Spec("strength_economic", NUMBER),
    Spec("strength_religious", NUMBER), Spec("strength_political", NUMBER),
    Spec("aggression", NUMBER), Spec("residencies", NUMBER), Spec("cost_generic", NUMBER),
    Spec("bounty", NUMBER),
    Spec("number", TEXT), Spec("rarity", CHOICE, _choices(card_anatomy.RARITIES)),
    Spec("artist", TEXT),
)}
# The form's keys: every editable key but the card's list of sources (an edit adds its own).
FORM_KEYS: Final[tuple[str, ...]] = tuple(k for k in EDITABLE_KEYS if k in SPECS)
# Printed on every card, so always asked.
ALWAYS: Final = frozenset({"name", "unique", "type", "abilities", "quotation", "number",
                           "rarity", "artist"})
# The requirement of an event (economic) or an invocation (religious) is printed in its type
# line and in a diamond beside the costs, not in a stat box.
REQUIREMENT: Final = {"event": "strength_economic", "invocation": "strength_religious"}

# The regions of the form, in printed order. The ones after the first that a change of type
# or subtype redraws are "slots": the type and subtype selects themselves never are, so the
# focus stays where the person is.
REGIONS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("name", ("name", "unique")),
    ("costs", ("cost_economic", "cost_religious", "cost_political", "cost_generic")),
    ("type", ("type",)),
    ("subtype", ("subtype",)),
    ("details", ("faction", "race", "gender", "profession", "strength_economic",
                 "strength_religious")),
    ("text", ("abilities", "quotation")),
    ("stats", ("offense", "defense", "faction_influence", "vitality", "strength_economic",
               "strength_religious", "strength_political", "aggression", "residencies",
               "bounty")),
    ("collector", ("number", "rarity", "artist")),
)
# The parts of the printed card a person checks at a glance: one "I checked these" each, for
# every value read there but the doubtful ones (each of those is ticked alone).
CHECK_GROUPS: Final[dict[str, tuple[str, ...]]] = {
    "name": ("name", "costs"),
    "type": ("type", "subtype", "details"),
    "text": ("text",),
    "stats": ("stats",),
    "collector": ("collector",),
}
# The fields of each of CHECK_GROUPS, in the form's order: the part of the card (and of its
# scan) a field is printed in. A requirement (an event's "Requires economic strength 2") is
# printed on the type line; a personality's strengths are stat boxes.
SCAN_PARTS: Final[dict[str, tuple[str, ...]]] = {
    group: tuple(key for slot in slots for name, keys in REGIONS if name == slot
                 for key in keys)
    for group, slots in CHECK_GROUPS.items()
}


def scan_part(key: str, card_type: str | None) -> str | None:
    """The part of the card ``key`` is printed in (a key of CHECK_GROUPS), or None."""
    if key.startswith("strength_"):
        return "stats" if card_type == "personality" else "type"
    return next((part for part, keys in SCAN_PARTS.items() if key in keys), None)


REDRAWN_ON_TYPE: Final = ("costs", "subtype", "details", "stats")
REDRAWN_ON_SUBTYPE: Final = ("costs", "details", "stats")

SOURCES: Final = (
    ("own", "My own copy of the card"),
    ("scan", "The scan attached to this edit"),
    ("web", "A web address"),
    ("checklist", "A printed checklist"),
    ("other", "Other"),
)
UNCHECKED: Final = ("was read from the scan: check it against the card, then tick “I checked "
                    "it”, or correct it.")
SOURCE_TEXT: Final = {"own": "my own copy of the card", "scan": "the scan attached to this edit"}
_NUMBER_TEXT = re.compile(r"^[+-]?\d+$")


@dataclass
class FieldState:
    """One field as the form shows it."""

    spec: Spec
    raw: str = ""  # what the input holds
    none_printed: bool = False  # abilities/quotation: the card prints none ("" rather than null)
    errors: list[str] = field(default_factory=list)
    read: str | None = None  # the value OCR read, as the input shows it; None when not read
    confidence: float | None = None
    confirmed: bool = False
    current: Any = None  # the catalogue's value (a change): shown beside the field

    @property
    def key(self) -> str:
        return self.spec.key

    @property
    def unconfirmed(self) -> bool:
        """Read from the scan, left as read, and not yet confirmed."""
        return self.read is not None and not self.confirmed and self.raw.strip() == self.read

    @property
    def corrected(self) -> bool:
        return self.read is not None and self.raw.strip() != self.read

    @property
    def doubtful(self) -> bool:
        return self.confidence is not None and self.confidence < 0.6

    @property
    def label(self) -> str:
        return self.spec.label

    @property
    def changed(self) -> bool:
        """Whether the typed value differs from the catalogue's."""
        return _parse(self)[0] != self.current

    @property
    def current_shown(self) -> str:
        if self.current is None:
            return "unknown"
        return _raw(self.spec, self.current)[0] or "none printed"


@dataclass
class Region:
    name: str
    fields: list[FieldState]


@dataclass
class CardForm:
    """The form's state: the base card, what the person typed, and every problem found."""

    mode: str  # CHANGE or NEW_CARD
    base: dict[str, Any]  # the card as the catalogue has it (a new card: its set, all null)
    fields: dict[str, FieldState]
    before: dict[str, Any]  # the values the form was loaded with (a change): conflicts
    source_kind: str = ""
    source_url: str = ""
    source_checklist: str = ""
    source_other: str = ""
    note: str = ""
    new_id: str = ""  # a new card's id, when the person gives one
    scan_token: str = ""
    errors: dict[str, list[str]] = field(default_factory=dict)  # keys of the form itself
    conflicts: list[dict[str, Any]] = field(default_factory=list)

    # Reading the values.

    def values(self) -> dict[str, Any]:
        """The typed values as card data (docs/design.md §4 types), None where empty or unreadable;
        a field that cannot be read gets its error."""
        values: dict[str, Any] = {}
        for key, state in self.fields.items():
            state.errors = [e for e in state.errors if e not in _PARSE_ERRORS]
            value, error = _parse(state)
            if error:
                state.errors.append(error)
            values[key] = value
        return values

    def over_limits(self) -> dict[str, str]:
        """The fields whose values a proposal would refuse for their size (cards.card_data's
        limits), by key: what the preview refuses before it draws anything."""
        over: dict[str, str] = {}
        for key, state in self.fields.items():
            if len(state.raw) > MAX_TEXT:
                over[key] = f"is {len(state.raw):,} characters; the limit is {MAX_TEXT:,}"
                continue
            value, _ = _parse(state)
            if state.spec.kind == NUMBER and value is not None and value not in INT_RANGE:
                over[key] = (f"{value} is out of range ({INT_RANGE.start}.."
                             f"{INT_RANGE.stop - 1})")
        return over

    def lenient_values(self) -> dict[str, Any]:
        """The values for a preview: whatever can be read, the rest unknown."""
        return {key: _parse(state)[0] for key, state in self.fields.items()}

    def card_type(self) -> tuple[str | None, str | None]:
        values = self.lenient_values()
        card_type = values.get("type", self.base.get("type"))
        subtype = values.get("subtype", self.base.get("subtype"))
        return card_type, subtype

    # Layout.

    def regions(self) -> dict[str, Region]:
        """The fields shown in each region, for the card's type as typed."""
        card_type, subtype = self.card_type()
        printed = set(card_anatomy.applicable_keys(card_type, subtype))
        requirement = REQUIREMENT.get(card_type or "")
        regions: dict[str, Region] = {}
        placed: set[str] = set()
        for name, keys in REGIONS:
            shown = []
            for key in keys:
                if key in placed or key not in self.fields:
                    continue
                if name == "details" and key in REQUIREMENT.values() and key != requirement:
                    continue  # a personality's strengths are stat boxes
                if name == "stats" and key == requirement:
                    continue
                if _shows(key, card_type, printed, self.fields[key]):
                    shown.append(self.fields[key])
                    placed.add(key)
            regions[name] = Region(name, shown)
        return regions

    def layout_key(self) -> str:
        card_type, subtype = self.card_type()
        return f"{card_type or ''}|{subtype or ''}"

    # Marks of the scan.

    @property
    def read_groups(self) -> dict[str, int]:
        """For each of CHECK_GROUPS, how many values read there (not doubtful, not
        corrected) its one "I checked these" confirms."""
        regions = self.regions()
        return {group: sum(1 for name in names for f in regions[name].fields
                           if f.read is not None and not f.corrected and not f.doubtful)
                for group, names in CHECK_GROUPS.items()}

    def confirm_groups(self, groups: set[str]) -> None:
        """The person ticked "I checked these" of ``groups``: their values read are
        confirmed, but the doubtful ones, which are ticked each alone."""
        regions = self.regions()
        for group in groups & set(CHECK_GROUPS):
            for name in CHECK_GROUPS[group]:
                for state in regions[name].fields:
                    if state.read is not None and not state.doubtful:
                        state.confirmed = True

    def unconfirmed(self) -> list[FieldState]:
        return [s for s in self.fields.values() if s.unconfirmed]

    def refuse_unconfirmed(self) -> None:
        """Each value read from the scan and neither confirmed nor corrected is an error."""
        for state in self.unconfirmed():
            if UNCHECKED not in state.errors:
                state.errors.append(UNCHECKED)

    @property
    def unchecked(self) -> list[FieldState]:
        """The fields refused as unconfirmed: the error summary names them in one line."""
        return [s for s in self.fields.values() if UNCHECKED in s.errors]

    def apply_reading(self, readings: Mapping[str, tuple[object, float]]) -> list[str]:
        """Prefill the fields from what OCR read (``{key: (value, confidence)}``); each value
        that differs from the field's is marked to be checked. Returns the keys marked."""
        marked = []
        for key, (value, confidence) in readings.items():
            state = self.fields.get(key)
            if state is None or value is None:
                continue
            shown, none_printed = _raw(state.spec, value)
            if not shown and not none_printed:
                continue
            if state.raw.strip() == shown and not state.read:
                continue  # the form says so already: nothing to check
            state.raw, state.none_printed = shown, none_printed
            state.read, state.confidence, state.confirmed = shown, confidence, False
            marked.append(key)
        return marked

    # The proposal.

    def source(self, *, has_scan: bool) -> str:
        """The source in words; an error under ``source`` when it is missing."""
        kind = self.source_kind
        problem = ""
        text = ""
        if kind in SOURCE_TEXT:
            text = SOURCE_TEXT[kind]
            if kind == "scan" and not has_scan:
                problem = "attach the scan of the card (above), or choose another source."
        elif kind == "web":
            text = self.source_url.strip()
            try:
                URLValidator(schemes=["http", "https"])(text)
            except ValidationError:
                problem = "give the web address, starting with https:// or http://."
        elif kind == "checklist":
            detail = self.source_checklist.strip()
            text = f"a printed checklist: {detail}" if detail else "a printed checklist"
        elif kind == "other":
            text = self.source_other.strip()
            if not text:
                problem = "say what the source is."
        else:
            problem = "say where the facts come from: choose one of the sources."
        if problem:
            self.errors.setdefault("source", []).append(problem)
        return text

    def changes(self, values: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """A change's keys that the person changed from what the form showed them, and those
        keys' values as the form showed them (``before``: the service refuses with a conflict
        if the card has changed since)."""
        seen = {**self.base, **self.before}
        changed = {k: v for k, v in values.items() if k in FORM_KEYS and v != seen.get(k)}
        return changed, {k: seen.get(k) for k in changed}

    def new_card(self, values: Mapping[str, Any]) -> dict[str, Any]:
        card_id = self.new_id.strip() or new_card_id(self.base["set"], values.get("name"))
        known = {k: v for k, v in values.items() if v is not None}
        return {"id": card_id, "set": self.base["set"], **known}

    def add_service_errors(self, errors: Mapping[str, list[str]]) -> None:
        """Put each error of an EditInvalid next to its field (``changes.offense``,
        ``new_card.type``), or on the form (``source``, ``note``, ``file``, ...)."""
        for key, messages in errors.items():
            _, _, name = key.partition(".")
            if name in self.fields:
                self.fields[name].errors.extend(messages)
            elif name == "id" or (key == "card" and self.mode == NEW_CARD):
                self.errors.setdefault("id", []).extend(messages)
            else:
                target = key if key in ("source", "note", "file") else "form"
                self.errors.setdefault(target, []).extend(
                    messages if target != "form" or not name else
                    [f"{FIELD_LABELS.get(name, name)}: {m}" for m in messages])

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(s.errors for s in self.fields.values())

    def before_json(self) -> str:
        return json.dumps(self.before, sort_keys=True)


def detail_readings(detail: str, confidence: float, card_type: str | None
                    ) -> dict[str, tuple[object, float]]:
    """Race, gender and profession from the detail line OCR read
    (cards.images.card_fields.detail_values). The split is a guess, so the confidence is
    lowered."""
    return {key: (part, confidence * 0.9)
            for key, part in detail_values(detail, card_type).items()}


_PARSE_ERRORS = ("must be a whole number, or empty when unknown.",
                 "is not one of the choices.")


def _parse(state: FieldState) -> tuple[Any, str]:
    spec, raw = state.spec, state.raw.strip()
    if spec.kind == LONG:
        text = state.raw.replace("\r\n", "\n").strip()
        if text:
            return text, ""
        return ("" if state.none_printed else None), ""
    if not raw:
        return None, ""
    if spec.kind == TEXT:
        return raw, ""
    if spec.kind == NUMBER:
        if raw == "?":
            return None, ""
        if not _NUMBER_TEXT.match(raw):
            return None, _PARSE_ERRORS[0]
        return int(raw), ""
    if spec.kind == YES_NO:
        if raw in ("yes", "no"):
            return raw == "yes", ""
        return None, _PARSE_ERRORS[1]
    if raw not in {value for value, _ in spec.choices}:
        return None, _PARSE_ERRORS[1]
    return raw, ""


def _raw(spec: Spec, value: Any) -> tuple[str, bool]:
    """A card data value as the input shows it, and whether it is "none printed"."""
    if value is None:
        return "", False
    if spec.kind == LONG and value == "":
        return "", True
    if spec.kind == YES_NO:
        return ("yes" if value else "no"), False
    return str(value), False


def _shows(key: str, card_type: str | None, printed: set[str], state: FieldState) -> bool:
    has_value = bool(state.raw.strip()) or state.none_printed or bool(state.errors)
    if key == "subtype":
        return card_type is None or bool(card_anatomy.SUBTYPES.get(card_type)) or has_value
    return key in ALWAYS or key in printed or has_value


def new_card_id(set_code: str, name: object) -> str:
    """A new card's id: the set's code and the name, as the catalogue spells them
    (``wof-bowman``); cards that share a name add their faction (``wof-bowman-kalim``)."""
    slug = slugify(str(name or ""))
    return f"{set_code.lower()}-{slug}" if slug else ""


# Building the form.

def blank_card(set_code: str, official: bool) -> dict[str, Any]:
    card: dict[str, Any] = {key: None for key in CARD_KEYS}
    card.update({"set": set_code, "official": official, "sources": []})
    return card


def form_for(base: Mapping[str, Any], *, mode: str, overlay: Mapping[str, Any] | None = None
             ) -> CardForm:
    """A fresh form showing the card (and ``overlay``'s values over it: a number to fill, an
    edit proposed again)."""
    shown = {**base, **(overlay or {})}
    fields = {}
    for key in FORM_KEYS:
        raw, none_printed = _raw(SPECS[key], shown.get(key))
        fields[key] = FieldState(SPECS[key], raw=raw, none_printed=none_printed,
                                 current=base.get(key) if mode == CHANGE else None)
    before = {k: base.get(k) for k in FORM_KEYS} if mode == CHANGE else {}
    return CardForm(mode=mode, base=dict(base), fields=fields, before=before)


def form_from_post(base: Mapping[str, Any], post: Mapping[str, Any], *, mode: str) -> CardForm:
    """The form as posted: the fields it had (a field not posted is not part of the edit),
    the marks of values read from the scan, the source, the note and the scan's token."""
    form = form_for(base, mode=mode)
    for key in list(form.fields):
        state = form.fields[key]
        if key not in post and f"none_{key}" not in post:
            del form.fields[key]  # not on the form: neither shown nor changed
            continue
        state.raw = str(post.get(key, ""))
        state.none_printed = bool(post.get(f"none_{key}")) and not state.raw.strip()
        read = post.get(f"read_{key}")
        if read is not None:
            state.read = str(read)
            state.confirmed = bool(post.get(f"confirm_{key}"))
            try:
                state.confidence = float(post.get(f"confidence_{key}", ""))
            except ValueError:
                state.confidence = None
    form.source_kind = str(post.get("source_kind", ""))
    form.source_url = str(post.get("source_url", ""))
    form.source_checklist = str(post.get("source_checklist", ""))
    form.source_other = str(post.get("source_other", ""))
    form.note = str(post.get("note", ""))
    form.new_id = str(post.get("new_id", ""))
    form.scan_token = str(post.get("scan_token", ""))
    form.confirm_groups({group for group in CHECK_GROUPS if post.get(f"checked_{group}")})
    if mode == CHANGE:
        form.before = _posted_before(post.get("before"), form.before)
    return form


def with_all_fields(form: CardForm) -> CardForm:
    """Add the fields a posted form did not have, as the card has them, so that the fields of
    a type chosen since can be drawn."""
    for key in FORM_KEYS:
        if key not in form.fields:
            value = form.base.get(key)
            raw, none_printed = _raw(SPECS[key], value)
            form.fields[key] = FieldState(SPECS[key], raw=raw, none_printed=none_printed,
                                          current=value if form.mode == CHANGE else None)
    form.fields = {key: form.fields[key] for key in FORM_KEYS}
    return form


def _posted_before(raw: object, fallback: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(raw, str) or not raw:
        return fallback
    try:
        seen = json.loads(raw)
    except ValueError:
        return fallback
    if not isinstance(seen, dict):
        return fallback
    return {k: v for k, v in seen.items() if k in FORM_KEYS}
