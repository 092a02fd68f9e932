"""A table saved as JSON and loaded plays on exactly as the table it was saved from: every
seat's legal actions and choices, its story and its end (seats.Table.to_dict, from_dict).
Snapshots are taken at every kind of moment a table has: a turn of the cycle, a seat's part
of a phase, a combat between seats, a reaction window, an attack being declared."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.game import engine, seats
from rules.game.config import GameConfig
from rules.game.seats import Table
from rules.game.table_policy import SeatPolicy
from rules.rng import GameRng, derive_seed
from tests.rules.game.engine_helpers import SAMPLES, catalogue, seated

Decision = tuple[int, list[str], str]


def moment(t: Table) -> str:
    """What kind of moment the table is at (a snapshot is taken at the first of each)."""
    if t.window is not None:
        return "window"
    if t.declaring is not None:
        return "declaring"
    if t.hosting is not None:
        return f"hosting-{t.hosting.kind}"
    if t.state.combat is not None:
        return f"{t.stage}-{t.state.combat.kind}"
    return f"{t.stage}-round-{min(t.round, 3)}"


def play_on(t: Table, chooser: list[SeatPolicy]) -> list[Decision]:
    decisions: list[Decision] = []
    while not t.outcome:
        seat = seats.to_move(t)
        actions = seats.legal_actions(t)
        choice = chooser[seat](t, seat, actions)
        decisions.append((seat, [repr(a) for a in actions], repr(choice)))
        assert seats.apply(t, choice).ok
    return decisions


def copied(policy: SeatPolicy) -> SeatPolicy:
    """A policy that decides from here as ``policy`` would (a random one's stream where it
    stands; greedy keeps nothing between decisions)."""
    twin = SeatPolicy(policy.name, 0)
    rng = getattr(policy.solo, "rng", None)
    if rng is not None:
        twin.solo.rng = GameRng(rng.state)  # type: ignore[attr-defined]
    twin.attacks = policy.attacks
    return twin


def saved(t: Table) -> dict[str, Any]:
    return json.loads(json.dumps(t.to_dict()))


WANTED = {"window", "hosting-attack", "hosting-raid", "maintenance-round-1", "action-round-2",
          "discard-round-3"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_table_saved_and_loaded_plays_on_as_the_table_saved(players: int) -> None:
    kinds: set[str] = set()
    for number in range(1, 9):  # (until every kind of moment was saved, two games at least)
        if number > 2 and WANTED <= kinds:
            break
        seed = derive_seed(25, "snapshot", players, number)
        decks = [engine.prepare(seated(SAMPLES[(number + s) % len(SAMPLES)], players),
                                catalogue()) for s in range(players)]
        t = seats.new_table(decks, seed, GameConfig(), record=True)
        chooser = [SeatPolicy("random" if s == number % players else "greedy",
                              derive_seed(seed, "policy", s)) for s in range(players)]
        snapshots: list[tuple[int, dict[str, Any], list[SeatPolicy]]] = []
        decisions: list[Decision] = []
        while not t.outcome:
            kind = moment(t)
            if kind not in kinds:
                kinds.add(kind)
                snapshot = saved(t)
                assert saved(Table.from_dict(snapshot)) == snapshot  # a faithful round trip
                snapshots.append((len(decisions), snapshot, [copied(p) for p in chooser]))
            seat = seats.to_move(t)
            actions = seats.legal_actions(t)
            choice = chooser[seat](t, seat, actions)
            decisions.append((seat, [repr(a) for a in actions], repr(choice)))
            assert seats.apply(t, choice).ok
        for index, snapshot, policies in snapshots:
            loaded = Table.from_dict(snapshot)
            assert play_on(loaded, policies) == decisions[index:], (players, number, index)
            assert saved(loaded) == saved(t)
            assert loaded.story == t.story
    assert WANTED <= kinds


def test_a_loaded_table_needs_no_catalogue_and_keeps_its_story_told() -> None:
    decks = [engine.prepare(seated(name, 2), catalogue()) for name in SAMPLES[:2]]
    t = seats.new_table(decks, 7, GameConfig(), record=True)
    chooser = [SeatPolicy("greedy", s) for s in range(2)]
    for _ in range(40):
        seat = seats.to_move(t)
        assert seats.apply(t, chooser[seat](t, seat, seats.legal_actions(t))).ok
    loaded = Table.from_dict(saved(t))  # its profiles built from the facts it carries
    assert loaded.story == t.story and loaded.state.events == t.state.events
    assert seats.to_move(loaded) == seats.to_move(t)
    assert seats.legal_actions(loaded) == seats.legal_actions(t)
