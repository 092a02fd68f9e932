"""Gauntlets and matrices: many two-player matchups of a field of decks, one document.

Pure Python. A *gauntlet* plays the first deck against each of the others; a *matrix* plays
every deck against every other. Each pairing ``(i, j)`` (``i < j``) is the two-player matchup
of decks ``i`` and ``j`` in that order with the same games, seed and policy, played by
:func:`rules.game.matchup.run`: its report is the one ``matchup DECK_I DECK_J`` prints, so it
is the same for any number of workers, and so is the summary built from the pairings' tallies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.game import engine
from rules.game.config import RULES_VERSION, GameConfig
from rules.game.matchup import (
    DeckTally,
    MatchupSpec,
    MatchupTally,
    build_matchup_report,
    wilson,
)
from rules.game.matchup import run as run_matchup

MODES = ("matchup", "gauntlet", "matrix")
#: The most decks a gauntlet or a matrix takes (a matrix of 8 is 28 pairings).
MAX_FIELD = 8


def pairings(decks: int, mode: str) -> list[tuple[int, int]]:
    """The pairings of a field of ``decks`` decks, in the order they are played."""
    if mode == "gauntlet":
        return [(0, j) for j in range(1, decks)]
    if mode == "matrix":
        return [(i, j) for i in range(decks) for j in range(i + 1, decks)]
    raise ValueError(f"unknown mode {mode!r}; choose gauntlet or matrix")


def pair_spec(spec: MatchupSpec, pair: tuple[int, int]) -> MatchupSpec:
    """The spec of one pairing: a per-deck policy list keeps each deck's policy."""
    names = spec.policies
    if len(names) == 1:
        return spec
    return MatchupSpec(spec.games, spec.seed, ",".join(names[d] for d in pair))


def pair_config(config: GameConfig) -> GameConfig:
    return GameConfig(target=config.target, players=2, round_cap=config.round_cap)


def run_field(prepared: Sequence[engine.Prepared], spec: MatchupSpec, config: GameConfig,
              mode: str, *, workers: int = 1,
              progress: Callable[[int, int], None] | None = None) -> list[MatchupTally]:
    """Every pairing's tally, in pairing order; ``progress(games_done, games)`` counts the
    games of all pairings."""
    pairs = pairings(len(prepared), mode)
    total = spec.games * len(pairs)
    tallies = []
    for number, pair in enumerate(pairs):
        before = number * spec.games

        def step(done: int, _games: int, before: int = before) -> None:
            if progress is not None:
                progress(before + done, total)

        tallies.append(run_matchup([prepared[d] for d in pair], pair_spec(spec, pair),
                                   pair_config(config), workers=workers, progress=step))
    return tallies


def _record(wins: int, games: int) -> dict[str, Any]:
    return {"wins": wins, "games": games, "win_rate": round(wins / games, 4) if games else 0.0,
            "ci95": wilson(wins, games)}


def build_field_report(tallies: Sequence[MatchupTally], *, mode: str, names: Sequence[str],
                       card_names: Sequence[Mapping[str, str]], seed: int, policy: str,
                       config: GameConfig,
                       kinds: Sequence[Mapping[str, str]] | None = None) -> dict[str, Any]:
    """The gauntlet's or matrix's document: per deck its record over all its pairings (and
    its cards' figures over all its games), the ``matrix`` of win rates (row deck against
    column deck; ``null`` where the two did not meet) and each pairing's §14 report."""
    pairs = pairings(len(names), mode)
    merged = [DeckTally() for _ in names]
    games = [0] * len(names)
    matrix: list[list[dict[str, Any] | None]] = [[None] * len(names) for _ in names]
    reports = []
    for pair, tally in zip(pairs, tallies, strict=True):
        for side, deck in enumerate(pair):
            merged[deck].merge(tally.per_deck[side])
            games[deck] += tally.games
            other = pair[1 - side]
            matrix[deck][other] = _record(tally.per_deck[side].wins, tally.games)
        reports.append({
            "decks": list(pair),
            "report": build_matchup_report(
                tally, names=[names[d] for d in pair],
                card_names=[card_names[d] for d in pair], seed=seed,
                policy=pair_spec(MatchupSpec(1, seed, policy), pair).policy,
                config=pair_config(config),
                kinds=None if kinds is None else [kinds[d] for d in pair]),
        })
    decks = []
    for number, (name, whole) in enumerate(zip(names, merged, strict=True)):
        # The cards' figures over all the deck's games, as the §14 report counts them.
        cards = build_matchup_report(
            MatchupTally(1, games=games[number], per_deck=[whole]), names=[name],
            card_names=[card_names[number]], seed=seed, policy=policy,
            config=config, kinds=None if kinds is None else [kinds[number]])["decks"][0]["cards"]
        decks.append({"name": name, **_record(whole.wins, games[number]), "cards": cards})
    return {
        "mode": mode,
        "games": tallies[0].games if tallies else 0,
        "seed": seed,
        "policy": policy,
        "target": config.target,
        "round_cap": config.round_cap,
        "rules_version": RULES_VERSION,
        "decks": decks,
        "matrix": matrix,
        "pairings": reports,
    }
