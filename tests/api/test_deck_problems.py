"""api.problems.deck_problem: the one mapping of a deck a request names that cannot be played
to its problem, shared by the create endpoints of the playtest and the tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from api.problems import PROBLEM_CONTENT_TYPE, deck_problem
from decks.deck_input import DeckInputError
from decks.models import Deck
from rules.game.engine import DeckNotPlayable


@pytest.mark.parametrize(("error", "status", "code", "errors"), [
    (Deck.DoesNotExist(), 404, "not_found", None),
    (DeckInputError("line 1 does not read", unknown_ids=("zz-999",)), 400, "bad_decklist",
     [{"code": "unknown_card", "card": "zz-999", "message": "There is no card with id 'zz-999'."}]),
    (DeckNotPlayable("no stronghold"), 400, "deck_not_playable", None),
])
def test_deck_errors_map_to_one_problem_each(error: Exception, status: int, code: str,
                                             errors: Any) -> None:
    response = deck_problem(error)
    assert response.status_code == status and response.content_type == PROBLEM_CONTENT_TYPE
    assert response.data["code"] == code and response.data.get("errors") == errors


def test_another_error_is_not_taken_for_a_deck_problem() -> None:
    with pytest.raises(TypeError):
        deck_problem(ValueError("no"))


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/tables/", "/api/playtest/"])
def test_both_create_endpoints_answer_the_same_deck_problems(url: str, client: Any) -> None:
    client.force_login(User.objects.create_user("ada"))
    body: dict[str, Any] = {"deck": 999999} | ({"seats": 2} if url == "/api/tables/" else {})
    missing = client.post(url, body, content_type="application/json")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    body = {"text": "3 No Such Card At All"} | ({"seats": 2} if url == "/api/tables/" else {})
    unread = client.post(url, body, content_type="application/json")
    assert unread.status_code == 400 and unread["Content-Type"] == PROBLEM_CONTENT_TYPE
