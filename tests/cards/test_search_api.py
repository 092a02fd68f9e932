"""Search through the API and the command: the same cards, explained, cached, never a 500."""

from __future__ import annotations

import gzip
import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card

pytestmark = pytest.mark.django_db


def search_ids(client: Client, query: str) -> list[str]:
    response = client.get("/api/cards/", {"q": query, "page_size": "250"})
    assert response.status_code == 200, response.content[:400]
    return [card["id"] for card in response.json()["results"]]


def command_ids(query: str) -> list[str]:
    out = io.StringIO()
    call_command("search", query, "--format", "json", stdout=out)
    return [card["id"] for card in json.loads(out.getvalue())["results"]]


@pytest.mark.parametrize(
    "query",
    ["t:troop f:kalim off>=2", "o:/exhaust(s)? target/", "kw:worship or kw:campaign",
     "-f:kalim t:personality cost<=3", "is:unknown set:wof", "spearman", "order:cost dir:desc",
     # Ordered by the set's code: the card list's SELECT reads the card table alone.
     "order:set", "t:troop order:set dir:desc", "set:demo order:set"],
)
def test_the_api_and_the_command_find_the_same_cards_in_the_same_order(
    client: Client, query: str
) -> None:
    assert search_ids(client, query) == command_ids(query)


def test_a_search_is_explained_and_finds_only_matching_cards(client: Client) -> None:
    body = client.get("/api/cards/", {"q": "t:troop f:kalim off>=2", "page_size": "250"}).json()
    assert body["query"] == "t:troop f:kalim off>=2"
    assert "Kalim" in body["explained"] and body["warnings"] == []
    assert body["count"] == len(body["results"]) > 0
    for card in body["results"]:
        assert card["faction"] == "kalim" and card["offense"] >= 2
        assert card["personality_kind"] == "troop"


def test_a_misspelt_value_is_a_400_with_position_and_did_you_mean(client: Client) -> None:
    response = client.get("/api/cards/", {"q": "f:kalim t:trop"})
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == 400 and "troop" in problem["suggestions"]
    assert problem["position"] >= 8 and problem["detail"]


def test_an_unknown_key_suggests_the_closest_keys(client: Client) -> None:
    problem = client.get("/api/cards/", {"q": "factoin:kalim"}).json()
    assert problem["code"] == "unknown_key" and "faction" in problem["suggestions"]


def test_a_name_with_no_match_suggests_card_names(client: Client) -> None:
    body = client.get("/api/cards/", {"q": "bishp ospin"}).json()
    assert body["count"] == 0
    assert "Bishop Ospin" in body["suggestions"]


def test_a_repeated_request_is_not_modified_until_the_catalogue_changes(client: Client) -> None:
    first = client.get("/api/cards/", {"q": "t:wanderer"})
    tag = first["ETag"]
    assert tag and first["Last-Modified"]
    again = client.get("/api/cards/", {"q": "t:wanderer"}, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again["ETag"] == tag
    since = client.get("/api/cards/", {"q": "t:wanderer"},
                       headers={"If-Modified-Since": first["Last-Modified"]})
    assert since.status_code == 304
    other = client.get("/api/cards/", {"q": "t:troop"}, headers={"If-None-Match": tag})
    assert other.status_code == 200
    card = Card.objects.get(id="wof-footman")
    card.offense = 1
    card.save()
    changed = client.get("/api/cards/", {"q": "t:wanderer"}, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed["ETag"] != tag


def test_a_single_card_answers_conditional_requests_too(client: Client) -> None:
    first = client.get("/api/cards/wof-footman/")
    again = client.get("/api/cards/wof-footman/", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("page_size", [5, 50, 200])
def test_a_page_costs_the_same_number_of_queries_whatever_its_size(
    client: Client, django_assert_max_num_queries: Any, page_size: int
) -> None:
    # the catalogue revision (ETag), the count (none when the first page is not full: the
    # page's length is the count), the page, and the page's keywords
    with django_assert_max_num_queries(4):
        response = client.get("/api/cards/", {"q": "-t:structure", "page_size": str(page_size)})
    assert response.status_code == 200


def test_pages_link_to_the_next_and_previous_pages(client: Client) -> None:
    first = client.get("/api/cards/", {"q": "set:demo", "page_size": "50"}).json()
    second = client.get(first["next"]).json()
    assert second["previous"] and second["query"] == "set:demo"
    assert not {c["id"] for c in first["results"]} & {c["id"] for c in second["results"]}


def test_the_bulk_file_is_the_whole_catalogue_in_the_data_format(client: Client) -> None:
    index = client.get("/api/bulk/").json()["cards"]
    assert index["size"] > 0 and index["updated_at"] and index["version"]
    response = client.get("/api/bulk/cards.json.gz")
    assert response.status_code == 200 and response["Content-Type"] == "application/gzip"
    bundle = json.loads(gzip.decompress(response.content))
    assert {doc["set"]["code"] for doc in bundle} == {"WOF", "DEMO"}
    assert sum(len(doc["cards"]) for doc in bundle) == Card.objects.count()
    again = client.get("/api/bulk/cards.json.gz", headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304


def test_the_health_view_answers_without_the_database(
    client: Client, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        assert client.get("/api/health/").json() == {"status": "ok"}


def test_the_search_command_explains_a_bad_query_on_stderr() -> None:
    err = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("search", "t:trop", stderr=err, stdout=io.StringIO())
    assert exited.value.code == 1
    assert "troop" in err.getvalue() and "^" in err.getvalue()


@given(st.text(max_size=120))
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_any_query_string_gets_results_or_a_400_never_a_500(client: Client, query: str) -> None:
    response = client.get("/api/cards/", {"q": query})
    assert response.status_code in (200, 400), (query, response.content[:300])
