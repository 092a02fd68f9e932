"""{% deck_share deck as share %}: the text, code, link and QR code of a deck model."""

from __future__ import annotations

from typing import Any

from django import template

from decks.models import Deck
from decks.services import deck_data
from decks.views.links import DeckShare
from decks.views.links import deck_share as share_of

register = template.Library()


@register.simple_tag(takes_context=True)
def deck_share(context: dict[str, Any], deck: Deck) -> DeckShare:
    return share_of(context["request"], deck_data(deck), deck)
