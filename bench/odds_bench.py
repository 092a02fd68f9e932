"""Exact opening-hand odds against dealing hands, and against the sampler they replace.

On the 60-card Demo deck guild-veterans (17 structures and 28 personality-pile cards after its
holdings), pure Python, no database:

* the full per-card odds table (P(>=1), P(>=2), expected copies for all 32 distinct cards) under
  the fixed split ``structures=3`` and under the adaptive rule ``structures until 2 structures
  with residencies, then personalities``, and one goal under the adaptive rule (the goal should
  take under 5 ms), each against dealing one hand with the real dealer (the floor: one shuffle);
* the sampler against the exact goal: how long the sampler would need for its 95% confidence
  interval to be within +-0.1 percentage points of the exact probability ``p``. That needs
  ``n = p (1 - p) (1.96 / 0.001)^2`` hands (about 960,000 when p is near one half); a run of
  ``SAMPLES`` hands is timed and scaled to ``n`` (the sampler's cost is linear in the hands it
  deals), and its estimate is checked against the exact value on the way.
"""

from __future__ import annotations

from collections.abc import Callable

from bench.validator_bench import load
from rules.draw_strategy import parse_strategy, split_strategy
from rules.draws import deal_setup, prepare
from rules.odds import (
    Estimate,
    card_table,
    goal_odds,
    hypergeometric,
    parse_goal,
    sample_goal,
)

ADAPTIVE = "structures until 2 structures with residencies, then personalities"
GOAL = ">= 1 structure with residencies and >= 2 personalities and >= 1 citizen"
SAMPLES = 20_000  # hands actually dealt by the timed sampler run
HALF_WIDTH = 0.001  # +-0.1 percentage points
Z95 = 1.96


def samples_needed(p: float, half_width: float = HALF_WIDTH, z: float = Z95) -> int:
    """Hands for a 95% interval of +-``half_width`` around a frequency near ``p``."""
    return max(1, round(p * (1 - p) * (z / half_width) ** 2))


def run(best_of: Callable[..., float], report: Callable[..., None]) -> None:
    deck, cards = load()
    setup = prepare(deck, cards)
    assert deck.total("structures") + deck.total("personalities") + deck.total(
        "holdings") + deck.total("wanderers") == 60
    split = split_strategy(3)
    adaptive = parse_strategy(ADAPTIVE)
    goal = parse_goal(GOAL)
    seed = iter(range(10**9))

    def one_hand() -> None:
        deal_setup(setup, next(seed), adaptive)

    # Every exact run starts cold: no hypergeometric remembered from the run before.
    def table_split() -> None:
        hypergeometric.cache_clear()
        card_table(setup, split)

    def table_adaptive() -> None:
        hypergeometric.cache_clear()
        card_table(setup, adaptive)

    def exact_goal() -> None:
        hypergeometric.cache_clear()
        goal_odds(setup, adaptive, goal)

    baseline = best_of(one_hand, repeat=5, number=500)
    subject = best_of(table_split, repeat=5, number=200)
    report(f"odds table, structures=3 ({subject * 1000:.2f} ms)", subject, baseline,
           "dealing one hand")
    subject = best_of(table_adaptive, repeat=5, number=50)
    report(f"odds table, adaptive ({subject * 1000:.2f} ms)", subject, baseline,
           "dealing one hand")
    exact = best_of(exact_goal, repeat=5, number=50)
    report(f"goal odds, adaptive ({exact * 1000:.2f} ms)", exact, baseline, "dealing one hand")

    p = goal_odds(setup, adaptive, goal).exact
    needed = samples_needed(float(p))
    estimates: list[Estimate] = []

    def sampler() -> None:
        estimates.append(sample_goal(setup, adaptive, goal, SAMPLES, len(estimates)))

    timed = best_of(sampler, repeat=3, number=1)
    assert all(e.agrees(p) for e in estimates), (estimates, float(p))
    scaled = timed * needed / SAMPLES
    report(f"sampler to +-0.1% ({needed:,} hands, {scaled:.0f} s)", scaled, exact,
           "exact goal odds")
