"""The seeded generator reproduces its sequence, whatever the global random state does."""

from __future__ import annotations

import random

from rules.rng import Rng


def draws(rng: Rng) -> list[int]:
    items = list(range(20))
    rng.shuffle(items)
    return [rng.die() for _ in range(10)] + items + [rng.randint(3, 9)]


def test_the_same_seed_gives_the_same_sequence_even_after_disturbing_the_global_rng() -> None:
    first = draws(Rng(42))
    random.seed(7)
    random.random()
    assert draws(Rng(42)) == first


def test_different_seeds_give_different_sequences() -> None:
    assert draws(Rng(1)) != draws(Rng(2))


def test_a_saved_state_replays_the_rest_of_the_sequence() -> None:
    rng = Rng("replay")
    rng.die()
    state = rng.getstate()
    rest = [rng.die() for _ in range(5)]
    rng.setstate(state)
    assert [rng.die() for _ in range(5)] == rest


def test_dice_are_six_sided() -> None:
    rng = Rng(3)
    assert {rng.die() for _ in range(500)} == {1, 2, 3, 4, 5, 6}
