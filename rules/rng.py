"""The one source of randomness in the project: a seeded generator whose state can be saved.

Everything random (shuffles, dice, synthetic benchmark data) goes through :class:`Rng`, so a
seed reproduces a run exactly, whatever else uses Python's global ``random`` state.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, Final, TypeVar

if TYPE_CHECKING:
    # Native 64-bit integers when compiled (mypyc); plain integers when not.
    from mypy_extensions import i64

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


_MASK64: Final = (1 << 64) - 1
_LOW32: Final = 0xFFFFFFFF
_LOW16: Final = 0xFFFF
# SplitMix64's constants (0x9E3779B97F4A7C15 added, 0xBF58476D1CE4E5B9 and 0x94D049BB133111EB
# multiplied) cut in 16-bit quarters, high to low (GameRng._next: every product below 2**63).
_STEP_HI: Final = 0x9E3779B9
_STEP_LO: Final = 0x7F4A7C15
_MUL1_3: Final = 0xBF58
_MUL1_2: Final = 0x476D
_MUL1_1: Final = 0x1CE4
_MUL1_0: Final = 0xE5B9
_MUL2_3: Final = 0x94D0
_MUL2_2: Final = 0x49BB
_MUL2_1: Final = 0x1331
_MUL2_0: Final = 0x11EB


def _joined(hi: i64, lo: i64) -> int:
    """Two 32-bit halves as one 64-bit integer (below 2**63: put together in one native
    integer, so one boxed integer made)."""
    if hi < 1 << 31:
        return int((hi << 32) | lo)
    return (int(hi) << 32) | int(lo)


class GameRng:
    """SplitMix64: a small, fast generator whose whole state is one integer.

    The game engine keeps this state inside the game state, so a state saved as JSON in the
    middle of a game continues with exactly the same dice and shuffles. (Mersenne Twister's
    state is 625 numbers; copying it for every undo point or hint would dominate the cost.)

    The state is kept as two 32-bit halves and worked in native 64-bit integers (``i64``,
    compiled), every product cut so that it stays below 2**63: the same numbers as the 64-bit
    arithmetic on Python integers (``next64``), where each step was a boxed integer made.
    """

    __slots__ = ("hi", "lo")

    def __init__(self, state: int) -> None:
        if state < 0 or state > _MASK64:  # (the game's states never are: no mask made)
            state &= _MASK64
        self.hi: i64 = state >> 32
        self.lo: i64 = state & _LOW32

    @property
    def state(self) -> int:
        """The whole state, as the game state keeps it."""
        return _joined(self.hi, self.lo)

    def _next(self) -> tuple[i64, i64]:
        """The next 64-bit output's halves (high, low); the state stepped on."""
        lo: i64 = self.lo + _STEP_LO
        hi: i64 = (self.hi + _STEP_HI + (lo >> 32)) & _LOW32
        lo &= _LOW32
        self.hi, self.lo = hi, lo
        # z ^= z >> 30; z *= 0xBF58476D1CE4E5B9 (mod 2**64)
        lo ^= ((lo >> 30) | (hi << 2)) & _LOW32
        hi ^= hi >> 30
        a: i64 = lo * _MUL1_0
        b: i64 = lo * _MUL1_1
        t: i64 = a + ((b & _LOW16) << 16)
        hi = ((t >> 32) + (b >> 16) + hi * _MUL1_0 + (((hi * _MUL1_1) & _LOW16) << 16)
              + lo * _MUL1_2 + (((lo * _MUL1_3) & _LOW16) << 16)) & _LOW32
        lo = t & _LOW32
        # z ^= z >> 27; z *= 0x94D049BB133111EB (mod 2**64)
        lo ^= ((lo >> 27) | (hi << 5)) & _LOW32
        hi ^= hi >> 27
        a = lo * _MUL2_0
        b = lo * _MUL2_1
        t = a + ((b & _LOW16) << 16)
        hi = ((t >> 32) + (b >> 16) + hi * _MUL2_0 + (((hi * _MUL2_1) & _LOW16) << 16)
              + lo * _MUL2_2 + (((lo * _MUL2_3) & _LOW16) << 16)) & _LOW32
        lo = t & _LOW32
        # z ^= z >> 31
        lo ^= ((lo >> 31) | (hi << 1)) & _LOW32
        hi ^= hi >> 31
        return hi, lo

    def next64(self) -> int:
        hi, lo = self._next()
        return _joined(hi, lo)

    def _below(self, n: i64) -> i64:
        """``(next64() * n) >> 64`` for ``0 < n < 2**31``, in halves (every product below
        2**63)."""
        hi, lo = self._next()
        return (hi * n + ((lo * n) >> 32)) >> 32

    def below(self, n: int) -> int:
        """A whole number in ``0..n-1`` (multiply-shift; the bias is below n / 2**64)."""
        if 0 < n < 1 << 31:
            return self._below(n)
        return (self.next64() * n) >> 64

    def die(self) -> int:
        """One six-sided die roll."""
        return self._below(6) + 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self._below(i + 1) if i < _LOW32 >> 1 else (self.next64() * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]


_YARDSTICK_MASK = (1 << 64) - 1


class SplitMix64:
    """The same generator as :class:`GameRng`, as it was before its halves: 64-bit arithmetic on
    Python integers, every step masked. Kept as the yardstick of ``make bench``'s goldfish
    lines (a loop that only shuffles and deals: its cost must not move when the engine's own
    generator gets faster) and as the long way the halves are tested against. Its code is the
    old one to the letter, its mask a module global read at every step as it was (not
    ``Final``: compiled, that would make the yardstick cheaper than the unit the goal was set
    in)."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _YARDSTICK_MASK

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _YARDSTICK_MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _YARDSTICK_MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _YARDSTICK_MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return (self.next64() * n) >> 64

    def shuffle(self, items: MutableSequence[T]) -> None:
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
