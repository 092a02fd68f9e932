"""The version check of every builder edit: the JSON API's optimistic concurrency rules
(api/preconditions.py) for a deck edited from a page."""

from __future__ import annotations

from typing import Final

from decks.models import Deck

STALE_MESSAGE: Final = (
    "This deck was changed in another tab or by another device; your change was not applied "
    "— the deck below is the current version."
)


def deck_etag(deck: Deck) -> str:
    return f'"{deck.pk}.{deck.version}"'


def version_problem(deck: Deck, version: object, if_match: str | None) -> tuple[int, str] | None:
    """The API's optimistic concurrency rules: an If-Match header must be the deck's ETag
    (else 412); otherwise the ``version`` field must be the current version (else 409); an
    edit naming neither is refused (428)."""
    if if_match is not None:
        return None if if_match == deck_etag(deck) else (412, STALE_MESSAGE)
    if version in (None, ""):
        return 428, (f"Say which version this edit is based on (the deck is at version "
                     f"{deck.version}); nothing was saved.")
    return None if str(version) == str(deck.version) else (409, STALE_MESSAGE)
