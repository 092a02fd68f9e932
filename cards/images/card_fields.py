"""What a card reading gives as card data: the values under their docs/design.md §4 keys, only
for the keys the read type prints, and the keys whose reading is doubtful.

Pure Python (no Django): the scans API (design §13, ``POST /api/scans/``), the edit form and
the bench all turn a :class:`cards.images.ocr.CardReading` into fields here, so they agree.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from rules.card_facts import SUBTYPES, applicable_keys

if TYPE_CHECKING:
    from cards.images.ocr import CardReading

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


def odd_words(text: str) -> bool:
    """Whether ``text``, a name, holds a word no name is printed with ("Warden CoTT", a
    stray "3 GS" from a gem read into it, "Kestre!", "lise" for "Ilse": Tesseract reads a
    sans-serif capital I as l)."""
    return any(not _NAME_WORD.fullmatch(word) for word in text.split())


def cross_checked(fields: Mapping[str, object]) -> set[str]:
    """The keys whose value read fails a check of its form: a name or an artist with a word
    no name has, a detail part that is no gender where the gender is printed."""
    doubtful = set()
    for key in ("name", "artist"):
        value = fields.get(key)
        if isinstance(value, str) and odd_words(value):
            doubtful.add(key)
    gender = fields.get("gender")
    if isinstance(gender, str) and gender not in GENDERS:
        doubtful.update(key for key in ("race", "gender", "profession")
                        if fields.get(key) is not None)
    return doubtful


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


def reading_fields(reading: CardReading, artists: Sequence[str] = ()
                   ) -> tuple[dict[str, object], list[str]]:
    """The fields of ``reading`` (every key the read type prints; None where printed but not
    read) and the keys whose reading is doubtful (low confidence, or a value that fails
    :func:`cross_checked`). An artist read near one of ``artists`` (those the catalogue
    knows) is taken as that one, and is doubtful unless read exactly."""
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
    checked = cross_checked(fields)
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
