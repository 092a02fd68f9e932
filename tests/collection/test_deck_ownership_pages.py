"""Decks against my collection on the pages: owned against needed, can I build it, the
missing cards as text and CSV, sleeved decks, and the public deck filters."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client

from collection.allocation import deck_needs
from collection.csv_format import Counts
from collection.services import collection_lock, collection_update
from decks.formats.text import parse_text
from decks.models import Deck
from decks.services import catalogue_resolver, deck_data, deck_save
from rules.decklist import Decklist

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def sample(name: str = "Kalim Faithful") -> Deck:
    return Deck.objects.get(owner__username="samples", name=name)


def own(username: str, data: Decklist, *, less: int = 0) -> None:
    """Give the user every card of ``data``, ``less`` copies short of its first card."""
    needs = deck_needs(data)
    first = next(iter(needs))
    counts = {card: Counts(n - (less if card == first else 0)) for card, n in needs.items()}
    with transaction.atomic():
        collection_update(collection=collection_lock(User.objects.get(username=username)),
                          counts=counts)


def test_a_deck_page_says_whether_i_can_build_it(ada: Client) -> None:
    deck = sample()
    html = ada.get(deck.get_absolute_url()).content.decode()
    total = sum(deck_needs(deck_data(deck)).values())
    assert "Can I build this now?" in html and f"missing {total} cards" in html
    own("ada", deck_data(deck))
    html = ada.get(deck.get_absolute_url()).content.decode()
    assert 'class="verdict-yes">Yes</strong>' in html
    assert "Can I build this now?" not in Client().get(deck.get_absolute_url()).content.decode()


def test_the_builder_shows_ownership_and_keeps_it_current_after_an_edit(ada: Client) -> None:
    owner = User.objects.get(username="ada")
    data = deck_data(sample())
    deck = deck_save(owner=owner, data=data)
    own("ada", data)
    assert 'class="verdict-yes"' in ada.get(f"/decks/{deck.pk}/edit/").content.decode()
    card = data.structures[0].card_id
    response = ada.post(f"/decks/{deck.pk}/edit/add/",
                        {"card": card, "section": "structures", "version": deck.version},
                        headers=HTMX)
    assert "missing 1 card." in response.content.decode()


def test_the_missing_cards_export_as_a_decklist_and_as_csv(ada: Client) -> None:
    deck = sample()
    data = deck_data(deck)
    own("ada", data, less=1)
    first = next(iter(deck_needs(data)))
    text = ada.get(f"/decks/{deck.pk}/missing.txt")
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    missing = parse_text(text.content.decode(), catalogue_resolver()).deck
    assert missing is not None and missing.name == "Kalim Faithful (missing cards)"
    assert deck_needs(missing) == {first: 1}
    rows = list(csv.reader(io.StringIO(ada.get(f"/decks/{deck.pk}/missing.csv").content.decode())))
    assert rows[0] == ["id", "name", "missing"] and rows[1][0] == first and rows[1][2] == "1"
    assert len(rows) == 2
    html = ada.get(deck.get_absolute_url()).content.decode()
    assert f'href="/decks/{deck.pk}/missing.txt"' in html
    assert f'href="/decks/{deck.pk}/missing.csv"' in html


def test_the_missing_export_needs_an_account_and_a_visible_deck(ada: Client, bob: Client) -> None:
    deck = sample()
    assert Client().get(f"/decks/{deck.pk}/missing.txt").status_code == 302
    private = deck_save(owner=User.objects.get(username="ada"), data=deck_data(deck))
    assert bob.get(f"/decks/{private.pk}/missing.csv").status_code == 404
    assert ada.get(f"/decks/{deck.pk}/missing.pdf").status_code == 404


def test_only_the_owner_sleeves_a_deck_and_it_makes_no_new_version(ada: Client,
                                                                    bob: Client) -> None:
    deck = deck_save(owner=User.objects.get(username="ada"), data=deck_data(sample()),
                     visibility=Deck.PUBLIC)
    assert bob.post(f"/decks/{deck.pk}/sleeved/", {"sleeved": "1"}).status_code == 403
    response = ada.post(f"/decks/{deck.pk}/sleeved/", {"sleeved": "1", "back": "builder"})
    assert response.status_code == 302 and response["Location"] == f"/decks/{deck.pk}/edit/"
    deck.refresh_from_db()
    assert deck.sleeved and deck.version == 1
    assert "Unsleeve" in ada.get(deck.get_absolute_url()).content.decode()


def test_a_second_sleeved_deck_cannot_count_the_first_ones_cards(ada: Client) -> None:
    owner = User.objects.get(username="ada")
    data = deck_data(sample())
    own("ada", data)
    first = deck_save(owner=owner, data=data)
    second = deck_save(owner=owner, data=data)
    for deck in (first, second):
        ada.post(f"/decks/{deck.pk}/sleeved/", {"sleeved": "1"})
    total = sum(deck_needs(data).values())
    assert 'class="verdict-yes"' in ada.get(first.get_absolute_url()).content.decode()
    assert f"missing {total} cards" in ada.get(second.get_absolute_url()).content.decode()
    # Any other deck sees only free copies: none are left.
    assert f"missing {total} cards" in ada.get(sample().get_absolute_url()).content.decode()


def test_public_decks_can_be_filtered_by_what_my_collection_builds(ada: Client) -> None:
    kalim = sample()
    own("ada", deck_data(kalim))
    publics = Deck.objects.filter(visibility=Deck.PUBLIC).count()
    everything = ada.get("/decks/").content.decode()
    assert "Missing from my collection" in everything
    assert "Buildable from my collection" in everything
    buildable = ada.get("/decks/", {"buildable": "on"}).content.decode()
    listed = [d.name for d in Deck.objects.filter(visibility=Deck.PUBLIC)
              if d.get_absolute_url() + '"' in buildable]
    assert "Kalim Faithful" in listed and len(listed) < publics
    generous = ada.get("/decks/", {"missing": "200"}).content.decode()
    assert all(d.get_absolute_url() + '"' in generous
               for d in Deck.objects.filter(visibility=Deck.PUBLIC))
    bad = ada.get("/decks/", {"missing": "-3"}).content.decode()
    assert "greater than or equal to 0" in bad


def test_anonymous_visitors_see_no_collection_filters(client: Client) -> None:
    html = client.get("/decks/").content.decode()
    assert "Buildable from my collection" not in html and "Kalim Faithful" in html
