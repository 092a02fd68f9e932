"""What a photo of cards reads as, for ``POST /api/scans/`` (docs/design.md §13) and the edit
form's queue: every card found, with its corners, the values read, the doubtful keys and the
catalogue card whose name was read.

The reading itself is pure (cards.images.photo_cards); this adds the catalogue: a name read
is looked up (case and spacing aside), and a card whose name the catalogue has is named, so
"Improve this card" with a photo of another card can say so.
"""

from __future__ import annotations

from typing import Any

from cards.images.photo_cards import CardFound, PhotoReading
from cards.models import Card


def catalogue_card(name: object) -> str | None:
    """The id of the catalogue's card with this name (case and spacing aside), or None."""
    if not isinstance(name, str) or not name.strip():
        return None
    wanted = " ".join(name.split())
    return Card.objects.filter(name__iexact=wanted).order_by("id").values_list(
        "id", flat=True).first()


def known_artists() -> list[str]:
    """The artists the catalogue's cards name: an artist read from a photo is matched to
    them (cards.images.card_fields.known_artist)."""
    names = Card.objects.exclude(artist__isnull=True).exclude(artist="").values_list(
        "artist", flat=True)
    return sorted({name for name in names if name})


def number_taken(set_code: str, number: object, name: object) -> bool:
    """Whether another card of the set (by name, case aside) has the collector ``number``
    read: a misread digit, or the wrong set; the person should look."""
    if not isinstance(number, str) or not number.strip():
        return False
    others = Card.objects.filter(set__code__iexact=set_code, number=number.strip())
    if isinstance(name, str) and name.strip():
        others = others.exclude(name__iexact=" ".join(name.split()))
    return others.exists()


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
