"""The reference player (rules/game/lookahead.py, ReferencePolicy): its names, the same games
for the same seed, a legal player on every sample deck, and a card greedy never plays that it
keeps because that is clearly right."""

from __future__ import annotations

import pytest

from rules.game import engine, lookahead
from rules.game.actions import Action
from rules.game.config import GameConfig
from rules.game.policies import GreedyPolicy
from rules.game.runner import RunSpec, check_policy, make_policy, plays_rollouts, run_chunk
from rules.game.state import GameState
from rules.rng import derive_seed
from tests.rules.game.engine_helpers import SAMPLES, catalogue, sample
from tests.rules.game.scenario_helpers import (
    at_step,
    citizen,
    clear_hand,
    first,
    item,
    make_game,
    place,
    stronghold,
    troop,
    wanderer,
)

DECK = "guild-merchants.txt"  # the shortest games
# Games cut at this round (a timeout): every rollout ends there too, so a reference game of a
# sample deck costs a second or two rather than a minute of the plain-Python engine.
SHORT = GameConfig(round_cap=3)


@pytest.mark.parametrize(("name", "budget"), [
    ("reference", lookahead.DEFAULT_BUDGET), ("reference:3", 3), ("reference:4096", 4096)])
def test_reference_names_set_its_budget(name: str, budget: int) -> None:
    policy = make_policy(name, 1)
    assert isinstance(policy, lookahead.ReferencePolicy) and policy.budget == budget
    assert plays_rollouts(name)


@pytest.mark.parametrize("name", ["reference:0", "reference:x", "reference:4097", "reference:",
                                  "referee"])
def test_bad_reference_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match=r"policy|reference budget"):
        check_policy(name)


def test_the_same_seed_plays_the_same_reference_games() -> None:
    prepared = engine.prepare(sample(DECK), catalogue(), SHORT)
    spec = RunSpec(2, 3, "reference:2")
    together = run_chunk(prepared, spec, 1, 2)
    apart = run_chunk(prepared, spec, 1, 1)
    apart.merge(run_chunk(prepared, spec, 2, 2))
    assert apart.to_dict() == together.to_dict()


def test_the_mixed_rollout_policy_is_legal_seeded_and_mostly_greedy() -> None:
    # A rollout's player: greedy's choice about nine times in ten, a random legal one
    # otherwise, the same choices for the same key.
    prepared = engine.prepare(sample(DECK), catalogue())
    greedy = GreedyPolicy()

    def play(key: int) -> tuple[list[Action], int, int]:
        state = engine.new_game(prepared, None, 5)
        mixed = lookahead.MixedPolicy(greedy, key)
        chosen, same, weighed = [], 0, 0
        while not state.outcome:
            actions = engine.legal_actions(state)
            choice = mixed(state, actions)
            assert choice in actions
            if len(actions) > 1:
                weighed += 1
                same += choice == greedy(state, actions)
            chosen.append(choice)
            assert engine.apply(state, choice).ok
        return chosen, same, weighed

    chosen, same, weighed = play(11)
    assert play(11)[0] == chosen and play(12)[0] != chosen
    assert 0.8 < same / weighed < 1


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_reference_player_chooses_a_legal_action_at_every_decision(deck: str) -> None:
    prepared = engine.prepare(sample(deck), catalogue(), SHORT)
    seed = derive_seed(1, "game", 1)
    state = engine.new_game(prepared, None, seed)
    player = make_policy("reference:2", derive_seed(seed, "policy"))
    while not state.outcome:
        actions = engine.legal_actions(state)
        choice = player(state, actions)
        assert choice in actions, (state.round, state.step, choice)
        assert engine.apply(state, choice).ok


def _a_dear_weapon_at_the_discard_step() -> tuple[GameState, int]:
    """Round 1's Discard Phase, the target 3: three wanderers in the row (defense 6, never
    aggressive) and two more in the pile, so the one the Wanderer Phase of round 2 brings
    overruns the city unless a hunt kills one first. The troop (offense 3) can wound none
    alone; the glaive in hand (+4 offense, 3 tokens, which the player holds) lets it.
    Next round: the elder (influence 3) and the glaive played, a wanderer killed, then
    victory at round 3's start. Discarding the glaive loses the game."""
    rats = [wanderer(f"rat{i}", offense=0, defense=6, vitality=1, aggression=0, bounty=0)
            for i in range(5)]
    state = make_game([stronghold()], [],
                      [troop("soldier", offense=3, defense=9, vitality=3),
                       item("glaive", offense=4, cost=(2, 0, 1)),
                       citizen("elder", faction="guild", influence=3)], rats, target=3)
    clear_hand(state)
    place(state, first(state, "soldier"), "defensive")
    for i in range(3):
        place(state, first(state, f"rat{i}"), "wanderers")
    glaive = place(state, first(state, "glaive"), "hand")
    place(state, first(state, "elder"), "hand")
    state.mover().personal = [3, 0, 1]
    at_step(state, "discard", "discard")
    state.mover().discards_left = 3
    return state, glaive


def test_the_reference_player_keeps_a_dear_weapon_greedy_discards_when_it_saves_the_game(
) -> None:
    # Greedy discards items without income of two tokens or more (Vessar's Glaive, never
    # played by greedy in guild-veterans); here keeping it is the only way to win.
    state, glaive = _a_dear_weapon_at_the_discard_step()
    actions = engine.legal_actions(state)
    assert GreedyPolicy()(state, actions) == Action("discard", glaive)
    player = lookahead.ReferencePolicy(0, 16)
    assert player(state, actions) == Action("done")
    scores = dict(player.weighed)
    assert set(scores[Action("discard", glaive)]) == {state.config.round_cap
                                                       + lookahead.LOSS_PENALTY}
