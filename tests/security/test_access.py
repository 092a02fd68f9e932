"""Who may do what: only staff change the catalogue; others' private decks do not exist."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from cards.models import Card
from decks.models import Deck
from decks.services import deck_data, deck_save

pytestmark = pytest.mark.django_db


def test_a_signed_in_user_who_is_not_staff_cannot_edit_a_card(ada: Client) -> None:
    before = Card.objects.get(pk="demo-bog-hag")
    page = ada.get("/admin/cards/card/demo-bog-hag/change/")
    assert page.status_code == 302 and "/admin/login/" in page["Location"]
    ada.post("/admin/cards/card/demo-bog-hag/change/", {"name": "Renamed"})
    assert Card.objects.get(pk="demo-bog-hag").as_data() == before.as_data()


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_card_api_is_read_only_for_everyone(ada: Client, method: str) -> None:
    User.objects.filter(username="ada").update(is_staff=True)
    url = "/api/cards/" if method == "post" else "/api/cards/demo-bog-hag/"
    response = getattr(ada, method)(url, {"name": "Renamed"}, content_type="application/json")
    assert response.status_code == 405
    assert Card.objects.get(pk="demo-bog-hag").name != "Renamed"


def test_every_api_route_to_a_private_deck_of_another_user_is_404(ada: Client,
                                                                  bob: Client) -> None:
    samples = Deck.objects.filter(owner__username="samples").first()
    assert samples is not None
    owner = User.objects.get(username="ada")
    deck = deck_save(owner=owner, data=deck_data(samples), visibility=Deck.PRIVATE)
    url = f"/api/decks/{deck.pk}/"
    body = {"name": "Taken", "version": deck.version}
    for response in (
        bob.get(url), bob.put(url, body, content_type="application/json"),
        bob.patch(url, body, content_type="application/json"), bob.delete(url),
        bob.get(f"{url}export/?to=txt"), bob.get(f"{url}versions/"), bob.post(f"{url}clone/"),
        Client().get(url), Client().get(f"{url}export/?to=pdf"),
    ):
        assert response.status_code == 404, response.request
        assert response["Content-Type"] == "application/problem+json"
    assert all(d["id"] != deck.pk for d in bob.get("/api/decks/").json()["results"])
    assert Deck.objects.get(pk=deck.pk).version == deck.version
    assert not Deck.objects.filter(owner__username="bob").exists()
