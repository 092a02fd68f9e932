"""The options of a game: victory target, players, round cap, the city's starting pool.

Pure Python. Every default is a documented choice (rules/COVERAGE.md): the rulebook does not
say how many tokens the city's influence pool holds, so it starts with
``city_pool`` tokens of each kind (economic, religious, political), 40 each by default.
"""

from __future__ import annotations

from dataclasses import dataclass

TARGETS = (15, 20, 25)
RULES_VERSION = "allegiance-v0.80/engine-23"


@dataclass(frozen=True, slots=True)
class GameConfig:
    target: int = 25
    players: int = 1
    round_cap: int = 40
    city_pool: tuple[int, int, int] = (40, 40, 40)
    # One seat of a table of 1 to 6 (rules/game/seats.py runs the round across the seats);
    # False: the solo game, whatever ``players`` says.
    seated: bool = False

    def __post_init__(self) -> None:
        if self.target < 1:
            raise ValueError(f"target must be at least 1, not {self.target}")
        if not 1 <= self.players <= 6:
            raise ValueError(f"players must be 1..6, not {self.players}")
        if self.round_cap < 1:
            raise ValueError(f"round_cap must be at least 1, not {self.round_cap}")
        if len(self.city_pool) != 3 or min(self.city_pool) < 0:
            raise ValueError("city_pool must be three token counts, none negative")

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> GameConfig:
        """The options from their JSON form (as in a saved state or a game log)."""
        pool = data.get("city_pool", (40, 40, 40))
        economic, religious, political = (int(n) for n in pool)  # type: ignore[attr-defined]
        return cls(target=int(data.get("target", 25)),  # type: ignore[call-overload]
                   players=int(data.get("players", 1)),  # type: ignore[call-overload]
                   round_cap=int(data.get("round_cap", 40)),  # type: ignore[call-overload]
                   city_pool=(economic, religious, political),
                   seated=bool(data.get("seated", False)))

    def to_dict(self) -> dict[str, object]:
        """The options as JSON has them (saved states, game logs, worker processes)."""
        data: dict[str, object] = {"target": self.target, "players": self.players,
                                   "round_cap": self.round_cap, "city_pool": list(self.city_pool)}
        # Absent for solo games (their saved states and logs stay as they were), and for a
        # table of one, which plays the solo game decision for decision (seats.new_table):
        # its states and logs are the solo game's, and replay as one.
        if self.seated and self.players > 1:
            data["seated"] = True
        return data

    @property
    def overrun_limit(self) -> int:
        """More wanderers in play than this loses the game (rulebook, "Losing the Game")."""
        return 3 * self.players
