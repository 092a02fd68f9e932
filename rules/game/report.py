"""The goldfish report: counts gathered game by game, and the JSON document they make.

Pure Python. A :class:`Tally` holds only counts (a histogram of victory rounds, outcome
counts, per-card counters), so it takes the same memory for ten games or ten million, adds up
exactly (:meth:`Tally.merge`), and every figure of the report is computed from integers: the
same games give the same bytes, whatever the order they were played in.

The keys of :func:`build_report` are a contract (docs/design.md §10): ``games``, ``seed``,
``policy``, ``players``, ``target``, ``rules_version``, ``victories``, ``losses`` (``overrun``,
``stronghold``, ``timeout``), ``victory_round`` (``histogram``, ``mean``, ``median``, ``p10``,
``p90``, ``ci95``) and ``cards``.

A card drawn in some games and played in none gets a ``never_played`` reason in its entry
(:func:`never_played`): the rules never offered it a play in these games, or the player behind
the report always chose otherwise, which says as much about the player as about the card.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from rules.game.config import RULES_VERSION, GameConfig
from rules.game.profile import Profile

LOSSES: Final = ("overrun", "stronghold", "timeout")
# Why a card drawn in some games was played in none (the ``never_played`` of its entry): an
# interrupt answers another player's action (solo there is none); any other card was never
# offered as a play (no bearer, target or tokens for it while in hand: the deck's limit, not
# the player's), or was offered and the player always chose otherwise (a limit of the policy
# as much as of the card). Wanderers are never the player's to play, and have no reason.
INTERRUPT: Final = "interrupt"
NEVER_OFFERED: Final = "never_offered"
NO_USE: Final = "no_use"


# Not frozen: compiled by mypyc, a frozen dataclass cannot be unpickled (its __setattr__
# refuses the fields), and a summary crosses processes (bench/engine_bench.py's workers).
@dataclass(slots=True)
class GameSummary:
    number: int  # the game's number in its run (1-based)
    outcome: str
    round: int
    drawn: frozenset[str]
    played: frozenset[str]
    stuck: frozenset[str]
    opening: frozenset[str]
    offered: frozenset[str] = frozenset()  # offered as a play at least once


@dataclass
class CardTally:
    drawn: int = 0
    played: int = 0
    stuck: int = 0
    opening_games: int = 0
    offered: int = 0  # games in which it was offered as a play
    # Victory rounds summed over won games with / without the card in the opening hand.
    with_sum: int = 0
    with_wins: int = 0
    without_sum: int = 0
    without_wins: int = 0

    def merge(self, other: CardTally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Tally:
    games: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    histogram: dict[int, int] = field(default_factory=dict)
    cards: dict[str, CardTally] = field(default_factory=dict)
    won_round_sum: int = 0
    # The first game (lowest number) of each victory round and of each loss cause: sample
    # games to replay (fastest, median, slowest), the same whatever the chunking.
    examples: dict[str, int] = field(default_factory=dict)

    def add(self, game: GameSummary) -> None:
        self.games += 1
        self.outcomes[game.outcome] = self.outcomes.get(game.outcome, 0) + 1
        won = game.outcome == "victory"
        key = f"victory:{game.round}" if won else game.outcome
        if game.number < self.examples.get(key, game.number + 1):
            self.examples[key] = game.number
        if won:
            self.histogram[game.round] = self.histogram.get(game.round, 0) + 1
            self.won_round_sum += game.round
        cards = self.cards
        for card in game.drawn | game.opening:
            # (get first: setdefault would build a CardTally for every card of every game)
            tally = cards.get(card)
            if tally is None:
                tally = cards[card] = CardTally()
            tally.drawn += card in game.drawn
            tally.played += card in game.played
            tally.stuck += card in game.stuck
            tally.offered += card in game.offered
        for card in game.opening:
            tally = self.cards[card]
            tally.opening_games += 1
            if won:
                tally.with_sum += game.round
                tally.with_wins += 1
        for card in game.played - game.drawn:  # played without being drawn (holdings)
            if card not in cards:
                cards[card] = CardTally()

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.won_round_sum += other.won_round_sum
        for outcome, count in other.outcomes.items():
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + count
        for won_round, count in other.histogram.items():
            self.histogram[won_round] = self.histogram.get(won_round, 0) + count
        for card, tally in other.cards.items():
            self.cards.setdefault(card, CardTally()).merge(tally)
        for key, number in other.examples.items():
            self.examples[key] = min(number, self.examples.get(key, number))

    def to_dict(self) -> dict[str, Any]:
        """JSON form, e.g. to store a chunk's tally until the run is complete."""
        return {"games": self.games, "outcomes": dict(self.outcomes),
                "histogram": {str(k): v for k, v in self.histogram.items()},
                "cards": {c: asdict(t) for c, t in self.cards.items()},
                "won_round_sum": self.won_round_sum, "examples": dict(self.examples)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tally:
        return cls(games=int(data["games"]), outcomes=dict(data["outcomes"]),
                   histogram={int(k): int(v) for k, v in data["histogram"].items()},
                   cards={c: _card_tally(t) for c, t in data["cards"].items()},
                   won_round_sum=int(data["won_round_sum"]),
                   examples=dict(data.get("examples", {})))

    def sample_games(self) -> dict[str, int]:
        """Game numbers of the fastest, median and slowest victories (when there are any)."""
        wins = sum(self.histogram.values())
        if not wins:
            return {}
        median = _percentile(self.histogram, wins, 0.5)
        return {"fastest": self.examples[f"victory:{min(self.histogram)}"],
                "median": self.examples[f"victory:{median}"],
                "slowest": self.examples[f"victory:{max(self.histogram)}"]}


def _card_tally(data: Mapping[str, int]) -> CardTally:
    """A card's tally saved by :meth:`Tally.to_dict`; one saved before offers were counted
    takes them as its games drawn (unknown: its never-played reason stays ``no_use``)."""
    tally = CardTally(**data)
    if "offered" not in data:
        tally.offered = tally.drawn
    return tally


def _percentile(histogram: Mapping[int, int], total: int, fraction: float) -> int | None:
    """Nearest-rank percentile of the victory rounds."""
    if not total:
        return None
    rank = max(1, math.ceil(fraction * total))
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value
    return max(histogram)


def _rate(count: int, games: int) -> float:
    return round(count / games, 4) if games else 0.0


def play_kinds(by_id: Mapping[str, Profile]) -> dict[str, str]:
    """Each card's kind as :func:`never_played` reads it: ``wanderer``, ``interrupt``, or its
    card type."""
    kinds = {}
    for card_id, card in by_id.items():
        interrupt = card.type == "event" and card.subtype == "interrupt"
        kinds[card_id] = INTERRUPT if interrupt else card.type
    return kinds


def never_played(card: CardTally, kind: str | None, *, solo: bool = True) -> str | None:
    """Why a card drawn in some games was played in none (:data:`INTERRUPT`,
    :data:`NEVER_OFFERED`, :data:`NO_USE`), or None: it was played, never drawn, or it is a
    wanderer (``kind``, from :func:`play_kinds`; None when unknown: any card). At a table
    (not ``solo``) an interrupt has actions to answer, and is offered or not as any card."""
    if card.played or not card.drawn or kind == "wanderer":
        return None
    if kind == INTERRUPT and solo:
        return INTERRUPT
    return NO_USE if card.offered else NEVER_OFFERED


def build_report(tally: Tally, *, seed: int, policy: str, config: GameConfig,
                 names: Mapping[str, str], deck_name: str = "",
                 kinds: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The report as one JSON-ready dict (keys in a fixed order); ``kinds`` (card id to
    :func:`play_kinds`) tells the wanderers and interrupts apart for ``never_played``."""
    wins = sum(tally.histogram.values())
    mean = tally.won_round_sum / wins if wins else None
    ci95: list[float] | None = None
    if wins and mean is not None:
        if wins > 1:
            squares = sum(count * (value - mean) ** 2 for value, count in tally.histogram.items())
            half = 1.96 * math.sqrt(squares / (wins - 1)) / math.sqrt(wins)
        else:
            half = 0.0
        ci95 = [round(mean - half, 4), round(mean + half, 4)]
    cards: dict[str, Any] = {}
    for card_id in sorted(tally.cards, key=lambda c: (names.get(c, c), c)):
        t = tally.cards[card_id]
        without_wins = wins - t.with_wins
        without_sum = tally.won_round_sum - t.with_sum
        difference = None
        if t.with_wins and without_wins:
            difference = round(t.with_sum / t.with_wins - without_sum / without_wins, 4)
        cards[card_id] = {
            "name": names.get(card_id, card_id),
            "drawn": _rate(t.drawn, tally.games),
            "played": _rate(t.played, tally.games),
            "stuck_in_hand": _rate(t.stuck, tally.games),
            "opening_hand": _rate(t.opening_games, tally.games),
            "offered": _rate(t.offered, tally.games),
            "victory_round_difference": difference,
            "never_played": never_played(t, kinds.get(card_id) if kinds else None),
        }
    return {
        "deck": deck_name,
        "games": tally.games,
        "seed": seed,
        "policy": policy,
        "players": config.players,
        "target": config.target,
        "round_cap": config.round_cap,
        "rules_version": RULES_VERSION,
        "victories": wins,
        "victory_rate": _rate(wins, tally.games),
        "losses": {cause: tally.outcomes.get(cause, 0) for cause in LOSSES},
        "victory_round": {
            "histogram": {str(r): tally.histogram[r] for r in sorted(tally.histogram)},
            "mean": round(mean, 4) if mean is not None else None,
            "median": _percentile(tally.histogram, wins, 0.5),
            "p10": _percentile(tally.histogram, wins, 0.1),
            "p90": _percentile(tally.histogram, wins, 0.9),
            "ci95": ci95,
        },
        "sample_games": tally.sample_games(),
        "cards": cards,
    }
