"""The one source of randomness in the project: a seeded generator whose state can be saved.

Everything random (shuffles, dice, synthetic benchmark data) goes through :class:`Rng`, so a
seed reproduces a run exactly, whatever else uses Python's global ``random`` state.
"""

from __future__ import annotations

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
