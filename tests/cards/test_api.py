"""The read-only card API: /api/cards/, /api/sets/, /api/abilities/, schema and docs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from cards.card_data import CARD_KEYS
from cards.models import Card

pytestmark = pytest.mark.django_db


def get(client: Client, url: str, status: int = 200) -> Any:
    response = client.get(url)
    assert response.status_code == status, response.content[:500]
    return response.json()


def test_the_card_list_pages_through_every_card_in_a_total_order(client: Client) -> None:
    seen: list[str] = []
    url: str | None = "/api/cards/?page_size=50"
    while url:
        page = get(client, url)
        seen.extend(card["id"] for card in page["results"])
        url = page["next"]
    assert len(seen) == len(set(seen)) == Card.objects.count()
    names = list(Card.objects.order_by("name", "id").values_list("id", flat=True))
    assert seen == names


def test_a_card_has_every_data_key_and_its_derived_facts(client: Client) -> None:
    card = get(client, "/api/cards/wof-bishop-ospin/")
    assert set(CARD_KEYS) <= set(card)
    assert card["offense"] is None and card["faction"] == "kalim" and card["official"] is True
    assert card["border"] == "metallic" and card["pile"] == "personalities"
    assert card["image_status"] == "rendered"
    assert set(card["images"]) == {"small", "normal", "large"}
    assert "offense" in card["unknown_fields"]
    assert card["page"] == "/cards/wof-bishop-ospin/"


def test_keywords_of_a_demo_card_are_listed(client: Client) -> None:
    with_keyword = Card.objects.filter(keywords__isnull=False).first()
    assert with_keyword is not None
    card = get(client, f"/api/cards/{with_keyword.id}/")
    assert card["keywords"] and {"ability", "exhausts", "faction_threshold"} == set(
        card["keywords"][0]
    )


@pytest.mark.parametrize(
    ("query", "check"),
    [
        ("set=wof", lambda c: c["set"] == "WOF"),
        ("type=wanderer", lambda c: c["type"] == "wanderer"),
        ("faction=mosfin", lambda c: c["faction"] == "mosfin"),
        ("subtype=stronghold", lambda c: c["subtype"] == "stronghold"),
        ("official=false", lambda c: c["official"] is False),
    ],
)
def test_the_card_list_filters_by_catalogue_facts(client: Client, query: str, check: Any) -> None:
    page = get(client, f"/api/cards/?{query}&page_size=250")
    assert page["results"] and all(check(c) for c in page["results"])


def test_an_unknown_card_is_a_problem_document(client: Client) -> None:
    response = client.get("/api/cards/no-such-card/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == 404 and body["code"] == "not_found" and body["detail"]


def test_sets_report_their_card_counts(client: Client) -> None:
    sets = {s["code"]: s for s in get(client, "/api/sets/")["results"]}
    assert sets["WOF"]["card_count"] == 34 and sets["WOF"]["official"] is True
    assert sets["DEMO"]["official"] is False and sets["DEMO"]["card_count"] >= 120


def test_abilities_list_all_32_with_the_cards_using_each(client: Client) -> None:
    abilities = get(client, "/api/abilities/")
    assert len(abilities) == 32
    worship = next(a for a in abilities if a["slug"] == "worship")
    assert worship["category"] == "R" and worship["reaction"] is False
    assert worship["card_count"] >= 2 and worship["cards"][0]["id"]
    debate = get(client, "/api/abilities/debate/")
    assert debate["reaction"] is True and debate["category"] == "P"
    assert client.get("/api/abilities/nope/").status_code == 404


def test_the_openapi_schema_describes_the_card_endpoints(client: Client) -> None:
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    for path in ("/api/cards/", "/api/cards/{id}/", "/api/sets/", "/api/abilities/"):
        assert path in schema["paths"], path
    assert "faction_influence" in schema["components"]["schemas"]["Card"]["properties"]


def test_the_docs_ui_loads_its_assets_from_this_server(client: Client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    # Every src/href is a path on this server (a bare "cdn" check once matched a random
    # CSRF token that happened to contain those letters).
    assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html)
    assert assets and all(a.startswith("/") for a in assets), assets
    assert "https://" not in html and "//cdn" not in html.lower()


@pytest.mark.parametrize(
    ("url", "status", "code", "detail"),
    [
        ("/api/cards/?page=999", 404, "not_found", "Invalid page."),
        ("/api/sets/NOPE/", 404, "not_found", "No CardSet matches the given query."),
        ("/api/cards/?official=maybe", 400, "invalid", "The request is not valid; see errors."),
    ],
)
def test_bad_requests_get_a_specific_problem_document(
    client: Client, url: str, status: int, code: str, detail: str
) -> None:
    response = client.get(url)
    assert response.status_code == status
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert (body["status"], body["code"], body["detail"]) == (status, code, detail)
    if status == 400:
        assert "official" in body["errors"]


@pytest.mark.parametrize("url", ["/api/nothing-here/", "/api/decks/%84/missing/",
                                 "/api/decks/1.5/ownership/", "/api/cards/a/b/c/",
                                 "/api/playtest/a%0Ab/actions/"])
def test_an_address_that_names_no_endpoint_is_a_404_problem(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "not_found"
