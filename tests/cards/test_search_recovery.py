"""A search that went wrong offers its fix: a comparison typed twice (``off>>3``) and a card
name mistyped across a hyphen (``Templar Captian``)."""

from __future__ import annotations

import pytest
from django.test import Client

from cards.search.parser import SearchError, parse
from cards.search.suggest import closest_names

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("query", "fixes"), [
    ("off>>3", ["off>3", "off>=3"]),
    ("cost=>2", ["cost>=2", "cost=2"]),
    ("def<<1", ["def<1", "def<=1"]),
    ("cost=<4", ["cost<=4", "cost=4"]),
    ("off:>3", ["off>3", "off:3"]),
    ("cost==2", ["cost=2"]),
    ("t:troop vit>>=2", ["vit>=2", "vit>2"]),
])
def test_a_comparison_typed_twice_is_refused_with_the_mended_terms(query: str,
                                                                    fixes: list[str]) -> None:
    with pytest.raises(SearchError) as refused:
        parse(query)
    assert list(refused.value.suggestions) == fixes[:len(refused.value.suggestions)]
    assert refused.value.suggestions and "one comparison too many" in refused.value.message
    for fix in refused.value.suggestions:
        parse(query[:refused.value.position] + fix
              + query[refused.value.position + refused.value.length:])  # each one reads


def test_the_card_list_links_each_mended_query(client: Client) -> None:
    page = client.get("/cards/", {"q": "t:troop off>>3"}).content.decode()
    assert 'href="?q=t%3Atroop%20off%3E3"' in page or "q=t%3Atroop+off%3E3" in page
    assert "off&gt;=3" in page


@pytest.mark.parametrize(("typed", "meant"), [
    ("Templar Captian", "Templar-Captain Oswin Hale"),
    ("templar-captian", "Templar-Captain Oswin Hale"),
    ("Oswin Hail", "Templar-Captain Oswin Hale"),
    ("Cathedral Wardne", "Cathedral Warden"),
])
def test_names_close_by_letters_and_words_across_hyphens(typed: str, meant: str) -> None:
    names = ["Templar-Captain Oswin Hale", "Ember Templar", "Cathedral Warden",
             "Captain Marro Vantis"]
    assert closest_names(typed, names)[:1] == [meant]


def test_a_search_for_a_mistyped_name_suggests_the_card(client: Client) -> None:
    page = client.get("/cards/", {"q": "Templar Captian"}).content.decode()
    assert 'Did you mean <a href="?q=Templar-Captain%20Oswin%20Hale">' in page
