"""The builder's search pages through every result, 30 a page, and keeps its page across an
edit; the names in its lists show the card's image (data-card-previews, static/js/site.js)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.builder_search import SEARCH_LIMIT, search_view
from decks.models import Deck
from decks.services import deck_save
from rules.decklist import Decklist

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
DEMO = 133  # cards in the Demo set


@pytest.mark.parametrize(("page", "shown", "first", "last"), [
    (1, 1, 1, 30), (2, 2, 31, 60), (5, 5, 121, DEMO), (0, 1, 1, 30), (99, 5, 121, DEMO),
])
def test_the_search_pages_through_every_result(page: int, shown: int, first: int,
                                               last: int) -> None:
    view = search_view("set:demo", "catalogue", Decklist(name="x"), page=page)
    assert (view.total, view.pages, view.page) == (DEMO, 5, shown)
    assert (view.first, view.last) == (first, last)
    assert len(view.rows) == last - first + 1 <= SEARCH_LIMIT


def test_every_card_is_on_exactly_one_page() -> None:
    seen = [row.card.id for page in range(1, 6)
            for row in search_view("set:demo", "catalogue", Decklist(name="x"), page=page).rows]
    assert len(seen) == len(set(seen)) == DEMO


def builder_deck() -> Deck:
    return deck_save(owner=User.objects.get(username="ada"), data=Decklist(name="Mine"))


def test_the_builder_offers_the_next_page_and_keeps_it_after_an_edit(ada: Client) -> None:
    deck = builder_deck()
    page = ada.get(f"/decks/{deck.pk}/edit/?q=set%3Ademo").content.decode()
    assert "1\u201330 of 133" in page and 'id="results-next"' in page
    assert 'id="results-previous"' not in page
    assert f'href="/decks/{deck.pk}/edit/?q=set%3Ademo&amp;page=2"' in page
    second = ada.get(f"/decks/{deck.pk}/edit/?q=set%3Ademo&page=2", headers=HTMX).content.decode()
    assert "31\u201360 of 133" in second and 'id="results-previous"' in second
    card = re.findall(r'id="add-([a-z0-9-]+)"', second)[0]
    answer = ada.post(f"/decks/{deck.pk}/edit/add/", {"version": 1, "card": card,
                                                      "section": "wanderers", "q": "set:demo",
                                                      "page": "2"}, headers=HTMX)
    assert answer.status_code == 200
    assert "31\u201360 of 133" in answer.content.decode()  # still on page 2
    redirect = ada.post(f"/decks/{deck.pk}/edit/add/", {"version": 2, "card": card,
                                                        "section": "wanderers", "q": "set:demo",
                                                        "page": "2"})
    assert redirect["Location"] == f"/decks/{deck.pk}/edit/?q=set%3Ademo&scope=catalogue&page=2"


def test_the_lists_of_card_names_show_their_images(ada: Client) -> None:
    deck = deck_save(owner=User.objects.get(username="ada"),
                     data=Decklist(name="Mine", wanderers=()))
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    for url, container in [
        (f"/decks/{deck.pk}/edit/?q=bog", '<ul class="result-rows" data-card-previews>'),
        (f"/decks/{sample.pk}/", '<div class="parts" data-card-previews>'),
        (f"/decks/{sample.pk}/history/", '<div class="part-changes" data-card-previews>'),
        ("/cards/?q=bog&view=list", '<table class="compact" data-card-previews>'),
        ("/cards/?q=bog&view=text", '<ol class="text-results" data-card-previews>'),
        (f"/decks/compare/?a={sample.pk}&b={sample.pk}",
         '<table class="compare-table compact" data-card-previews>'),
    ]:
        assert container in ada.get(url).content.decode(), url
