"""The engine's words (rules/game/vocabulary.py): every phase, step, combat step, action kind
and outcome a game reaches is one of the vocabulary's, and a kind it does not know is refused
when an action is read."""

from __future__ import annotations

import pytest

from rules.game import engine, narrate, seats
from rules.game.actions import Action
from rules.game.config import GameConfig
from rules.game.policies import POLICIES
from rules.game.table_policy import SeatPolicy
from rules.game.vocabulary import (
    ACTION_KINDS,
    COMBAT_STEPS,
    EVENT_TYPES,
    OUTCOMES,
    PHASES,
    STEPS,
)
from tests.rules.game.engine_helpers import SAMPLES, catalogue, sample


def test_every_word_a_solo_game_reaches_is_in_the_vocabulary() -> None:
    seen: dict[str, set[str]] = {"phase": set(), "step": set(), "combat": set(), "kind": set()}
    for deck in SAMPLES:
        prepared = engine.prepare(sample(deck), catalogue())
        for seed in (1, 2):
            state = engine.new_game(prepared, None, seed)
            policy = POLICIES["random" if seed == 2 else "greedy"](seed)
            while not state.over:
                actions = engine.legal_actions(state)
                seen["phase"].add(state.phase)
                seen["step"].add(state.step)
                if state.combat is not None:
                    seen["combat"].add(state.combat.step)
                seen["kind"].update(a.kind for a in actions)
                assert engine.apply(state, policy(state, actions)).ok
            assert state.outcome in OUTCOMES
    assert seen["phase"] <= PHASES and seen["step"] <= STEPS
    assert seen["combat"] <= COMBAT_STEPS and seen["kind"] <= ACTION_KINDS
    assert len(seen["kind"]) > 10


def test_every_word_a_table_reaches_is_in_the_vocabulary() -> None:
    prepared = [engine.prepare(sample(d), catalogue()) for d in SAMPLES[:3]]
    kinds: set[str] = set()
    for seed in (1, 2):
        t = seats.new_table(prepared, seed, GameConfig())
        chosen = [SeatPolicy("random" if seed == 2 else "greedy", s) for s in range(3)]
        while not t.outcome:
            seat = seats.to_move(t)
            actions = seats.legal_actions(t)
            kinds.update(a.kind for a in actions)
            for s in range(t.players):
                phase, step, _ = seats.standing(t, s)
                assert phase in PHASES and step in STEPS
            assert seats.apply(t, chosen[seat](t, seat, actions)).ok
        assert t.outcome in OUTCOMES
    assert kinds <= ACTION_KINDS and {"attack", "use_on"} & kinds


@pytest.mark.parametrize(("data", "error"), [
    ({"kind": "atack", "target": 1}, "unknown action kind 'atack'"),
    ({"kind": ""}, "unknown action kind ''"),
    ({"card": 3}, "kind"),
], ids=["typo", "empty", "missing"])
def test_an_action_of_an_unknown_kind_is_refused_when_read(data: dict[str, object],
                                                          error: str) -> None:
    with pytest.raises((ValueError, KeyError), match=error):
        Action.from_dict(data)


def test_every_known_kind_reads_back() -> None:
    for kind in ACTION_KINDS:
        action = Action.from_dict({"kind": kind, "card": 2, "target": -1, "option": "x"})
        assert Action.from_dict(action.to_dict()) == action


def test_every_event_a_recorded_game_logs_is_a_known_type_and_is_told() -> None:
    # The events are typed by rulings.emit's EventType; each one a game logs is also told by
    # narrate (a sentence, or nothing for the bookkeeping a reader does not need).
    seen: set[str] = set()
    for deck in SAMPLES:
        prepared = engine.prepare(sample(deck), catalogue())
        for seed in (1, 2, 3):
            state = engine.new_game(prepared, None, seed, record=True)
            policy = POLICIES["random" if seed == 3 else "greedy"](seed)
            while not state.over:
                assert engine.apply(state, policy(state, engine.legal_actions(state))).ok
            assert state.events is not None
            seen.update(event["type"] for event in state.events)
            assert narrate.narrate(state)  # (every event told, or left out, without error)
    assert seen <= EVENT_TYPES
    assert len(seen) > 30
