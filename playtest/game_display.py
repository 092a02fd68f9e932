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
from playtest.hints import clone, victory_chances
from playtest.models import PlaytestGame
from playtest.play import LogLine
from playtest.services import replayed, table_done, table_game
from playtest.table import (
    Links,
    action_menu,
    attacking_seat,
    battle_title,
    combat_layout,
    controlled_fight,
    fight_elsewhere,
    seat_side,
    table_layout,
    table_status,
)
from playtest.table_play import PLAYER, TableGame, action_text, seat_name
from rules.game.narrate import PHASES
from rules.game.state import GameState


def card_links(card_ids: Iterable[str]) -> Links:
    """Small image renditions (versioned by their source, so browsers cache them) and pages."""
    hashes = dict(CardImage.objects.filter(card_id__in=list(card_ids))
                  .values_list("card_id", "source_hash"))
    return Links(image=lambda cid: card_image_urls(cid, hashes.get(cid))["small"],
                 page=lambda cid: card_url(cid, "page"))


@dataclass
class GameView:
    """A game at one decision, replayed with its story: its table (solo: a table of one)."""

    game: PlaytestGame
    played: TableGame
    log: list[LogLine]
    log_missing: str = ""  # why the log could not be rebuilt, if it could not
    cached: bool = False  # ``played`` goes back to the cache of tables once shown

    @property
    def state(self) -> GameState:
        """The player's seat."""
        return self.played.state


def game_view(game: PlaytestGame, upto: int | None = None) -> GameView:
    """The game replayed from its seed to decision ``upto`` (the current one by default)."""
    if upto is not None and upto < game.decisions:
        played = replayed(game, upto)
        return GameView(game, played, played.log(game.seat_names()))
    played = table_game(game)
    return GameView(game, played, played.log(game.seat_names()), cached=True)


def game_context(view: GameView, *, focus: int | None = None, hints: bool = False
                 ) -> dict[str, Any]:
    """Everything the game's templates show (and the API's document is built from)."""
    played = view.played
    if not played.solo:
        return _table_context(view, played, focus)
    state = played.state
    links = card_links(state.facts)
    legal = played.legal()
    menu = action_menu(state, policy=played.policy_index(), focus=focus, legal=legal)
    # Hints play the solo game on from a copy of the seat (its JSON form: the solo game's).
    chances = victory_chances(clone(state)) if hints and not state.over else None
    if chances:
        for row in menu["actions"]:
            row["chance"] = chances["by_index"].get(row["index"])
            row["best"] = row["index"] == chances["best"]
    focused = None
    if focus is not None and 0 <= focus < len(state.cards):
        focused = {"instance": focus, "name": state.card(focus).name}
    context = {
        "game": view.game, "table": table_layout(state, links), "menu": menu,
        "log": view.log, "log_missing": view.log_missing, "hints": chances,
        "card_names": CardNames(state.facts),
        "focused": focused, "decision": state.decisions,
        "actions_taken": len(view.game.actions),
    }
    if view.cached:  # read, not changed: back to the cache (no other request held it)
        table_done(view.game, played)
    return context


def _table_context(view: GameView, played: TableGame, focus: int | None) -> dict[str, Any]:
    """A game against opponents: the player's table and moves as solo, each opponent's
    visible side, and the log naming each line's seat."""
    state = played.state
    names = view.game.seat_names()
    facts = state.facts
    links = card_links(facts)
    legal = played.legal()
    menu = action_menu(state, policy=played.policy_index(), focus=focus, legal=legal,
                       words=lambda action: action_text(played.table, PLAYER, action, names))
    menu["decision"] = played.decisions  # the player's, not the seat engine's
    window = played.table.window
    if window is not None and window.seat != PLAYER and legal:
        # A reaction window asks the player: say what is held back, which the answers stop.
        menu["held"] = (f"{seat_name(window.seat, names)} is about to: "
                        f"{action_text(played.table, window.seat, window.action, names)}.")
    table = table_layout(state, links, PLAYER, played.standing())
    controlled = controlled_fight(played, names)
    if controlled is not None:
        # The player's own attack, or wanderers he controls, fought as another seat's combat:
        # seen from the attacking side.
        table["combat"] = combat_layout(controlled[0], links, side=1, title=controlled[1])
    elif (elsewhere := fight_elsewhere(played)) is not None:
        # Another seat's combat in which the player is asked (Crusade at his turn of its
        # modification step): shown as that seat's, so he sees the troops he may exhaust.
        attacker = attacking_seat(played.table)
        table["combat"] = combat_layout(
            elsewhere, links, title=battle_title(elsewhere, names),
            owner=seat_name(elsewhere.player, names),
            attacker=seat_name(attacker, names) if attacker not in (-1, PLAYER) else "")
    elif table["combat"] is not None and (attacker := attacking_seat(played.table)) >= 0:
        # Another seat's troops attack the player: named as his, not as wanderers.
        table["combat"] = combat_layout(state, links, attacker=seat_name(attacker, names))
    table.update(table_status(played, names))
    table["decision"] = played.decisions
    focused = None
    if focus is not None and 0 <= focus < len(state.cards):
        focused = {"instance": focus, "name": state.card(focus).name}
    context = {
        "game": view.game, "table": table, "menu": menu,
        "opponents": [seat_side(played, seat, links, names)
                      for seat in range(1, played.table.players)],
        "log": view.log, "log_missing": view.log_missing, "hints": None,
        "card_names": CardNames(facts), "focused": focused, "decision": played.decisions,
        "actions_taken": len(view.game.actions), "at_table": True,
        "can_surrender": played.playing,
    }
    if view.cached:  # read, not changed: back to the cache (no other request held it)
        table_done(view.game, played)
    return context


def game_document(game: PlaytestGame, request_url: str, view: GameView | None = None,
                  share_url: str | None = None) -> dict[str, Any]:
    """The API's answer for a game: where it stands, the table, the legal actions (from its
    table in play)."""
    if view is None:
        view = game_view(game)
    context = game_context(view)
    menu, table = context["menu"], context["table"]
    extra: dict[str, Any] = {}
    if game.at_table:
        extra = {"seat": PLAYER, "opponents": [
            {"seat": side["seat"], "name": side["name"], "source_deck": o["source_deck"],
             "side": side}
            for side, o in zip(context["opponents"], game.opponents, strict=True)]}
        extra["to_move"] = context["table"]["to_move"]
        extra["winner"] = context["table"]["winner"]
    # At a table, the table's phase (a seat that waits for the others is parked in a phase
    # and step of its own, "wait": its standing, not the phase the page names).
    phase = table["stage"] if table.get("stage") in PHASES else table["phase"]
    table = {**table, "phase": phase}
    return {
        "id": game.pk, "url": request_url, "deck_name": game.deck_name, "seed": game.seed,
        "config": game.config, "decision": context["decision"],
        "round": table["round"], "phase": phase, "step": table["step"],
        "over": table["over"], "outcome": table["outcome"],
        "legal_actions": [
            {"index": row["index"], "number": row["number"], "text": row["text"],
             "policy": row["policy"], **row["action"]}
            for row in menu["actions"]
        ],
        "policy_index": menu["policy"], "table": table,
        "state": game.state, "share_url": share_url,
        "created_at": game.created_at.isoformat(), "updated_at": game.updated_at.isoformat(),
        **extra,
    }
