"""The engine's contracts: determinism, replay, JSON round trips, invariants, refusals."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.decklist import DeckEntry, Decklist
from rules.game import engine
from rules.game.actions import Action, describe
from rules.game.config import GameConfig
from rules.game.policies import GreedyPolicy, RandomPolicy
from rules.game.state import IN_PLAY, ZONES, GameState
from tests.rules.game.engine_helpers import SAMPLES, catalogue, sample


def play(state: GameState, policy: object, check: bool = False, limit: int = 20_000) -> None:
    for _ in range(limit):
        if state.over:
            return
        actions = engine.legal_actions(state)
        assert actions, "a game that is not over always has a legal action"
        result = engine.apply(state, policy(state, actions))  # type: ignore[operator]
        assert result.ok, result.reason
        if check:
            check_invariants(state)
    raise AssertionError("the game did not end")


def check_invariants(state: GameState) -> None:
    tokens = [state.mover().personal[k] + state.city[k]
              + sum(v[k] for v in state.on_card.values()) for k in range(3)]
    start = [engine.STARTING_TOKENS[k] + state.config.city_pool[k] for k in range(3)]
    assert tokens == start, "tokens are conserved between the pools"
    assert min(state.mover().personal) >= 0 and min(state.city) >= 0, "no pool is negative"
    listed = sorted(i for zone in ZONES for i in state.mover().zones[zone])
    assert listed == list(range(len(state.cards))), "every card is in exactly one zone"
    for zone in ZONES:
        assert all(state.where[i] == zone for i in state.mover().zones[zone])
    for instance, host in state.host.items():
        assert state.where[instance] in ("residents", "guards", "attached")
        assert state.in_play(host), "hosts are in play"
    for instance in state.exhausted:
        assert state.where[instance] in IN_PLAY, "only cards in play are exhausted"


def new(name: str, seed: int, **kwargs: object) -> GameState:
    return engine.new_game(sample(name), catalogue(), seed, GameConfig(), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", SAMPLES)
def test_the_same_seed_gives_the_same_game_even_after_disturbing_the_global_random(
        name: str) -> None:
    first = new(name, 11, record=True)
    play(first, GreedyPolicy())
    random.seed(12345)
    random.random()
    second = new(name, 11, record=True)
    play(second, GreedyPolicy())
    assert first.events == second.events
    assert first.to_dict() == second.to_dict()


def test_different_seeds_give_different_games() -> None:
    a, b = new(SAMPLES[0], 1, record=True), new(SAMPLES[0], 2, record=True)
    play(a, GreedyPolicy())
    play(b, GreedyPolicy())
    assert a.events != b.events


@pytest.mark.parametrize("name", SAMPLES)
def test_a_state_saved_as_json_mid_game_continues_exactly(name: str) -> None:
    whole = new(name, 5)
    policy = GreedyPolicy()
    for _ in range(60):
        engine.apply(whole, policy(whole, engine.legal_actions(whole)))
    saved = json.loads(json.dumps(whole.to_dict()))
    resumed = GameState.from_dict(saved)
    assert engine.legal_actions(resumed) == engine.legal_actions(whole)
    play(whole, policy)
    play(resumed, policy)
    assert resumed.to_dict() == whole.to_dict()


@pytest.mark.parametrize("name", SAMPLES)
def test_replay_of_the_log_rebuilds_the_game(name: str) -> None:
    state = new(name, 3, record=True)
    play(state, RandomPolicy(9))
    log = json.loads(json.dumps(engine.game_log(state)))
    rebuilt = engine.replay(log, sample(name), catalogue())
    assert rebuilt.to_dict() == state.to_dict()
    log["actions"][0] = {"kind": "hunt"}
    with pytest.raises(ValueError, match="refused"):
        engine.replay(log, sample(name), catalogue())


# 3,000 random-legal games in all, the invariants checked after every action: about 30 s of
# CPU on the compiled engine (1,000 games a deck cost twice that).
RANDOM_GAMES_PER_SAMPLE = 500


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
def test_invariants_hold_after_every_action_of_random_legal_games(name: str) -> None:
    for seed in range(RANDOM_GAMES_PER_SAMPLE):
        play(new(name, seed), RandomPolicy(seed), check=True)


def test_an_illegal_action_is_refused_with_a_reason_and_changes_nothing() -> None:
    state = new(SAMPLES[0], 4)
    before = state.to_dict()
    for action in (Action("hunt"), Action("play", 999), Action("fine", option="economic")):
        result = engine.apply(state, action)
        assert not result.ok and result.reason
        assert state.to_dict() == before


def test_legal_actions_are_in_a_stable_order_and_each_reads_as_a_sentence() -> None:
    state = new(SAMPLES[1], 8)
    for _ in range(40):
        actions = engine.legal_actions(state)
        assert actions == engine.legal_actions(GameState.from_dict(state.to_dict()))
        for action in actions:
            assert describe(state, action)[0].isupper()
        engine.apply(state, GreedyPolicy()(state, actions))


def test_a_deck_with_unknown_card_numbers_is_refused_by_name() -> None:
    real = [c for c in catalogue().values() if c.id.startswith("wof")][:1]
    deck = Decklist("Real", holdings=(DeckEntry(real[0].id, 1),))
    with pytest.raises(engine.DeckNotPlayable, match=real[0].name):
        engine.new_game(deck, catalogue(), 1)


def _generated_deck(draw: st.DrawFn) -> Decklist:
    facts = [c for c in catalogue().values() if c.id.startswith("demo")]
    by = {kind: [c.id for c in facts if c.pile == kind] for kind in
          ("structures", "personalities", "wanderers")}
    strongholds = [c.id for c in facts if c.structure_kind == "stronghold"]
    def entries(pool: list[str], low: int, high: int) -> tuple[DeckEntry, ...]:
        chosen = draw(st.lists(st.sampled_from(pool), min_size=low, max_size=high, unique=True))
        return tuple(DeckEntry(c, draw(st.integers(1, 2))) for c in chosen)
    generals = [c for c in by["structures"] if c not in strongholds]
    return Decklist("Generated", holdings=(DeckEntry(draw(st.sampled_from(strongholds)), 1),),
                structures=entries(generals, 3, 12), personalities=entries(by["personalities"],
                                                                          5, 20),
                wanderers=entries(by["wanderers"], 2, 8))


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(0, 2**32))
def test_random_legal_games_on_generated_decks_keep_every_invariant(
        data: st.DataObject, seed: int) -> None:
    deck = data.draw(st.builds(lambda: None).flatmap(lambda _: st.composite(
        lambda draw: _generated_deck(draw))()))
    try:
        state = engine.new_game(deck, catalogue(), seed)
    except engine.DeckNotPlayable:
        return  # e.g. a stronghold too dear for the 12 starting tokens
    play(state, RandomPolicy(seed), check=True)


def test_tallies_add_up_the_same_in_any_grouping_and_survive_json() -> None:
    from rules.game.report import Tally
    from rules.game.runner import RunSpec, run_chunk

    prepared = engine.prepare(sample(SAMPLES[2]), catalogue())
    spec = RunSpec(30, 4)
    whole = run_chunk(prepared, spec, 1, 30)
    parts = Tally()
    for first, last in ((21, 30), (1, 7), (8, 20)):
        part = Tally.from_dict(json.loads(json.dumps(run_chunk(prepared, spec, first,
                                                               last).to_dict())))
        parts.merge(part)
    assert parts.to_dict() == whole.to_dict()
    assert whole.games == 30 and set(whole.sample_games()) <= {"fastest", "median", "slowest"}


def test_a_snapshot_does_not_change_as_the_game_goes_on_and_observers_see_every_decision(
) -> None:
    from rules.game.runner import RunSpec, play_game

    prepared = engine.prepare(sample(SAMPLES[0]), catalogue())
    snapshots: dict[int, dict[str, object]] = {}
    seen = []

    def observe(state: GameState) -> None:
        seen.append(state.decisions)
        snapshots.setdefault(state.round, state.to_dict())

    final = play_game(prepared, RunSpec(10, 2), 3, observe=observe)
    assert seen == list(range(final.decisions))
    first = snapshots[1]
    assert first["round"] == 1 and first != final.to_dict()
    assert GameState.from_dict(json.loads(json.dumps(first))).round == 1


def test_a_copy_plays_on_alone_and_equals_its_json_round_trip() -> None:
    state = new(SAMPLES[3], 6)
    for _ in range(30):
        engine.apply(state, GreedyPolicy()(state, engine.legal_actions(state)))
    clone = state.copy()
    assert clone.by_id is state.by_id
    assert clone.to_dict() == json.loads(json.dumps(state.to_dict()))
    play(clone, GreedyPolicy())
    assert not state.over and clone.over


def test_ability_sentences_leave_out_the_card_markers() -> None:
    state = new(SAMPLES[3], 6)
    while state.step != "act":
        engine.apply(state, GreedyPolicy()(state, engine.legal_actions(state)))
    uses = [describe(state, a) for a in engine.legal_actions(state) if a.kind == "use"]
    assert uses and all(": E " not in text and "(F)" not in text for text in uses)
