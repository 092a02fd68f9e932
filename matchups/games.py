"""The matchup adapter: decks and the catalogue in, the engine's matchup report or game out.

The engine (rules/game/matchup.py, rules/game/seats.py) is pure; this module reads the decks'
cards from the catalogue once and names the decks and cards for the report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from decks.validation import catalogue_facts
from rules.decklist import Deck
from rules.game import engine
from rules.game.config import GameConfig
from rules.game.engine import DeckNotPlayable
from rules.game.gauntlet import build_field_report, run_field
from rules.game.matchup import (
    MatchupSpec,
    build_matchup_report,
    play_matchup_game,
    run,
    seating,
    story_lines,
)

__all__ = ["DeckNotPlayable", "deck_names", "field_report", "matchup_game", "matchup_report",
           "prepare_decks"]


def prepare_decks(decks: Sequence[Deck], config: GameConfig) -> list[engine.Prepared]:
    """Each deck read for the engine; raises DeckNotPlayable naming the deck at fault."""
    facts = catalogue_facts()
    prepared = []
    for number, deck in enumerate(decks, 1):
        try:
            prepared.append(engine.prepare(deck, facts, config))
        except DeckNotPlayable as error:
            raise DeckNotPlayable(f"Deck {number} ({deck.name or 'unnamed'}): {error}",
                                  error.problems) from None
    return prepared


def deck_names(decks: Sequence[Deck]) -> list[str]:
    """The decks' names, numbered where two are the same (the same file may be given twice)."""
    names = [deck.name or f"Deck {n}" for n, deck in enumerate(decks, 1)]
    return [f"{name} #{n}" if names.count(name) > 1 else name
            for n, name in enumerate(names, 1)]


def matchup_report(decks: Sequence[Deck], spec: MatchupSpec, config: GameConfig, *,
                   workers: int = 1,
                   progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    prepared = prepare_decks(decks, config)
    tally = run(prepared, spec, config, workers=workers, progress=progress)
    return build_matchup_report(tally, names=deck_names(decks), card_names=card_names(prepared),
                                seed=spec.seed, policy=spec.policy, config=config)


def field_report(decks: Sequence[Deck], spec: MatchupSpec, config: GameConfig, mode: str, *,
                 workers: int = 1,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """A gauntlet's or a matrix's document (rules.game.gauntlet)."""
    prepared = prepare_decks(decks, config)
    tallies = run_field(prepared, spec, config, mode, workers=workers, progress=progress)
    return build_field_report(tallies, mode=mode, names=deck_names(decks),
                              card_names=card_names(prepared), seed=spec.seed,
                              policy=spec.policy, config=config)


def card_names(prepared: Sequence[engine.Prepared]) -> list[dict[str, str]]:
    return [{cid: card.name for cid, card in p.table.items()} for p in prepared]


def matchup_game(decks: Sequence[Deck], spec: MatchupSpec, config: GameConfig,
                 number: int) -> tuple[list[str], dict[str, Any]]:
    """Game ``number`` of the matchup told round by round, every player's side, and its
    summary as JSON."""
    prepared = prepare_decks(decks, config)
    table = play_matchup_game(prepared, spec, number, config, record=True)
    names = deck_names(decks)
    order = seating(len(decks), number)
    lines = story_lines(table, [names[d] for d in order])
    winner = names[order[table.winner]] if table.winner >= 0 else None
    log = {"game": number, "seed": spec.seed, "policy": spec.policy,
           "seats": [names[d] for d in order], "outcome": table.outcome, "winner": winner,
           "final_round": table.final_round,
           "eliminated": {names[order[s]]: {"round": r, "how": how}
                          for s, (r, how) in sorted(table.out.items())},
           "lines": lines}
    return lines, log
