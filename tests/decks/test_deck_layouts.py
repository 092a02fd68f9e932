"""A deck page shows its cards by part (the default), grouped by card type, or as the card
images, chosen by a toggle (?view=)."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from cards.image_services import cards_ensure_images
from cards.models import Card
from decks.deck_display import deck_view
from decks.deck_layouts import by_type, layout_from
from decks.models import Deck
from decks.services import deck_data
from decks.validation import catalogue_facts

pytestmark = pytest.mark.django_db


def faithful() -> Deck:
    return Deck.objects.get(owner__username="samples", name="Kalim Faithful")


@pytest.mark.parametrize(("asked", "layout"), [
    (None, "parts"), ("", "parts"), ("parts", "parts"), ("type", "type"),
    ("images", "images"), ("grid", "parts"), ("TYPE", "parts"),
])
def test_the_layout_asked_for_or_the_default(asked: str | None, layout: str) -> None:
    assert layout_from(asked) == layout


def test_grouped_by_type_every_card_is_in_its_types_group_with_its_part() -> None:
    deck = faithful()
    groups = by_type(deck_view(deck_data(deck)), catalogue_facts())
    assert [g.title for g in groups] == ["Structures", "Personalities", "Invocations",
                                         "Events", "Wanderers"]  # only the types it has
    assert sum(g.total for g in groups) == sum(e.count for e in deck.entries.all())
    structures = groups[0]
    assert structures.total == 20
    assert [e.part for e in structures.rows[:4]] == ["Holdings"] * 3 + ["Structure Pile"]


@pytest.mark.parametrize(("query", "shows", "hides"), [
    ("", ['id="part-holdings-title"', "Initial Holdings"], ['id="type-structure-title"']),
    ("?view=type", ['id="type-structure-title">Structures <span class="part-count">20',
                    'id="type-wanderer-title">Wanderers',
                    "structure, stronghold · Holdings"], ['id="part-holdings-title"']),
    ("?view=images", ['class="deck-images"', "1 copy of</span></span>",
                      '<span class="deck-image-name">Emberhold Keep</span>',
                      'src="/cards/demo-emberhold-keep/image/small.webp?v='],
     ['id="part-holdings-title"', 'id="type-structure-title"']),
])
def test_the_deck_page_shows_its_cards_in_the_layout_chosen(client: Client, query: str,
                                                            shows: list[str],
                                                            hides: list[str]) -> None:
    deck = faithful()
    cards_ensure_images([Card.objects.get(id="demo-emberhold-keep")])  # its picture's version
    answer = client.get(f"/decks/{deck.pk}/{query}")
    assert answer.status_code == 200
    page = html.unescape(answer.content.decode())
    for text in shows:
        assert text in page
    for text in hides:
        assert text not in page
    assert '<nav class="views deck-views" aria-label="Show the cards">' in page
    current = query.removeprefix("?view=") or "parts"
    assert page.count('aria-current="true" class="active"') >= 1
    label = {"parts": "By part", "type": "By type", "images": "Images"}[current]
    assert f'aria-current="true" class="active">{label}</a>' in page
