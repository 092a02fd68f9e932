"""The search page, the help page and set pages."""

from __future__ import annotations

import pytest
from django.test import Client

from cards.models import Card
from cards.search.fields import help_sections
from cards.search_docs import search_markdown
from decks.formats.deck_code import encode_deck_code
from decks.models import Deck
from decks.services import deck_data
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db


def get(
    client: Client, url: str, status: int = 200, headers: dict[str, str] | None = None
) -> str:
    response = client.get(url, headers=headers or {})
    assert response.status_code == status, response.content[:500]
    return response.content.decode()


def test_a_search_shows_the_matching_cards_and_the_explanation(client: Client) -> None:
    page = get(client, "/cards/?q=t:troop+f:kalim+off%3E%3D2")
    assert 'value="t:troop f:kalim off&gt;=2"' in page
    assert "Kalim" in page and 'class="explained"' in page
    assert "Ashgate Spearman" in page or "card" in page


def test_typing_updates_only_the_results_and_the_sidebar(client: Client) -> None:
    body = get(client, "/cards/?q=t:wanderer", headers={"HX-Request": "true"})
    assert body.lstrip().startswith('<div id="search-body"') and "<html" not in body
    assert 'class="active"' in body  # the sidebar shows t:wanderer as chosen


def test_a_bad_query_points_at_the_mistake_and_suggests_a_fix(client: Client) -> None:
    page = get(client, "/cards/?q=t:trop", status=400)
    assert "<mark>" in page and "troop" in page and 'role="alert"' in page


@pytest.mark.parametrize("view", ["grid", "list", "text"])
def test_each_view_of_the_results_renders(client: Client, view: str) -> None:
    page = get(client, f"/cards/?q=set:wof&view={view}")
    assert "Bishop Ospin" in page


def test_the_text_view_reads_without_images(client: Client) -> None:
    page = get(client, "/cards/?q=set:wof&view=text")
    assert "<img" not in page.split('id="search-body"')[1]
    assert "Abilities not yet transcribed." in page


def test_sidebar_links_add_and_remove_query_terms(client: Client) -> None:
    page = get(client, "/cards/?q=f:kalim")
    assert 'href="?q=f%3Akalim+t%3Atroop"' in page  # adds a term
    assert 'href="?q="' in page  # the active f:kalim removes itself


def test_old_filter_links_become_query_terms(client: Client) -> None:
    page = get(client, "/cards/?set=WOF")
    assert 'value="set:WOF"' in page and "34 cards" in page


def test_the_set_page_shows_how_complete_the_set_is(client: Client) -> None:
    page = get(client, "/sets/wof/")
    assert "34 cards" in page and "0 fully transcribed" in page
    assert "Faction influence" in page and "/ " in page
    get(client, "/sets/nope/", status=404)


def test_a_card_page_links_to_its_neighbours_in_the_set(client: Client) -> None:
    page = get(client, "/cards/demo-acolyte-of-the-ember-rite/")
    assert 'rel="prev"' in page and 'rel="next"' in page


def test_a_misspelt_key_offers_the_corrected_query_as_a_link(client: Client) -> None:
    page = get(client, "/cards/?q=factoin:kalim", status=400)
    assert 'href="?q=faction%3Akalim"' in page


def test_the_help_page_documents_every_key_with_a_working_example(client: Client) -> None:
    page = get(client, "/search/help/")
    for section in help_sections():
        for key in section.keys:
            assert f'id="key-{key.name}"' in page
            assert key.examples, key.name
            if key.kind == "personal":  # needs a collection: see test_collection_keys.py
                continue
            for example in key.examples:
                assert client.get("/api/cards/", {"q": example}).json()["count"] > 0, example


def test_docs_search_md_is_generated_from_the_registry() -> None:
    written = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    hint = "run .venv/bin/python -m cards.search_docs > docs/search.md"
    assert written == search_markdown(), hint


def test_a_deck_code_pasted_into_the_search_box_opens_the_deck(client: Client) -> None:
    deck = Deck.objects.filter(owner__username="samples").first()
    assert deck is not None
    code = encode_deck_code(deck_data(deck), Card.objects.values_list("id", flat=True))
    response = client.get("/cards/", {"q": code})
    assert response.status_code == 302 and response["Location"] == f"/d/{code}"
    htmx = client.get("/cards/", {"q": code}, headers={"HX-Request": "true"})
    assert htmx["HX-Redirect"] == f"/d/{code}"


def test_a_word_that_only_looks_like_a_code_is_searched(client: Client) -> None:
    assert client.get("/cards/", {"q": "ashgate-2"}).status_code == 200
