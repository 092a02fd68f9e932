"""What the API and the pages show of a table: its document and a seat's view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tables import clock
from tables.models import Table, TableSeat
from tables.presence import Presence, table_presence_now
from tables.seat_view import card_ref, replay_view, seat_view
from tables.services import (
    ROWS,
    grace_ends,
    replayed_at,
    seat_names,
    seat_of,
    seat_rows,
    table_settled,
    viewed_table,
)


def table_document(table: Table, user: Any, *, url: str, page: str, invite: str,
                   rows: Sequence[TableSeat] | None = None) -> dict[str, Any]:
    """The table document of docs/design.md §15: ``invite`` (the link) only for seated people. Read
    after what the clock owes is played (tables.services.table_settled)."""
    table = table_settled(table)
    # Its seats afresh, not the kept ones: a socket opening or closing may change a seat's
    # left_at without bumping the version (when who is here stays the same: tables.presence).
    rows = list(rows) if rows is not None else seat_rows(table)
    you = seat_of(table, user, rows)
    now = table_presence_now(table)
    out: set[int] = set()
    if table.status != Table.OPEN:
        with viewed_table(table) as played:
            out = set(played.table.out)
    document: dict[str, Any] = {
        "id": table.pk, "url": url, "page": page, "status": table.status,
        "host": table.host.get_username(), "version": table.version, "you": you,
        "seats": [{"seat": row.seat, "kind": row.kind, "name": row.name,
                   "deck_name": row.deck_name,
                   "present": row.user_id is not None and row.user_id in now.here,
                   "out": row.seat in out, **_left(row, now)}
                  for row in rows],
        "card_trades": table.card_trades, "clock": table.clock,
    }
    if you is not None:
        document["invite"] = invite
    return document


def _left(row: TableSeat, now: Presence) -> dict[str, Any]:
    """What a person's seat says of his leaving: the AI holds it (``stand_in``), and when his
    grace period ends once he left (``grace_ends``, null while he is here)."""
    if row.kind != TableSeat.PERSON:
        return {}
    ends = grace_ends(row, now)
    return {"stand_in": row.stand_in, "grace_ends": ends.isoformat() if ends else None}


def _undo(table: Table, rows: Sequence[TableSeat]) -> dict[str, Any] | None:
    if table.undo is None:
        return None
    seat = int(table.undo["seat"])
    asked = [row.seat for row in rows if row.kind == TableSeat.PERSON and row.seat != seat
             and not row.stand_in]
    return {"seat": seat, "to_decision": table.undo["keep"],
            "consents": list(table.undo["consents"]),
            "waiting": [s for s in asked if s not in table.undo["consents"]]}


def view_document(table: Table, user: Any) -> dict[str, Any]:
    """The caller's view of the table (a spectator's when he has no seat), after what the
    clock owes is played."""
    table = table_settled(table)
    kept = ROWS.read(table)  # shared by every seat's view of this version: read only
    rows = kept.seats
    you = seat_of(table, user, rows)
    # Copies: a view fills in the cards of its offers, and the kept ones are every seat's.
    offers = [{**offer, "give": dict(offer["give"]), "take": dict(offer["take"]),
               "give_cards": list(offer["give_cards"]), "take_cards": list(offer["take_cards"])}
              for offer in kept.offers]
    common = {"version": table.version, "status": table.status,
              "chat": [dict(line) for line in kept.chat], "offers": offers,
              "card_trades": table.card_trades,
              "clock": clock.clock_document(table, clock.now()), "undo": _undo(table, rows)}
    if table.status == Table.OPEN:
        return {**common, "decision": 0, "round": 0, "phase": "", "step": "", "to_move": [],
                "you": you, **({"hand": []} if you is not None else {}),
                "seats": [{"seat": row.seat, "name": row.name, "influence": 0,
                           "hand_count": 0, "piles": [], "in_play": []} for row in rows],
                "log": [], "outcome": "", "winner": -1, "combat": None}
    with viewed_table(table) as played:
        view = seat_view(played, you, seat_names(rows), decision=table.decision,
                         card_trades=table.card_trades)
        if any(o["give_cards"] or o["take_cards"] for o in offers):
            state, seed = played.state, played.table.seed
            for offer in offers:  # the cards by name (cards in play: public) and ref
                for side in ("give_cards", "take_cards"):
                    offer[side] = [{"ref": card_ref(seed, i), "id": state.card(i).id,
                                    "name": state.card(i).name} for i in offer[side]]
    return {**view, **common}


def replay_document(table: Table, decision: int) -> dict[str, Any]:
    """A finished table after its first ``decision`` moves, every hand shown: the table's
    replay (only once the game is over: the caller checks)."""
    rows = seat_rows(table)
    played = replayed_at(table, decision)
    return {**replay_view(played, seat_names(rows), decision=decision),
            "decisions": table.decision, "status": table.status, "version": table.version}
