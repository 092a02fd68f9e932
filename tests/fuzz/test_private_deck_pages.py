"""A visitor and another user walk every page and picker that takes a deck's number, with the
number of one of ada's private or unlisted decks: they never see its name, and each answer is
the one a deck that does not exist gets (so not even its existence shows). The routes are read
from the URL patterns (every one with a deck number), plus the pages that take a number in
their query: the compare pages' pickers, the playtest's deck, the short link."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLResolver, get_resolver
from rest_framework.throttling import ScopedRateThrottle

from decks.models import Deck
from decks.services import deck_data, deck_save
from decks.views.links import short_slug

pytestmark = pytest.mark.django_db

NAME = "Ada SECRET deck"
CONVERTERS = {"<int:deck_id>": "{id}", "<int:number>": "1", "<slug:action>": "settings",
              "<str:fmt>": "txt"}
# The pages that take a deck's number in their query, and the API reads of one deck.
QUERY_ROUTES = [
    "/decks/compare/?a={id}", "/decks/compare/?a={id}:2", "/decks/compare/?b={id}:1",
    "/decks/compare/?a={id}&b={id}:1", "/decks/compare/?a={id}:1&b=1",
    "/goldfish/compare/?deck_a={id}", "/goldfish/compare/?deck_b={id}:2",
    "/goldfish/compare/?deck_a={id}&deck_b={id}:1", "/playtest/new/?deck={id}",
    "/s/{slug}", "/api/decks/{id}/", "/api/decks/{id}/versions/",
    "/api/decks/{id}/export/?to=csv", "/api/decks/{id}/ownership/",
    "/api/decks/{id}/missing/?to=csv",
]


def _walk(patterns: Any, prefix: str = "") -> list[str]:
    routes: list[str] = []
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            routes += _walk(pattern.url_patterns, route)
        elif "<int:deck_id>" in route:
            routes.append(route)
    return routes


def page_routes() -> list[str]:
    routes = []
    for route in _walk(get_resolver().url_patterns):
        for converter, value in CONVERTERS.items():
            route = route.replace(converter, value)
        assert "<" not in route, f"a converter this walk does not know: {route}"
        routes.append("/" + route)
    assert "/decks/{id}/goldfish/" in routes and "/decks/{id}/matchups/" in routes
    return routes


ROUTES = page_routes() + QUERY_ROUTES


@pytest.fixture(autouse=True)
def no_throttles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "allow_request", lambda *args: True)


def ada_deck(visibility: str) -> Deck:
    ada = User.objects.get_or_create(username="ada")[0]
    sample = Deck.objects.filter(owner__username="samples").first()
    assert sample is not None
    deck = deck_save(owner=ada, data=deck_data(sample), visibility=visibility)
    deck = deck_save(owner=ada, data=deck_data(sample), deck=deck)  # two versions
    Deck.objects.filter(pk=deck.pk).update(name=NAME)
    return deck


def neutral(text: str, *numbers: int) -> str:
    """The answer without what every answer draws anew and with the decks' numbers as N (both
    numbers in both answers: a number the page prints anyway then reads the same in each)."""
    text = re.sub(r'(CSRFToken": "|csrfmiddlewaretoken" value="|nonce=")[^"]+', r"\1", text)
    for number in numbers:
        text = re.sub(rf"/s/{short_slug(number)}\b", "/s/N", text)
        text = re.sub(rf"(?<![\d.]){number}(?![\d])", "N", text)
    return text


def visit(client: Client, route: str, number: int) -> Any:
    return client.get(route.format(id=number, slug=short_slug(number)))


@pytest.mark.parametrize("visibility", [Deck.PRIVATE, Deck.UNLISTED])
@pytest.mark.parametrize("who", ["visitor", "bob"])
def test_no_page_tells_another_anything_of_a_deck_they_may_not_open(visibility: str,
                                                                    who: str) -> None:
    deck = ada_deck(visibility)
    missing = deck.pk + 1000
    client = Client()
    if who == "bob":
        client.force_login(User.objects.create_user("bob"))
    for route in ROUTES:
        answer = visit(client, route, deck.pk)
        label = (route, answer.status_code)
        assert NAME not in answer.content.decode(), label
        # Only a picker answers (its form, the deck as "Deck N"); every other route is a 404.
        picker = route.startswith(("/decks/compare/", "/goldfish/compare/"))
        assert picker or not 200 <= answer.status_code < 300, label
        absent = visit(client, route, missing)
        assert answer.status_code == absent.status_code, label
        assert neutral(answer.content.decode(), deck.pk, missing) == \
            neutral(absent.content.decode(), deck.pk, missing), label
    # Nothing was changed or copied by the walk.
    assert Deck.objects.get(pk=deck.pk).name == NAME
    assert not Deck.objects.exclude(owner__username__in=["ada", "samples"]).exists()
