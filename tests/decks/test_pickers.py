"""The compare pages' pickers name a deck chosen by its number only if the visitor may open
it: a private deck, another's unlisted deck and a deck that does not exist are all "Deck N"."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.models import Deck
from decks.services import deck_data, deck_save

pytestmark = pytest.mark.django_db

NAME = "Alice PRIVATE deck"
# The pickers of both compare pages, the deck chosen by the address.
PICKERS = ["/decks/compare/?a={token}", "/goldfish/compare/?deck_a={token}"]


def alice_deck(visibility: str) -> Deck:
    sample = Deck.objects.get(owner__username="samples", name="Guild Merchants")
    alice = User.objects.get_or_create(username="alice")[0]
    deck = deck_save(owner=alice, data=deck_data(sample), visibility=visibility)
    Deck.objects.filter(pk=deck.pk).update(name=NAME)
    return deck


def neutral(page: str, *numbers: int) -> str:
    """The page with the decks' numbers written as N, and without what every answer draws
    anew (CSRF tokens, nonces), to compare two pages. Both numbers in both pages: a number the
    page prints anyway (the htmx config's "[45]..") then reads the same in each."""
    page = re.sub(r'(CSRFToken": "|csrfmiddlewaretoken" value="|nonce=")[^"]+', r"\1", page)
    for number in numbers:
        # (also inside an escaped address: the header's "next" links carry "%3Fa%3D7%3A2")
        page = re.sub(rf"(?<![\d.]){number}(?!\d)", "N", page)
    return page


@pytest.mark.parametrize("url", PICKERS)
@pytest.mark.parametrize("visibility", [Deck.PRIVATE, Deck.UNLISTED])
@pytest.mark.parametrize("suffix", ["", ":2"])
def test_a_picker_names_no_deck_the_visitor_may_not_open(url: str, visibility: str,
                                                         suffix: str, bob: Client) -> None:
    deck = alice_deck(visibility)
    for visitor in (Client(), bob):
        page = visitor.get(url.format(token=f"{deck.pk}{suffix}")).content.decode()
        assert NAME not in page
        label = f"Deck {deck.pk}" + (", version 2" if suffix else "")
        assert label in page


@pytest.mark.parametrize("url", PICKERS)
def test_a_picker_answers_the_same_for_a_private_deck_and_a_missing_one(url: str) -> None:
    deck = alice_deck(Deck.PRIVATE)
    missing = deck.pk + 1000
    private = Client().get(url.format(token=f"{deck.pk}:2"))
    absent = Client().get(url.format(token=f"{missing}:2"))
    assert private.status_code == absent.status_code == 200
    assert neutral(private.content.decode(), deck.pk, missing) \
        == neutral(absent.content.decode(), deck.pk, missing)


@pytest.mark.parametrize("url", PICKERS)
def test_a_picker_names_a_deck_for_its_owner_and_for_those_who_followed_its_link(
        url: str) -> None:
    deck = alice_deck(Deck.UNLISTED)
    owner = Client()
    owner.force_login(User.objects.get(username="alice"))
    follower = Client()
    follower.get(f"/s/{deck.share_token}")
    public = alice_deck(Deck.PUBLIC)
    for visitor in (owner, follower):
        assert NAME in visitor.get(url.format(token=f"{deck.pk}:2")).content.decode()
    assert NAME in Client().get(url.format(token=f"{public.pk}:2")).content.decode()
