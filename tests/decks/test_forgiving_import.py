"""The importer forgives: a name spelt differently (apostrophes, hyphens, case, accents,
plurals) or within a slip of the pen of exactly one card's is read as that card, and the page
says so; lines it cannot read offer their suggestions, all at once too."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from decks.formats.text import CatalogueResolver, parse_text
from decks.models import Deck
from decks.services import catalogue_cards, deck_data
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
KALIM = (FIXTURES / "decklists" / "kalim-faithful.txt").read_text(encoding="utf-8")


def sample() -> Deck:
    return Deck.objects.get(owner__username="samples", name="Kalim Faithful")


@pytest.mark.parametrize(("written", "near", "card"), [
    ("Cobblers Lane", None, "demo-cobblers-lane"),
    ("cobbler\u2019s-lane", None, "demo-cobblers-lane"),
    ("RAGPICKERS HOVELS", None, "demo-ragpickers-hovel"),
    ("Cobler's Lane", 0.88, "demo-cobblers-lane"),  # a slip of the pen, when asked for
    ("Cobler's Lane", None, None),
    ("Bog Hog", 0.88, None),  # not close enough to be sure
    ("0 Bel Tower", 0.88, None),  # a count the grammar refused is no near name
])
def test_names_resolve_forgivingly(written: str, near: float | None, card: str | None) -> None:
    resolve = CatalogueResolver(catalogue_cards(), near=near)
    outcome = resolve(written, None, None)
    assert getattr(outcome, "id", None) == card


def test_the_parse_says_which_lines_were_read_as_another_spelling() -> None:
    text = KALIM.replace("2 Cobbler's Lane", "2 Cobblers Lane")
    result = parse_text(text, CatalogueResolver(catalogue_cards()))
    assert result.deck is not None and result.deck == parse_text(
        KALIM, CatalogueResolver(catalogue_cards())).deck
    (note,) = result.notes
    assert (note.line, note.message) == (12, "Read “Cobblers Lane” as Cobbler's Lane.")


def test_the_import_page_reads_near_names_and_says_so(ada: Client) -> None:
    text = (KALIM.replace("2 Cobbler's Lane", "2 Cobblers Lane")
            .replace("2 Wayside Shrine", "2 Waysid Shrine"))
    answer = ada.post("/decks/import/", {"text": text, "visibility": "private"}, follow=True)
    page = answer.content.decode()
    assert "Imported “Kalim Faithful”." in page
    assert "Line 12: Read “Cobblers Lane” as Cobbler&#x27;s Lane." in page
    assert "Line 10: Read “Waysid Shrine” as Wayside Shrine." in page
    deck = Deck.objects.get(owner__username="ada")
    assert deck_data(deck).all_entries() == deck_data(sample()).all_entries()


def test_every_first_suggestion_is_applied_at_once(ada: Client) -> None:
    text = KALIM.replace("2 Wayside Shrine", "2 Wayside Shrin Xq").replace(
        "2 Lantern Row Houses", "2 Lantern Rw Hses Zz")
    page = ada.post("/decks/import/", {"text": text, "visibility": "private"}).content.decode()
    assert "2 lines need fixing" in page and 'id="apply-all"' in page
    firsts = re.findall(r'<input type="hidden" name="first" value="([^"]+)">', page)
    assert firsts == ["10|Wayside Shrine", "11|Lantern Row Houses"]
    fixed = ada.post("/decks/import/", {"text": text, "visibility": "private",
                                        "replace_all": "1", "first": firsts})
    assert "Every line reads now" in fixed.content.decode()
    assert not Deck.objects.filter(owner__username="ada").exists()  # checked, not saved


def test_an_unknown_line_is_dropped_in_one_click_and_the_others_keep_their_numbers(
        ada: Client) -> None:
    text = KALIM.replace("2 Wayside Shrine", "2 Qqqzzx Vvv").replace(
        "2 Lantern Row Houses", "2 Lantern Rw Hses Zz")
    page = ada.post("/decks/import/", {"text": text, "visibility": "private"}).content.decode()
    assert '<button type="submit" name="drop" value="10"' in page
    dropped = ada.post("/decks/import/", {"text": text, "visibility": "private", "drop": "10"})
    shown = dropped.content.decode()
    assert "// dropped: 2 Qqqzzx Vvv" in shown and "1 line needs fixing" in shown
    assert 'name="drop" value="11"' in shown  # line 11 is still line 11
    assert not Deck.objects.filter(owner__username="ada").exists()  # checked, not saved


@pytest.mark.parametrize("number", ["0", "999", "x", ""])
def test_dropping_a_line_that_is_not_there_changes_nothing(number: str) -> None:
    from decks.import_lines import drop_line

    assert drop_line("1 Bell Tower\n2 Bog Hag", number) == "1 Bell Tower\n2 Bog Hag"
