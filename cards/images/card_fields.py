"""What a card reading gives as card data: the values under their docs/design.md §4 keys, only
for the keys the read type prints, and the keys whose reading is doubtful.

Pure Python (no Django): the scans API (design §13, ``POST /api/scans/``), the edit form and
the bench all turn a :class:`cards.images.ocr.CardReading` into fields here, so they agree.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cards.images.ocr import CardReading, Reading, number_read
from rules.card_anatomy import SUBTYPES, applicable_keys

# Printed on every card whatever its type: the name bar, the type line, the text box and the
# collector line.
ALWAYS_PRINTED: Final = ("name", "unique", "type", "abilities", "quotation", "number",
                         "rarity", "artist")
# The detail line under the type line: "Human · Male · Priest" (a personality), "Troll · Male"
# or "Troll · Male · Hunter" (a wanderer: the Demo faces print a wanderer's profession when
# it has one). OCR reads its dots as dots, dashes or colons.
DETAIL_KEYS: Final[Mapping[str, tuple[str, ...]]] = {
    "personality": ("race", "gender", "profession"),
    "wanderer": ("race", "gender", "profession"),
}
DETAIL_SPLIT: Final = re.compile(r"\s+[\u00b7\-:\u2022|.,\u00ab\u00bb+*~]+\s+")
# The genders the cards print: where OCR lost the dots ("Human Male Baron"), the gender
# word parts the race from the profession.
GENDERS: Final = ("Male", "Female", "Mixed", "Neuter")
# Below this confidence a value is doubtful: the person should look at it.
DOUBTFUL_BELOW: Final = 0.6


def printed_keys(card_type: str | None, subtype: str | None) -> tuple[str, ...]:
    """The §4 keys a card of this type prints, in the order of the card's anatomy."""
    keys = list(ALWAYS_PRINTED)
    if card_type is None:
        return tuple(keys)
    if SUBTYPES.get(card_type):
        keys.append("subtype")
    if card_type != "wanderer":
        keys.append("faction")  # on the type line, when the card has one
    keys += [k for k in applicable_keys(card_type, subtype) if k not in keys]
    if card_type == "wanderer":
        keys.append("profession")
    return tuple(keys)


def detail_values(detail: str, card_type: str | None) -> dict[str, str]:
    """Race, gender and profession from the detail line, when its parts fit the type: a
    personality prints all three, a wanderer two or three. A part still unknown on the card
    ("Race ?") is left out. Without separators read, the gender word splits the line."""
    keys = DETAIL_KEYS.get(card_type or "")
    if not keys:
        return {}
    parts = [p.strip() for p in DETAIL_SPLIT.split(detail.strip())]
    if len(parts) not in (len(keys), 2 if card_type == "wanderer" else len(keys)):
        parts = _split_at_gender(detail)
    if card_type == "wanderer" and len(parts) == 2:
        keys = keys[:2]
    if len(parts) != len(keys):
        return {}
    return {key: part for key, part in zip(keys, parts, strict=True)
            if part and not part.endswith("?")}


def _split_at_gender(detail: str) -> list[str]:
    """``detail`` as (race, gender[, profession]) around its gender word, or as it is."""
    words = [w.strip("\u00b7-:.,|\u00ab\u00bb+*~") for w in detail.split()]
    words = [w for w in words if w]
    at = next((i for i, w in enumerate(words) if w in GENDERS), None)
    if at is None or at == 0:
        return [detail.strip()]
    return [" ".join(words[:at]), words[at], *([" ".join(words[at + 1:])]
                                               if words[at + 1:] else [])]


# A word of a printed name: capitalised (hyphens and apostrophes inside), or a small word
# between capitalised ones.
_NAME_WORD: Final = re.compile(r"[A-Z][a-z]*(?:['\u2019-][A-Za-z][a-z]*)*[.,]?|of|the|and|in|"
                               r"on|at|to|de|la|du|von|van")


@dataclass(frozen=True)
class CatalogueHints:
    """What the catalogue knows that a reading is checked against; each part may be empty
    (that check is then not made). Made by :meth:`from_cards` from the catalogue's cards,
    so the site and the bench check alike."""

    artists: Sequence[str] = ()  # an artist read is matched to these
    names: Sequence[str] = ()  # a name read a letter or two from one of these is doubtful
    races: Collection[str] = ()  # a race or profession read that is none of these is
    professions: Collection[str] = ()  # doubtful
    # The lower-case words of the catalogue's abilities and quotations: a word Tesseract was
    # unsure of that none of them uses is doubtful.
    words: Collection[str] = ()
    # The set being read: its collector numbers (each with the lower-case names that have it)
    # and its size; a number another card has, or outside 1 to the size, is doubtful.
    numbers: Mapping[str, Collection[str]] = field(default_factory=dict)
    set_size: int | None = None

    @classmethod
    def from_cards(cls, cards: Iterable[Mapping[str, Any]], *, set_code: str = "",
                   set_size: int | None = None) -> CatalogueHints:
        """The hints from ``cards`` (card data of docs/design.md §4: ``name``, ``artist``,
        ``race``, ``profession``, ``abilities``, ``quotation``, ``set``, ``number``); the
        numbers are those of the set ``set_code`` (none without it)."""
        artists: set[str] = set()
        names: set[str] = set()
        races: set[str] = set()
        professions: set[str] = set()
        words: set[str] = set()
        numbers: dict[str, set[str]] = {}
        for card in cards:
            for key, bag in (("artist", artists), ("name", names), ("race", races),
                             ("profession", professions)):
                if isinstance(card.get(key), str) and card[key].strip():
                    bag.add(card[key])
            for key in ("abilities", "quotation"):
                if isinstance(card.get(key), str):
                    words.update(prose_words(card[key]))
            number = card.get("number")
            if set_code and str(card.get("set", "")).upper() == set_code.upper() and \
                    isinstance(number, str) and number.strip():
                numbers.setdefault(number.strip(), set()).add(
                    " ".join(str(card.get("name", "")).lower().split()))
        return cls(sorted(artists), sorted(names), frozenset(races), frozenset(professions),
                   frozenset(words), numbers, set_size)


NO_HINTS: Final = CatalogueHints()  # nothing known: only the checks of form are made


def prose_words(text: str) -> list[str]:
    """The words of ``text`` as they are compared: lower case, their apostrophes straight,
    the punctuation around them left out; words with no letter ("|", "2") are none."""
    out = []
    for word in text.replace("\u2019", "'").lower().split():
        word = word.strip(".,;:!?()[]\"'-\u2014")
        if any(c.isalpha() for c in word):
            out.append(word)
    return out


def odd_words(text: str) -> bool:
    """Whether ``text``, a name, holds a word no name is printed with ("Warden CoTT", a
    stray "3 GS" from a gem read into it, "Kestre!", "lise" for "Ilse": Tesseract reads a
    sans-serif capital I as l)."""
    return any(not _NAME_WORD.fullmatch(word) for word in text.split())


# How prose is printed to end: a full stop, "!" or "?", perhaps inside a quote or a bracket;
# and a sentence is printed to begin with a capital ("A small flame. carefully kept": the
# comma read as a full stop).
_SENTENCE_END: Final = re.compile(r"[.!?][\"')]?$")
_LOWER_START: Final = re.compile(r"[.!?][\"')]? [a-z]")


def cross_checked(fields: Mapping[str, object],
                  hints: CatalogueHints = NO_HINTS) -> set[str]:
    """The keys whose value read fails a check of its form or against the catalogue's
    ``hints``: a name or an artist with a word no name has, a detail part that is no gender
    where the gender is printed; abilities or a quotation that end as no sentence does (the
    last full stop lost to a blur) or with a sentence begun in lower case; a name a letter
    or two from a catalogue card's; a race or a profession no card has (with ``hints`` of
    them); a collector number with a letter in it, another card's of the set, or past the
    set's size."""
    doubtful = set()
    for key in ("name", "artist"):
        value = fields.get(key)
        if isinstance(value, str) and odd_words(value):
            doubtful.add(key)
    gender = fields.get("gender")
    if isinstance(gender, str) and gender not in GENDERS:
        doubtful.update(key for key in ("race", "gender", "profession")
                        if fields.get(key) is not None)
    for key in ("abilities", "quotation"):
        value = fields.get(key)
        if isinstance(value, str) and (not _SENTENCE_END.search(value)
                                       or _LOWER_START.search(value)):
            doubtful.add(key)
    name = fields.get("name")
    if isinstance(name, str) and hints.names and near_a_name(name, hints.names):
        doubtful.add("name")
    for key, known in (("race", hints.races), ("profession", hints.professions)):
        value = fields.get(key)
        if isinstance(value, str) and known and value not in known:
            doubtful.add(key)
    if _number_doubtful(fields.get("number"), name, hints):
        doubtful.add("number")
    return doubtful


def near_a_name(name: str, names: Sequence[str]) -> bool:
    """Whether ``name`` is not one of ``names`` (case and spacing aside) but a letter or two
    from one: "Beron Kassim Orlov" for "Baron Kassim Orlov"."""
    wanted = " ".join(name.lower().split())
    lowered = [" ".join(n.lower().split()) for n in names]
    if wanted in lowered:
        return False
    return bool(difflib.get_close_matches(wanted, lowered, n=1, cutoff=NAME_NEAR))


# A name this similar to a catalogue card's (and not it) is one misread, not another card.
NAME_NEAR: Final = 0.85


def _number_doubtful(number: object, name: object, hints: CatalogueHints) -> bool:
    """Whether the collector number read is not all digits, another card's of the set (under
    another name) or past the set's size."""
    if not isinstance(number, str) or not number.strip():
        return False
    if not number.strip().isdigit():
        return True  # "e", "O37": a letter read where the cards print digits
    holders = hints.numbers.get(number.strip(), ())
    own = " ".join(name.lower().split()) if isinstance(name, str) else ""
    if holders and own not in holders:
        return True
    digits = re.match(r"\d+", number.strip())
    return bool(hints.set_size and digits and not 1 <= int(digits.group()) <= hints.set_size)


def weak_word_keys(readings: Mapping[str, Reading[object]], words: Collection[str]
                   ) -> set[str]:
    """The keys of the text box (abilities, quotation) whose reading holds a word Tesseract
    was unsure of that the catalogue's prose never uses (every such word, with no
    ``words``)."""
    doubtful = set()
    for key in ("abilities", "quotation"):
        reading = readings.get(key)
        weak = reading.weak if reading is not None else ()
        if any(word not in words for text in weak for word in prose_words(text)):
            doubtful.add(key)
    return doubtful


def requirement_disagrees(reading: CardReading) -> str | None:
    """The strength key whose gem disagrees with the requirement the detail line prints
    ("Requires religious strength 1", an event's or an invocation's), or None."""
    if reading.detail_line is None:
        return None
    found = re.search(r"requires\s+(\w+)\S*\s+strength\s+(\S+)\s*$",
                      reading.detail_line.value, re.IGNORECASE)
    if found is None:
        return None
    key = f"strength_{found.group(1).lower()}"
    gem = reading.numbers.get(key)
    printed = number_read(found.group(2))
    if gem is None or printed is None or gem.value == printed:
        return None
    return key


# An artist read is taken as one the catalogue knows when this similar to it, and clearly
# more similar than to any other (the Demo set's artists share "Demo Artist ").
ARTIST_MATCH: Final = 0.85
ARTIST_MARGIN: Final = 0.08


def known_artist(read: str, artists: Sequence[str]) -> str | None:
    """The one of ``artists`` that ``read`` is (a capital I read as l, "rn" for "m"), or
    None when none is near enough or two are as near."""
    scores = sorted(((difflib.SequenceMatcher(None, read, known).ratio(), known)
                     for known in set(artists)), reverse=True)
    if not scores or scores[0][0] < ARTIST_MATCH:
        return None
    if len(scores) > 1 and scores[0][0] - scores[1][0] < ARTIST_MARGIN:
        return None
    return scores[0][1]


def reading_fields(reading: CardReading, hints: CatalogueHints = NO_HINTS
                   ) -> tuple[dict[str, object], list[str]]:
    """The fields of ``reading`` (every key the read type prints; None where printed but not
    read) and the keys whose reading is doubtful (low confidence, a value that fails
    :func:`cross_checked` against the catalogue's ``hints``, a text with a weak word the
    catalogue does not use, a requirement gem the detail line contradicts). An artist read
    near one of the catalogue's is taken as that one, and is doubtful unless read exactly."""
    artists = hints.artists
    read = {key: r for key, r in reading.fields().items()}
    card_type = read["type"].value if "type" in read else None
    subtype = read["subtype"].value if "subtype" in read else None
    type_key = card_type if isinstance(card_type, str) else None
    confidences = {key: r.confidence for key, r in read.items()}
    values: dict[str, object] = {key: r.value for key, r in read.items()}
    if reading.detail_line is not None:
        for key, part in detail_values(reading.detail_line.value, type_key).items():
            values[key] = part
            confidences[key] = reading.detail_line.confidence * 0.9
    keys = printed_keys(type_key, subtype if isinstance(subtype, str) else None)
    fields = {key: values.get(key) for key in keys}
    checked = cross_checked(fields, hints) | weak_word_keys(read, hints.words)
    requirement = requirement_disagrees(reading)
    if requirement is not None:
        checked.add(requirement)
    artist = fields.get("artist")
    if isinstance(artist, str) and artists:
        known = known_artist(artist, artists)
        if known is not None and known != artist:
            fields["artist"] = known
            checked.add("artist")  # matched, not read: the person looks
        elif known is None:
            checked.add("artist")  # an artist the catalogue does not know yet
    doubtful = [key for key in keys if fields[key] is not None
                and (confidences.get(key, 0.0) < DOUBTFUL_BELOW or key in checked)]
    return fields, doubtful
