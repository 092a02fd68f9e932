"""Playtest services: start, apply with the decision check, undo by replay, policy play."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from decks.deck_input import DeckInputError
from decks.models import Deck
from playtest.models import PlaytestGame
from playtest.play import Refused
from playtest.services import (
    playtest_apply,
    playtest_auto,
    playtest_share,
    playtest_start_from,
    playtest_state,
    playtest_undo,
    playtests_visible,
)
from rules.game import engine
from rules.game.engine import DeckNotPlayable
from rules.game.policies import GreedyPolicy
from rules.game.state import GameState
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
TEXT = (FIXTURES / "decklists" / "mosfin-blades.txt").read_text(encoding="utf-8")


def new_game(seed: int = 7, **kwargs: Any) -> PlaytestGame:
    deck = Deck.objects.get(name="Kalim Faithful")
    return playtest_start_from(user=None, session_token="s-1", deck_id=deck.pk, seed=seed,
                               **kwargs)


def stored(game: PlaytestGame) -> PlaytestGame:
    return PlaytestGame.objects.get(pk=game.pk)


def as_json(state: GameState) -> Any:
    """The state as the database keeps it (to_dict() holds a tuple or two)."""
    return json.loads(json.dumps(state.to_dict()))


def test_a_new_game_waits_at_its_first_decision() -> None:
    game = new_game(target=20)
    game = stored(game)
    assert (game.decisions, game.actions, game.round, game.outcome) == (0, [], 1, "")
    assert game.deck_name == "Kalim Faithful" and game.source_deck is not None
    assert game.config["target"] == 20 and game.state["step"] == "draw"
    assert game.deck_text.startswith("# Kalim Faithful")


def test_a_pasted_decklist_starts_a_game_too() -> None:
    game = playtest_start_from(user=None, session_token="s-1", text=TEXT, seed=3)
    assert game.deck_name == "Mosfin Blades" and game.source_deck is None


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [({"text": "1 No Such Card At All"}, DeckInputError),
     ({"text": "Initial Holdings\n1 Bowman (kalim)"}, DeckNotPlayable)],
    ids=["unreadable", "real cards without numbers"],
)
def test_a_deck_the_engine_cannot_play_is_refused(kwargs: dict[str, Any],
                                                  error: type[Exception]) -> None:
    with pytest.raises(error):
        playtest_start_from(user=None, session_token="s-1", **kwargs)
    assert not PlaytestGame.objects.exists()


def test_a_private_deck_of_someone_else_cannot_be_played() -> None:
    owner = User.objects.create_user("owner")
    deck = Deck.objects.create(owner=owner, name="Secret")
    with pytest.raises(Deck.DoesNotExist):
        playtest_start_from(user=None, session_token="s-1", deck_id=deck.pk)


def test_applying_a_move_stores_the_action_and_the_state() -> None:
    game = new_game()
    game, move = playtest_apply(game=game, decision=0, index=1)
    assert move.texts == ["Draw from the Personality Pile"]
    game = stored(game)
    assert game.decisions == 1 and game.actions == [
        {"kind": "draw", "card": -1, "target": -1, "option": "personalities"}]
    assert game.state == as_json(game.table_source().replay(game.actions, record=False).state)


@pytest.mark.parametrize(
    ("kwargs", "status", "code"),
    [({"decision": 0, "index": 0}, 409, "stale_decision"),
     ({"decision": 5, "index": 0}, 409, "stale_decision"),
     ({"decision": 1, "index": 40}, 400, "illegal_action"),
     ({"decision": 1, "action": {"kind": "hunt"}}, 400, "illegal_action")],
    ids=["replayed-click", "from-the-future", "no-such-number", "not-legal-now"],
)
def test_a_stale_or_illegal_move_is_refused_and_changes_nothing(
        kwargs: dict[str, Any], status: int, code: str) -> None:
    game, _ = playtest_apply(game=new_game(), decision=0, index=0)
    before = stored(game)
    with pytest.raises(Refused) as refused:
        playtest_apply(game=game, **kwargs)
    assert (refused.value.status, refused.value.code) == (status, code)
    after = stored(game)
    assert (after.actions, after.state, after.decisions) == (
        before.actions, before.state, before.decisions)


@pytest.mark.parametrize("k", [0, 3, 12, 30])
def test_undo_to_k_is_a_fresh_replay_to_k(k: int) -> None:
    game, _ = playtest_auto(game=new_game(), until="game")
    assert game.decisions > 30
    everything = list(game.actions)
    game = playtest_undo(game=game, decision=k)
    game = stored(game)
    fresh = new_game()
    policy = GreedyPolicy()
    state = playtest_state(fresh)
    for _ in range(k):
        engine.apply(state, policy(state, engine.legal_actions(state)))
    assert game.actions == everything[:k] and game.decisions == k
    assert game.state == as_json(state)


def test_undo_beyond_the_current_decision_is_refused() -> None:
    game, _ = playtest_apply(game=new_game(), decision=0, index=0)
    with pytest.raises(Refused) as refused:
        playtest_undo(game=game, decision=2)
    assert refused.value.code == "bad_decision" and stored(game).decisions == 1


@pytest.mark.parametrize(
    ("until", "check"),
    [("action", lambda g, m: len(m.actions) == 1 and g.decisions == 1),
     ("phase", lambda g, m: g.state["phase"] == "action" and g.decisions == 7),
     ("game", lambda g, m: g.outcome != "" and len(g.actions) == g.decisions)],
)
def test_the_policy_plays_until_the_action_phase_or_game_ends(until: str, check: Any) -> None:
    game, move = playtest_auto(game=new_game(), until=until)  # type: ignore[arg-type]
    game = stored(game)
    assert check(game, move)
    assert game.state == as_json(game.table_source().replay(game.actions, record=False).state)


def test_the_policy_refuses_a_finished_game_and_a_stale_decision() -> None:
    game, _ = playtest_auto(game=new_game(), until="game")
    with pytest.raises(Refused, match="over"):
        playtest_auto(game=game, until="action")
    with pytest.raises(Refused, match="decision 0"):
        playtest_auto(game=new_game(), until="action", decision=0 + 3)


def test_a_player_takes_over_after_the_policy() -> None:
    game, _ = playtest_auto(game=new_game(), until="phase")
    game, move = playtest_apply(game=game, decision=7, index=0)
    assert stored(game).decisions == 8 and move.texts


def test_games_are_visible_to_their_owner_or_their_session_only() -> None:
    ada = User.objects.create_user("ada")
    mine = playtest_start_from(user=ada, session_token="", text=TEXT, seed=1)
    anonymous = new_game()
    assert list(playtests_visible(user=ada, session_token="")) == [mine]
    assert list(playtests_visible(user=None, session_token="s-1")) == [anonymous]
    assert list(playtests_visible(user=None, session_token="s-2")) == []
    assert mine.session_token == "" and mine.owner == ada


def test_sharing_makes_and_drops_a_link() -> None:
    game = playtest_share(game=new_game(), shared=True)
    token = game.share_token
    assert token and playtest_share(game=game, shared=True).share_token == token
    assert playtest_share(game=game, shared=False).share_token is None
