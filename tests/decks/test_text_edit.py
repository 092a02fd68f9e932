"""Editing a deck as text inside the builder: the decklist format, read as the import reads it
(an error per line, with its suggestions and "Drop this line"), saved as one version with the
builder's version check; nothing is saved while a line is in error."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.formats.text import render_text
from decks.models import Deck, DeckVersion
from decks.services import catalogue_cards, deck_data, deck_save
from decks.text_edit import deck_text
from rules.decklist import DeckEntry, Decklist

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def deck(ada: Client) -> Deck:
    sample = deck_data(Deck.objects.get(owner__username="samples", name="Kalim Faithful"))
    return deck_save(owner=User.objects.get(username="ada"), data=sample)


def post_text(client: Client, deck: Deck, text: str, **fields: Any) -> Any:
    version = Deck.objects.get(pk=deck.pk).version
    return client.post(f"/decks/{deck.pk}/edit/text/",
                       {"version": version, "text": text, **fields}, headers=HTMX)


def page_text(answer: Any) -> str:
    return html.unescape(answer.content.decode())


def test_the_builder_offers_the_deck_as_text(ada: Client, deck: Deck) -> None:
    page = page_text(ada.get(f"/decks/{deck.pk}/edit/"))
    assert "<summary>Edit as text</summary>" in page
    box = page[page.index('<textarea id="deck-text"'):]
    assert box[box.index(">") + 1:].startswith("# Kalim Faithful\n# players: 4\n")


def test_a_list_edited_as_text_is_saved_as_one_version(ada: Client, deck: Deck) -> None:
    text = deck_text(deck).replace("Wanderer Pile\n", "Wanderer Pile\n1 Rabid Boar\n")
    before = DeckVersion.objects.filter(deck=deck).count()
    answer = post_text(ada, deck, text)
    assert answer.status_code == 200
    deck = Deck.objects.get(pk=deck.pk)
    assert ("Saved the list as one version of the history, version "
            f"{deck.version} (1 card added).") in page_text(answer)
    assert DeckVersion.objects.filter(deck=deck).count() == before + 1
    assert deck_text(deck) == text
    again = post_text(ada, deck, text)  # the same list again changes nothing
    assert "nothing to save" in page_text(again)
    assert DeckVersion.objects.filter(deck=deck).count() == before + 1


def test_the_name_players_and_description_come_from_the_header(ada: Client,
                                                              deck: Deck) -> None:
    text = deck_text(deck).replace("# Kalim Faithful\n# players: 4\n",
                                   "# Faithful by text\n# players: 3\n# Three at a table\n")
    text = re.sub(r"(?m)^# (?!Faithful|players|Three).*\n", "", text)
    assert post_text(ada, deck, text).status_code == 200
    deck = Deck.objects.get(pk=deck.pk)
    assert (deck.name, deck.players, deck.description) == (
        "Faithful by text", 3, "Three at a table")


def test_a_list_without_a_name_keeps_the_decks_name(ada: Client, deck: Deck) -> None:
    text = "\n".join(line for line in deck_text(deck).splitlines() if not line.startswith("#"))
    assert post_text(ada, deck, text).status_code == 200
    assert Deck.objects.get(pk=deck.pk).name == "Kalim Faithful"


@pytest.mark.parametrize(("bad_line", "says"), [
    ("1 Cathedral Guard", "Replace line {n} with 1 Cathedral Warden"),  # a suggestion
    ("1 Nothing Like Any Card Qqq", "Drop this line"),
    ("0 Rabid Boar", "Drop this line"),
])
def test_a_line_in_error_saves_nothing_and_says_which_line(ada: Client, deck: Deck,
                                                          bad_line: str, says: str) -> None:
    version = Deck.objects.get(pk=deck.pk).version
    text = deck_text(deck).replace("Wanderer Pile\n", f"Wanderer Pile\n{bad_line}\n")
    answer = post_text(ada, deck, text)
    assert answer.status_code == 400
    page = page_text(answer)
    number = text.splitlines().index(bad_line) + 1
    assert "1 line of the list needs fixing; nothing was saved." in page
    assert f'<span class="line-no">Line {number}</span> <code class="line-text">{bad_line}' \
        in page
    assert says.format(n=number) in page and "<details class=\"text-edit\" open>" in page
    assert bad_line in page[page.index('<textarea id="deck-text"'):]  # the text is kept
    assert Deck.objects.get(pk=deck.pk).version == version


def test_drop_this_line_rewrites_the_text_and_saving_it_is_then_possible(
        ada: Client, deck: Deck) -> None:
    text = deck_text(deck).replace("Wanderer Pile\n",
                                   "Wanderer Pile\n1 Rabid Boar\n1 No Such Card Qqq\n")
    number = text.splitlines().index("1 No Such Card Qqq") + 1
    version = Deck.objects.get(pk=deck.pk).version
    dropped = post_text(ada, deck, text, drop=str(number))
    assert dropped.status_code == 200
    page = page_text(dropped)
    assert "Every line reads now: 55 cards. Press “Save the list” to keep it." in page
    assert "// dropped: 1 No Such Card Qqq" in page
    assert Deck.objects.get(pk=deck.pk).version == version  # a rewrite saves nothing
    fixed = page[page.index('<textarea id="deck-text"'):]
    fixed = fixed[fixed.index(">") + 1:fixed.index("</textarea>")]
    assert post_text(ada, deck, fixed).status_code == 200
    assert Deck.objects.get(pk=deck.pk).version == version + 1


def test_a_stale_text_edit_is_refused_and_keeps_the_text(ada: Client, deck: Deck) -> None:
    text = deck_text(deck).replace("Wanderer Pile\n", "Wanderer Pile\n1 Rabid Boar\n")
    answer = ada.post(f"/decks/{deck.pk}/edit/text/", {"version": deck.version - 1 or 99,
                                                       "text": text}, headers=HTMX)
    assert answer.status_code == 409
    assert "1 Rabid Boar" in page_text(answer)


def test_only_the_owner_edits_a_deck_as_text(bob: Client, deck: Deck) -> None:
    deck.visibility = Deck.PUBLIC
    deck.save()
    assert post_text(bob, deck, deck_text(deck)).status_code == 403


@pytest.mark.parametrize("cards", [
    ["demo-cathedral-warden"],
    ["wof-bowman-kalim", "wof-bowman-mosfin", "demo-cathedral-warden"],  # a shared name
    ["wof-catapult-guild", "demo-ashgate-spearman-kalim"],
    [],
])
def test_the_text_box_writes_the_deck_as_the_export_does(cards: list[str]) -> None:
    owner = User.objects.create_user("texts")
    entries = tuple(DeckEntry(card_id, 1) for card_id in cards)
    deck = deck_save(owner=owner, data=Decklist(name="Shared names", personalities=entries))
    everything = {card.id: card for card in catalogue_cards()}
    assert deck_text(deck) == render_text(deck_data(deck), everything)
