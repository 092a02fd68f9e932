"""Bad and unexpected requests under /api/ are problem documents, never HTML (issue 34,
finding 9)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from decks.api import views as deck_views

pytestmark = pytest.mark.django_db
BOMB = "[" * 100_000


@pytest.mark.parametrize("url", ["/api/decks/validate/", "/api/goldfish/", "/api/matchups/",
                                 "/api/playtest/", "/api/decks/import/", "/api/edits/"])
def test_a_body_nested_too_deeply_is_a_400_problem(ada: Client, url: str) -> None:
    response = ada.post(url, BOMB, content_type="application/json")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert "nested too deeply" in response.json()["detail"]


def test_a_decklist_text_nested_too_deeply_is_a_400_problem(client: Client) -> None:
    response = client.post("/api/decks/validate/", {"text": "{\"a\": " + "[" * 50_000},
                           content_type="application/json")
    assert response.status_code == 400
    assert "nested too deeply" in response.content.decode()


def test_an_unexpected_error_under_api_is_a_500_problem_document(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(deck_views, "deck_validate", broken)
    response = client.post("/api/decks/validate/", {"text": "1 Bell Tower"},
                           content_type="application/json")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == 500 and problem["code"] == "server_error"
    assert "a bug" not in response.content.decode()  # no internals in the answer


def test_an_unexpected_error_on_a_page_is_left_to_django(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from decks.views import decks as views

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "render", broken)
    with pytest.raises(RuntimeError):
        client.get("/decks/")
