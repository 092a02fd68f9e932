"""What every page says about itself (its title, description, link preview and icon), the home
page's ways into every feature, and the compare pages' pickers."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from django.template import Context, Template
from django.test import Client

from decks.models import Deck
from decks.services import deck_data, deck_save
from simulations.runs import RunOptions, goldfish_run_start

PAGES = ["/", "/cards/", "/cards/?q=t%3Atroop", "/cards/demo-bog-hag/", "/sets/demo/",
         "/search/help/", "/abilities/", "/abilities/fleetfoot/", "/decks/", "/decks/compare/",
         "/goldfish/compare/", "/playtest/", "/playtest/new/", "/accounts/login/",
         "/accounts/signup/"]


def meta(page: str, attribute: str, name: str) -> str | None:
    found = re.search(rf'<meta {attribute}="{re.escape(name)}" content="([^"]*)">', page)
    return found.group(1) if found else None


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_every_page_describes_itself_for_search_engines_and_link_previews(
        client: Client, url: str) -> None:
    page = client.get(url).content.decode()
    title = re.search(r"<title>(.*?) · Allegiance DB</title>", page)
    assert title is not None and title.group(1).strip()
    description = meta(page, "name", "description")
    assert description and 40 <= len(description) <= 200, description
    assert meta(page, "property", "og:title") == title.group(1)
    assert meta(page, "property", "og:description") == description
    assert meta(page, "property", "og:url") == f"http://testserver{url.replace('&', '&amp;')}"
    assert (meta(page, "property", "og:image") or "").startswith("http://testserver/")
    assert '<link rel="icon" href="/static/icons/favicon.svg" type="image/svg+xml">' in page


@pytest.mark.django_db
def test_each_kind_of_page_has_its_own_description(client: Client) -> None:
    descriptions = {url: meta(client.get(url).content.decode(), "name", "description")
                    for url in PAGES}
    assert len(set(descriptions.values())) == len(PAGES), descriptions
    card = client.get("/cards/demo-bog-hag/").content.decode()
    assert meta(card, "name", "description") == (
        "Bog Hag: Wanderer, Demo Set (fictional). Hoarding. Troops defending against this "
        "wanderer get -1 defense.")
    assert meta(card, "property", "og:image") == (
        "http://testserver/cards/demo-bog-hag/image/large.webp")
    deck = Deck.objects.get(name="Kalim Faithful", owner__username="samples")
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert (meta(page, "name", "description") or "").startswith(deck.description[:40])


@pytest.mark.django_db
def test_the_favicon_is_where_browsers_look_without_asking(client: Client) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    assert answer["Location"] == "/static/icons/favicon.ico"


@pytest.mark.parametrize(("text", "length", "expected"), [
    ("A  short\n description.", 200, "A short description."),
    ("one two three four", 12, "one two…"),
    ("one, two, three", 11, "one, two…"),
    ("exactly ten", 11, "exactly ten"),
])
def test_a_description_is_one_line_cut_at_a_word(text: str, length: int, expected: str) -> None:
    from sitewide.templatetags.page_meta import one_line

    assert one_line(text, length) == expected


def test_capture_renders_its_content_once_and_keeps_it() -> None:
    template = Template("{% load page_meta %}{% capture x %} <b>{{ v }}</b>\n  two {% endcapture %}"
                        "[{{ x }}][{{ x }}]")
    assert template.render(Context({"v": "<i>"})) == "[<b>&lt;i&gt;</b> two][<b>&lt;i&gt;</b> two]"


@pytest.mark.django_db
def test_the_home_page_searches_and_leads_to_every_feature(client: Client) -> None:
    page = client.get("/").content.decode()
    assert re.search(r'<form class="searchbar home-search" role="search" action="/cards/"', page)
    assert 'data-slash="page" aria-keyshortcuts="/"' in page
    assert 'class="site-search"' not in page  # the header's search: not twice
    sample = Deck.objects.get(name="Kalim Faithful", owner__username="samples")
    for target in ["/cards/", "/decks/new/", "/decks/import/", "/decks/",
                   f"/decks/{sample.pk}/draw/", f"/decks/{sample.pk}/goldfish/", "/playtest/new/",
                   "/collection/", "/decks/compare/", "/goldfish/compare/", "/abilities/",
                   "/api/docs/", "/sets/demo/"]:
        assert f'href="{target}"' in page, target
    assert "Your latest decks" not in page


@pytest.mark.django_db
def test_the_home_page_brings_me_back_to_my_latest_decks(ada: Client) -> None:
    from django.contrib.auth.models import User

    owner = User.objects.get(username="ada")
    sample = Deck.objects.get(name="Kalim Faithful", owner__username="samples")
    for name in ("First", "Second"):
        deck_save(owner=owner, data=dataclasses.replace(deck_data(sample), name=name),
                  visibility=Deck.PRIVATE)
    page = ada.get("/").content.decode()
    assert "Your latest decks" in page
    assert page.index(">Second<") < page.index(">First<")  # the latest first


@pytest.mark.django_db
def test_other_pages_have_the_header_search_and_the_card_list_its_own(client: Client) -> None:
    deck_page = client.get("/decks/").content.decode()
    assert 'class="site-search" role="search" action="/cards/"' in deck_page
    assert 'data-slash="site"' in deck_page
    cards = client.get("/cards/").content.decode()
    assert 'class="site-search"' not in cards and 'data-slash="page"' in cards


def options(page: str, select_id: str) -> list[tuple[str, str, bool]]:
    block = re.search(rf'<select id="{select_id}".*?</select>', page, re.S)
    assert block is not None, select_id
    return [(value, label, bool(selected)) for value, selected, label in
            re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', block.group(0))]


@pytest.mark.django_db
def test_decks_to_compare_are_chosen_from_my_decks_their_versions_and_the_public_ones(
        ada: Client) -> None:
    from django.contrib.auth.models import User

    owner = User.objects.get(username="ada")
    data = deck_data(Deck.objects.get(name="Kalim Faithful", owner__username="samples"))
    deck = deck_save(owner=owner, data=dataclasses.replace(data, name="Mine"),
                     visibility=Deck.PRIVATE)
    deck = deck_save(owner=owner, data=dataclasses.replace(data, name="Mine, leaner"), deck=deck)
    page = ada.get(f"/decks/compare/?a={deck.pk}:1&b={deck.pk}").content.decode()
    a = options(page, "compare-a")
    assert a[0] == ("", "Choose a deck or a version…", False)
    assert (str(deck.pk), "Mine, leaner: now (version 2)", False) in a
    assert any(value == f"{deck.pk}:1" and selected for value, _, selected in a)
    assert any(label == "Kalim Faithful (by samples)" for _, label, _ in a)
    b = options(page, "compare-b")
    assert (str(deck.pk), "Mine, leaner: now (version 2)", True) in b
    # A deck reached by its link but not listed (another's unlisted deck) stays chosen.
    other = deck_save(owner=User.objects.create_user("bob"), data=data, visibility=Deck.UNLISTED)
    ada.get(f"/s/{other.share_token}")
    page = ada.get(f"/decks/compare/?a={other.pk}&b={deck.pk}").content.decode()
    assert (str(other.pk), "“Kalim Faithful”", True) in options(page, "compare-a")


@pytest.mark.django_db
def test_goldfish_runs_to_compare_are_chosen_from_my_runs(ada: Client) -> None:
    from django.contrib.auth.models import User

    owner = User.objects.get(username="ada")
    sample = Deck.objects.get(name="Kalim Faithful", owner__username="samples")
    runs: list[Any] = []
    for seed in (1, 2):
        run, _ = goldfish_run_start(deck=deck_data(sample), options=RunOptions(games=10,
                                    seed=seed), user=owner, requester=f"user:{owner.pk}",
                                    source=sample, source_version=1)
        runs.append(run)
    page = ada.get("/goldfish/compare/").content.decode()
    choices = options(page, "run-a")
    assert [value for value, _, _ in choices] == ["", str(runs[1].pk), str(runs[0].pk)]
    assert choices[1][1].startswith("Kalim Faithful v1 · 10 games · seed 2 · greedy, target 25")
    assert options(page, "id_a")[0][1] == "Choose a deck or a version…"
    # Nobody signed in: no runs to pick from, the decks still.
    anonymous = Client().get("/goldfish/compare/").content.decode()
    assert 'id="run-a"' not in anonymous and 'id="id_a"' in anonymous
