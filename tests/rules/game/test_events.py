"""Every event a game records matches its typed record (rules/game/events.py)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.game import engine, events, seats
from rules.game.config import GameConfig
from rules.game.policies import GreedyPolicy, RandomPolicy
from rules.game.table_policy import SeatPolicy
from rules.game.vocabulary import EVENT_TYPES
from tests.rules.game.engine_helpers import SAMPLES, catalogue, sample, seated


def test_every_event_type_has_a_record() -> None:
    assert set(events.RECORDS) == set(EVENT_TYPES)


@pytest.mark.parametrize(
    ("event", "found"),
    [({"type": "draw", "round": 1, "phase": "maintenance", "card": 3, "pile": "structures"},
      []),
     ({"type": "draw", "round": 1, "phase": "maintenance", "crad": 3, "pile": "structures"},
      ["draw: no 'card'", "draw: 'crad' is not a field of Draw"]),
     ({"type": "send", "round": 2, "phase": "military", "card": 4, "paid": 1},
      ["send: 'paid' is 1, not <class 'bool'>"]),
     ({"type": "collect", "round": 2, "phase": "action", "card": 4, "tokens": [1, True, 0]},
      ["collect: 'tokens' is [1, True, 0], not list[int]"]),
     ({"type": "action", "round": 2, "phase": "military", "action": {"kind": "pass"}}, []),
     ({"type": "drew", "round": 1, "phase": "maintenance"}, ["unknown event type 'drew'"])],
    ids=["right", "misspelt-field", "wrong-type", "bool-in-a-count", "optional-fields-absent",
         "unknown-type"],
)
def test_an_event_is_checked_against_its_record(event: dict[str, Any], found: list[str]
                                                 ) -> None:
    assert events.problems(event) == found


def _wrong(recorded: list[dict[str, Any]]) -> list[str]:
    return [problem for event in recorded for problem in events.problems(event)]


@pytest.mark.parametrize("name", SAMPLES)
def test_the_events_of_solo_games_match_their_records(name: str) -> None:
    prepared = engine.prepare(sample(name), catalogue(), GameConfig())
    for seed, policy in ((1, GreedyPolicy()), (2, RandomPolicy(2))):
        state = engine.new_game(prepared, None, seed, record=True)
        while not state.over:
            engine.apply(state, policy(state, engine.legal_actions(state)))
        assert state.events and _wrong(state.events) == []


@pytest.mark.parametrize("players", [2, 4])
def test_the_events_of_tables_match_their_records(players: int) -> None:
    decks = [engine.prepare(seated(SAMPLES[k], players), catalogue(), GameConfig())
             for k in range(players)]
    table = seats.new_table(decks, 3, GameConfig(), record=True)
    policies = [SeatPolicy("greedy", k) for k in range(players)]
    while (seat := seats.to_move(table)) >= 0:
        seats.apply(table, policies[seat](table, seat, seats.legal_actions(table)))
    recorded = table.state.events or []
    assert {"attack", "action", "use"} <= {event["type"] for event in recorded}
    assert _wrong(recorded) == []
