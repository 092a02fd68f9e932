"""python -m bench.engine_training : the games the compiled engine's profile is taken on.

`make install` compiles the rules engine twice (rules/build_engine.py): first with counters in
every branch, then this module plays a few seconds of games with that build, and the second
compilation lays out and inlines the code by the counts (gcc's profile-guided optimisation, as
CPython itself is built). The games are the sample decks' solo games and tables of 2 to 4, on
a seed of their own (99), not the benchmark's (1): the profile is of the engine's work in
general, not of the measured games. Nothing here changes a game; only how fast it runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench.engine_bench import _catalogue, _sample_decks, _table
from rules import compiled
from rules.game import engine, matchup
from rules.game.runner import RunSpec, run_chunk

SEED = 99
SOLO_GAMES = 200  # a sample deck's goldfish games
TABLE_GAMES = 40  # a table's games, at 2, 3 and 4 players


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    if compiled.running() != "compiled":
        print("engine_training: the compiled engine did not load", file=sys.stderr)
        return 1
    facts, resolver = _catalogue(root)
    decks = _sample_decks(root, resolver)
    for deck in decks.values():
        run_chunk(engine.prepare(deck, facts), RunSpec(SOLO_GAMES, SEED), 1, SOLO_GAMES)
    names = list(decks)
    for players in (2, 3, 4):
        prepared, config = _table([decks[n] for n in names[:players]], facts)
        matchup.run_chunk(prepared, matchup.MatchupSpec(TABLE_GAMES, SEED), config, 1,
                          TABLE_GAMES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
