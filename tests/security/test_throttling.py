"""Expensive endpoints are throttled per user (or address): 429 problem+json with Retry-After,
and a page counts in the same bucket as its API endpoint."""

from __future__ import annotations

from typing import Any, cast

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from decks.models import Deck
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
KALIM = (FIXTURES / "decklists" / "kalim-faithful.txt").read_text(encoding="utf-8")


@pytest.fixture
def two_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    # Count scopes only: "decklists" is a cost (lines read), left at its rate.
    rates = {**dict.fromkeys(configured_rates(), "2/minute"),
             "decklists": configured_rates()["decklists"]}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)


def configured_rates() -> dict[str, str]:
    return cast(dict[str, str], settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])


def sample_deck() -> Deck:
    return Deck.objects.filter(owner__username="samples", visibility=Deck.PUBLIC).first()  # type: ignore[return-value]


def assert_throttled(response: Any) -> None:
    assert response.status_code == 429
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == 429 and problem["code"] == "throttled"
    assert 0 < int(response["Retry-After"]) <= 60


def test_every_expensive_scope_has_a_rate_and_goldfish_is_ready() -> None:
    rates = configured_rates()
    assert {"exports", "draws", "odds", "goldfish"} <= rates.keys()


@pytest.mark.parametrize("url, body", [
    ("/api/draws/", {"text": KALIM, "seed": 1}),
    ("/api/odds/", {"text": KALIM, "query": "t:troop"}),
])
def test_draws_and_odds_answer_429_past_the_rate(client: Client, two_a_minute: None, url: str,
                                                 body: dict[str, Any]) -> None:
    for _ in range(2):
        assert client.post(url, body, content_type="application/json").status_code == 200
    assert_throttled(client.post(url, body, content_type="application/json"))


def test_exports_are_throttled_but_reading_the_deck_is_not(client: Client,
                                                           two_a_minute: None) -> None:
    deck = sample_deck()
    for _ in range(2):
        assert client.get(f"/api/decks/{deck.pk}/export/?to=pdf").status_code == 200
    assert_throttled(client.get(f"/api/decks/{deck.pk}/export/?to=txt"))
    for _ in range(3):
        assert client.get(f"/api/decks/{deck.pk}/").status_code == 200


def test_each_user_has_their_own_count(ada: Client, bob: Client, two_a_minute: None) -> None:
    body = {"text": KALIM, "seed": 1}
    for _ in range(2):
        ada.post("/api/draws/", body, content_type="application/json")
    assert ada.post("/api/draws/", body, content_type="application/json").status_code == 429
    assert bob.post("/api/draws/", body, content_type="application/json").status_code == 200


def test_a_forged_forwarded_for_header_does_not_reset_the_count(client: Client,
                                                                 two_a_minute: None) -> None:
    body = {"text": KALIM, "seed": 1}
    for n in range(2):
        client.post("/api/draws/", body, content_type="application/json",
                    headers={"X-Forwarded-For": f"10.0.0.{n}"})
    forged = client.post("/api/draws/", body, content_type="application/json",
                         headers={"X-Forwarded-For": "10.0.0.9"})
    assert forged.status_code == 429


def test_the_draw_page_shares_the_api_count_and_says_when_to_retry(client: Client,
                                                                    two_a_minute: None) -> None:
    deck = sample_deck()
    client.post("/api/draws/", {"text": KALIM, "seed": 1}, content_type="application/json")
    assert client.get(f"/decks/{deck.pk}/draw/hands/?seed=1").status_code == 200
    refused = client.get(f"/decks/{deck.pk}/draw/?seed=1")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many requests" in refused.content.decode()
    assert client.get(f"/decks/{deck.pk}/draw/odds/?kind=query&q=t:troop").status_code == 200


def test_starting_goldfish_runs_is_throttled_but_polling_is_not(ada: Client,
                                                                 two_a_minute: None) -> None:
    ids = []
    for seed in (1, 2):
        response = ada.post("/api/goldfish/", {"text": KALIM, "games": 10, "seed": seed},
                            content_type="application/json")
        assert response.status_code in (200, 202)
        ids.append(response.json()["id"])
    assert_throttled(ada.post("/api/goldfish/", {"text": KALIM, "games": 10, "seed": 3},
                              content_type="application/json"))
    for _ in range(3):
        assert ada.get(f"/api/goldfish/{ids[0]}/").status_code == 200
