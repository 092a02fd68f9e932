"""Golden logs: a few (deck, seed) games told round by round, kept in fixtures/goldfish/.

A change to the rules or the greedy policy that changes a game shows up here as a readable
diff. After a deliberate change, regenerate with
``UPDATE_GOLDEN=1 pytest tests/rules/game/test_golden_logs.py``, and bump ``RULES_VERSION``
(rules/game/config.py) when the rules changed.
"""

from __future__ import annotations

import os

import pytest

from rules.game import engine
from rules.game.narrate import narrate
from rules.game.runner import RunSpec, play_game
from tests.rules.game.engine_helpers import FIXTURES, catalogue, sample

GOLDEN = [("kalim-faithful.txt", 17), ("guild-veterans.txt", 3), ("mosfin-blades.txt", 42)]


@pytest.mark.parametrize(("deck", "number"), GOLDEN)
def test_the_game_is_told_exactly_as_the_golden_log(deck: str, number: int) -> None:
    prepared = engine.prepare(sample(deck), catalogue())
    state = play_game(prepared, RunSpec(100, 1), number, record=True)
    text = "\n".join(narrate(state)) + "\n"
    path = FIXTURES / "goldfish" / f"{deck.removesuffix('.txt')}-seed1-game{number}.log"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, "utf-8")
    assert text == path.read_text("utf-8")
    assert state.over and f"Game over in round {state.final_round}" in text
