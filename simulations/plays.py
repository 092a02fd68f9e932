"""What a chunk of a run plays, by the run's kind, and the report its chunks' tallies make.

A goldfish chunk plays games of one deck solo (rules.game.runner) into a ``Tally``; a chunk of
a matchup, gauntlet or matrix plays games of one pairing at a table (rules.game.matchup) into a
``MatchupTally``. Every other step of a run (leases, heartbeats, watchdogs, the finish) is the
same for every kind (simulations.chunks, simulations.tasks). The chunks' tallies are merged in
chunk order, as the commands merge theirs, so a run's report is the command's, byte for byte,
whatever the workers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.conf import settings

from rules.game import engine
from rules.game.config import GameConfig
from rules.game.gauntlet import build_field_report, pair_spec
from rules.game.matchup import CHUNK as TABLE_CHUNK
from rules.game.matchup import MatchupSpec, MatchupTally, build_matchup_report
from rules.game.matchup import run_chunk as run_table_chunk
from rules.game.report import Tally, build_report, play_kinds
from rules.game.runner import RunSpec, chunks, plays_rollouts
from rules.game.runner import run_chunk as run_solo_chunk
from simulations.games import card_kinds, card_names, prepare_stored, report_names
from simulations.models import SimulationRun
from simulations.tallies import tally_from_data, tally_to_data

type AnyTally = Tally | MatchupTally

#: Games a worker plays between two looks at its heartbeat. Solo: at most about 2 s of greedy
#: or random games (at worst 0.2 s a game measured, interpreted, on a loaded machine); one
#: lookahead or reference game (seconds each compiled: the heartbeat's thread keeps the lease
#: meanwhile).
SLICE_GAMES = 10
#: At a table: at most about 1 s at a table of 6 greedy decks (75 ms a game on average
#: compiled, 206 ms at worst, on a loaded machine).
TABLE_SLICE_GAMES = 5


def run_config(run: SimulationRun) -> GameConfig:
    """Goldfish: the run's table size; a matchup seats every deck; a gauntlet's or matrix's
    tables seat two."""
    return GameConfig(target=run.target, players=run.players, round_cap=run.round_cap)


def stored_decks(run: SimulationRun) -> list[engine.Prepared]:
    """The run's decks read again with the card facts stored beside them."""
    config = run_config(run)
    return [prepare_stored(decklist, facts, config)
            for decklist, facts in zip(run.decklists, run.card_facts, strict=True)]


def solo_spec(run: SimulationRun) -> RunSpec:
    return RunSpec(run.games, run.seed, run.policy)


def table_spec(run: SimulationRun, pairing: int) -> MatchupSpec:
    """The spec of one pairing: a matchup's own, or a gauntlet's or matrix's pairing's."""
    spec = MatchupSpec(run.games, run.seed, run.policy)
    if run.kind == SimulationRun.MATCHUP:
        return spec
    pair = run.pairs[pairing]
    return pair_spec(spec, (pair[0], pair[1]))


def chunk_size(kind: str) -> int:
    if kind == SimulationRun.GOLDFISH:
        return max(1, int(settings.GOLDFISH_CHUNK_GAMES))
    return TABLE_CHUNK


def chunk_plan(kind: str, games: int, tables: int) -> list[tuple[int, int, int]]:
    """The chunks of a run, in order: (pairing, first game, last game)."""
    size = chunk_size(kind)
    return [(pairing, first, last) for pairing in range(tables)
            for first, last in chunks(games, size)]


def slice_games(kind: str, policy: str) -> int:
    if kind != SimulationRun.GOLDFISH:
        return TABLE_SLICE_GAMES
    return 1 if plays_rollouts(policy) else SLICE_GAMES


def play_games(run: SimulationRun, prepared: Sequence[engine.Prepared], pairing: int,
               first: int, last: int) -> AnyTally:
    """Games ``first..last`` of pairing ``pairing`` of the run."""
    if run.kind == SimulationRun.GOLDFISH:
        return run_solo_chunk(prepared[0], solo_spec(run), first, last)
    decks = [prepared[d] for d in run.pairs[pairing]]
    return run_table_chunk(decks, table_spec(run, pairing), run_config(run), first, last)


def empty_tally(run: SimulationRun) -> AnyTally:
    if run.kind == SimulationRun.GOLDFISH:
        return Tally()
    return MatchupTally(len(run.pairs[0]))


def tally_text(tally: AnyTally) -> str:
    data = tally.to_dict() if isinstance(tally, Tally) else tally_to_data(tally)
    return json.dumps(data, ensure_ascii=False)


def tally_from_text(run: SimulationRun, text: str) -> AnyTally:
    data = json.loads(text)
    return Tally.from_dict(data) if run.kind == SimulationRun.GOLDFISH else tally_from_data(data)


def merge_all(run: SimulationRun, tallies: Sequence[tuple[int, str]]) -> list[AnyTally]:
    """One tally per pairing from the chunks' (pairing, tally text), given in chunk order."""
    merged = [empty_tally(run) for _ in run.pairs]
    for pairing, text in tallies:
        merged[pairing].merge(tally_from_text(run, text))  # type: ignore[arg-type]
    return merged


def build_run_report(run: SimulationRun, tallies: Sequence[AnyTally]) -> dict[str, Any]:
    """The report the run's command prints (``goldfish``, or ``matchup`` with ``--gauntlet``
    or ``--matrix`` for those kinds)."""
    prepared = stored_decks(run)
    config = run_config(run)
    if run.kind == SimulationRun.GOLDFISH:
        tally = tallies[0]
        assert isinstance(tally, Tally)
        return build_report(tally, seed=run.seed, policy=run.policy, config=config,
                            names=report_names(prepared[0]), deck_name=run.deck_name,
                            kinds=play_kinds(prepared[0].by_id))
    table_tallies = [t for t in tallies if isinstance(t, MatchupTally)]
    names = card_names(prepared)
    kinds = card_kinds(prepared)
    if run.kind == SimulationRun.MATCHUP:
        return build_matchup_report(table_tallies[0], names=run.deck_names, card_names=names,
                                    seed=run.seed, policy=run.policy, config=config,
                                    kinds=kinds)
    return build_field_report(table_tallies, mode=run.kind, names=run.deck_names,
                              card_names=names, seed=run.seed, policy=run.policy,
                              config=config, kinds=kinds)
