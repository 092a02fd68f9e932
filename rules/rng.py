"""The one source of randomness in the project: a seeded generator whose state can be saved.

Everything random (shuffles, dice, synthetic benchmark data) goes through :class:`Rng`, so a
seed reproduces a run exactly, whatever else uses Python's global ``random`` state.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


class Rng:
    """A seeded random generator (Mersenne Twister), independent of the global one."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high``, both included."""
        return self._random.randint(low, high)

    def die(self) -> int:
        """One six-sided die roll."""
        return self._random.randint(1, 6)

    def choice(self, items: Sequence[T]) -> T:
        return self._random.choice(items)

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._random.shuffle(items)

    def random(self) -> float:
        return self._random.random()

    def getstate(self) -> object:
        return self._random.getstate()

    def setstate(self, state: object) -> None:
        self._random.setstate(state)  # type: ignore[arg-type]


_MASK64 = (1 << 64) - 1


class GameRng:
    """SplitMix64: a small, fast generator whose whole state is one integer.

    The game engine keeps this state inside the game state, so a state saved as JSON in the
    middle of a game continues with exactly the same dice and shuffles. (Mersenne Twister's
    state is 625 numbers; copying it for every undo point or hint would dominate the cost.)
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK64

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A whole number in ``0..n-1`` (multiply-shift; the bias is below n / 2**64)."""
        return (self.next64() * n) >> 64

    def die(self) -> int:
        """One six-sided die roll."""
        return ((self.next64() * 6) >> 64) + 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = (self.next64() * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]


def keyed_state(key: int, *parts: int) -> int:
    """A generator state for ``key`` and whole numbers ``parts``, cheaply (no hashing: this is
    asked for at every round of every lookahead rollout). Different parts give unrelated
    streams; the same parts, the same stream."""
    state = key & _MASK64
    for part in parts:
        state = GameRng(state ^ ((part * 0xD1B54A32D192ED03) & _MASK64)).next64()
    return state


def derive_seed(*parts: int | str) -> int:
    """A 64-bit seed from several parts (e.g. the run's seed and a game number), the same on
    every machine and Python version (``hash()`` is salted per process; this is not)."""
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")
