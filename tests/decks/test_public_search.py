"""The search of public decks (/decks/public/ and GET /api/decks/public/): by name, faction
and card, never another's private or unlisted deck, a page at a time, a clear error for a
value it cannot use."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from decks.models import Deck
from decks.public_search import PAGE_SIZE
from decks.services import deck_data, deck_save

pytestmark = pytest.mark.django_db

SAMPLES = ["Guild Merchants", "Guild Veterans", "Kalim Crusaders", "Kalim Faithful",
           "Mosfin Blades", "Mosfin Senate"]


def names(client: Client, query: str) -> list[str]:
    answer = client.get(f"/api/decks/public/?page_size=100&{query}")
    assert answer.status_code == 200, answer.content
    return [deck["name"] for deck in answer.json()["results"]]


@pytest.mark.parametrize(("query", "found"), [
    ("", SAMPLES),
    ("name=kalim", ["Kalim Crusaders", "Kalim Faithful"]),
    ("name=FAITHFUL+kalim", ["Kalim Faithful"]),  # every word, in any case and order
    ("name=nothing-like-it", []),
    ("faction=guild", ["Guild Merchants", "Guild Veterans"]),
    ("faction=Mosfin", ["Mosfin Blades", "Mosfin Senate"]),
    ("card=demo-cathedral-warden", ["Kalim Crusaders", "Kalim Faithful"]),  # an id
    ("card=cathedral+warden", ["Kalim Crusaders", "Kalim Faithful"]),  # words of a name
    ("name=faithful&faction=mosfin", []),
    ("name=kalim&card=cathedral+warden&faction=kalim", ["Kalim Crusaders", "Kalim Faithful"]),
], ids=lambda value: value if isinstance(value, str) else None)
def test_public_decks_are_found_by_name_faction_and_card(client: Client, query: str,
                                                         found: list[str]) -> None:
    assert names(client, query) == found


@pytest.mark.parametrize(("query", "field", "says"), [
    ("faction=elves", "faction", "“elves” is not a faction: use one of kalim, mosfin, guild"),
    ("card=cathedrl+wardne", "card", "No card is named like “cathedrl wardne”"),
    ("card=cathedral+wardn", "card", "Did you mean “Cathedral Warden”?"),
    ("card=a", "card", "More than 12 cards are named like “a”"),
    ("name=" + "x" * 201, "name", "“name” may be at most 200 characters long."),
    ("name=ab%00c", "name", "“name” may not hold the character U+0000"),  # PostgreSQL: 500
    ("card=x%07y", "card", "“card” may not hold the character U+0007"),
])
def test_a_search_that_cannot_run_is_a_problem_naming_the_parameter(
        client: Client, query: str, field: str, says: str) -> None:
    answer = client.get(f"/api/decks/public/?{query}")
    assert answer.status_code == 400
    assert answer["Content-Type"].startswith("application/problem+json")
    body = answer.json()
    assert body["code"] == "invalid_search" and says in body["detail"]
    assert list(body["errors"]) == [field]
    page = client.get(f"/decks/public/?{query}")
    assert page.status_code == 400 and says in page.content.decode().replace("&#x27;", "'")


def test_the_search_never_shows_a_private_or_unlisted_deck(client: Client) -> None:
    bob = User.objects.create_user("bob-search")
    data = deck_data(Deck.objects.get(owner__username="samples", name="Kalim Faithful"))
    for name, visibility in [("Faithful private", Deck.PRIVATE),
                             ("Faithful link-only", Deck.UNLISTED),
                             ("Faithful public", Deck.PUBLIC)]:
        deck_save(owner=bob, data=replace(data, name=name), visibility=visibility)
    client.force_login(bob)  # not even to their owner: this is the public decks' search
    assert names(client, "name=faithful") == ["Faithful public", "Kalim Faithful"]
    page = client.get("/decks/public/?name=faithful").content.decode()
    assert "Faithful public" in page and "private" not in page and "link-only" not in page


def test_the_page_lists_each_deck_with_its_factions_and_the_copies_of_the_card(
        client: Client) -> None:
    page = client.get("/decks/public/?card=demo-cathedral-warden")
    assert page.status_code == 200
    html = page.content.decode()
    assert "2 public decks with Cathedral Warden." in html
    faithful = Deck.objects.get(name="Kalim Faithful")
    row = html[html.index(f'href="/decks/{faithful.pk}/"'):]
    row = row[:row.index("</tr>")]
    assert '<td data-label="Factions">The Glory of Kalim</td>' in row
    assert '<td class="num" data-label="Copies">2</td>' in row


def test_results_come_a_page_at_a_time_keeping_the_search(client: Client) -> None:
    owner = User.objects.create_user("many-decks")
    data = deck_data(Deck.objects.get(owner__username="samples", name="Mosfin Senate"))
    for n in range(PAGE_SIZE + 1):
        deck_save(owner=owner, data=replace(data, name=f"Senate copy {n:02}"),
                  visibility=Deck.PUBLIC)
    first = client.get("/decks/public/?name=copy").content.decode()
    assert f"{PAGE_SIZE + 1} public decks named like “copy”, page 1 of 2." in first
    assert 'href="?name=copy&amp;page=2" rel="next"' in first
    second = client.get("/decks/public/?name=copy&page=2").content.decode()
    assert f"Senate copy {PAGE_SIZE:02}" in second and "Senate copy 00" not in second
    api = client.get("/api/decks/public/?name=copy").json()
    assert api["count"] == PAGE_SIZE + 1


def test_the_decks_pages_and_a_cards_page_link_to_the_search(client: Client) -> None:
    assert 'href="/decks/public/"' in client.get("/decks/").content.decode()
    card = client.get("/cards/demo-cathedral-warden/").content.decode()
    assert 'href="/decks/public/?card=demo-cathedral-warden"' in card


def test_a_page_of_results_costs_the_same_queries_whatever_its_decks(
        client: Client, django_assert_max_num_queries: Any) -> None:
    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    few = (queries("/decks/public/?name=kalim"), queries("/api/decks/public/?name=kalim"))
    owner = User.objects.create_user("more-decks")
    data = deck_data(Deck.objects.get(owner__username="samples", name="Kalim Faithful"))
    for n in range(8):
        deck_save(owner=owner, data=replace(data, name=f"Kalim copy {n}"), visibility=Deck.PUBLIC)
    many = (queries("/decks/public/?name=kalim"), queries("/api/decks/public/?name=kalim"))
    assert many == few, (few, many)
    with django_assert_max_num_queries(12):
        client.get("/api/decks/public/?card=cathedral+warden&faction=kalim")
