"""Playtest against AI opponents: what replaying a long table game from its seed costs (undo,
a cache miss, the shared replay), against one move on the table kept in play (what the cache
of tables, playtest.table_play.TableCache, makes of every move).

The long game: the longest of the first 12 seeds of a six-seat table of the sample decks, the
greedy seat policy playing the player's seat too, to 25 influence."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from bench.engine_bench import _catalogue
from decks.formats.text import parse_text
from playtest.play import Move
from playtest.table_play import TableSource, table_start
from rules import compiled
from rules.game.actions import Action
from rules.game.config import GameConfig

SEEDS = range(1, 13)


def _longest_game(root: Path) -> tuple[TableSource, list[dict[str, object]]]:
    facts, resolver = _catalogue(root)
    decks = []
    for path in sorted((root / "fixtures" / "decklists").glob("*.txt")):
        deck = parse_text(path.read_text("utf-8"), resolver).deck
        assert deck is not None
        decks.append(deck)
    longest: tuple[TableSource, list[dict[str, object]]] | None = None
    for seed in SEEDS:
        source, played = table_start(decks, facts, GameConfig(target=25), seed)
        move = Move()
        played.play_policy("game", move)
        actions = [a.to_dict() for a in move.actions]
        if longest is None or len(actions) > len(longest[1]):
            longest = (source, actions)
    assert longest is not None
    return longest


def run(best_of: Callable[..., float], report: Callable[..., None], root: Path) -> None:
    source, actions = _longest_game(root)
    table = source.replay(actions).table
    print(f"playtest at a table: {compiled.running()}; the longest game has "
          f"{len(actions)} player decisions, {table.decisions} table decisions, "
          f"{table.round} rounds")
    last = Action.from_dict(dict(actions[-1]))

    moves = []
    for _ in range(5):
        # On the table replayed to the decision before (not timed): the last move of the
        # player and the opponents' replies.
        played = source.replay(actions, len(actions) - 1)
        started = time.perf_counter()
        played.apply_player(last, Move())
        moves.append(time.perf_counter() - started)
    replay = best_of(lambda: source.replay(actions), repeat=3, number=1)
    report(f"playtest table replay, {len(actions)} decisions", replay, min(moves),
           "one move on the cached table")
