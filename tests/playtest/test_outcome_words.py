"""How a playtest's end is worded: from the player's seat, with the round ("Defeat: Seat 2
(Mosfin Senate) wins in round 6"), never the engine's "VICTORY (seat 2 wins)"."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import pytest

from playtest.play import outcome_sentence
from playtest.table_play import PLAYER, table_outcome
from rules.game.seats import Table

if TYPE_CHECKING:
    from playtest.models import PlaytestGame

NAMES = ["Kalim Faithful", "Mosfin Senate", "Guild Merchants"]


@pytest.mark.parametrize(("outcome", "winner", "at_table", "said"), [
    ("victory", "", True, "Victory in round 6: you won the game."),
    ("victory", "", False, "Victory in round 6: your faction influence reached the target."),
    ("defeat", "Seat 2 (Mosfin Senate)", True, "Defeat: Seat 2 (Mosfin Senate) wins in round 6."),
    ("stronghold", "Seat 3 (Guild Merchants)", True,
     "Defeat: your stronghold was destroyed; Seat 3 (Guild Merchants) wins in round 6."),
    ("stronghold", "", False, "Defeat in round 6: your stronghold was destroyed."),
    ("overrun", "", True,
     "Defeat in round 6: the wanderers overran the city (every player loses)."),
    ("overrun", "", False, "Defeat in round 6: the wanderers overran the city."),
    ("timeout", "", True, "Out of time in round 6: the round cap was reached."),
    ("", "", True, ""),
])
def test_the_end_is_said_from_the_player_s_seat(outcome: str, winner: str, at_table: bool,
                                                said: str) -> None:
    assert outcome_sentence(outcome, 6, winner, at_table=at_table) == said


@pytest.mark.parametrize(("winner", "out", "said"), [
    (1, {}, "Defeat: Seat 2 (Mosfin Senate) wins in round 6."),
    (PLAYER, {}, "Victory in round 6: you won the game."),
    (2, {PLAYER: (4, "stronghold")},
     "Defeat: your stronghold was destroyed; Seat 3 (Guild Merchants) wins in round 6."),
])
def test_a_table_won_by_another_seat_is_a_defeat_for_the_player(
        winner: int, out: dict[int, tuple[int, str]], said: str) -> None:
    fields = {f.name for f in dataclasses.fields(Table)}
    assert {"outcome", "winner", "final_round", "out"} <= fields
    table = Table.__new__(Table)
    table.outcome, table.winner, table.final_round, table.round = "victory", winner, 6, 7
    table.out = out
    assert table_outcome(table, NAMES) == said


@pytest.mark.django_db
@pytest.mark.parametrize("n", [0, 1], ids=["solo", "one-opponent"])
def test_a_finished_game_s_log_and_status_say_the_same_words(n: int) -> None:
    from playtest.game_display import game_context, game_view
    from playtest.models import PlaytestGame
    from playtest.services import playtest_auto
    from tests.playtest.test_table_services import new_game

    game, _ = playtest_auto(game=new_game(n=n) if n else solo_game(), until="game")
    context = game_context(game_view(PlaytestGame.objects.get(pk=game.pk)))
    title = context["table"]["outcome_title"]
    assert title.startswith(("Victory in round", "Defeat", "Out of time in round")), title
    assert [line.text for line in context["log"] if line.text.startswith(
        ("Victory in", "Defeat", "Out of time", "Game over"))] == [title]


def solo_game() -> PlaytestGame:
    from decks.models import Deck
    from playtest.services import playtest_start_from

    deck = Deck.objects.get(name="Kalim Faithful")
    return playtest_start_from(user=None, session_token="s-1", deck_id=deck.pk, seed=5,
                               target=15, opponents=[])
