"""The engine's speed shortcuts play the games the plain way plays, seen from outside.

The caches, fast paths and kept tables of the engine and of the table of seats are checked
through the engine's public functions only, so that moving or rewriting them breaks no test
here unless a game changes:

* **solo**: a game whose state is saved and restored before every decision (nothing
  remembered carried over: no cached keywords, faction counts, ability holders, combat memo,
  profile list, action book or pending actions) offers the same legal actions, draws the same
  choices and reaches the same ``to_dict()`` as the game played on one state with a deck
  prepared once; the game replayed from its log (a deck prepared anew, the actions rebuilt
  from JSON, every event recorded) ends in the same state;
* **at a table**: ``seats.play`` (a seat's own decisions made in a run, greedy offered the
  actions without its rival abilities, the decks' seats prepared once) plays the table that
  the decision-by-decision loop of ``to_move``, ``legal_actions`` and ``apply`` plays with
  decks prepared anew at every game, and the one ``seats.play`` plays without deferring the
  rival abilities and without recording: the same choices from the same actions, the same
  seats' states, story and attacks;
* **fingerprints**: every legal action list and choice of the games above, and of more
  seeds (40 solo games a deck and policy, 12 tables of each table of 2 to 4), hashed per deck
  and policy (solo) or per table, as the code checked against its slow reference versions
  played them (fixtures/goldfish/fingerprints.json, fixtures/matchups/fingerprints.json):
  what no switch turns off (the fast paths written in place of the plain code) is pinned by
  the games it plays. After a deliberate change of the games, regenerate them with
  ``UPDATE_GOLDEN=1 pytest tests/rules/game/test_engine_shortcuts.py -n 0``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from rules.game import engine, policies, rulings, seats
from rules.game.actions import Action
from rules.game.config import GameConfig
from rules.game.runner import game_seed
from rules.game.state import GameState
from rules.game.table_policy import SeatPolicy
from rules.rng import derive_seed
from tests.rules.game.engine_helpers import FIXTURES, SAMPLES, catalogue, sample, seated

SOLO_GAMES = 10
TABLE_GAMES = 8


class Fingerprint:
    """A digest of a run of games: every decision's legal actions and the choice among them,
    and each game's end."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256()

    def decision(self, seat: int, actions: Sequence[Action], choice: Action) -> None:
        listed = ";".join(f"{a.kind},{a.card},{a.target},{a.option}" for a in actions)
        self.digest.update(f"{seat}:{listed}|{actions.index(choice)}\n".encode())

    def end(self, outcome: str, winner: int, final_round: int) -> None:
        self.digest.update(f"#{outcome},{winner},{final_round}\n".encode())

    def check(self, path: Path, key: str) -> None:
        """Compare with the fingerprint kept under ``key`` (or keep it, UPDATE_GOLDEN)."""
        found = self.digest.hexdigest()[:24]
        kept = json.loads(path.read_text("utf-8")) if path.exists() else {}
        if os.environ.get("UPDATE_GOLDEN"):
            kept[key] = found
            path.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n", "utf-8")
        assert found == kept.get(key), f"the games of {key} changed"


SOLO_FINGERPRINTS = FIXTURES / "goldfish" / "fingerprints.json"
TABLE_FINGERPRINTS = FIXTURES / "matchups" / "fingerprints.json"


def restored(state: GameState, number: int) -> GameState:
    """``state`` as a new state with nothing remembered, by each public way: mostly cloned as
    a lookahead rollout is (the caches and the combat's memo dropped), at every 7th decision
    loaded from its saved JSON (the profiles built again from the card facts it carries, a
    new action book), at others copied as an undo point is (the saving is the slow part)."""
    way = number % 7
    if way == 0:
        return GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    return state.copy() if way == 3 else state.clone()


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("deck", SAMPLES)
def test_a_game_restored_before_every_decision_and_replayed_is_the_same_game(
        deck: str, policy: str) -> None:
    prepared = engine.prepare(sample(deck), catalogue())  # kept: its deal laid out once
    fingerprint = Fingerprint()
    lone = 0
    for number in range(1, SOLO_GAMES + 1):
        seed = game_seed(5, number)
        kept = engine.new_game(prepared, None, seed)
        plain = engine.new_game(sample(deck), catalogue(), seed)  # prepared anew
        chooser = policies.POLICIES[policy](derive_seed(seed, "policy"))
        twin = policies.POLICIES[policy](derive_seed(seed, "policy"))
        chosen: list[dict[str, object]] = []
        while not kept.outcome:
            assert plain == kept  # (what to_dict saves: to_dict itself at each game's end)
            plain = restored(plain, kept.decisions)
            actions = engine.legal_actions(kept)
            assert engine.legal_actions(plain) == actions, (kept.round, kept.step)
            choice = chooser(kept, actions)
            assert twin(plain, engine.legal_actions(plain)) == choice
            if len(actions) == 1:
                assert choice == actions[0]
                lone += 1
            fingerprint.decision(0, actions, choice)
            chosen.append(choice.to_dict())
            assert engine.apply(kept, choice).ok
            assert engine.apply(plain, Action.from_dict(chosen[-1])).ok
        assert plain.to_dict() == kept.to_dict()
        fingerprint.end(kept.outcome, 0, kept.final_round)
        log = {"seed": seed, "config": kept.config.to_dict(), "actions": chosen}
        replayed = engine.replay(log, sample(deck), catalogue())
        assert replayed.to_dict() == kept.to_dict()
        assert engine.replay(engine.game_log(replayed), sample(deck), catalogue()).events \
            == replayed.events
    assert lone > 20
    fingerprint.check(SOLO_FINGERPRINTS, f"{deck} {policy}")


# One decision of a table: its number, the seat, the stage, the choice, the actions offered
# besides the rival abilities (a policy that defers them is offered none).
Decision = tuple[int, int, str, Action, tuple[Action, ...]]


class Recording:
    """A seat's policy whose decisions are written down."""

    def __init__(self, policy: SeatPolicy, log: list[Decision], defers: bool) -> None:
        self.policy, self.log = policy, log
        self.defers_rivals = defers and policy.defers_rivals

    def __call__(self, table: seats.Table, seat: int, actions: Sequence[Action]) -> Action:
        choice = self.policy(table, seat, actions)
        self.log.append((table.decisions, seat, table.stage, choice,
                         tuple(a for a in actions if a.kind != "use_on")))
        return choice


def seat_policies(seed: int, number: int, players: int) -> list[SeatPolicy]:
    """Greedy seats; every fourth game, seat 2 random."""
    return [SeatPolicy("random" if number % 4 == 0 and seat == 1 else "greedy",
                       derive_seed(seed, "policy", seat)) for seat in range(players)]


def table_decks(decks: tuple[str, ...]) -> list[engine.Prepared]:
    config = GameConfig(players=len(decks))
    return [engine.prepare(seated(d, len(decks)), catalogue(), config) for d in decks]


def played(table: seats.Table, chooser: Sequence[SeatPolicy | Recording],
           log: list[Decision]) -> tuple[object, ...]:
    return (table.outcome, table.winner, table.final_round, table.decisions,
            table.state.to_dict(), log,
            [p.policy.attacks if isinstance(p, Recording) else p.attacks for p in chooser])


# Every sample deck at a table of 2, 3 and 4 (the rival abilities' decks, mosfin-senate and
# kalim-crusaders, face to face), and at tables of 5 and 6 (their wanderers made enough).
TABLES = [SAMPLES[0:2], SAMPLES[2:4], SAMPLES[4:6], (SAMPLES[5], SAMPLES[2]),
          SAMPLES[0:6:2], SAMPLES[1:6:2], SAMPLES[0:4], SAMPLES[2:6], SAMPLES[1:6], SAMPLES]


@pytest.mark.parametrize("decks", TABLES, ids=["+".join(d.removesuffix(".txt") for d in t)
                                               for t in TABLES])
def test_a_table_played_with_its_shortcuts_is_the_table_played_decision_by_decision(
        decks: tuple[str, ...]) -> None:
    kept = table_decks(decks)
    players = len(decks)
    fingerprint = Fingerprint()
    games = TABLE_GAMES if players <= 4 else 2
    for number in range(1, games + 1):
        seed = derive_seed(6, "matchup", number)
        tables = []
        # seats.play with its own runs and greedy deferring its rival abilities, recorded
        log: list[Decision] = []
        chooser = [Recording(p, log, True) for p in seat_policies(seed, number, players)]
        table = seats.play(seats.new_table(kept, seed, GameConfig(players=players),
                                           record=True), chooser)
        tables.append(played(table, chooser, log))
        story = table.story
        # seats.play offering every seat every action, not recorded
        log = []
        chooser = [Recording(p, log, False) for p in seat_policies(seed, number, players)]
        table = seats.play(seats.new_table(kept, seed, GameConfig(players=players)), chooser)
        tables.append(played(table, chooser, log))
        assert table.story is None
        # decision by decision, the decks and the options made anew, recorded
        log = []
        chooser = [Recording(p, log, False) for p in seat_policies(seed, number, players)]
        table = seats.new_table(table_decks(decks), seed, GameConfig(players=players),
                                record=True)
        play_fingerprinted(table, chooser, fingerprint, check_active=True)
        tables.append(played(table, chooser, log))
        assert tables[0] == tables[1] == tables[2]
        assert table.story == story
    fingerprint.check(TABLE_FINGERPRINTS, "-vs-".join(d.removesuffix(".txt") for d in decks))


def play_fingerprinted(table: seats.Table, chooser: Sequence[seats.SeatPolicy],
                       fingerprint: Fingerprint,
                       *, check_active: bool = False) -> None:
    """Play ``table`` to its end decision by decision (``to_move``, ``legal_actions``,
    ``apply``), each decision and the end fingerprinted; ``check_active``: the seats still in,
    as the table keeps them, checked against ``seats.active_seats`` at every decision."""
    while not table.outcome:
        if check_active:
            assert table.active() == seats.active_seats(table.players, table.lead, table.out)
        seat = seats.to_move(table)
        actions = seats.legal_actions(table)
        choice = chooser[seat](table, seat, actions)
        fingerprint.decision(seat, actions, choice)
        assert seats.apply(table, choice).ok
    fingerprint.end(table.outcome, table.winner, table.final_round)


# More seeds, fingerprinted only (seed 7: none of the games above).
MANY_SOLO_GAMES = 40
MANY_TABLE_GAMES = 12


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_solo_games_of_many_seeds_are_the_fingerprinted_games(deck: str) -> None:
    prepared = engine.prepare(sample(deck), catalogue())
    for policy in ("greedy", "random"):
        fingerprint = Fingerprint()
        for number in range(1, MANY_SOLO_GAMES + 1):
            seed = game_seed(7, number)
            state = engine.new_game(prepared, None, seed)
            chooser = policies.POLICIES[policy](derive_seed(seed, "policy"))
            while not state.outcome:
                actions = engine.legal_actions(state)
                choice = chooser(state, actions)
                fingerprint.decision(0, actions, choice)
                assert engine.apply(state, choice).ok
            fingerprint.end(state.outcome, 0, state.final_round)
        fingerprint.check(SOLO_FINGERPRINTS, f"{deck} {policy} seed 7")


@pytest.mark.parametrize("decks", TABLES[:8], ids=["+".join(d.removesuffix(".txt") for d in t)
                                                   for t in TABLES[:8]])
def test_the_tables_of_many_seeds_are_the_fingerprinted_tables(decks: tuple[str, ...]) -> None:
    prepared = table_decks(decks)
    config = GameConfig(players=len(decks))
    fingerprint = Fingerprint()
    for number in range(1, MANY_TABLE_GAMES + 1):
        seed = derive_seed(7, "matchup", number)
        table = seats.new_table(prepared, seed, config)
        play_fingerprinted(table, seat_policies(seed, number, len(decks)), fingerprint)
    fingerprint.check(TABLE_FINGERPRINTS,
                      "-vs-".join(d.removesuffix(".txt") for d in decks) + " seed 7")


def test_a_profile_s_kind_attributes_are_its_type_and_subtype() -> None:
    for deck in SAMPLES:
        for card in engine.prepare(sample(deck), catalogue()).by_id.values():
            assert card.is_troop == (card.type == "personality" and card.subtype == "troop")
            assert card.is_citizen == (card.type == "personality"
                                       and card.subtype == "citizen")
            assert card.is_structure == (card.type == "structure")
            assert rulings.tokens(card.cost) == sum(card.cost)
