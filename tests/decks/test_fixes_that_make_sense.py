"""Fixes that make sense: a short pile is never filled with cards the deck does not hold (the
builder offers searches of the deck's factions instead); a plan of several adds is accepted
card by card; an empty deck has nothing to build."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.models import Deck
from decks.services import deck_data, deck_save
from rules.decklist import DeckEntry, Decklist

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def mine(data: Decklist) -> Deck:
    return deck_save(owner=User.objects.get(username="ada"), data=data)


def short_structures() -> Decklist:
    data = deck_data(Deck.objects.get(owner__username="samples", name="Kalim Faithful"))
    doubles = [e.card_id for e in data.structures if e.count == 2][:5]
    return replace(data, structures=tuple(
        DeckEntry(e.card_id, 1 if e.card_id in doubles else e.count) for e in data.structures))


def test_an_empty_deck_offers_searches_for_each_faction_not_arbitrary_cards(ada: Client) -> None:
    deck = mine(Decklist(name="Empty"))
    page = ada.get(f"/decks/{deck.pk}/edit/").content.decode()
    assert "Fix: " not in page
    for query in ["t:structure (f:kalim or f:none)", "t:structure (f:mosfin or f:none)",
                  "t:wanderer", "t:stronghold (f:guild or f:none)"]:
        href = f"/decks/{deck.pk}/edit/?q={query.replace(' ', '%20').replace(':', '%3A')}"
        assert href.replace("(", "%28").replace(")", "%29") in page, query
    assert "Find structures of The Glory of Kalim" in page


@pytest.mark.parametrize(("cards", "label", "query"), [
    ([("demo-emberhold-keep", "holdings"), ("demo-acolyte-of-the-ember-rite", "personalities")],
     "Find structures of The Glory of Kalim or of no faction", "t:structure (f:kalim or f:none)"),
    ([("demo-acolyte-of-the-ember-rite", "personalities"), ("demo-guild-quartermaster",
                                                            "personalities")],
     "Find personalities, items, invocations and events of The Veteran's Guild and The Glory "
     "of Kalim or of no faction",
     "(t:personality or t:item or t:invocation or t:event) (f:guild or f:kalim or f:none)"),
])
def test_the_searches_are_of_the_deck_s_own_factions(cards: list[tuple[str, str]], label: str,
                                                     query: str) -> None:
    from decks.deck_display import ready_searches
    from decks.validation import catalogue_facts

    def part(section: str) -> tuple[DeckEntry, ...]:
        return tuple(DeckEntry(c, 1) for c, s in cards if s == section)

    data = Decklist(name="x", holdings=part("holdings"), personalities=part("personalities"))
    code = ("structure_pile_too_small" if query.startswith("t:structure")
            else "personality_pile_too_small")
    assert ready_searches(code, data, catalogue_facts()) == ((label, query),)


def test_a_short_pile_is_filled_card_by_card_or_all_at_once(ada: Client) -> None:
    deck = mine(short_structures())
    page = ada.get(f"/decks/{deck.pk}/edit/").content.decode()
    items = re.findall(r'name="item" value="(\d)"[^>]*>([^<]+)</button>', page)
    assert [value for value, _ in items] == ["0", "1", "2"]
    assert all(text.startswith("Add 1 ") for _, text in items)
    assert re.search(r">Fix: all 3</button>", page)
    key = re.search(r'name="problem" value="(structure_pile_too_small[^"]*)"', page)
    assert key is not None
    one = ada.post(f"/decks/{deck.pk}/edit/fix/", {"version": 1, "problem": key.group(1),
                                                    "item": "1"}, headers=HTMX)
    assert one.status_code == 200 and "Add 1 " in one.content.decode()
    after = deck_data(Deck.objects.get(pk=deck.pk))
    assert sum(e.count for e in after.structures) == sum(
        e.count for e in short_structures().structures) + 1
    page = one.content.decode()
    assert len(re.findall(r'name="item" value="\d"', page)) == 2  # two left to accept
    stale = ada.post(f"/decks/{deck.pk}/edit/fix/", {"version": 2, "problem": key.group(1),
                                                      "item": "7"}, headers=HTMX)
    assert stale.status_code == 422 and "no longer offered" in stale.content.decode()


def test_an_empty_deck_has_nothing_to_build(ada: Client) -> None:
    deck = mine(Decklist(name="Empty"))
    page = ada.get(f"/decks/{deck.pk}/").content.decode()
    assert "<strong>Nothing to build yet</strong>: the deck is empty." in page
    assert "verdict-yes" not in page and "Missing cards (text)" not in page
