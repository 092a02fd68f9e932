"""A solo game is a table of one: ``seats.new_table`` with one deck plays, seed for seed and
decision for decision, the game ``engine.new_game`` plays (the same events, the same end).

Pure Python, no database. The table's machinery (the lead player, the Action and Development
cycle, the Military choice, the Wanderer Phase seat by seat, the knock-outs) runs for one seat
exactly as the Order of Play runs for one player; what only a table has (the lead player's
die, the wanderers' target die, the controller of the wanderers) is not rolled or asked."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.game import engine, seats
from rules.game.config import GameConfig
from rules.game.runner import RunSpec, game_seed, make_policy, play_game
from rules.game.state import OFFERED, GameState
from rules.game.table_policy import SeatPolicy
from rules.rng import derive_seed
from tests.rules.game.engine_helpers import SAMPLES, catalogue, sample

GREEDY_GAMES = 3
RANDOM_GAMES = 2


def _table_of_one(deck: str, number: int, policy: str,
                  seen: list[dict[str, Any]] | None = None) -> seats.Table:
    prepared = engine.prepare(sample(deck), catalogue())
    seed = game_seed(1, number)
    table = seats.new_table([prepared], seed, GameConfig(), record=True)
    observe = None if seen is None else (lambda t: seen.append(_without_config(t.state)))
    return seats.play(table, [SeatPolicy(policy, derive_seed(seed, "policy"))], observe)


def _solo(deck: str, number: int, policy: str,
          seen: list[dict[str, Any]] | None = None) -> GameState:
    """The solo engine's own loop (engine.new_game, the policy, engine.apply): what the
    runner played before it seated a table of one."""
    prepared = engine.prepare(sample(deck), catalogue())
    seed = game_seed(1, number)
    state = engine.new_game(prepared, None, seed, record=True)
    chooser = make_policy(policy, derive_seed(seed, "policy"))
    while not state.outcome:
        if seen is not None:
            seen.append(_without_config(state))
        engine.apply(state, chooser(state, engine.legal_actions(state)))
    return state


def _without_config(state: GameState) -> dict[str, Any]:
    """The state as JSON has it, but its options (a seat's say ``seated``) and the cards'
    OFFERED marks: a table works a decision's options out before the observer looks (to know
    whom it asks), the solo loop after, and working them out marks the cards offered (the
    marks at the game's end are compared by test_a_table_of_one_plays_the_solo_game)."""
    data = json.loads(json.dumps(state.to_dict()))
    del data["config"]
    data["flags"] = [flags & ~OFFERED for flags in data["flags"]]
    return data


def _events(state: GameState) -> list[dict[str, Any]]:
    return list(state.events or [])


@pytest.mark.parametrize("deck", SAMPLES)
@pytest.mark.parametrize(("policy", "games"), [("greedy", GREEDY_GAMES),
                                                ("random", RANDOM_GAMES)])
def test_a_table_of_one_plays_the_solo_game(deck: str, policy: str, games: int) -> None:
    for number in range(1, games + 1):
        solo = _solo(deck, number, policy)
        table = _table_of_one(deck, number, policy)
        seat = table.state
        assert _events(seat) == _events(solo), (deck, number)
        assert seat.flags == solo.flags, (deck, number)  # the report's per-card figures
        assert (seat.outcome, seat.final_round) == (solo.outcome, solo.final_round)
        assert (table.outcome, table.final_round) == (solo.outcome, solo.final_round)
        assert table.winner == (0 if solo.outcome == "victory" else -1)


@pytest.mark.parametrize("deck", SAMPLES)
def test_a_table_of_ones_state_is_the_solo_games_at_every_decision(deck: str) -> None:
    """Whatever reads the state at a decision (a lookahead's rollouts, a replay's rounds)
    reads the solo game's: the same state, its options aside."""
    solo: list[dict[str, Any]] = []
    table: list[dict[str, Any]] = []
    _solo(deck, 1, "greedy", solo)
    _table_of_one(deck, 1, "greedy", table)
    assert len(table) == len(solo)
    for number, (theirs, ours) in enumerate(zip(solo, table, strict=True)):
        assert ours == theirs, (deck, number)


@pytest.mark.parametrize("deck", ["kalim-faithful.txt", "mosfin-blades.txt"])
def test_the_runner_plays_the_lookahead_solo_game_at_a_table_of_one(deck: str) -> None:
    """The goldfish runner seats a table of one for every policy, the lookahead's too: its
    rollouts play the seat's state on as the solo game it is."""
    prepared = engine.prepare(sample(deck), catalogue())
    spec = RunSpec(1, 1, "lookahead:4")
    played = play_game(prepared, spec, 1, record=True)
    seed = game_seed(1, 1)
    state = engine.new_game(prepared, None, seed, record=True)
    chooser = make_policy(spec.policy, derive_seed(seed, "policy"))
    while not state.outcome:
        engine.apply(state, chooser(state, engine.legal_actions(state)))
    assert engine.game_log(played) == engine.game_log(state)
    assert "seated" not in engine.game_log(played)["config"]  # a log replayed solo


def _one_wound_from_destroyed(state: GameState) -> None:
    for i in state.mover().zones["private"]:
        if state.card(i).subtype == "stronghold":
            state.wounds[i] = state.card(i).vitality - 1


def test_a_table_of_one_lost_to_its_stronghold_ends_as_the_solo_game() -> None:
    """Solo, the player whose stronghold is destroyed has lost: a table of one ends there
    too, nobody left to win (a table of more seats goes on without him). Seed 1 of a random
    guild-veterans player loses its stronghold to wanderers in round 5."""
    prepared = engine.prepare(sample("guild-veterans.txt"), catalogue())
    solo = engine.new_game(prepared, None, 1, record=True)
    _one_wound_from_destroyed(solo)
    policy = make_policy("random", 1)
    while not solo.outcome:
        engine.apply(solo, policy(solo, engine.legal_actions(solo)))
    table = seats.new_table([prepared], 1, GameConfig(), record=True)
    _one_wound_from_destroyed(table.state)
    seats.play(table, [SeatPolicy("random", 1)])
    assert solo.outcome == "stronghold"
    assert _events(table.state) == _events(solo)
    assert (table.outcome, table.winner, table.out) == ("stronghold", -1, {0: (5, "wanderers")})


def test_a_table_of_one_surrendered_ends_lost() -> None:
    prepared = engine.prepare(sample(SAMPLES[0]), catalogue())
    table = seats.new_table([prepared], 1, GameConfig())
    assert seats.surrender(table, 0).ok
    assert (table.outcome, table.winner) == ("surrendered", -1)


@pytest.mark.parametrize("players", [0, 7])
def test_a_table_seats_1_to_6(players: int) -> None:
    prepared = engine.prepare(sample(SAMPLES[0]), catalogue())
    with pytest.raises(ValueError, match="1 to 6"):
        seats.new_table([prepared] * players, 1, GameConfig())
