"""Names in the search are forgiving: apostrophes, hyphens, case, accents and plurals do not
matter; a name like no card's says what to try instead, once."""

from __future__ import annotations

import pytest
from django.test import Client

from cards.card_search import card_search
from cards.models import Card

pytestmark = pytest.mark.django_db


def names(query: str) -> list[str]:
    return list(card_search(query).apply(Card.objects.all()).values_list("name", flat=True))


@pytest.mark.parametrize(("query", "found"), [
    ("cobblers", "Cobbler's Lane"),
    ("Cobblers Lane", "Cobbler's Lane"),
    ("COBBLER\u2019S", "Cobbler's Lane"),
    ("bowmen", "Bowman"),
    ("skulker", "Goblin Skulkers"),
    ("goblin skulkers", "Goblin Skulkers"),
    ("battle abbess", "Battle-Abbess Ruun Kaeth"),
    ("battle-abbess", "Battle-Abbess Ruun Kaeth"),
    ("ragpickers", "Ragpicker's Hovel"),
    ("bög hág", "Bog Hag"),
    ("sewer rats", "Sewer Rat Swarm"),
])
def test_a_name_is_found_however_it_is_spelt(query: str, found: str) -> None:
    assert found in names(query)


def test_an_exact_name_stays_exact() -> None:
    assert names('!"Bog Hag"') == ["Bog Hag"]
    assert names('!"bog hags"') == []


def test_a_near_name_is_suggested_once(client: Client) -> None:
    page = client.get("/cards/?q=bog+hog").content.decode()
    assert page.count(">Bog Hag</a>") == 1 and "Did you mean" in page
    assert "No card name matches &#x27;bog hog&#x27;" not in page  # said once, with the links


@pytest.mark.parametrize(("query", "says"), [
    ("xyzzy", "Search the cards' text with <code>o:</code>"),
    ("exhausts", '<a href="?q=o%3Aexhausts"><code>o:exhausts</code></a>'),
])
def test_a_name_like_no_card_s_says_what_to_try(client: Client, query: str, says: str) -> None:
    page = client.get(f"/cards/?q={query}").content.decode()
    assert "nor is any like it" in page and says in page


def test_the_api_still_says_it_in_its_warnings(client: Client) -> None:
    answer = client.get("/api/cards/?q=xyzzy").json()
    assert answer["count"] == 0 and "nor is any like it" in answer["warnings"][0]
