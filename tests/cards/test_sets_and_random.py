"""/sets/ (the breadcrumb's "Sets"), and a random card, of the catalogue or of a search."""

from __future__ import annotations

import pytest
from django.test import Client

from cards.models import Card

pytestmark = pytest.mark.django_db


def test_the_sets_page_lists_every_set_and_a_set_s_breadcrumb_leads_there(
        client: Client) -> None:
    page = client.get("/sets/").content.decode()
    assert '<h1>Sets</h1>' in page
    assert 'href="/sets/wof/"' in page and 'href="/sets/demo/"' in page
    crumbs = client.get("/sets/wof/").content.decode()
    assert '<a href="/sets/">Sets</a> \u203a War of Factions' in crumbs


def test_a_random_card_is_a_card_page_picked_again_on_each_visit(client: Client) -> None:
    response = client.get("/cards/random/")
    assert response.status_code == 302 and "no-cache" in response["Cache-Control"]
    card_id = response["Location"].removeprefix("/cards/").removesuffix("/")
    assert Card.objects.filter(id=card_id).exists()


def test_a_random_card_of_a_search_is_one_of_its_matches(client: Client) -> None:
    troops = set(Card.objects.filter(subtype="troop").values_list("id", flat=True))
    for _ in range(5):
        location = client.get("/cards/random/", {"q": "t:troop"})["Location"]
        assert location.removeprefix("/cards/").removesuffix("/") in troops
    assert 'href="/cards/random/?q=t%3Atroop"' in client.get(
        "/cards/", {"q": "t:troop"}).content.decode()


@pytest.mark.parametrize(("query", "goes_to"), [
    ("cost<<", "/cards/?q=cost%3C%3C"),  # a query that cannot be read: its error page
    ("t:troop zzqx", "/cards/?q=t%3Atroop+zzqx"),  # nothing matches: the empty results
])
def test_a_random_card_of_no_cards_goes_back_to_the_search(client: Client, query: str,
                                                            goes_to: str) -> None:
    assert client.get("/cards/random/", {"q": query})["Location"] == goes_to


@pytest.mark.parametrize("url", ["/edits/", "/edits/guide/", "/cards/wof-acormis-winters/improve/",
                                 "/sets/wof/add/"])
def test_every_sets_breadcrumb_leads_to_the_sets_page(url: str, ada: Client) -> None:
    page = ada.get(url).content.decode()
    assert '<a href="/sets/">Sets</a> \u203a' in page
    assert '<a href="/">Sets</a>' not in page
