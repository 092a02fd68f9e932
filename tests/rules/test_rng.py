"""The seeded generators: each reproduces its sequence whatever the global random state does,
and the game's generator gives the numbers of its slow reference (SplitMix64)."""

from __future__ import annotations

import random

from rules.rng import GameRng, Rng, SplitMix64


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


def test_the_generator_in_32_bit_halves_gives_the_64_bit_arithmetic_s_numbers() -> None:
    """GameRng works its state in 32-bit halves (native integers, compiled): the same outputs,
    dice, draws below n (the halves' limit 2**31 on either side) and shuffles as the 64-bit
    arithmetic, and the same state after, from many seeds (the edges of 64 bits among them:
    the step's carry out of the low half, a state past 64 bits, a negative one)."""
    edges = [0, 1, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, (1 << 64) - 1,
             (1 << 64) - 0x9E3779B97F4A7C15, (1 << 64) + 5, -3, 0x7F4A7C15 ^ 0xFFFFFFFF]
    picks = random.Random(7)
    seeds = edges + [picks.getrandbits(64) for _ in range(1500)]
    sizes = [1, 2, 6, 7, 60, 1 << 30, (1 << 31) - 1, 1 << 31, 1 << 40, 1 << 64]
    for seed in seeds:
        new, old = GameRng(seed), SplitMix64(seed)
        assert new.state == old.state
        for n in sizes:
            assert new.next64() == old.next64()
            assert new.below(n) == old.below(n)
            assert new.die() == old.below(6) + 1
            assert new.state == old.state
        items = list(range(picks.randint(0, 70)))
        copy = list(items)
        new.shuffle(items)
        old.shuffle(copy)
        assert items == copy
        assert new.state == old.state
