"""Hints: each legal action's chance of victory, by a quick Monte Carlo of greedy playouts.

Pure Python (no Django). For each legal action: copy the state, apply the action, then let the
greedy policy play to the end; repeat with sample seeds 0, 1, 2... and count the victories. The
samples go round the actions (one more playout for every action per round) until the time
budget is spent or ``max_samples`` is reached, so every action always has the same number of
playouts, and a fixed number of samples gives the same answer every time (the playouts depend
only on the state and the sample number, never on the clock). Each estimate comes with its 95%
Wilson score interval (sound for rates near 0 or 1, where the normal approximation is not).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from rules.game import engine
from rules.game.actions import Action
from rules.game.policies import GreedyPolicy
from rules.game.state import GameState
from rules.rng import GameRng, derive_seed

BUDGET_SECONDS: Final = 2.0
MAX_SAMPLES: Final = 400
Z95: Final = 1.959963984540054
HIDDEN_PILES: Final = ("structure_pile", "personality_pile", "wanderer_pile")


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion ((0, 1) without trials)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - margin), min(1.0, centre + margin)


def clone(state: GameState) -> GameState:
    """An independent copy of ``state`` by its JSON form (GameState.from_dict), sharing the
    card profiles: they are immutable, and rebuilding them would cost more than a playout."""
    data = state.to_dict()
    data["facts"] = {}
    copy = GameState.from_dict(data)
    copy.facts, copy.by_id = state.facts, state.by_id
    return copy


def playout(state: GameState, action: Action, sample: int) -> GameState:
    """One game from ``state``: ``action``, then the greedy policy to the end.

    The engine's RNG lives in the state, and the greedy policy is deterministic: a copy played
    out as it is would roll the same dice and draw the same cards every time, so K playouts
    would be one playout counted K times. Each sample therefore gets its own RNG state,
    derived from (the state's RNG, the sample number) with derive_seed: different samples
    differ, the same sample is the same on every run and machine, and every action gets the
    same K futures (common random numbers, so actions are compared on equal luck). The
    order of the draw piles is hidden from the player, so each sample also reshuffles them
    with its own RNG before the action; otherwise an estimate would peek at the real next
    draws.
    """
    copy = clone(state)
    rng = GameRng(derive_seed(state.mover().rng, "hint", sample))
    me = copy.mover()
    for pile in HIDDEN_PILES:
        rng.shuffle(me.zones[pile])
    me.rng = rng.state
    result = engine.apply(copy, action)
    if not result.ok:  # the piles' order never makes an action illegal: a bug, fail loudly
        raise RuntimeError(f"hint playout refused {action}: {result.reason}")
    policy = GreedyPolicy()
    legal, apply = engine.legal_actions, engine.apply
    while not copy.over:
        apply(copy, policy(copy, legal(copy)))
    return copy


@dataclass
class Chance:
    """The estimate for one action."""

    index: int
    samples: int = 0
    victories: int = 0
    victory_rounds: int = 0  # summed, for the mean victory round

    def to_dict(self) -> dict[str, Any]:
        low, high = wilson(self.victories, self.samples)
        rate = self.victories / self.samples if self.samples else 0.0
        mean_round = self.victory_rounds / self.victories if self.victories else None
        return {"index": self.index, "number": self.index + 1, "samples": self.samples,
                "victories": self.victories, "rate": rate, "low": low, "high": high,
                "percent": round(rate * 100), "low_percent": round(low * 100),
                "high_percent": round(high * 100), "mean_victory_round": mean_round}


def victory_chances(state: GameState, *, budget: float | None = BUDGET_SECONDS,
                    max_samples: int = MAX_SAMPLES,
                    clock: Callable[[], float] = time.perf_counter) -> dict[str, Any]:
    """Every legal action's chance of victory (see the module docstring).

    ``budget`` bounds the time (None: exactly ``max_samples`` playouts per action); at least
    one round of playouts is always made."""
    legal = list(engine.legal_actions(state))
    chances = [Chance(index) for index in range(len(legal))]
    started = clock()
    samples = 0
    while legal and samples < max_samples:
        for chance, action in zip(chances, legal, strict=True):
            end = playout(state, action, samples)
            chance.samples += 1
            if end.outcome == "victory":
                chance.victories += 1
                chance.victory_rounds += end.final_round
        samples += 1
        if budget is not None and clock() - started >= budget:
            break
    rows = [c.to_dict() for c in chances]
    best = max(rows, key=lambda r: (r["rate"], -(r["mean_victory_round"] or math.inf)),
               default=None)
    return {"samples": samples, "actions": rows, "seconds": round(clock() - started, 3),
            "budget": budget, "best": best["index"] if best else None,
            "by_index": {r["index"]: r for r in rows}}
