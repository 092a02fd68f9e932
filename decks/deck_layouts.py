"""The ways a deck page lays out its cards (Moxfield's view toggle): by part (the four parts of
the deck, as the rules count them), by card type across the parts, or as the card images."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from cards.card_urls import card_image_urls
from cards.models import CardImage
from decks.deck_display import PART_NAMES, DeckView, Part, Row
from rules.cards import CardFacts

LAYOUTS: Final[Mapping[str, str]] = {"parts": "By part", "type": "By type", "images": "Images"}
DEFAULT_LAYOUT: Final = "parts"
# The card types in the order of a turn's thinking: what is built, who acts, what they use.
TYPE_TITLES: Final[Mapping[str, str]] = {
    "structure": "Structures", "personality": "Personalities", "item": "Items",
    "invocation": "Invocations", "event": "Events", "wanderer": "Wanderers",
}
UNKNOWN_TYPE: Final = "Type not yet transcribed"


def layout_from(value: str | None) -> str:
    """The layout a ``?view=`` asks for; anything else is the default (a bookmark with an old
    or mistyped value still opens the deck)."""
    return value if value is not None and value in LAYOUTS else DEFAULT_LAYOUT


@dataclass(frozen=True)
class TypeRow:
    row: Row
    part: str  # the part it is in, as the page names it


@dataclass(frozen=True)
class TypeGroup:
    key: str
    title: str
    rows: tuple[TypeRow, ...]

    @property
    def total(self) -> int:
        return sum(entry.row.count for entry in self.rows)


def by_type(view: DeckView, facts: Mapping[str, CardFacts]) -> tuple[TypeGroup, ...]:
    """The deck's rows grouped by card type (only types the deck has), each row with its part;
    within a group the rows keep the parts' order. A card with two parts (a structure in the
    holdings and the pile) has a row for each."""
    groups: dict[str, list[TypeRow]] = {}
    for part in view.parts:
        for row in part.rows:
            card = facts.get(row.card_id)
            key = card.type if card is not None and card.type is not None \
                and card.type in TYPE_TITLES else ""
            groups.setdefault(key, []).append(TypeRow(row, PART_NAMES[part.key]))
    order = [*TYPE_TITLES, ""]
    return tuple(TypeGroup(key, TYPE_TITLES.get(key, UNKNOWN_TYPE), tuple(groups[key]))
                 for key in order if key in groups)



@dataclass(frozen=True)
class ImagePart:
    part: Part
    images: tuple[tuple[Row, str], ...]  # each row with its card's small image


def image_parts(view: DeckView) -> tuple[ImagePart, ...]:
    """The parts with each card's small image, the version of its picture in the address (so
    browsers keep it for a year and see a new one the moment it changes): one query."""
    ids = {row.card_id for part in view.parts for row in part.rows}
    hashes = dict(CardImage.objects.filter(card_id__in=ids).values_list("card_id",
                                                                         "source_hash"))
    return tuple(
        ImagePart(part, tuple((row, card_image_urls(row.card_id, hashes.get(row.card_id))
                               ["small"]) for row in part.rows))
        for part in view.parts)
