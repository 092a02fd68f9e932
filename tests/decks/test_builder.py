"""The builder: its edits (decks.deck_edits, decks.forms), the version check
(decks.builder_services), and what the pages are given (decks.deck_display)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.contrib.auth.models import User

from decks.builder_search import search_view
from decks.builder_services import deck_edit
from decks.deck_display import FocusFallback, advice_view, deck_view, focus_fallback
from decks.deck_edits import (
    AddCard,
    ChangeCount,
    EditRefused,
    EditSettings,
    FixProblem,
    MoveCard,
    RemoveCard,
    RestoreVersion,
    UseAdvisedHoldings,
    deck_add,
    deck_change_count,
    deck_move,
    deck_remove,
    move_target,
    own_pile,
    problem_key,
)
from decks.forms import BadEdit, parse_change
from decks.import_lines import apply_suggestion, replace_line
from decks.models import Deck, DeckVersion
from decks.services import deck_data, deck_save
from decks.validation import catalogue_facts, deck_advise_holdings, deck_validate
from decks.version_check import STALE_MESSAGE
from rules.decklist import DeckEntry, Decklist

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada() -> User:
    return User.objects.create_user("ada", password="x-Secret-123456")


def sample(name: str = "Kalim Faithful") -> Decklist:
    return deck_data(Deck.objects.get(owner__username="samples", name=name))


def saved(owner: Any, data: Decklist | None = None) -> Deck:
    return deck_save(owner=owner, data=data or sample())


# --- pure edits -----------------------------------------------------------------------------


def test_a_card_is_added_to_its_own_pile() -> None:
    facts = catalogue_facts()
    assert own_pile(facts["demo-fort-ashgate"]) == "structures"
    assert own_pile(facts["demo-bog-hag"]) == "wanderers"
    for card in ("demo-ember-templar", "demo-siege-maul", "demo-market-day",
                 "demo-holy-immolation"):
        assert own_pile(facts[card]) == "personalities"


def test_the_move_button_goes_between_holdings_and_pile_or_to_the_right_pile() -> None:
    facts = catalogue_facts()
    assert move_target(facts["demo-toll-shack"], "structures") == "holdings"
    assert move_target(facts["demo-toll-shack"], "holdings") == "structures"
    assert move_target(facts["demo-toll-shack"], "personalities") == "structures"
    assert move_target(facts["demo-bog-hag"], "personalities") == "wanderers"
    assert move_target(facts["demo-bog-hag"], "wanderers") is None
    assert move_target(facts["demo-ember-templar"], "personalities") is None


def test_counts_go_up_and_down_and_the_last_copy_removes_the_card() -> None:
    deck = Decklist("T", structures=(DeckEntry("demo-toll-shack", 1),))
    more = deck_change_count(deck, "demo-toll-shack", "structures", 1)
    assert more.structures == (DeckEntry("demo-toll-shack", 2),)
    gone = deck_change_count(deck, "demo-toll-shack", "structures", -1)
    assert gone.structures == ()
    with pytest.raises(EditRefused):
        deck_change_count(deck, "demo-toll-shack", "holdings", 1)


def test_moving_and_removing() -> None:
    deck = Decklist("T", structures=(DeckEntry("demo-toll-shack", 2),))
    moved = deck_move(deck, "demo-toll-shack", "structures", "holdings")
    assert moved.holdings == (DeckEntry("demo-toll-shack", 1),)
    assert moved.structures == (DeckEntry("demo-toll-shack", 1),)
    assert deck_remove(deck, "demo-toll-shack", "structures").structures == ()
    with pytest.raises(EditRefused):
        deck_move(deck, "demo-toll-shack", "structures", "structures")


def test_a_part_holds_at_most_99_copies_of_a_card() -> None:
    deck = Decklist("T", structures=(DeckEntry("demo-toll-shack", 99),))
    with pytest.raises(EditRefused):
        deck_add(deck, "demo-toll-shack", "structures")


# --- reading the forms ----------------------------------------------------------------------


@pytest.mark.parametrize(("action", "data", "expected"), [
    ("add", {"card": "demo-bog-hag"}, AddCard("demo-bog-hag", "wanderers")),
    ("add", {"card": "demo-toll-shack", "section": "holdings"},
     AddCard("demo-toll-shack", "holdings")),
    ("count", {"card": "demo-bog-hag", "section": "wanderers", "delta": "-1"},
     ChangeCount("demo-bog-hag", "wanderers", -1)),
    ("move", {"card": "demo-toll-shack", "section": "structures", "to": "holdings"},
     MoveCard("demo-toll-shack", "structures", "holdings", 1)),
    ("remove", {"card": "demo-bog-hag", "section": "wanderers"},
     RemoveCard("demo-bog-hag", "wanderers")),
    ("fix", {"problem": "no_stronghold||"}, FixProblem("no_stronghold||")),
    ("holdings", {}, UseAdvisedHoldings()),
    ("settings", {"name": "  My   deck ", "players": "3", "visibility": "public",
                  "description": "x"},
     EditSettings("My deck", 3, "x", "public")),
])
def test_each_form_becomes_a_change(action: str, data: dict[str, str], expected: object) -> None:
    assert parse_change(action, data) == expected


@pytest.mark.parametrize(("action", "data"), [
    ("add", {"card": "no-such-card"}),
    ("count", {"card": "demo-bog-hag", "section": "pile", "delta": "1"}),
    ("count", {"card": "demo-bog-hag", "section": "wanderers", "delta": "5"}),
    ("count", {"card": "demo-bog-hag", "section": "wanderers", "delta": "lots"}),
    ("move", {"card": "demo-bog-hag", "section": "wanderers", "to": "attic"}),
    ("fix", {}),
    ("settings", {"name": "   ", "players": "4", "visibility": "private"}),
    ("settings", {"name": "X", "players": "9", "visibility": "private"}),
    ("nonsense", {"card": "demo-bog-hag"}),
])
def test_malformed_forms_are_refused(action: str, data: dict[str, str]) -> None:
    with pytest.raises(BadEdit):
        parse_change(action, data)


# --- saving with the version check ----------------------------------------------------------


def test_an_edit_on_the_current_version_is_saved_as_a_new_version_by_its_author(
        ada: User) -> None:
    deck = saved(ada)
    result = deck_edit(deck=deck, user=ada, version=1,
                               change=AddCard("demo-bog-hag", "wanderers"))
    assert result.status == 200 and result.deck.version == 2
    assert "Added 1 Bog Hag to the Wanderer Pile" in result.message
    version = DeckVersion.objects.get(deck=deck, number=2)
    assert version.author == ada and version.diff["cards"] == [
        {"section": "wanderers", "card": "demo-bog-hag", "before": 1, "after": 2}]


@pytest.mark.parametrize(("version", "if_match", "status"), [
    (1, None, 409), ("", None, 428), (None, '"0.1"', 412),
])
def test_a_stale_or_missing_version_saves_nothing(ada: User, version: object,
                                                   if_match: str | None, status: int) -> None:
    deck = saved(ada)
    deck_edit(deck=deck, user=ada, version=1,
                      change=RemoveCard("demo-bog-hag", "wanderers"))
    before = deck_data(Deck.objects.get(pk=deck.pk))
    result = deck_edit(deck=deck, user=ada, version=version, if_match=if_match,
                               change=AddCard("demo-toll-shack", "structures"))
    assert result.status == status and result.deck.version == 2
    assert deck_data(Deck.objects.get(pk=deck.pk)) == before
    if status != 428:
        assert result.message == STALE_MESSAGE


def test_if_match_with_the_current_etag_is_accepted(ada: User) -> None:
    deck = saved(ada)
    result = deck_edit(deck=deck, user=ada, version=None, if_match=f'"{deck.pk}.1"',
                               change=AddCard("demo-toll-shack", "structures"))
    assert result.saved


def test_an_edit_that_cannot_apply_is_refused_with_422(ada: User) -> None:
    deck = saved(ada)
    result = deck_edit(deck=deck, user=ada, version=1,
                               change=RemoveCard("demo-bog-hag", "holdings"))
    assert result.status == 422 and Deck.objects.get(pk=deck.pk).version == 1


def test_an_edit_that_changes_nothing_makes_no_version(ada: User) -> None:
    deck = saved(ada)
    data = deck_data(deck)
    result = deck_edit(deck=deck, user=ada, version=1, change=EditSettings(
        data.name, data.players, data.description, deck.visibility))
    assert result.status == 200 and result.message == "Nothing to change."
    assert deck.versions.count() == 1


def test_a_visibility_change_is_a_version_that_history_names(ada: User) -> None:
    deck = saved(ada)
    data = deck_data(deck)
    result = deck_edit(deck=deck, user=ada, version=1, change=EditSettings(
        data.name, data.players, data.description, Deck.PUBLIC))
    assert result.deck.visibility == Deck.PUBLIC
    version = deck.versions.get(number=2)
    assert version.diff["fields"]["visibility"] == ["private", "public"]
    assert version.summary == "visibility changed"


def short_structures() -> Decklist:
    """The sample with five of its pairs of structures down to one: the pile lacks three."""
    data = sample()
    doubles = [e.card_id for e in data.structures if e.count == 2][:5]
    return replace(data, structures=tuple(
        DeckEntry(e.card_id, 1 if e.card_id in doubles else e.count) for e in data.structures))


def test_fixing_a_problem_applies_its_whole_plan_and_clears_it(ada: User) -> None:
    deck = saved(ada, short_structures())
    problem = next(p for p in deck_validate(deck_data(deck)).problems
                   if p.code == "structure_pile_too_small")
    assert len(problem.fixes) == 3  # one more copy of three of the deck's own structures
    result = deck_edit(deck=deck, user=ada, version=1,
                               change=FixProblem(problem_key(problem)))
    assert result.saved and result.message.startswith("Fixed: Add ")
    codes = {p.code for p in deck_validate(deck_data(result.deck)).problems}
    assert "structure_pile_too_small" not in codes
    assert result.deck.versions.count() == 2  # the whole plan is one save


def test_a_problem_that_is_gone_cannot_be_fixed(ada: User) -> None:
    deck = saved(ada)
    result = deck_edit(deck=deck, user=ada, version=1,
                               change=FixProblem("no_stronghold||"))
    assert result.status == 422 and "already gone" in result.message


def test_using_the_advised_holdings(ada: User) -> None:
    data = sample()
    emptied = deck_move(data, "demo-emberhold-keep", "holdings", "structures")
    deck = saved(ada, emptied)
    result = deck_edit(deck=deck, user=ada, version=1,
                               change=UseAdvisedHoldings())
    assert result.saved
    after = deck_data(result.deck)
    assert {e.card_id: e.count for e in after.holdings} == dict(
        deck_advise_holdings(emptied).holdings)
    assert advice_view(after).current


def test_restoring_a_version_saves_its_snapshot_as_a_new_version(ada: User) -> None:
    deck = saved(ada)
    deck_edit(deck=deck, user=ada, version=1,
                      change=AddCard("demo-toll-shack", "structures"))
    first = deck.versions.get(number=1)
    result = deck_edit(deck=deck, user=ada, version=2,
                               change=RestoreVersion(1, first.snapshot))
    assert result.deck.version == 3 and deck_data(result.deck) == sample()


# --- what the pages show --------------------------------------------------------------------


def test_rows_at_fault_point_at_their_problems() -> None:
    data = deck_add(sample(), "demo-rabid-boar", "personalities")
    view = deck_view(data)
    rows = {(r.section, r.card_id): r for part in view.parts for r in part.rows}
    boar = rows[("personalities", "demo-rabid-boar")]
    assert boar.fault == "error" and boar.move_to == "wanderers"
    problem = next(p for p in view.validation.problems if p.problem.code == "wrong_pile")
    assert boar.described_by == problem.dom_id
    assert problem.cards == (("Rabid Boar", "row-personalities-demo-rabid-boar"),)
    assert problem.fix_label == ("Fix: Move 1 Rabid Boar from the Personality Pile to the "
                                 "Wanderer Pile")
    assert not rows[("wanderers", "demo-sewer-rat-swarm")].fault


def test_part_minimums_follow_the_player_count() -> None:
    view = deck_view(sample())
    minimums = {p.key: p.minimum for p in view.parts}
    assert minimums == {"holdings": None, "structures": 15, "personalities": 15,
                        "wanderers": 12}
    assert view.validation.legal and view.validation.players_range == "2\u20134"
    assert view.demo


def test_searching_the_catalogue_and_within_the_deck() -> None:
    data = sample()
    everywhere = search_view("t:wanderer", "catalogue", data)
    assert everywhere.total == 20 and everywhere.explained
    within = search_view("t:wanderer", "deck", data)
    assert within.total == len(data.wanderers)
    rat = next(r for r in within.rows if r.card.id == "demo-sewer-rat-swarm")
    assert rat.in_deck == (("wanderers", "Wanderer Pile", 2),) and rat.pile == "wanderers"
    assert search_view("", "catalogue", data).rows == ()
    broken = search_view("cost<<", "catalogue", data)
    assert broken.error is not None and broken.pointer[0] == "cost<"[: broken.error.position]


def test_focus_falls_back_to_the_heading_when_the_pressed_button_is_gone() -> None:
    data = sample()
    view, advice = deck_view(data), advice_view(data)
    gone = focus_fallback("remove-row-wanderers-demo-dire-wolf-pack", view, advice)
    assert gone == FocusFallback("wanderers", "remove-row-wanderers-demo-dire-wolf-pack")
    assert focus_fallback("plus-row-wanderers-demo-bog-hag", view, advice) is None
    assert focus_fallback("fix-1", view, advice) == FocusFallback(
        "validation", "fix-1")  # the deck is legal: no fix button is left
    assert focus_fallback("add-demo-bog-hag", view, advice) is None
    assert focus_fallback(None, view, advice) is None


@pytest.mark.parametrize(("text", "line", "name", "expected"), [
    ("Structure Pile\n2 Bel Towr\n", 2, "Bell Tower", "Structure Pile\n2 Bell Tower\n"),
    ("Bowmen x2", 1, "Bowman (kalim)", "2 Bowman (kalim)"),
    ("\ufeffBowmen", 1, "Bowman", "Bowman"),
    ("a\r\nb\r\n", 2, "c", "a\nc\n"),
    ("a", 7, "c", "a"),
])
def test_a_suggestion_replaces_its_line_keeping_the_count(text: str, line: int, name: str,
                                                           expected: str) -> None:
    assert replace_line(text, line, name) == expected


def test_a_malformed_suggestion_changes_nothing() -> None:
    assert apply_suggestion("a\nb", "x|c") == "a\nb"
    assert apply_suggestion("a\nb", "2|c") == "a\nc"


def test_an_empty_deck_s_piles_get_no_arbitrary_cards_but_ready_searches(ada: User) -> None:
    deck = saved(ada, Decklist("Empty"))
    problems = {p.code: p for p in deck_validate(deck_data(deck)).problems}
    for code in ("structure_pile_too_small", "personality_pile_too_small",
                 "wanderer_pile_too_small"):
        assert problems[code].fixes == (), code
