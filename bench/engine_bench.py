"""Goldfish engine: games per second per core on each sample deck (greedy policy), against a
loop that only shuffles the same three piles and deals the same opening draws, with the
generator as it was when the goal was set (``rules.rng.SplitMix64``; goal, issue 21:
a full game costs at most 20 of those; CPU time, the games and the loop taken in turn for
several rounds, the median of the rounds' ratios printed with their spread), and 2 workers
against 1 (goal: at least 1.7x; wall time, so it needs the machine's other core idle).

Matchups (issue 19), greedy seats: a table of one (the first sample deck: the goldfish
runner's game) against the same game on the engine alone (:func:`_engine_game`, decision for
decision: what the table's machinery costs; goal: at most 1.2x), a 2-player game of the first
two sample decks against the engine's solo games of the same decks (the mean of their solo
games' CPU time; goal: at most 2.5x), a 4-player game of the first four against their solo
games (goal: at most 5x), the same per decision (a table's decision against a solo decision of
the same decks; goal, issue 33: at most 1.2x), each table and its solo games (all of them: a
run about as long as the table's) timed in turn for several rounds, the best round of each kept
(one round's ratio, its median and spread, printed below them), a matchup on 2 workers against
1 (wall time; goal: at least 1.7x, and the same report), and the peak memory of a 2,000-game
matchup against a 200-game one, each in a fresh process (goal: flat).

Then the greedy policy against the lookahead player on every sample deck, over the same seeds
(games 1..MATCH_GAMES of seed MATCH_SEED): each one's mean victory round and victory rate, and
greedy's gap (its mean minus the lookahead's; goal: at most 0.3 rounds), with the gap's 95%
interval over the games both won (paired: the same game, the same luck until they part).

And the cards never played (issue 39; ``python -m bench --only unplayed``): on every sample deck,
the cards other than wanderers drawn in more than :data:`UNPLAYED_SHARE` of games and played in
none, by greedy (:data:`UNPLAYED_GAMES` games) and by the reference player
(:data:`UNPLAYED_REFERENCE_GAMES` games; slow: its rollouts play whole games, and they mix in
random moves, so unlike the lookahead's they do not share greedy's blind spots), each with its
share of games drawn; interrupts are marked (solo there is nothing to answer: right never to
play)."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import resource
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from decks.formats.card_refs import CardRef
from decks.formats.text import CatalogueResolver, parse_text
from rules import compiled
from rules.cards import CardFacts, facts_by_id
from rules.decklist import Decklist
from rules.game import engine, matchup
from rules.game.config import GameConfig
from rules.game.lookahead import DEFAULT_BUDGET
from rules.game.profile import profiles_from_facts
from rules.game.report import (
    INTERRUPT,
    NEVER_OFFERED,
    GameSummary,
    Tally,
    never_played,
    play_kinds,
)
from rules.game.runner import RunSpec, game_seed, make_policy, play_game, run_chunk, summarise
from rules.game.runner import run as run_games
from rules.game.state import GameState
from rules.rng import SplitMix64, derive_seed

GAMES = 300
# The goldfish lines: rounds of (GAMES games, then the same games' shuffles SHUFFLE_REPEAT
# times over: one pass is only about 12 ms of CPU, too short to time alone), in turn.
GOLDFISH_ROUNDS = 9
SHUFFLE_REPEAT = 10
# Matchups: games a side of the cost ratios (per table size), of the workers' speed-up, and of
# the two memory runs.
TABLE_GAMES = {1: 200, 2: 100, 4: 50}
# Rounds of the cost ratios: the table's games and its decks' solo games in turn, the best
# of each kept.
TABLE_ROUNDS = 7
MATCHUP_WORKERS_GAMES = 600
MEMORY_GAMES = (200, 2000)
MATCH_GAMES = 60
MATCH_SEED = 1
MATCH_POLICY = f"lookahead:{DEFAULT_BUDGET}"
# The never-played lists: games a deck of each player, and the share of games a card must be
# drawn in to be listed.
UNPLAYED_GAMES = 200
UNPLAYED_REFERENCE_GAMES = 10
UNPLAYED_POLICY = f"reference:{DEFAULT_BUDGET}"
UNPLAYED_SHARE = 0.2


def _shuffle_only(prepared: engine.Prepared, games: int, repeat: int = 1) -> None:
    """What every game does before the first decision: shuffle the three piles, deal seven
    (for games 1..``games``, ``repeat`` times over)."""
    deck = prepared.deck
    piles = [[e.card_id for e in deck.section(s) for _ in range(e.count)]
             for s in ("structures", "personalities", "wanderers")]
    for _ in range(repeat):
        for number in range(1, games + 1):
            # The generator as it was when the goal was set (the engine's own is faster
            # since, and a yardstick that moved with it would say nothing of the games).
            rng = SplitMix64(derive_seed(1, "game", number))
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
    samples = _sample_decks(root, resolver)
    for name, deck in samples.items():
        prepared = engine.prepare(deck, facts)
        spec = RunSpec(GAMES, 1)
        # CPU time of this process: the games and the shuffles alike, per core, taken in turn
        # round after round (_interleaved) so that the machine's other work and its changes of
        # speed weigh on both alike; the ratio is the median of the rounds' ratios.
        rounds = [(g / GAMES, s / GAMES / SHUFFLE_REPEAT) for g, s in _interleaved(
            [partial(run_chunk, prepared, spec, 1, GAMES),
             partial(_shuffle_only, prepared, GAMES, SHUFFLE_REPEAT)], GOLDFISH_ROUNDS)]
        each = sorted(g / s for g, s in rounds)
        game = statistics.median(g for g, _ in rounds)
        shuffle = statistics.median(s for _, s in rounds)
        print(f"{f'goldfish game, {name} ({1 / game:,.0f}/s/core)':<44} "
              f"{statistics.median(each):8.2f}x shuffle+deal only (goal <= 20)   "
              f"({game * 1000:.2f} ms vs {shuffle * 1000:.3f} ms; {GOLDFISH_ROUNDS} rounds "
              f"{each[0]:.2f}x to {each[-1]:.2f}x)")
    prepared = engine.prepare(samples["kalim-faithful"], facts)
    spec = RunSpec(2000, 7)
    timings = {}
    for workers in (1, 2):
        start = time.perf_counter()
        run_games(prepared, spec, workers=workers)
        timings[workers] = time.perf_counter() - start
    print(f"{'goldfish 2,000 games: 2 workers speed-up':<44} "
          f"{timings[1] / timings[2]:8.2f}x 1 worker (goal >= 1.7)"
          f"   ({timings[2]:.2f} s vs {timings[1]:.2f} s)")
    _matchups(best_of, report, root, facts, resolver)


def _sample_decks(root: Path, resolver: CatalogueResolver) -> dict[str, Decklist]:
    decks = {}
    for path in sorted((root / "fixtures" / "decklists").glob("*.txt")):
        deck = parse_text(path.read_text("utf-8"), resolver).deck
        assert deck is not None
        decks[path.stem] = deck
    return decks


def _table(decks: list[Decklist], facts: dict[str, CardFacts]
           ) -> tuple[list[engine.Prepared], GameConfig]:
    """The decks prepared as the matchup command and the worker prepare them."""
    config = GameConfig(players=len(decks))
    return [engine.prepare(deck, facts, config) for deck in decks], config


def _engine_game(prepared: engine.Prepared, spec: RunSpec, number: int) -> GameState:
    """Game ``number`` of ``spec`` on the engine alone (engine.new_game, the policy,
    engine.apply), as the goldfish runner played it before it seated a table of one: the
    table lines' yardstick, the same game decision for decision
    (tests/rules/game/test_table_of_one.py)."""
    seed = game_seed(spec.seed, number)
    state = engine.new_game(prepared, None, seed)
    policy = make_policy(spec.policy, derive_seed(seed, "policy"))
    legal, apply = engine.legal_actions, engine.apply
    while not state.outcome:
        apply(state, policy(state, legal(state)))
    return state


def _engine_chunk(prepared: engine.Prepared, spec: RunSpec, games: int) -> None:
    for number in range(1, games + 1):
        _engine_game(prepared, spec, number)


def _matchups(best_of: Callable[..., float], report: Callable[..., None], root: Path,
              facts: dict[str, CardFacts], resolver: CatalogueResolver) -> None:
    """The matchup lines (module docstring)."""
    decks = _sample_decks(root, resolver)
    names = list(decks)
    spreads = []
    for players, goal in ((1, 1.2), (2, 2.5), (4, 5.0)):
        seated = names[:players]
        prepared, config = _table([decks[n] for n in seated], facts)
        games = TABLE_GAMES[players]
        spec = matchup.MatchupSpec(games, 1)
        table_run = partial(matchup.run_chunk, prepared, spec, config, 1, games)
        solo_games = partial(_one_after_another, [
            partial(_engine_chunk, engine.prepare(decks[name], facts), RunSpec(games, 1), games)
            for name in seated])
        # CPU time of this process, per game, as the goldfish lines: the table's games and
        # the same decks' solo games (all of them, a run about as long as the table's) taken
        # in turn, round after round, so that the machine's other work weighs on both alike;
        # the best round of each.
        rounds = [(t / games, s / games / players)
                  for t, s in _interleaved([table_run, solo_games])]
        table = min(t for t, _ in rounds)
        solo = min(s for _, s in rounds)
        report(f"{players}-player game ({1 / table:,.0f}/s/core)", table, solo,
               f"solo game, same decks (goal <= {goal:g})")
        # The same rounds per decision: a table's decision against a solo decision of the
        # same decks (issue 33: at most 1.2x). The decisions counted in one more pass (the
        # same games each time: seeded).
        table_decisions = sum(
            matchup.play_matchup_game(prepared, spec, n, config).decisions
            for n in range(1, games + 1))
        solo_decisions = sum(
            _engine_game(engine.prepare(decks[name], facts), RunSpec(games, 1), n).decisions
            for name in seated for n in range(1, games + 1))
        per_table = table * games / table_decisions
        per_solo = solo * games * players / solo_decisions
        print(f"{f'{players}-player decision ({1 / per_table:,.0f}/s/core)':<44} "
              f"{per_table / per_solo:8.2f}x solo decision (goal <= 1.2)   "
              f"({per_table * 1e6:.1f} us vs {per_solo * 1e6:.1f} us; "
              f"{table_decisions / games:.0f} vs {solo_decisions / games / players:.0f} "
              f"decisions a game)")
        each = [t / s for t, s in rounds]
        spreads.append(f"{statistics.median(each):.2f}x ({min(each):.2f}x to {max(each):.2f}x)")
    print(f"  (the tables: {names[0]} alone; {', '.join(names[:2])}; {', '.join(names[:4])}; "
          f"the best of {TABLE_ROUNDS} rounds each; one round's ratio, the median: "
          f"{'; '.join(spreads)})")
    prepared, config = _table([decks[n] for n in names[:2]], facts)
    spec = matchup.MatchupSpec(MATCHUP_WORKERS_GAMES, 1)
    timings, reports, cpu = {}, [], {}
    for workers in (1, 2):
        start, own, children = time.perf_counter(), time.process_time(), _children_cpu()
        tally = matchup.run(prepared, spec, config, workers=workers)
        timings[workers] = time.perf_counter() - start
        # The games' CPU time, wherever they ran (a speed-up below 1.7 with the CPU time of
        # both alike is the machine's other work, not the workers' overhead).
        cpu[workers] = time.process_time() - own + _children_cpu() - children
        reports.append(matchup.build_matchup_report(
            tally, names=names[:2], card_names=[{}, {}], seed=1, policy="greedy",
            config=config))
    same = "the same report" if reports[0] == reports[1] else "DIFFERENT REPORTS"
    print(f"{f'matchup {MATCHUP_WORKERS_GAMES:,} games: 2 workers speed-up':<44} "
          f"{timings[1] / timings[2]:8.2f}x 1 worker (goal >= 1.7)"
          f"   ({timings[2]:.2f} s vs {timings[1]:.2f} s; {same}; CPU {cpu[2]:.2f} s vs "
          f"{cpu[1]:.2f} s)")
    few, many = MEMORY_GAMES
    # Each run in a fresh process (spawned: nothing inherited), both at once.
    context = multiprocessing.get_context("spawn")
    pools = [ProcessPoolExecutor(max_workers=1, mp_context=context) for _ in MEMORY_GAMES]
    futures = [pool.submit(_peak_memory, str(root), names[:2], games)
               for pool, games in zip(pools, MEMORY_GAMES, strict=True)]
    small, large = (future.result() for future in futures)
    for pool in pools:
        pool.shutdown()
    print(f"{f'matchup peak memory, {many:,} games':<44} {large / small:8.2f}x "
          f"{few:,} games (goal: flat, <= 1.1)   ({large / 1024:.1f} MB vs {small / 1024:.1f} MB)")


def _one_after_another(runs: list[Callable[[], object]]) -> None:
    for run in runs:
        run()


def _interleaved(runs: list[Callable[[], object]],
                 rounds: int | None = None) -> list[list[float]]:
    """The CPU seconds of each of ``runs`` in each of ``rounds`` rounds (TABLE_ROUNDS), taken
    in turn, every other round in the reverse order (none always runs right after another)."""
    times = []
    for number in range(rounds or TABLE_ROUNDS):
        order = list(range(len(runs)))
        if number % 2:
            order.reverse()
        taken = [0.0] * len(runs)
        for k in order:
            start = time.process_time()
            runs[k]()
            taken[k] = time.process_time() - start
        times.append(taken)
    return times


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _peak_memory(root: str, names: list[str], games: int) -> int:
    """The peak resident memory (kB) of a process that plays ``games`` games of a matchup of
    the sample decks ``names``, on one worker."""
    facts, resolver = _catalogue(Path(root))
    decks = _sample_decks(Path(root), resolver)
    prepared, config = _table([decks[n] for n in names], facts)
    matchup.run(prepared, matchup.MatchupSpec(games, 1), config)
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# --- greedy against lookahead --------------------------------------------------------------

_match_deck: list[engine.Prepared] = []


def _start_match_worker(deck: Any, facts: dict[str, dict[str, Any]]) -> None:
    _match_deck[:] = [engine.Prepared(deck, profiles_from_facts(facts), facts, GameConfig())]


def _outcome(policy: str, number: int) -> tuple[str, int]:
    state = play_game(_match_deck[0], RunSpec(MATCH_GAMES, MATCH_SEED, policy), number)
    return state.outcome, state.final_round


def match(root: Path, games: int = MATCH_GAMES, policy: str = MATCH_POLICY) -> None:
    """Greedy against the lookahead player on every sample deck (module docstring), on both
    cores: each game depends only on its number, so the figures are the same for any number
    of processes (``python -m bench --only match`` runs this alone)."""
    facts, resolver = _catalogue(root)
    print(f"goldfish greedy against {policy}: {games} games a deck, seed {MATCH_SEED} "
          f"(mean victory round, victory rate; gap = greedy - lookahead, goal <= 0.3)")
    started = time.perf_counter()
    for name, deck in _sample_decks(root, resolver).items():
        prepared = engine.prepare(deck, facts)
        numbers = range(1, games + 1)
        with ProcessPoolExecutor(max_workers=min(2, os.cpu_count() or 1),
                                 initializer=_start_match_worker,
                                 initargs=(prepared.deck, prepared.facts)) as pool:
            greedy = list(pool.map(_outcome, ["greedy"] * games, numbers))
            ahead = list(pool.map(_outcome, [policy] * games, numbers, chunksize=1))
        print("  " + _match_line(name, greedy, ahead))
    print(f"  ({time.perf_counter() - started:.0f} s)")


def _match_line(name: str, greedy: list[tuple[str, int]], ahead: list[tuple[str, int]]) -> str:
    def summary(games: list[tuple[str, int]]) -> tuple[float, float]:
        rounds = [r for outcome, r in games if outcome == "victory"]
        return (statistics.mean(rounds) if rounds else math.nan), len(rounds) / len(games)

    (g_mean, g_rate), (a_mean, a_rate) = summary(greedy), summary(ahead)
    both = [g[1] - a[1] for g, a in zip(greedy, ahead, strict=True)
            if g[0] == a[0] == "victory"]
    interval = ""
    if len(both) > 1:
        mean = statistics.mean(both)
        half = 1.96 * statistics.stdev(both) / math.sqrt(len(both))
        interval = f" (95% interval {mean - half:+.2f} to {mean + half:+.2f}, " \
                   f"{len(both)} games won by both)"
    return (f"{name:<16} greedy {g_mean:5.2f} ({g_rate:4.0%})   lookahead {a_mean:5.2f} "
            f"({a_rate:4.0%})   gap {g_mean - a_mean:+.2f}{interval}")


# --- the cards never played ----------------------------------------------------------------


def _summary(policy: str, games: int, number: int) -> GameSummary:
    spec = RunSpec(games, MATCH_SEED, policy)
    return summarise(play_game(_match_deck[0], spec, number), number)


def unplayed(root: Path, games: int = UNPLAYED_GAMES,
             ahead_games: int = UNPLAYED_REFERENCE_GAMES, policy: str = UNPLAYED_POLICY) -> None:
    """The cards each player never plays on every sample deck (module docstring), on both
    cores (each game depends only on its number: the same lists for any number of processes)."""
    facts, resolver = _catalogue(root)
    print(f"cards never played (drawn in more than {UNPLAYED_SHARE:.0%} of games, played in "
          f"none; wanderers left out): greedy {games} games a deck, {policy} {ahead_games}, "
          f"seed {MATCH_SEED}")
    started = time.perf_counter()
    for name, deck in _sample_decks(root, resolver).items():
        prepared = engine.prepare(deck, facts)
        kinds = play_kinds(prepared.by_id)
        names = {card_id: card.name for card_id, card in prepared.by_id.items()}
        with ProcessPoolExecutor(max_workers=min(2, os.cpu_count() or 1),
                                 initializer=_start_match_worker,
                                 initargs=(prepared.deck, prepared.facts)) as pool:
            for who, count in (("greedy", games), (policy, ahead_games)):
                tally = Tally()
                for summary in pool.map(_summary, [who] * count, [count] * count,
                                        range(1, count + 1), chunksize=1 if ":" in who else 8):
                    tally.add(summary)
                listed = unplayed_cards(tally, kinds, names)
                label = who.partition(":")[0]
                print(f"  {name:<16} {label:<9} {'; '.join(listed) or 'none'}")
    print(f"  ({time.perf_counter() - started:.0f} s)")


def unplayed_cards(tally: Tally, kinds: dict[str, str], names: dict[str, str],
                   share: float = UNPLAYED_SHARE) -> list[str]:
    """The cards drawn in more than ``share`` of ``tally``'s games and played in none, most
    drawn first, each as "name (drawn%, offered in offered%)": the share of games in which
    the rules offered it a play and the player chose otherwise ("never offered": the deck
    never gave it one), an interrupt marked so."""
    found = []
    for card_id, card in tally.cards.items():
        reason = never_played(card, kinds.get(card_id))
        if reason is not None and card.drawn > share * tally.games:
            if reason == INTERRUPT:
                mark = "an interrupt"
            elif reason == NEVER_OFFERED:
                mark = "never offered"
            else:
                mark = f"offered in {card.offered / tally.games:.0%}"
            found.append((-card.drawn, names.get(card_id, card_id),
                          f"{names.get(card_id, card_id)} ({card.drawn / tally.games:.0%}, "
                          f"{mark})"))
    return [text for _, _, text in sorted(found)]
