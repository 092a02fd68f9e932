"""The sample decklists in fixtures/decklists load against the catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from decks.formats.text import parse_text, render_text
from decks.models import Deck
from decks.services import catalogue_cards, catalogue_resolver, deck_data
from rules.decklist import SECTIONS
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
DECKLISTS = sorted((FIXTURES / "decklists").glob("*.txt"))


def test_there_are_two_sample_decks_per_faction() -> None:
    prefixes = [p.name.split("-")[0] for p in DECKLISTS]
    assert {f: prefixes.count(f) for f in set(prefixes)} == {"kalim": 2, "mosfin": 2, "guild": 2}


@pytest.mark.parametrize("path", DECKLISTS, ids=lambda p: p.name)
def test_each_sample_decklist_parses_without_errors(path: Path) -> None:
    result = parse_text(path.read_text(encoding="utf-8"), catalogue_resolver())
    assert result.errors == ()
    assert result.deck is not None and result.deck.players == 4
    assert all(result.deck.total(s) > 0 for s in SECTIONS)


@pytest.mark.parametrize("path", DECKLISTS, ids=lambda p: p.name)
def test_each_sample_deck_is_stored_and_reads_back_the_same(path: Path) -> None:
    parsed = parse_text(path.read_text(encoding="utf-8"), catalogue_resolver()).deck
    assert parsed is not None
    stored = Deck.objects.get(name=parsed.name, owner__username="samples")
    assert stored.visibility == Deck.PUBLIC
    assert deck_data(stored) == parsed
    cards = {c.id: c for c in catalogue_cards()}
    again = parse_text(render_text(parsed, cards), catalogue_resolver()).deck
    assert again == parsed


def test_reloading_the_samples_changes_nothing() -> None:
    versions = dict(Deck.objects.values_list("name", "version"))
    call_command("load_sample_decks", *map(str, DECKLISTS))
    assert dict(Deck.objects.values_list("name", "version")) == versions
