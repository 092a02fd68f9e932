"""URLs of a card's image renditions (served by cards.views.card_image)."""

from __future__ import annotations

from django.urls import reverse

from cards.models import CardImage

SIZES = ("small", "normal", "large")


def card_image_urls(card_id: str, picture: CardImage | None) -> dict[str, str]:
    # The source hash in the query string lets browsers cache a rendition for a year and
    # still see a new one the moment the card's data or scan changes.
    version = f"?v={picture.source_hash[:10]}" if picture else ""
    return {
        size: reverse("cards:image", args=[card_id, size]) + version for size in SIZES
    }
