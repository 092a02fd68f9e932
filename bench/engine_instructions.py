"""Instructions per decision, a table's against solo games of the same decks, by callgrind.

The CPU-time lines of ``make bench ONLY=engine`` wander on a shared machine; instruction counts
do not. For each side this runs the games once and twice under ``valgrind --tool=callgrind``
(the same games, seeded), and divides the difference by the decisions of one pass, so the
start-up, the catalogue and the first pass's warming are left out::

    .venv/bin/python -m bench.engine_instructions 2        # players (1 to 6), games 100
    .venv/bin/python -m bench.engine_instructions 4 --games 40

Needs Debian's valgrind; runs the compiled engine when it is built and current (as the bench).
``--pass`` is the inner command the outer one runs under callgrind.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _games(mode: str, players: int, games: int, passes: int) -> int:
    """Play the games ``passes`` times (``mode`` "table" or "solo"); the decisions of one."""
    from bench import engine_bench
    from rules.game import engine, matchup
    from rules.game.runner import RunSpec

    facts, resolver = engine_bench._catalogue(ROOT)
    decks = engine_bench._sample_decks(ROOT, resolver)
    names = list(decks)[:players]
    prepared, config = engine_bench._table([decks[n] for n in names], facts)
    spec = matchup.MatchupSpec(games, 1)
    solo = [engine.prepare(decks[n], facts) for n in names]
    decisions = 0
    for _ in range(passes):
        decisions = 0
        if mode == "table":
            for number in range(1, games + 1):
                decisions += matchup.play_matchup_game(prepared, spec, number, config).decisions
        else:
            for deck in solo:
                for number in range(1, games + 1):
                    decisions += engine_bench._engine_game(deck, RunSpec(games, 1),
                                                           number).decisions
    return decisions


def _counted(mode: str, players: int, games: int, passes: int) -> tuple[int, int]:
    """(instructions, decisions of one pass) of a callgrind run of ``passes`` passes."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
             "-m", "bench.engine_instructions", str(players), "--games", str(games),
             "--pass", f"{mode}:{passes}"],
            cwd=ROOT, capture_output=True, text=True, check=True)
    collected = re.search(r"Collected : (\d+)", run.stderr)
    decisions = re.search(r"^decisions (\d+)$", run.stdout, re.MULTILINE)
    if collected is None or decisions is None:
        raise RuntimeError(f"callgrind printed no count:\n{run.stderr[-2000:]}")
    return int(collected.group(1)), int(decisions.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", type=int, choices=range(1, 7))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--pass", dest="inner", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.inner:
        mode, passes = arguments.inner.split(":")
        print(f"decisions {_games(mode, arguments.players, arguments.games, int(passes))}")
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed (apt-get install valgrind)")
    per: dict[str, float] = {}
    for mode in ("table", "solo"):
        once, decisions = _counted(mode, arguments.players, arguments.games, 1)
        twice, _ = _counted(mode, arguments.players, arguments.games, 2)
        per[mode] = (twice - once) / decisions
        print(f"{mode:<6} {per[mode] / 1000:8.1f} k instructions a decision "
              f"({decisions:,} decisions a pass, {arguments.games} games)")
    print(f"{arguments.players}-player decision {per['table'] / per['solo']:.2f}x solo decision "
          "(instructions; goal <= 1.2)")


if __name__ == "__main__":
    main()
