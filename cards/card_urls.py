"""URLs of a card: its page, its API entry and its image renditions, built without a reverse()
(the card list serializes hundreds of cards; reversing four URLs for each dominated it)."""

from __future__ import annotations

from functools import lru_cache

from django.urls import get_script_prefix, reverse

SIZES = ("small", "normal", "large")
#: The card list's tiles: small, and medium (twice as sharp) for dense screens.
TILE_SIZES = ("small", "medium")
_SLOT = "card-id-slot"  # a valid card id that stands for the real one


@lru_cache(maxsize=8)
def _templates(script_prefix: str) -> dict[str, str]:
    """Each URL reversed once per script prefix, with a slot for the card id."""
    urls = {size: reverse("cards:image", args=[_SLOT, size]) for size in SIZES + TILE_SIZES}
    urls["api"] = reverse("api:card-detail", args=[_SLOT])
    urls["page"] = reverse("cards:detail", args=[_SLOT])
    return urls


def card_url(card_id: str, which: str) -> str:
    """``which``: "api", "page" or an image size."""
    return _templates(get_script_prefix())[which].replace(_SLOT, card_id)


def card_image_urls(card_id: str, source_hash: str | None) -> dict[str, str]:
    # The source hash in the query string lets browsers cache a rendition for a year and
    # still see a new one the moment the card's data or scan changes.
    version = f"?v={source_hash[:10]}" if source_hash else ""
    return {size: card_url(card_id, size) + version for size in SIZES}


def card_tile_urls(card_id: str, source_hash: str | None) -> dict[str, str]:
    """The card list tile's renditions (:data:`TILE_SIZES`), versioned as above."""
    version = f"?v={source_hash[:10]}" if source_hash else ""
    return {size: card_url(card_id, size) + version for size in TILE_SIZES}
