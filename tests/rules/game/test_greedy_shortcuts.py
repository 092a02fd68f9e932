"""The greedy policy's shortcuts choose exactly what scoring every action would choose."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.game import engine, policies
from rules.game.actions import Action
from rules.game.runner import game_seed
from rules.game.state import GameState
from rules.rng import derive_seed
from tests.rules.game.engine_helpers import SAMPLES, catalogue, sample


def every_action_scored(state: GameState, actions: list[Action]) -> Action | None:
    """The greedy act scoring without shortcuts: the first action of the highest score."""
    context = policies._Context(state)
    best, best_score = None, 0.0
    for action in actions:
        score = policies._score(state, action, context)
        if score > best_score:
            best, best_score = action, score
    return best


def act_decisions(deck: str, games: int, policy: str
                  ) -> Iterator[tuple[GameState, list[Action]]]:
    """Every Action and Development decision of ``games`` games, as (state, actions)."""
    prepared = engine.prepare(sample(deck), catalogue())
    for number in range(1, games + 1):
        seed = game_seed(3, number)
        state = engine.new_game(prepared, None, seed)
        chooser = policies.POLICIES[policy](derive_seed(seed, "policy"))
        while not state.outcome:
            actions = engine.legal_actions(state)
            if state.combat is None and state.step == "act":
                yield state, actions
            engine.apply(state, chooser(state, actions))


@pytest.mark.parametrize("deck", SAMPLES)
def test_no_play_scores_above_its_bound(deck: str) -> None:
    checked = 0
    for state, actions in act_decisions(deck, 15, "random"):
        context = policies._Context(state)
        for action in actions:
            if action.kind == "play":
                bound = policies._play_bound(state.card(action.card))
                assert policies._score(state, action, context) <= bound, action
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_greedy_act_scoring_is_the_best_scored_action(deck: str) -> None:
    decisions = 0
    for state, actions in act_decisions(deck, 15, "greedy"):
        assert policies.best_scored(state, actions) == every_action_scored(state, actions)
        decisions += 1
    assert decisions > 100
