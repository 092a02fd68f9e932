"""Odds goals name cards as decklists do, forgivingly; a name that matches no card is an error
with the closest names (never a silent 0%); odds warn when the deck's own Initial Holdings
break a rule; a negative seed is refused."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from decks.draws import odds_document, parse_deck_goal, read_strategy
from decks.models import Deck
from decks.services import deck_data
from rules.decklist import DeckEntry
from rules.odds import GoalError
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db


def crusaders() -> Deck:
    return Deck.objects.get(owner__username="samples", name="Kalim Crusaders")


def probability(goal: str) -> Fraction:
    document = odds_document(deck_data(crusaders()), read_strategy(), goal=goal)
    return Fraction(document["exact"])


@pytest.mark.parametrize("spelling", [
    'card "Ember Templar"', 'card "ember templars"', 'card "Ember-Templar"',
    'card "demo-ember-templar"', 'card "Ember Templar [demo-ember-templar]"',
])
def test_a_card_is_named_as_in_a_decklist(spelling: str) -> None:
    assert probability(f">= 1 {spelling}") == probability('>= 1 card "demo-ember-templar"') > 0


def test_a_faction_hint_picks_one_of_the_cards_a_name_shares() -> None:
    goal = parse_deck_goal('>= 1 card "Ashgate Spearman (kalim)"')
    assert goal.condition.test.ids == frozenset({"demo-ashgate-spearman-kalim"})  # type: ignore[union-attr]
    both = parse_deck_goal('>= 1 card "Ashgate Spearman"')
    assert len(both.condition.test.ids or ()) == 2  # type: ignore[union-attr]


@pytest.mark.parametrize(("goal", "message", "at"), [
    ('>= 1 card "Embr Templar"', "no card is named “Embr Templar”; did you mean “Ember Templar”",
     11),
    ('at most 0 card "Xyzzy Qwerty" and >= 1 troop', "no card is named “Xyzzy Qwerty”", 16),
])
def test_a_name_that_matches_no_card_is_an_error_with_suggestions(goal: str, message: str,
                                                                   at: int) -> None:
    with pytest.raises(GoalError) as caught:
        parse_deck_goal(goal)
    assert caught.value.message.startswith(message) and caught.value.position == at


def test_the_draw_page_shows_the_goal_error_and_reads_the_goal_once(client: Client) -> None:
    url = f"/decks/{crusaders().pk}/draw/odds/?kind=goal&seed=1"
    bad = client.get(url + "&goal=%3E%3D+1+card+%22Embr+Templar%22")
    assert bad.status_code == 400 and "did you mean “Ember Templar”" in bad.content.decode()
    good = client.get(url + "&goal=%3E%3D+1+citizen").content.decode()
    assert "that the opening hand holds at least 1 citizen." in good
    assert "holds the opening hand holds" not in good


def test_odds_warn_when_the_deck_s_own_holdings_are_illegal() -> None:
    data = deck_data(crusaders())
    illegal = replace(data, holdings=(*data.holdings, DeckEntry(data.holdings[0].card_id, 1)))
    document = odds_document(illegal, read_strategy(), goal=">= 1 citizen")
    assert any("Initial Holdings are not legal" in w for w in document["warnings"])
    assert odds_document(data, read_strategy(), goal=">= 1 citizen")["warnings"] == []


@pytest.mark.parametrize("command", ["draw", "goldfish"])
def test_a_negative_seed_is_refused(command: str) -> None:
    path = str(FIXTURES / "decklists" / "kalim-crusaders.txt")
    with pytest.raises(CommandError, match="the seed must be from 0"):
        call_command(command, path, "--seed", "-7")
