"""A card's page lists the decks that use it: the public ones and the visitor's own, never
another's private or unlisted deck."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.models import Deck
from decks.services import deck_data, deck_save

pytestmark = pytest.mark.django_db
CARD = "demo-cathedral-warden"


def copy_of_sample(owner: User, name: str, visibility: str) -> Deck:
    data = deck_data(Deck.objects.get(owner__username="samples", name="Kalim Faithful"))
    return deck_save(owner=owner, data=replace(data, name=name), visibility=visibility)


def listed(client: Client) -> str:
    page = client.get(f"/cards/{CARD}/").content.decode()
    start = page.find('id="card-decks-title"')
    return page[start:page.index("</section>", start)] if start >= 0 else ""


def test_the_card_page_lists_public_decks_and_mine_only() -> None:
    ada, bob = User.objects.create_user("ada-cards"), User.objects.create_user("bob-cards")
    mine = copy_of_sample(ada, "Ada's private", Deck.PRIVATE)
    copy_of_sample(bob, "Bob's private", Deck.PRIVATE)
    copy_of_sample(bob, "Bob's link-only", Deck.UNLISTED)
    public = copy_of_sample(bob, "Bob's public", Deck.PUBLIC)
    anonymous = listed(Client())
    assert f'href="/decks/{public.pk}/">Bob&#x27;s public</a>' in anonymous
    assert "private" not in anonymous and "link-only" not in anonymous
    assert "2 copies · by bob-cards" in anonymous and "Kalim Faithful" in anonymous  # samples
    client = Client()
    client.force_login(ada)
    signed_in = listed(client)
    assert f'href="/decks/{mine.pk}/">Ada&#x27;s private</a>' in signed_in
    assert "2 copies · by you" in signed_in and "Bob&#x27;s private" not in signed_in
    assert "link-only" not in signed_in


def test_a_card_no_deck_uses_has_no_such_section(client: Client) -> None:
    page = client.get("/cards/wof-acormis-winters/").content.decode()
    assert "Decks that use it" not in page
