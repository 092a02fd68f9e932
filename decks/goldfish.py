"""The goldfish adapter: a deck and the catalogue in, the engine's report or game log out.

The engine (rules/game) is pure; this module gives it the catalogue's card facts and turns its
results into the documents the command, the API and the pages share.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from decks.validation import catalogue_facts
from rules.decklist import Deck
from rules.game import engine
from rules.game.config import GameConfig
from rules.game.engine import DeckNotPlayable
from rules.game.narrate import narrate
from rules.game.report import build_report
from rules.game.runner import RunSpec, play_game, run

__all__ = ["DeckNotPlayable", "goldfish_game", "goldfish_report", "prepare_deck"]


def prepare_deck(deck: Deck, config: GameConfig) -> engine.Prepared:
    """The deck read for the engine; raises DeckNotPlayable with every problem."""
    return engine.prepare(deck, catalogue_facts(), config)


def goldfish_report(deck: Deck, spec: RunSpec, config: GameConfig, *, workers: int = 1,
                    progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    prepared = prepare_deck(deck, config)
    tally = run(prepared, spec, workers=workers, progress=progress)
    names = {card_id: card.name for card_id, card in prepared.table.items()}
    return build_report(tally, seed=spec.seed, policy=spec.policy, config=config, names=names,
                        deck_name=deck.name)


def goldfish_game(deck: Deck, spec: RunSpec, config: GameConfig, number: int
                  ) -> tuple[list[str], dict[str, Any]]:
    """Game ``number`` of the run, replayed with recording: its story and its log."""
    prepared = prepare_deck(deck, config)
    state = play_game(prepared, spec, number, record=True)
    return narrate(state), engine.game_log(state)
