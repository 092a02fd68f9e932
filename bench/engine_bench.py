"""Goldfish engine: games per second per core on each sample deck (greedy policy), against a
loop that only shuffles the same three piles and deals the same opening draws (goal: a full
game costs at most 25 of those), and 2 workers against 1 (goal: at least 1.7x; wall time, so
it needs the machine's other core idle)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from decks.formats.model import CardRef
from decks.formats.text import CatalogueResolver, parse_text
from rules import compiled
from rules.cards import CardFacts, facts_by_id
from rules.game import engine
from rules.game.runner import RunSpec, run_chunk
from rules.game.runner import run as run_games
from rules.rng import GameRng, derive_seed

GAMES = 300


def _shuffle_only(prepared: engine.Prepared, games: int) -> None:
    """What every game does before the first decision: shuffle the three piles, deal seven."""
    deck = prepared.deck
    piles = [[e.card_id for e in deck.section(s) for _ in range(e.count)]
             for s in ("structures", "personalities", "wanderers")]
    for number in range(1, games + 1):
        rng = GameRng(derive_seed(1, "game", number))
        for pile in piles:
            copy = list(pile)
            rng.shuffle(copy)
        hand = piles[1][:4] + piles[0][:3]
        del hand


def _catalogue(root: Path) -> tuple[dict[str, CardFacts], CatalogueResolver]:
    data: list[dict[str, object]] = []
    for file in ("wof.json", "demo.json"):
        data += json.loads((root / "fixtures" / "cards" / file).read_text("utf-8"))["cards"]
    resolver = CatalogueResolver(
        CardRef(str(c["id"]), str(c["name"]), c["type"], c["faction"])  # type: ignore[arg-type]
        for c in data
    )
    return facts_by_id(data), resolver


def run(best_of: Callable[..., float], report: Callable[..., None], root: Path) -> None:
    facts, resolver = _catalogue(root)
    print(f"goldfish engine: {compiled.running()} (ALLEGIANCE_ENGINE=python runs the sources)")
    for path in sorted((root / "fixtures" / "decklists").glob("*.txt")):
        deck = parse_text(path.read_text("utf-8"), resolver).deck
        assert deck is not None
        prepared = engine.prepare(deck, facts)
        spec = RunSpec(GAMES, 1)
        # CPU time of this process: the games and the shuffles alike, per core.
        game = best_of(lambda p=prepared, s=spec: run_chunk(p, s, 1, GAMES),
                       repeat=3, number=1, clock=time.process_time) / GAMES
        shuffle = best_of(lambda p=prepared: _shuffle_only(p, GAMES), repeat=5, number=1,
                          clock=time.process_time) / GAMES
        report(f"goldfish game, {path.stem} ({1 / game:,.0f}/s/core)", game, shuffle,
               "shuffle+deal only (goal <= 25)")
    deck = parse_text((root / "fixtures" / "decklists" / "kalim-faithful.txt")
                      .read_text("utf-8"), resolver).deck
    assert deck is not None
    prepared = engine.prepare(deck, facts)
    spec = RunSpec(2000, 7)
    timings = {}
    for workers in (1, 2):
        start = time.perf_counter()
        run_games(prepared, spec, workers=workers)
        timings[workers] = time.perf_counter() - start
    print(f"{'goldfish 2,000 games: 2 workers speed-up':<44} "
          f"{timings[1] / timings[2]:8.2f}x 1 worker (goal >= 1.7)"
          f"   ({timings[2]:.2f} s vs {timings[1]:.2f} s)")
