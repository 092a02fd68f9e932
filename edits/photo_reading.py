"""What a photo of cards reads as, for ``POST /api/scans/`` (docs/design.md §13) and the edit
form's queue: every card found, with its corners, the values read, the doubtful keys and the
catalogue card whose name was read.

The reading itself is pure (cards.images.photo_cards); this adds the catalogue: a name read
is looked up (case and spacing aside), and a card whose name the catalogue has is named, so
"Improve this card" with a photo of another card can say so.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F

from cards.images.card_fields import CatalogueHints
from cards.images.photo_cards import CardFound, PhotoReading
from cards.models import Card, CardSet


def catalogue_card(name: object) -> str | None:
    """The id of the catalogue's card with this name (case and spacing aside), or None."""
    if not isinstance(name, str) or not name.strip():
        return None
    wanted = " ".join(name.split())
    return Card.objects.filter(name__iexact=wanted).order_by("id").values_list(
        "id", flat=True).first()


def catalogue_hints(set_code: str = "") -> CatalogueHints:
    """What the catalogue knows that a card read is checked against
    (cards.images.card_fields.CatalogueHints): its artists (an artist read is matched to
    them), names, races, professions and the words of its text, and for the set
    ``set_code`` (when the person is adding to one) its collector numbers and size."""
    cards = Card.objects.annotate(set_code=F("set__code")).values(
        "name", "artist", "race", "profession", "abilities", "quotation", "number", "set_code")
    rows = [{**row, "set": row["set_code"]} for row in cards]
    card_set = CardSet.objects.filter(code__iexact=set_code).first() if set_code else None
    return CatalogueHints.from_cards(rows, set_code=set_code,
                                     set_size=card_set.size if card_set else None)


def card_document(card: CardFound) -> dict[str, Any]:
    """One card of the answer: §13's ``corners``, ``fields``, ``doubtful`` and ``card``."""
    return {
        "corners": [[round(x, 1), round(y, 1)] for x, y in card.corners],
        "fields": dict(card.fields),
        "doubtful": list(card.doubtful),
        "card": catalogue_card(card.fields.get("name")),
    }


def photo_document(reading: PhotoReading) -> dict[str, Any]:
    """The answer of ``POST /api/scans/``: the cards in reading order and the warnings."""
    warnings = list(reading.warnings)
    if not reading.cards and not warnings:
        warnings.append("no card found in the photo")
    return {"cards": [card_document(card) for card in reading.cards], "warnings": warnings}
