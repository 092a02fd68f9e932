"""Bob fuzzes every deck operation that takes an id, always with the id of one of ada's private
decks: whatever he sends, he never reads or changes it (never a 2xx), and the answer is the one a
deck that does not exist gets (so not even its existence shows)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.throttling import ScopedRateThrottle

from decks.models import Deck
from decks.services import deck_data, deck_save
from tests.fuzz.test_anonymous_api_fuzz import schema
from tests.fuzz.test_api_schema_fuzz import FUZZ, keep_the_test_connection

# Minutes of schemathesis in all: `pytest -m "not slow and not browser"` leaves them out.
pytestmark = pytest.mark.slow

# The examples and the bounded random cases, as the visitor's fuzz: the signed-in fuzz already
# walks every operation's boundary values, and what bob tries here is another's deck id.
DECK_OPERATIONS = schema.include(path_regex=r"^/api/decks/\{id\}/")


__all__ = ["keep_the_test_connection"]  # autouse here too


@pytest.fixture(autouse=True)
def no_throttles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "allow_request", lambda *args: True)


@pytest.fixture
def ada_private_deck(db: None) -> Deck:
    ada = User.objects.create_user("ada")
    sample = Deck.objects.filter(owner__username="samples").first()
    assert sample is not None
    deck = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.PRIVATE)
    return deck_save(owner=ada, data=deck_data(sample), deck=deck)  # two versions


@pytest.fixture
def bob_token(db: None) -> str:
    return Token.objects.create(user=User.objects.create_user("bob")).key


@DECK_OPERATIONS.parametrize()
@FUZZ
def test_bob_never_reaches_a_private_deck_of_ada(case: Any, ada_private_deck: Deck,
                                                 bob_token: str) -> None:
    headers = {"Authorization": f"Token {bob_token}"}
    case.path_parameters["id"] = ada_private_deck.pk
    response = case.call(headers=headers)
    label = (case.method, case.formatted_path, response.text[:300])
    # OPTIONS describes the endpoint (DRF's metadata), never the deck: the comparison below
    # shows it says nothing more about ada's deck than about a deck that does not exist.
    assert case.method == "OPTIONS" or not 200 <= response.status_code < 300, label
    case.path_parameters["id"] = ada_private_deck.pk + 1000
    unknown = case.call(headers=headers)
    assert (unknown.status_code, unknown.content) == (response.status_code, response.content), label
    assert ada_private_deck.name not in response.text
    after = Deck.objects.get(pk=ada_private_deck.pk)
    assert (after.version, after.name, after.visibility) == (
        ada_private_deck.version, ada_private_deck.name, Deck.PRIVATE)
    assert not Deck.objects.filter(owner__username="bob").exists()
