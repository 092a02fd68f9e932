"""What one seat of an online table may see, as plain data (docs/tables.md, docs/design.md §15).

Pure Python (no Django). A view holds the viewer's own hand, every seat's public zones (the
cards in play, the discard piles, the personal pool, influence) and only *counts* of the
hands, the draw piles and the dead pile; never another seat's hand, the order of any draw
pile or the engine's raw state. The log leaves out the cards another seat drew; the battle
(``combat``) names only cards the view names elsewhere. A spectator
(``viewer`` None) sees the same without a hand or moves.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any, Final

from playtest.table_play import TableGame, action_text, distinct_texts, hidden, seat_line
from rules.game import rulings, seats
from rules.game.state import GameState
from rules.game.vocabulary import TOKEN_KINDS
from tables.battle import battle

# The zones of a seat that every seat sees, in the rulebook's layout order.
PUBLIC_ZONES: Final = ("private", "residents", "guards", "defensive", "wanderers", "attached")
DRAW_PILES: Final = (("structures", "structure_pile", "structure_discard"),
                     ("personalities", "personality_pile", "personality_discard"),
                     ("wanderers", "wanderer_pile", "wanderer_discard"))
# The zones whose cards a view names: a battle's cards are named only while in one of them.
NAMED_ZONES: Final = frozenset([*PUBLIC_ZONES, *(discard for _, _, discard in DRAW_PILES)])
LOG_LINES: Final = 200  # the end of the log a view carries
# A seat's setup line names its RNG's seed, from which the order of its draw piles follows:
# never shown at a table.
SEED: Final = re.compile(r"\bseed \d+(, )?")


def _card(state: GameState, instance: int) -> dict[str, Any]:
    card = state.card(instance)
    return {"id": card.id, "name": card.name}


def card_ref(seed: int, instance: int) -> str:
    """The name of a card in play in a card trade: the same for the whole game, and opaque.
    (Not the instance: instances follow the decklist's order, so they would tell the others
    how many cards of a seat's hidden piles come before or after a card.)"""
    key = seed.to_bytes(8, "big", signed=True)
    return hashlib.blake2b(instance.to_bytes(4, "big"), key=key, digest_size=5).hexdigest()


def tradable_refs(table: seats.Table, seat: int) -> dict[str, int]:
    """The seat's cards that may be offered in a trade (seats.tradable), by their
    :func:`card_ref`."""
    return {card_ref(table.seed, i): i for i in seats.tradable(table, seat, any_phase=True)}


def card_named(table: seats.Table, ref: str) -> str:
    """The name of the card ``ref`` names at the table ("" when none does), for a refusal
    that says which card it means (a card ticked under another seat than the one offered)."""
    state = table.state
    for i in range(len(state.cards)):
        if card_ref(table.seed, i) == ref:
            return state.card(i).name
    return ""


def _in_play(table: seats.Table, seat: int, card_trades: bool) -> list[dict[str, Any]]:
    """The seat's cards in play. At a table that agreed to card trades, ``ref`` names one in
    a trade and ``tradable`` says whether it may be traded (seats.tradable: not a wanderer, a
    stronghold, or a card attached or housed on another); elsewhere neither is worked out (a
    view is the tables' most frequent request)."""
    state = table.state
    zones = table.seat(seat).zones
    cards = [{**_card(state, i), "zone": zone, "exhausted": i in state.exhausted,
              "wounds": state.wounds.get(i, 0)}
             for zone in PUBLIC_ZONES for i in zones[zone]]
    if card_trades:
        loose = set(seats.tradable(table, seat, any_phase=True))
        instances = [i for zone in PUBLIC_ZONES for i in zones[zone]]
        for entry, i in zip(cards, instances, strict=True):
            entry["ref"], entry["tradable"] = card_ref(table.seed, i), i in loose
    return cards


def _seat_summary(played: TableGame, seat: int, names: Sequence[str],
                  card_trades: bool = False) -> dict[str, Any]:
    table = played.table
    state = table.state
    zones = table.seat(seat).zones
    out = table.out.get(seat)
    return {
        "seat": seat, "name": names[seat] if seat < len(names) else f"Seat {seat + 1}",
        "influence": rulings.influence_total(state, seat),
        "personal": {kind: table.seat(seat).personal[k] for k, kind in enumerate(TOKEN_KINDS)},
        "hand_count": len(zones["hand"]),
        "piles": [{"key": key, "count": len(zones[pile]),
                   "discard": [_card(state, i) for i in reversed(zones[discard])]}
                  for key, pile, discard in DRAW_PILES],
        "dead_count": len(zones["dead"]),
        "in_play": _in_play(table, seat, card_trades),
        "lead": table.lead == seat,
        "out": {"round": out[0], "how": out[1]} if out else None,
    }


def _log_start(story: Sequence[tuple[int, int, str]], viewer: int) -> int:
    """Where the view's log starts in the story: back as far as LOG_LINES lines ``viewer``
    may read (each gives a line of the log, which the people's moves only add to), but no
    further than three times that (a line in three or so is hidden from a seat: another's
    draw). Formatting only those, not every line since, gives the same last LOG_LINES."""
    since = max(len(story) - 3 * LOG_LINES, 0)
    readable = 0
    for at in range(len(story) - 1, since - 1, -1):
        _, seat, text = story[at]
        if not hidden(seat, text, viewer):
            readable += 1
            if readable == LOG_LINES:
                return at
    return since


def seat_view(played: TableGame, viewer: int | None, names: Sequence[str], *,
              decision: int, card_trades: bool = False) -> dict[str, Any]:
    """The table as ``viewer`` (a seat, or None for a spectator) may see it now; ``names``
    are the seats' names as people read them, ``decision`` the table's decision counter,
    ``card_trades`` whether its people agreed to trade cards (the cards' refs shown)."""
    table = played.table
    mover = seats.to_move(table)
    step = table.state.step if mover >= 0 else ""
    me = -1 if viewer is None else viewer
    log = played.log(names, viewer=me, start=_log_start(table.story or [], me))[-LOG_LINES:]
    view: dict[str, Any] = {
        "decision": decision, "round": table.round, "phase": table.stage, "step": step,
        "to_move": [mover] if mover >= 0 else [], "you": viewer,
        "seats": [_seat_summary(played, seat, names, card_trades)
                  for seat in range(table.players)],
        "log": [{"text": SEED.sub("", line.text), "kind": line.kind, "seat": line.seat}
                for line in log],
        "outcome": table.outcome, "winner": table.winner,
        "combat": battle(table, names, me, NAMED_ZONES),
    }
    if viewer is not None:
        state = table.state
        view["hand"] = [_card(state, i) for i in table.seat(viewer).zones["hand"]]
        if mover == viewer:
            legal = seats.legal_actions(table)
            choice = played.policies()[viewer](table, viewer, legal)
            texts = distinct_texts(state, legal, [action_text(table, viewer, action, names,
                                                               viewer) for action in legal])
            view["legal_actions"] = [
                {"index": index, "text": texts[index], "kind": action.kind,
                 "policy": action == choice}
                for index, action in enumerate(legal)]
    return view


def replay_view(played: TableGame, names: Sequence[str], *, decision: int) -> dict[str, Any]:
    """A finished game at one of its decisions as its replay shows it to everyone: the public
    view with every seat's hand (``hand`` in each seat) and the whole log, draws named. Never
    for a game under way (the caller checks that it is over)."""
    table = played.table
    view = seat_view(played, None, names, decision=decision)
    for summary in view["seats"]:
        summary["hand"] = [_card(table.state, i)
                           for i in table.seat(summary["seat"]).zones["hand"]]
    view["log"] = [{"text": SEED.sub("", seat_line(seat, text, names, -1)), "kind":
                    "round" if seat < 0 and text.startswith("Round ") else
                    "phase" if seat < 0 else "event", "seat": seat if seat >= 0 else None}
                   for _, seat, text in (table.story or [])[-3 * LOG_LINES:]]
    return view
