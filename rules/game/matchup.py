"""Matchups: N games of 2 to 6 decks at one table, on several processes, one report.

Pure Python. Game ``n`` (1-based) seats deck ``(seat + n - 1) % decks`` in each seat, so over
any multiple of the number of decks every deck sits in every seat equally often; its seed is
``derive_seed(seed, "matchup", n)`` whichever chunk or worker plays it. Chunks return
:class:`MatchupTally` (counts only), added up in chunk order: the report is the same for any
number of workers (the contract of docs/design.md §14).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.game import engine
from rules.game.config import RULES_VERSION, GameConfig
from rules.game.report import CardTally, never_played
from rules.game.runner import (
    adopt_worker,
    chunks,
    play_table,
    portable,
    run_parts,
    start_worker,
    worker_decks,
)
from rules.game.seats import KNOCKOUTS, Table
from rules.game.state import DRAWN, OFFERED, PLAYED
from rules.game.table_policy import MULTIPLAYER_POLICIES
from rules.rng import derive_seed

CHUNK = 50


@dataclass(frozen=True)
class MatchupSpec:
    """``policy``: one name for every seat, or one per deck separated by commas (the policy
    travels with its deck as the seats rotate)."""

    games: int
    seed: int
    policy: str = "greedy"

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"games must be at least 1, not {self.games}")
        for name in self.policies:
            if name not in MULTIPLAYER_POLICIES:
                raise ValueError(f"unknown policy {name!r}; choose one of "
                                 f"{', '.join(MULTIPLAYER_POLICIES)}")

    @property
    def policies(self) -> list[str]:
        return self.policy.split(",")

    def policy_of(self, deck: int) -> str:
        names = self.policies
        return names[0] if len(names) == 1 else names[deck]


def seating(decks: int, number: int) -> list[int]:
    """The deck in each seat of game ``number``: the seats rotate one place a game."""
    return [(seat + number - 1) % decks for seat in range(decks)]


def play_matchup_game(prepared: Sequence[engine.Prepared], spec: MatchupSpec, number: int,
                      config: GameConfig, *, record: bool = False,
                      observe: Callable[[Table], None] | None = None) -> Table:
    """Game ``number`` of the matchup played to its end; ``observe(table)`` is called before
    every decision (a replay looks at the seats at each round's start)."""
    return play_counting_attacks(prepared, spec, number, config, record=record,
                                 observe=observe)[0]


def play_counting_attacks(prepared: Sequence[engine.Prepared], spec: MatchupSpec, number: int,
                          config: GameConfig, *, record: bool = False,
                          observe: Callable[[Table], None] | None = None
                          ) -> tuple[Table, list[int]]:
    """Game ``number`` played, and the attacks each seat declared."""
    if len(spec.policies) not in (1, len(prepared)):
        raise ValueError(f"{len(spec.policies)} policies for {len(prepared)} decks")
    order = seating(len(prepared), number)
    table, players = play_table([prepared[d] for d in order],
                                derive_seed(spec.seed, "matchup", number), config,
                                [spec.policy_of(deck) for deck in order], record=record,
                                observe=observe)
    return table, [player.attacks for player in players]


@dataclass
class DeckTally:
    wins: int = 0
    histogram: dict[int, int] = field(default_factory=dict)
    won_round_sum: int = 0
    out: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KNOCKOUTS, 0))
    attacks: int = 0  # attacks on another player the deck declared
    # card id -> [games drawn, games played, games won when played, games offered a play]
    cards: dict[str, list[int]] = field(default_factory=dict)

    def merge(self, other: DeckTally) -> None:
        self.wins += other.wins
        self.won_round_sum += other.won_round_sum
        self.attacks += other.attacks
        for r, n in other.histogram.items():
            self.histogram[r] = self.histogram.get(r, 0) + n
        for how, n in other.out.items():
            self.out[how] = self.out.get(how, 0) + n
        for card, counts in other.cards.items():
            mine = self.cards.setdefault(card, [0, 0, 0, 0])
            for k in range(4):
                mine[k] += counts[k]


@dataclass
class MatchupTally:
    decks: int
    games: int = 0
    all_lost: int = 0
    timeouts: int = 0
    per_deck: list[DeckTally] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.per_deck:
            self.per_deck = [DeckTally() for _ in range(self.decks)]

    def add(self, table: Table, number: int, attacks: Sequence[int] = ()) -> None:
        order = seating(self.decks, number)
        self.games += 1
        for seat, count in enumerate(attacks):
            self.per_deck[order[seat]].attacks += count
        if table.outcome == "overrun":
            self.all_lost += 1
        elif table.outcome == "timeout":
            self.timeouts += 1
        state = table.state
        for seat in range(table.players):
            deck = self.per_deck[order[seat]]
            won = table.outcome == "victory" and table.winner == seat
            if won:
                deck.wins += 1
                deck.won_round_sum += table.final_round
                deck.histogram[table.final_round] = deck.histogram.get(table.final_round, 0) + 1
            if seat in table.out:
                how = table.out[seat][1]
                deck.out[how] = deck.out.get(how, 0) + 1
            drawn: set[str] = set()
            played: set[str] = set()
            offered: set[str] = set()
            owner = state.owner
            for instance, flags in enumerate(state.flags):
                # (one card space for the table: only this seat's own cards are its deck's)
                if owner[instance] != seat:
                    continue
                if flags & DRAWN:
                    drawn.add(state.cards[instance])
                if flags & PLAYED:
                    played.add(state.cards[instance])
                if flags & OFFERED:
                    offered.add(state.cards[instance])
            for card in drawn | played:
                counts = deck.cards.setdefault(card, [0, 0, 0, 0])
                counts[0] += card in drawn
                counts[1] += card in played
                counts[2] += card in played and won
                counts[3] += card in offered

    def merge(self, other: MatchupTally) -> None:
        self.games += other.games
        self.all_lost += other.all_lost
        self.timeouts += other.timeouts
        for mine, theirs in zip(self.per_deck, other.per_deck, strict=True):
            mine.merge(theirs)


def story_lines(table: Table, names: Sequence[str]) -> list[str]:
    """A recorded game told round by round, every seat's side (``names``: the deck in each
    seat)."""
    lines = [f"Seat {seat + 1}: {name}" for seat, name in enumerate(names)]
    current = 0
    for round_number, seat, text in table.story or []:
        if round_number != current:
            current = round_number
            lines += ["", f"== Round {round_number} =="]
        lines.append(f"   {text}" if seat < 0 else f"   [seat {seat + 1}] {text}")
    return lines


def wilson(wins: int, games: int) -> list[float]:
    """The 95% Wilson score interval of a win rate (sound near 0 and 1)."""
    if not games:
        return [0.0, 0.0]
    z = 1.959964
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def _median(histogram: Mapping[int, int], total: int) -> int | None:
    if not total:
        return None
    rank, seen = math.ceil(total / 2), 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value
    return None


def _rate(count: int, games: int) -> float:
    return round(count / games, 4) if games else 0.0


def build_matchup_report(tally: MatchupTally, *, names: Sequence[str],
                         card_names: Sequence[Mapping[str, str]], seed: int, policy: str,
                         config: GameConfig,
                         kinds: Sequence[Mapping[str, str]] | None = None) -> dict[str, Any]:
    """The report of docs/design.md §14, keys in a fixed order. ``kinds`` (per deck, card id
    to :func:`~rules.game.report.play_kinds`) gives each card drawn and never played its
    ``never_played`` reason, as the goldfish report does (without it: none)."""
    decks = []
    for number, deck in enumerate(tally.per_deck):
        mean = deck.won_round_sum / deck.wins if deck.wins else None
        cards = {}
        for card_id in sorted(deck.cards, key=lambda c: (card_names[number].get(c, c), c)):
            drawn, played, won, offered = deck.cards[card_id]
            cards[card_id] = {"name": card_names[number].get(card_id, card_id),
                              "drawn": _rate(drawn, tally.games),
                              "played": _rate(played, tally.games),
                              "win_rate_when_played": _rate(won, played),
                              "offered": _rate(offered, tally.games)}
            if kinds is not None:
                cards[card_id]["never_played"] = never_played(
                    CardTally(drawn=drawn, played=played, offered=offered),
                    kinds[number].get(card_id), solo=False)
        decks.append({
            "name": names[number],
            "wins": deck.wins,
            "win_rate": _rate(deck.wins, tally.games),
            "ci95": wilson(deck.wins, tally.games),
            "victory_round": {
                "histogram": {str(r): deck.histogram[r] for r in sorted(deck.histogram)},
                "mean": round(mean, 4) if mean is not None else None,
                "median": _median(deck.histogram, deck.wins),
            },
            "eliminated": dict(deck.out),
            "attacks": deck.attacks,
            "cards": cards,
        })
    return {
        "games": tally.games,
        "seed": seed,
        "policy": policy,
        "target": config.target,
        "round_cap": config.round_cap,
        "players": tally.decks,
        "rules_version": RULES_VERSION,
        "decks": decks,
        "all_lost": tally.all_lost,
        "timeouts": tally.timeouts,
        "eliminations": {how: sum(d.out[how] for d in tally.per_deck) for how in KNOCKOUTS},
        "attacks_per_game": _rate(sum(d.attacks for d in tally.per_deck), tally.games),
    }


def run_chunk(prepared: Sequence[engine.Prepared], spec: MatchupSpec, config: GameConfig,
              first: int, last: int) -> MatchupTally:
    tally = MatchupTally(len(prepared))
    for number in range(first, last + 1):
        table, attacks = play_counting_attacks(prepared, spec, number, config)
        tally.add(table, number, attacks)
    return tally


def run(prepared: Sequence[engine.Prepared], spec: MatchupSpec, config: GameConfig, *,
        workers: int = 1, progress: Callable[[int, int], None] | None = None,
        chunk: int = CHUNK, start_method: str | None = None) -> MatchupTally:
    """Play the whole matchup; ``progress(games_done, games)`` after each chunk;
    ``start_method``: the worker processes' (multiprocessing's; None: the default)."""
    total: MatchupTally = run_parts(
        MatchupTally(len(prepared)), list(chunks(spec.games, chunk)), spec.games,
        local=lambda first, last: run_chunk(prepared, spec, config, first, last),
        workers=workers, initializer=start_worker, initargs=portable(prepared, config),
        inherited=(adopt_worker, (list(prepared), config)),
        remote=_run_worker_chunk, remote_spec=(spec.games, spec.seed, spec.policy),
        progress=progress, start_method=start_method)
    return total


def _run_worker_chunk(spec: tuple[int, int, str], first: int, last: int) -> MatchupTally:
    decks, config = worker_decks()
    return run_chunk(decks, MatchupSpec(*spec), config, first, last)
