"""What the playtest pages and the API show of a game: the table, the moves, the log, hints.

The adapter between a stored :class:`~playtest.models.PlaytestGame` and the pure modules
(:mod:`playtest.play`, :mod:`playtest.table`, :mod:`playtest.hints`): it
replays the game with recording on (the log needs the events, which a saved state does not
keep) and gives the table its card URLs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cards.card_links import CardNames
from cards.card_urls import card_image_urls, card_url
from cards.models import CardImage
from playtest.hints import victory_chances
from playtest.models import PlaytestGame
from playtest.play import LogLine, log_lines, policy_index
from playtest.table import Links, action_menu, table_layout
from rules.game.state import GameState


def card_links(card_ids: Iterable[str]) -> Links:
    """Small image renditions (versioned by their source, so browsers cache them) and pages."""
    hashes = dict(CardImage.objects.filter(card_id__in=list(card_ids))
                  .values_list("card_id", "source_hash"))
    return Links(image=lambda cid: card_image_urls(cid, hashes.get(cid))["small"],
                 page=lambda cid: card_url(cid, "page"))


@dataclass
class GameView:
    """A game at one decision, replayed with its story."""

    game: PlaytestGame
    state: GameState
    log: list[LogLine]
    log_missing: str = ""  # why the log could not be rebuilt, if it could not


def game_view(game: PlaytestGame, upto: int | None = None) -> GameView:
    """The game replayed from its seed to decision ``upto`` (the current one by default)."""
    try:
        state = game.source().replay(game.actions, upto, record=True)
    except ValueError:
        # Only a game saved by another version of the engine gets here: show where it stands.
        state = GameState.from_dict(game.state)
        return GameView(game, state, [], "This game was played with another version of the "
                                         "rules engine: its log cannot be rebuilt.")
    return GameView(game, state, log_lines(state))


def game_context(view: GameView, *, focus: int | None = None, hints: bool = False
                 ) -> dict[str, Any]:
    """Everything the game's templates show (and the API's document is built from)."""
    state = view.state
    links = card_links(state.facts)
    policy = policy_index(state)
    menu = action_menu(state, policy=policy, focus=focus)
    chances = victory_chances(state) if hints and not state.over else None
    if chances:
        for row in menu["actions"]:
            row["chance"] = chances["by_index"].get(row["index"])
            row["best"] = row["index"] == chances["best"]
    focused = None
    if focus is not None and 0 <= focus < len(state.cards):
        focused = {"instance": focus, "name": state.card(focus).name}
    return {
        "game": view.game, "table": table_layout(state, links), "menu": menu,
        "log": view.log, "log_missing": view.log_missing, "hints": chances,
        "card_names": CardNames(state.facts),
        "focused": focused, "decision": state.decisions,
        "actions_taken": len(view.game.actions),
    }


def game_document(game: PlaytestGame, request_url: str, view: GameView | None = None,
                  share_url: str | None = None) -> dict[str, Any]:
    """The API's answer for a game: where it stands, the table, the legal actions (from the
    stored state: no replay, no log)."""
    view = view or GameView(game, GameState.from_dict(game.state), [])
    context = game_context(view)
    menu = context["menu"]
    return {
        "id": game.pk, "url": request_url, "deck_name": game.deck_name, "seed": game.seed,
        "config": game.config, "decision": view.state.decisions,
        "round": view.state.round, "phase": view.state.phase, "step": view.state.step,
        "over": view.state.over, "outcome": view.state.outcome,
        "legal_actions": [
            {"index": row["index"], "number": row["number"], "text": row["text"],
             "policy": row["policy"], **row["action"]}
            for row in menu["actions"]
        ],
        "policy_index": menu["policy"], "table": context["table"],
        "state": game.state, "share_url": share_url,
        "created_at": game.created_at.isoformat(), "updated_at": game.updated_at.isoformat(),
    }
