"""Sharing: each format downloads under a name of its own, public and unlisted decks have a
short stable link (and a light QR code), and proxies print in low ink under 1 MB."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.exports import export_filename
from decks.models import Deck
from decks.services import deck_data, deck_save
from decks.views.links import short_slug

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("fmt", "low_ink", "name"), [
    ("txt", False, "kalim.txt"), ("json", False, "kalim.json"), ("csv", False, "kalim.csv"),
    ("code", False, "kalim.deck-code.txt"), ("pdf", False, "kalim.decklist.pdf"),
    ("proxies", False, "kalim.proxies.pdf"), ("proxies", True, "kalim.proxies-low-ink.pdf"),
])
def test_every_format_has_a_file_name_of_its_own(fmt: str, low_ink: bool, name: str) -> None:
    assert export_filename("kalim", fmt, low_ink=low_ink) == name


def test_the_api_sends_the_names(client: Client) -> None:
    sample = Deck.objects.get(owner__username="samples", name="Guild Merchants")
    for fmt, name in (("txt", "guild-merchants.txt"), ("code", "guild-merchants.deck-code.txt")):
        answer = client.get(f"/api/decks/{sample.pk}/export/?to={fmt}")
        assert answer["Content-Disposition"] == f'inline; filename="{name}"'


@pytest.mark.parametrize(("number", "slug"), [(1, "1"), (35, "z"), (36, "10"), (1234, "ya")])
def test_a_short_slug_is_the_deck_number_in_base_36(number: int, slug: str) -> None:
    assert short_slug(number) == slug and int(slug, 36) == number


def test_a_public_deck_has_a_short_link_and_its_qr_holds_it(client: Client, bob: Client) -> None:
    sample = Deck.objects.get(owner__username="samples", name="Guild Merchants")
    page = client.get(f"/decks/{sample.pk}/").content.decode()
    short = f"http://testserver/s/{short_slug(sample.pk)}"
    assert f'value="{short}"' in page and "The short link as a QR code" in page
    assert client.get(f"/s/{short_slug(sample.pk)}")["Location"] == f"/decks/{sample.pk}/"
    # A private deck has none, and its short address is no way in.
    ada = User.objects.create_user("ada")
    private = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.PRIVATE)
    assert bob.get(f"/s/{short_slug(private.pk)}").status_code == 404
    assert client.get("/s/not-a-slug").status_code == 404


def test_an_unlisted_deck_is_shared_by_an_unguessable_token_not_its_number(
        client: Client, bob: Client) -> None:
    sample = Deck.objects.get(owner__username="samples", name="Guild Merchants")
    ada = User.objects.create_user("ada")
    owner = Client()
    owner.force_login(ada)
    unlisted = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.UNLISTED)
    other = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.UNLISTED)
    assert len(unlisted.share_token) >= 16 and unlisted.share_token != other.share_token
    # The owner's page offers the token's link, not the number's.
    page = owner.get(f"/decks/{unlisted.pk}/").content.decode()
    assert f'value="http://testserver/s/{unlisted.share_token}"' in page
    assert f"/s/{short_slug(unlisted.pk)}\"" not in page
    # A walk over the numbers finds nothing, by any route that takes one.
    for url in (f"/s/{short_slug(unlisted.pk)}", f"/decks/{unlisted.pk}/",
                f"/api/decks/{unlisted.pk}/", f"/api/decks/{unlisted.pk}/export/?to=txt"):
        assert client.get(url).status_code == 404, url
        assert bob.get(url).status_code == 404, url
    # The link opens it for whoever follows it, and only it.
    assert bob.get(f"/s/{unlisted.share_token}")["Location"] == f"/decks/{unlisted.pk}/"
    assert bob.get(f"/decks/{unlisted.pk}/").status_code == 200
    assert bob.get(f"/decks/{other.pk}/").status_code == 404
    # Made private, the link opens nothing any more, even for those who followed it.
    Deck.objects.filter(pk=unlisted.pk).update(visibility=Deck.PRIVATE)
    assert bob.get(f"/decks/{unlisted.pk}/").status_code == 404
    assert bob.get(f"/s/{unlisted.share_token}").status_code == 404


def test_the_short_link_makes_the_qr_code_lighter(client: Client) -> None:
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    public = client.get(f"/decks/{sample.pk}/print/").content.decode()
    ada = User.objects.create_user("ada")
    mine = Client()
    mine.force_login(ada)
    private = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.PRIVATE)
    long = mine.get(f"/decks/{private.pk}/print/").content.decode()

    def qr_size(page: str) -> int:
        start = page.index('<svg role="img"')
        return len(page[start:page.index("</svg>", start)])

    assert qr_size(public) < qr_size(long) / 2


@pytest.mark.slow
def test_low_ink_proxies_of_a_60_card_deck_stay_under_a_megabyte(ada: Client) -> None:
    sample = Deck.objects.get(owner__username="samples", name="Guild Veterans")
    assert sum(e.count for _, e in deck_data(sample).all_entries()) >= 60
    answer = ada.get(f"/api/decks/{sample.pk}/export/?to=proxies&ink=low")
    assert answer["Content-Type"] == "application/pdf"
    assert answer.content.startswith(b"%PDF") and len(answer.content) < 1_000_000
    assert answer["Content-Disposition"] == 'inline; filename="guild-veterans.proxies-low-ink.pdf"'
