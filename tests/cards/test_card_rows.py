"""The card list's rows, rendered once per catalogue revision and spliced into each page
(cards/api/row_cache.py): every row is the card's own document, a page is exactly the bytes
the JSON renderer makes of it, and a list whose rows are kept reads only the page's ids."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from rest_framework.renderers import JSONRenderer

from cards.api import row_cache, search_cache
from cards.models import Card
from cards.revision_cache import CatalogueVersion, shared_version

pytestmark = pytest.mark.django_db


def every_row(client: Client, query: str = "") -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    url: str | None = "/api/cards/?" + (f"q={query}&" if query else "") + "page_size=250"
    while url:
        page = client.get(url).json()
        rows.extend(page["results"])
        url = page["next"]
    return rows


def test_every_row_of_the_list_is_the_cards_own_document(client: Client) -> None:
    rows = every_row(client)
    assert len(rows) == Card.objects.count()
    assert any(row["keywords"] for row in rows)
    for row in rows:
        assert row == client.get(row["url"]).json(), row["id"]


@pytest.mark.parametrize("query", ["", "set:demo", "t:troop f:kalim", "kw:fleetfoot order:cost",
                                   "zzzqqq"])
def test_a_page_is_the_bytes_the_json_renderer_makes_of_it(client: Client, query: str) -> None:
    for size in ("7", "60"):  # rows made, then kept rows (a new page size: no kept answer)
        response = client.get("/api/cards/", {"q": query, "page_size": size})
        assert response.status_code == 200, response.content[:300]
        assert response.content == JSONRenderer().render(json.loads(response.content))


def test_an_indented_answer_has_the_same_document(client: Client) -> None:
    compact = client.get("/api/cards/", {"q": "set:demo"})
    indented = client.get("/api/cards/", {"q": "set:demo"},
                          headers={"Accept": "application/json; indent=2"})
    assert b"\n  " in indented.content and b"\n" not in compact.content
    assert indented.json() == compact.json()


def test_a_row_changes_with_its_card(client: Client) -> None:
    before = client.get("/api/cards/", {"q": "set:demo", "page_size": "250"}).json()["results"]
    card = Card.objects.get(pk=before[0]["id"])
    card.quotation = "A new line\u2028of flavour, caf\u00e9."
    card.save()
    # Another query (so no kept answer), whose rows were kept before the change.
    after = client.get("/api/cards/", {"q": "set:demo", "page_size": "100"})
    assert after.json()["results"][0]["quotation"] == card.quotation
    assert after.json()["results"][1:] == before[1:100]
    # As the renderer writes it: UTF-8, with U+2028 escaped for JavaScript.
    assert "\\u2028of flavour, caf\u00e9".encode() in after.content


def test_kept_rows_are_not_made_again_until_forgotten(client: Client) -> None:
    ids = [row["id"] for row in client.get(
        "/api/cards/", {"q": "set:demo", "page_size": "10"}).json()["results"]]
    made: list[list[str]] = []

    def render(card_ids: list[str]) -> dict[str, bytes]:
        made.append(list(card_ids))
        return {card_id: b"{}" for card_id in card_ids}

    version = shared_version()
    kept = row_cache.card_rows(ids, version, render)
    assert made == [] and [json.loads(row)["id"] for row in kept] == ids
    other = CatalogueVersion(tag=version.tag + "1", updated_at=version.updated_at)
    assert row_cache.card_rows(ids[:2], other, render) == [b"{}", b"{}"]
    assert made == [ids[:2]]
    row_cache.forget_rows()
    row_cache.card_rows(ids[:3], version, render)
    assert made[-1] == ids[:3]


def test_a_list_whose_rows_are_kept_counts_and_reads_the_ids_only(
    client: Client, django_assert_num_queries: Any,
) -> None:
    client.get("/api/cards/", {"q": "set:demo", "page_size": "20"})
    search_cache.forget_searches()  # a query not asked before, whose cards' rows are kept
    # The count and the page's ids; one statement on PostgreSQL (IdsCountedBy).
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 2):
        response = client.get("/api/cards/", {"q": "set:demo", "page_size": "10"})
    assert len(response.json()["results"]) == 10
    with django_assert_num_queries(1):  # the page's ids: the query was counted just before
        response = client.get("/api/cards/", {"q": "set:demo", "page_size": "5"})
    assert len(response.json()["results"]) == 5
