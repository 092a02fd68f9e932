"""What a view reads of a table besides its own row, kept per process at the table's version
(docs/tables.md "Storage"): its seats (with their people), the last lines of talk and the last
trades.

After a change every seat fetches its view at the same version: they share one read instead of
three queries each. An entry holds one version of a table; a read that finds another version
reads afresh. That is exact because every change of a seat, of the talk or of the trades bumps
the table's version in the transaction that makes it (tables.services); what a reader reads
after the table's row is never older than the version it keys. A write (holding the row lock)
keeps the seats it saved at the version it made, with the talk and trades of the version
before when it changed neither, so the views the change calls for read no rows at all.

The seats kept are shared by every reader: read them, never change them (a write reads its own
under the lock). Their ``left_at`` may be behind: a socket opening or closing sets it without a
new version when who is here stays the same (tables.presence), so what shows it (the table
document's ``grace_ends``) reads the seats afresh; a view does not show it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from rules.game.vocabulary import TOKEN_KINDS
from tables.models import Table, TableSeat
from tables.per_table import PerTable

CHAT_LINES: Final = 50  # the end of the talk a view carries
OFFERS: Final = 20  # the last trades a view carries


@dataclass(frozen=True)
class TableRows:
    """A table's seats in order, its talk and its trades as a view shows them, at ``version``."""

    version: int
    seats: tuple[TableSeat, ...]
    chat: tuple[dict[str, Any], ...]
    offers: tuple[dict[str, Any], ...]


def seat_rows(table: Table) -> list[TableSeat]:
    """The table's seats in order, without their decks (read on a replay only)."""
    return list(table.seat_rows.select_related("user").defer("deck", "facts", "deck_text")
                .order_by("seat"))


def chat_lines(table: Table) -> tuple[dict[str, Any], ...]:
    lines = [{"seat": m.seat, "name": m.user.get_username() if m.user else "", "text": m.text,
              "at": m.created_at.isoformat()}
             for m in table.messages.select_related("user")
             .order_by("-created_at", "-id")[:CHAT_LINES]]
    return tuple(reversed(lines))


def offer_lines(table: Table) -> tuple[dict[str, Any], ...]:
    offers = [{"n": o.number, "from": o.from_seat, "to": o.to_seat, "status": o.status,
               "give": dict(zip(TOKEN_KINDS, o.give, strict=True)),
               "take": dict(zip(TOKEN_KINDS, o.take, strict=True)),
               "give_cards": tuple(o.give_cards), "take_cards": tuple(o.take_cards)}
              for o in table.offers.order_by("-number")[:OFFERS]]
    return tuple(reversed(offers))


class KeptRows(PerTable[TableRows]):
    """The rows of the tables read last in this process, one version each."""

    def at(self, table: Table, version: int) -> TableRows | None:
        """The entry of ``table`` at ``version``, if kept."""
        with self._lock:
            kept = self._kept.get(self.key(table))
        return kept if kept is not None and kept.version == version else None

    def read(self, table: Table) -> TableRows:
        """The rows of ``table`` at its version (as read): kept, or read and kept."""
        key = self.key(table)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept.version == table.version:
                self._kept.move_to_end(key)
                return kept
        rows = TableRows(table.version, tuple(seat_rows(table)), chat_lines(table),
                         offer_lines(table))
        self.put(table, rows)
        return rows

    def put(self, table: Table, rows: TableRows) -> None:
        """Keep ``rows`` as the table's most recent; an entry of a later version stays."""
        self._keep(table, rows, lambda old: old.version <= rows.version)

    def written(self, table: Table, before: int, seats: Sequence[TableSeat]) -> TableRows | None:
        """What a write that changed neither the talk nor the trades leaves at the table's
        new version: its ``seats`` (as saved) with the talk and trades kept at ``before``, the
        version it locked; None when none is kept at ``before``."""
        kept = self.at(table, before)
        if kept is None:
            return None
        return TableRows(table.version, tuple(seats), kept.chat, kept.offers)
