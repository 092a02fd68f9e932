"""Matchups (rules/game/matchup.py): golden logs of fixed (decks, seed) games, and the same
report whatever the number of workers and chunks. Regenerate the logs after a deliberate
change with ``UPDATE_GOLDEN=1 pytest tests/rules/game/test_matchup_runs.py``."""

from __future__ import annotations

import os

import pytest

from rules.game import engine, runner
from rules.game.config import GameConfig
from rules.game.matchup import (
    MatchupSpec,
    build_matchup_report,
    play_counting_attacks,
    play_matchup_game,
    run,
    seating,
    story_lines,
    wilson,
)
from rules.game.report import Tally
from tests.rules.game.engine_helpers import FIXTURES, catalogue, sample

GOLDEN = [(("guild-veterans.txt", "kalim-faithful.txt"), 1, 3),
          (("guild-veterans.txt", "mosfin-blades.txt"), 1, 2),  # an attack on a lord
          (("mosfin-blades.txt", "kalim-crusaders.txt", "guild-merchants.txt"), 2, 5)]


def prepared(decks: tuple[str, ...]) -> list[engine.Prepared]:
    return [engine.prepare(sample(d), catalogue()) for d in decks]


@pytest.mark.parametrize(("decks", "number", "seed"), GOLDEN)
def test_the_game_is_told_exactly_as_the_golden_log(decks: tuple[str, ...], number: int,
                                                   seed: int) -> None:
    table = play_matchup_game(prepared(decks), MatchupSpec(10, seed), number, GameConfig(),
                              record=True)
    names = [decks[d].removesuffix(".txt") for d in seating(len(decks), number)]
    text = "\n".join(story_lines(table, names)) + "\n"
    stem = "-vs-".join(d.removesuffix(".txt") for d in decks)
    path = FIXTURES / "matchups" / f"{stem}-seed{seed}-game{number}.log"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, "utf-8")
    assert text == path.read_text("utf-8")
    assert f"Game over in round {table.final_round}" in text


def report(decks: tuple[str, ...], games: int, workers: int, chunk: int,
           start_method: str | None = None) -> dict[str, object]:
    ready = prepared(decks)
    tally = run(ready, MatchupSpec(games, 11), GameConfig(), workers=workers, chunk=chunk,
                start_method=start_method)
    names = [{cid: card.name for cid, card in p.by_id.items()} for p in ready]
    return build_matchup_report(tally, names=list(decks), card_names=names, seed=11,
                                policy="greedy", config=GameConfig())


@pytest.mark.parametrize(("workers", "chunk"), [(1, 2), (2, 3), (2, 7)])
def test_the_report_is_the_same_for_any_number_of_workers_and_chunks(workers: int,
                                                                     chunk: int) -> None:
    decks = ("guild-veterans.txt", "kalim-faithful.txt", "mosfin-senate.txt")
    assert report(decks, 9, workers, chunk) == report(decks, 9, 1, 50)


@pytest.mark.parametrize("start_method", ["fork", "spawn", "forkserver"])
def test_the_report_is_the_same_however_the_workers_are_started(start_method: str) -> None:
    # Forked workers adopt the parent's prepared decks; spawned (and forkserver) ones build
    # them again from plain data: the same games either way.
    decks = ("guild-veterans.txt", "mosfin-blades.txt")
    assert report(decks, 6, 2, 3, start_method) == report(decks, 6, 1, 50)


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_a_goldfish_run_is_the_same_however_the_workers_are_started(start_method: str) -> None:
    # runner.run's chunks are 250 games; two chunks of 3 through run_parts, as run starts them.
    ready = engine.prepare(sample("kalim-faithful.txt"), catalogue())
    spec = runner.RunSpec(6, 3)
    total = runner.run_parts(
        Tally(), [(1, 3), (4, 6)], 6,
        local=lambda first, last: runner.run_chunk(ready, spec, first, last), workers=2,
        initializer=runner.start_worker, initargs=runner.portable([ready], ready.config),
        inherited=(runner.adopt_worker, ([ready], ready.config)),
        remote=runner._run_worker_chunk,
        remote_spec=(spec.games, spec.seed, spec.policy), progress=None,
        start_method=start_method)
    assert total.to_dict() == runner.run_chunk(ready, spec, 1, 6).to_dict()


def test_the_attacks_each_deck_declared_are_counted() -> None:
    decks = ("guild-veterans.txt", "mosfin-blades.txt")
    data = report(decks, 6, 1, 50)
    entries = data["decks"]
    assert isinstance(entries, list)
    total = sum(d["attacks"] for d in entries)
    assert total > 0  # greedy seats attack
    assert data["attacks_per_game"] == round(total / 6, 4)
    spec = MatchupSpec(6, 11)
    played = [play_counting_attacks(prepared(decks), spec, n, GameConfig())[1]
              for n in range(1, 7)]
    by_deck = [sum(counts[s] for n, counts in enumerate(played, 1)
                   for s, deck in enumerate(seating(2, n)) if deck == d) for d in range(2)]
    assert by_deck == [d["attacks"] for d in entries]


def test_every_game_is_counted_once() -> None:
    decks = ("guild-veterans.txt", "kalim-faithful.txt")
    data = report(decks, 8, 1, 50)
    entries = data["decks"]
    assert isinstance(entries, list)
    assert sum(d["wins"] for d in entries) + data["all_lost"] + data["timeouts"] == 8
    for deck in entries:
        low, high = deck["ci95"]
        assert low <= deck["win_rate"] <= high
        assert sum(deck["victory_round"]["histogram"].values()) == deck["wins"]


def test_each_decks_card_figures_count_only_its_own_cards() -> None:
    # The seats share one card space: a deck's drawn and played figures are its own cards',
    # never the opponent's (both decks showed the union of the table's cards).
    decks = ("kalim-faithful.txt", "mosfin-senate.txt")
    data = report(decks, 4, 1, 50)
    entries = data["decks"]
    assert isinstance(entries, list)
    for deck, entry in zip(prepared(decks), entries, strict=True):
        own = set(deck.by_id)
        assert entry["cards"] and set(entry["cards"]) <= own
    assert set(entries[0]["cards"]) != set(entries[1]["cards"])


@pytest.mark.parametrize(("wins", "games", "low", "high"), [
    (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (50, 100, 0.4038, 0.5962), (0, 0, 0.0, 0.0),
], ids=["none", "all", "half", "no-games"])
def test_win_rates_have_a_wilson_95_interval(wins: int, games: int, low: float,
                                             high: float) -> None:
    assert wilson(wins, games) == [low, high]


@pytest.mark.parametrize(("policy", "deck", "name"), [
    ("greedy", 1, "greedy"), ("greedy,random", 0, "greedy"), ("greedy,random", 1, "random"),
], ids=["one-for-all", "per-deck-first", "per-deck-second"])
def test_a_policy_per_deck(policy: str, deck: int, name: str) -> None:
    assert MatchupSpec(1, 1, policy).policy_of(deck) == name


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown policy 'lookahead'"):
        MatchupSpec(1, 1, "greedy,lookahead")
