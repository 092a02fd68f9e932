"""The Monte Carlo runner: N games of one deck, on several processes, one report.

Pure Python. Game ``n`` (1-based) of a run always uses the seed ``derive_seed(seed, "game",
n)``, so a game is the same whichever chunk or worker plays it, and ``--log n`` replays it
alone. Games are played in chunks; each chunk returns a :class:`~rules.game.report.Tally`
(counts only: memory stays flat in N), and tallies add up in chunk order, so the report is
byte-identical for any number of workers.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from rules.decklist import Decklist
from rules.game import engine, seats
from rules.game.config import GameConfig
from rules.game.lookahead import MAX_BUDGET, LookaheadPolicy, ReferencePolicy
from rules.game.policies import POLICIES, Policy
from rules.game.profile import profiles_from_facts
from rules.game.report import GameSummary, Tally
from rules.game.seats import Table
from rules.game.state import DRAWN, OFFERED, OPENING, PLAYED, GameState
from rules.game.table_policy import SeatPolicy
from rules.rng import derive_seed

CHUNK: Final = 250


# Who may play a run, by the name --policy takes; "lookahead:N" and "reference:N" set the
# budget of those rollout players (rollouts per decision, rules/game/lookahead.py).
POLICY_NAMES = ("greedy", "lookahead", "reference", "random")
ROLLOUT_POLICIES = {"lookahead": LookaheadPolicy, "reference": ReferencePolicy}


def check_policy(name: str) -> str:
    """``name`` if it names a policy, else ValueError saying what does."""
    base, colon, budget = name.partition(":")
    if base not in POLICY_NAMES or (colon and base not in ROLLOUT_POLICIES):
        raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(POLICY_NAMES)} "
                         f"(or lookahead:N or reference:N, N rollouts per decision)")
    if colon and not (budget.isdigit() and 1 <= int(budget) <= MAX_BUDGET):
        raise ValueError(f"the {base} budget must be a number from 1 to {MAX_BUDGET}, "
                         f"not {budget!r}")
    return name


def plays_rollouts(name: str) -> bool:
    """Whether the policy ``name`` plays whole games at its decisions (slow: about a second a
    game compiled), so that runs of it are kept small and played a game at a time."""
    return name.partition(":")[0] in ROLLOUT_POLICIES


def make_policy(name: str, seed: int) -> Policy:
    """The policy ``name`` names (checked by :func:`check_policy`), seeded with ``seed``."""
    base, _, budget = check_policy(name).partition(":")
    if base in ROLLOUT_POLICIES:
        player = ROLLOUT_POLICIES[base]
        return player(seed, int(budget)) if budget else player(seed)
    return POLICIES[base](seed)


@dataclass(frozen=True)
class RunSpec:
    games: int
    seed: int
    policy: str = "greedy"

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"games must be at least 1, not {self.games}")
        check_policy(self.policy)


def game_seed(seed: int, number: int) -> int:
    return derive_seed(seed, "game", number)


def policy_seed(seed: int, seat: int, players: int) -> int:
    """The RNG stream of ``seat``'s policy in a game of ``seed``: a table of one is the solo
    game, whose policy's stream is the game's own (as its seat's: seats.new_table)."""
    if players == 1:
        return derive_seed(seed, "policy")
    return derive_seed(seed, "policy", seat)


def seat_policy(name: str, seed: int) -> SeatPolicy:
    """The player ``name`` names (:func:`check_policy`) for a seat, seeded with ``seed``."""
    return SeatPolicy(name, seed, make_policy(name, seed))


def play_table(decks: Sequence[engine.Prepared], seed: int, config: GameConfig,
               policies: Sequence[str], *, record: bool = False,
               observe: Callable[[Table], None] | None = None) -> tuple[Table, list[SeatPolicy]]:
    """One game of ``decks`` (one seat each, in order; a solo game is a table of one) with
    ``seed``, each seat played to the end by the policy named in ``policies``; the table and
    its seats' players (a matchup counts their attacks). ``observe(table)`` is called before
    every decision (e.g. to snapshot the table at each round's start)."""
    table = seats.new_table(decks, seed, config, record=record)
    players = [seat_policy(name, policy_seed(seed, seat, len(decks)))
               for seat, name in enumerate(policies)]
    try:
        seats.play(table, players, observe)
    except RuntimeError as error:  # a policy that picks an illegal action is a bug: fail loudly
        raise RuntimeError(f"policy {', '.join(policies)} chose an illegal action: "
                           f"{error}") from None
    return table, players


def play_game(prepared: engine.Prepared, spec: RunSpec, number: int, *,
              record: bool = False,
              observe: Callable[[GameState], None] | None = None) -> GameState:
    """Play game ``number`` of the run to its end with the run's policy, at a table of one,
    and give the player's state; ``observe(state)`` is called before every decision."""
    table, _ = play_table([prepared], game_seed(spec.seed, number), prepared.config,
                          [spec.policy], record=record,
                          observe=None if observe is None
                          else lambda played: observe(played.state))
    return table.state


def summarise(state: GameState, number: int) -> GameSummary:
    """What the report needs from one finished game."""
    me = state.mover()
    drawn, played, stuck, opening, offered = set(), set(), set(), set(), set()
    hand = set(me.zones["hand"])
    for instance, flags in enumerate(state.flags):
        card = state.cards[instance]
        if flags & DRAWN:
            drawn.add(card)
        if flags & PLAYED:
            played.add(card)
        if flags & OPENING:
            opening.add(card)
        if flags & OFFERED:
            offered.add(card)
        if instance in hand and not flags & PLAYED:
            stuck.add(card)
    return GameSummary(number, state.outcome, state.final_round, frozenset(drawn),
                       frozenset(played), frozenset(stuck), frozenset(opening),
                       frozenset(offered))


def run_chunk(prepared: engine.Prepared, spec: RunSpec, first: int, last: int) -> Tally:
    """Games ``first..last`` (inclusive), tallied."""
    tally = Tally()
    for number in range(first, last + 1):
        tally.add(summarise(play_game(prepared, spec, number), number))
    return tally


def chunks(games: int, size: int = CHUNK) -> Iterator[tuple[int, int]]:
    for first in range(1, games + 1, size):
        yield first, min(games, first + size - 1)


def run(prepared: engine.Prepared, spec: RunSpec, *, workers: int = 1,
        progress: Callable[[int, int], None] | None = None,
        start_method: str | None = None) -> Tally:
    """Play the whole run; ``progress(games_done, games)`` after each chunk."""
    total: Tally = run_parts(
        Tally(), list(chunks(spec.games)), spec.games,
        local=lambda first, last: run_chunk(prepared, spec, first, last),
        workers=workers, initializer=start_worker,
        initargs=portable([prepared], prepared.config),
        inherited=(adopt_worker, ([prepared], prepared.config)),
        remote=_run_worker_chunk, remote_spec=(spec.games, spec.seed, spec.policy),
        progress=progress, start_method=start_method)
    return total


def run_parts(total: Any, parts: list[tuple[int, int]], games: int, *,
              local: Callable[[int, int], Any], workers: int,
              initializer: Callable[..., None], initargs: tuple[Any, ...],
              inherited: tuple[Callable[..., None], tuple[Any, ...]],
              remote: Callable[[Any, int, int], Any], remote_spec: Any,
              progress: Callable[[int, int], None] | None,
              start_method: str | None = None) -> Any:
    """Play the chunks ``parts`` of a run of ``games`` into ``total`` (anything with
    ``merge``): here with ``local(first, last)`` when one process will do, else in a pool of
    processes that play ``remote(remote_spec, first, last)``, started by the ``inherited``
    initializer and its arguments (the prepared decks themselves) where the processes are
    forked, else by ``initializer(*initargs)`` (plain data, pickled). ``start_method`` is
    multiprocessing's (None: the platform's default). Shared by goldfish and matchups."""
    done = 0
    if workers <= 1 or len(parts) == 1:
        for first, last in parts:
            total.merge(local(first, last))
            done += last - first + 1
            if progress:
                progress(done, games)
        return total
    workers = min(workers, len(parts), os.cpu_count() or 1)
    context = multiprocessing.get_context(start_method)
    if context.get_start_method() == "fork":
        # A forked worker starts with this process's memory and pickles nothing: it takes the
        # prepared decks as they are (their profiles, layouts and the seats' caches built)
        # instead of building them again from the plain data a spawned worker needs.
        initializer, initargs = inherited
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=initializer,
                             initargs=initargs) as pool:
        futures = [pool.submit(remote, remote_spec, first, last) for first, last in parts]
        # Merge in chunk order (the report must not depend on which worker finished first).
        for (first, last), future in zip(parts, futures, strict=True):
            total.merge(future.result())
            done += last - first + 1
            if progress:
                progress(done, games)
    return total


# Spawned worker processes get plain data: the compiled engine's frozen classes (profiles, the
# config, the spec) cannot be unpickled. Such a worker builds the profiles again from the facts
# once, when it starts, and keeps them for all its chunks; a forked one adopts the parent's.
# Every kind of run (goldfish, matchups) keeps its decks and options here.
type Portable = tuple[list[tuple[Decklist, dict[str, dict[str, Any]]]], dict[str, object]]
_worker: list[tuple[list[engine.Prepared], GameConfig]] = []


def portable(decks: Sequence[engine.Prepared], config: GameConfig) -> Portable:
    """What a spawned worker is started with (:func:`start_worker`)."""
    return [(p.deck, p.facts) for p in decks], config.to_dict()


def start_worker(decks: list[tuple[Decklist, dict[str, dict[str, Any]]]],
                 config: dict[str, object]) -> None:
    settings = GameConfig.from_dict(config)
    _worker[:] = [([engine.Prepared(deck, profiles_from_facts(facts), facts, settings)
                    for deck, facts in decks], settings)]


def adopt_worker(decks: list[engine.Prepared], config: GameConfig) -> None:
    _worker[:] = [(decks, config)]


def worker_decks() -> tuple[list[engine.Prepared], GameConfig]:
    """The decks and options of the run this worker process plays."""
    return _worker[0]


def _run_worker_chunk(spec: tuple[int, int, str], first: int, last: int) -> Tally:
    return run_chunk(worker_decks()[0][0], RunSpec(*spec), first, last)
