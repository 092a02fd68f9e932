"""Every route that reads a decklist refuses one over the limits before reading it, and what a
list of unknown names costs is bounded (issue 34, finding 1; docs/decks.md "Limits")."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from decks import deck_input
from decks.deck_input import MAX_COPIES, MAX_DECKLIST_BYTES, MAX_DECKLIST_LINES, MAX_PART_ENTRIES
from decks.formats.text import MAX_SUGGESTED_NAMES
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
TEXT = (FIXTURES / "decklists" / "kalim-faithful.txt").read_text(encoding="utf-8")
# The audit's request: 190 kB, 19,000 lines naming no card.
HUGE = "".join(f"Zq{n:05d}ab\n" for n in range(19_000))
# Under the byte limit, over the line limit.
LONG = "".join(f"{n}\n" for n in range(MAX_DECKLIST_LINES + 1)).replace("\n", " Bell Tower\n")


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, body, content_type="application/json")


@pytest.fixture
def parser_never_called(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the decklist was read past its limit")

    monkeypatch.setattr(deck_input, "parse_text", refuse)
    monkeypatch.setattr(deck_input, "parse_json", refuse)
    monkeypatch.setattr(deck_input, "parse_csv", refuse)


# Every API route that reads a decklist, with a body carrying ``text``.
ROUTES = [
    pytest.param("/api/decks/validate/", lambda text: {"text": text}, id="validate"),
    pytest.param("/api/decks/import/", lambda text: {"text": text}, id="import"),
    pytest.param("/api/decks/", lambda text: {"text": text}, id="create"),
    pytest.param("/api/goldfish/", lambda text: {"text": text, "games": 10}, id="goldfish"),
    pytest.param("/api/matchups/", lambda text: {"decks": [text, text], "games": 10},
                 id="matchups"),
    pytest.param("/api/playtest/", lambda text: {"text": text}, id="playtest"),
    pytest.param("/api/playtest/", lambda text: {"deck": 1, "opponents": [{"text": text}]},
                 id="playtest-opponent"),
    pytest.param("/api/draws/", lambda text: {"text": text, "seed": 1}, id="draws"),
    pytest.param("/api/odds/", lambda text: {"text": text, "query": "t:troop"}, id="odds"),
]


@pytest.mark.parametrize(("url", "body"), ROUTES)
def test_the_19000_line_decklist_is_refused_unread_with_the_limit(
        ada: Client, parser_never_called: None, url: str, body: Any) -> None:
    response = post(ada, url, body(HUGE))
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/problem+json"
    assert f"{MAX_DECKLIST_BYTES:,}" in response.content.decode()
    assert len(response.content) < 2_000  # not a line-by-line answer


@pytest.mark.parametrize(("url", "body"), ROUTES)
def test_a_decklist_over_the_line_limit_is_refused_unread_with_the_limit(
        ada: Client, parser_never_called: None, url: str, body: Any) -> None:
    assert len(LONG.encode()) < MAX_DECKLIST_BYTES
    response = post(ada, url, body(LONG))
    assert response.status_code == 400, response.content[:300]
    problem = response.json()
    assert problem["code"] == "decklist_too_large"
    assert f"at most {MAX_DECKLIST_LINES:,}" in problem["detail"]


def test_an_uploaded_decklist_over_the_limit_is_refused_unread(
        ada: Client, parser_never_called: None) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("deck.txt", HUGE.encode(), content_type="text/plain")
    response = ada.post("/api/decks/import/", {"file": upload})
    assert response.status_code == 400
    assert response.json()["code"] == "decklist_too_large"
    assert f"{MAX_DECKLIST_BYTES:,} bytes" in response.json()["detail"]


def test_the_import_page_refuses_a_decklist_over_the_limit_unread(
        ada: Client, parser_never_called: None) -> None:
    response = ada.post("/decks/import/", {"text": LONG, "visibility": "private"})
    assert response.status_code == 400
    assert f"at most {MAX_DECKLIST_LINES:,}" in response.content.decode()


def test_a_json_deck_part_over_the_entry_limit_is_refused_before_its_entries(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from decks.api.serializers import EntrySerializer

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("an entry was checked past the part's limit")

    monkeypatch.setattr(EntrySerializer, "run_validation", refuse)
    entries = [{"id": "demo-bell-tower", "count": 1}] * 200_000
    response = post(client, "/api/decks/validate/", {"deck": {"structures": entries}})
    assert response.status_code == 400
    assert f"at most {MAX_PART_ENTRIES:,} entries" in response.content.decode()


def test_a_json_decklist_text_over_the_entry_limit_is_refused(client: Client) -> None:
    entries = ",".join(f'{{"id": "x{n}", "count": 1}}' for n in range(1_001))
    response = post(client, "/api/decks/validate/", {"text": f'{{"structures": [{entries}]}}'})
    assert response.status_code == 400
    assert response.json()["code"] == "decklist_too_large"
    assert "at most 1,000" in response.json()["detail"]


def test_unknown_lines_are_all_reported_but_only_the_first_names_get_suggestions(
        client: Client) -> None:
    text = "".join(f"Bell Towr {n}\n" for n in range(300))
    response = post(client, "/api/decks/validate/", {"text": text})
    errors = response.json()["errors"]
    assert len(errors) == 300 and all(e["code"] == "unknown_card" for e in errors)
    suggested = [e for e in errors if e["suggestions"]]
    assert len(suggested) == MAX_SUGGESTED_NAMES
    assert suggested[0]["suggestions"][0] == "Bell Tower"


def test_repeated_entries_of_one_card_are_refused_past_the_copy_limit(ada: Client) -> None:
    # Finding 5: 40,000 entries of one copy were 40,000 copies (a 500 on PostgreSQL).
    entries = [{"id": "demo-emberhold-keep", "count": 1}] * (MAX_PART_ENTRIES)
    for url in ("/api/decks/", "/api/decks/validate/"):
        body = {"holdings": entries} if url == "/api/decks/" else {"deck": {"holdings": entries}}
        response = post(ada, url, body)
        assert response.status_code == 400, response.content[:300]
        problem = response.json()
        assert problem["code"] == "copies_over_limit"
        assert f"{MAX_PART_ENTRIES} copies" in problem["detail"]
        assert f"at most {MAX_COPIES} copies" in problem["detail"]


def test_repeated_lines_of_one_card_are_refused_past_the_copy_limit(client: Client) -> None:
    text = "Structure Pile\n" + "60 Bell Tower\n" * 2
    response = post(client, "/api/decks/validate/", {"text": text})
    assert response.status_code == 400
    assert response.json()["code"] == "copies_over_limit"


def test_decklists_read_are_throttled_by_their_lines(
        client: Client, monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "decklists": "1000/minute"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    lines = len(TEXT.splitlines())
    allowed = 1000 // lines
    for _ in range(allowed):
        assert post(client, "/api/decks/validate/", {"text": TEXT}).status_code == 200
    refused = post(client, "/api/decks/validate/", {"text": TEXT})
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled" and int(refused["Retry-After"]) >= 1
    # A small request still fits in what is left.
    assert post(client, "/api/decks/validate/", {"text": "1 Bell Tower"}).status_code == 200
