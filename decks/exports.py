"""Rendering a deck in each export format, with what the catalogue knows about its cards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from cards.models import Card
from decks.formats.csv_format import render_csv
from decks.formats.deck_code import encode_deck_code
from decks.formats.json_format import render_json
from decks.formats.model import CardRef, Deck
from decks.formats.text import render_text
from decks.services import catalogue_cards

# format -> (media type, file extension)
EXPORTS: Final = {
    "txt": ("text/plain; charset=utf-8", "txt"),
    "json": ("application/json", "json"),
    "csv": ("text/csv; charset=utf-8", "csv"),
    "code": ("text/plain; charset=utf-8", "txt"),
}


def _cards_for(deck: Deck) -> dict[str, CardRef]:
    # The text and CSV renderers need every card sharing a name with a deck card, to write
    # "Name (faction)" where the name alone is ambiguous: the whole catalogue is simplest.
    return {card.id: card for card in catalogue_cards()}


def render_deck(deck: Deck, fmt: str) -> str:
    renderers: dict[str, Callable[[Deck], str]] = {
        "txt": lambda d: render_text(d, _cards_for(d)),
        "json": render_json,
        "csv": lambda d: render_csv(d, _cards_for(d)),
        "code": lambda d: encode_deck_code(d, Card.objects.values_list("id", flat=True)) + "\n",
    }
    if fmt not in renderers:
        raise ValueError(f"unknown export format {fmt!r}; use one of {', '.join(EXPORTS)}")
    return renderers[fmt](deck)
