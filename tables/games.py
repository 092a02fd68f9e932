"""The games of the tables in play, kept in each server process (docs/tables.md "Storage").

A table's game is never stored: it is replayed from its seats' decks and its moves, which
costs more as the game grows. So each process keeps the games it played last, at most
``settings.TABLE_CACHE_SIZE`` of them, the least recently used dropped first. An entry is
keyed by the table (its id and creation time: an id may be given again once its table is
deleted) and remembers the state it is at: the table's undos and its moves applied (both only
grow, but for an undo, which counts itself). When another process moved the table on, the
kept game catches up by playing only the moves it lacks; after an undo it is replayed.

A write *takes* the game (no one else sees it while the write changes it) and puts it back
once committed; a read borrows it in place, under the entry's lock, so the views of every
seat of a table share one game instead of replaying it each.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final

from playtest.play import Refused
from playtest.table_play import TableGame, play_moves
from rules.game.config import RULES_VERSION
from tables.models import Table, TableSeat, table_source
from tables.per_table import PerTable

# Locks for the replays of games none keeps, a table's always the same one of these: the
# views of every seat that find no game (a server's first views of a table, a restart) wait
# for the first one's replay and borrow it instead of each replaying the game. A lock a table
# would grow with every table ever read; two tables sharing one wait for each other's replay,
# which, in one process's threads, would not have run at once anyway.
REPLAY_LOCKS: Final = 64


def table_moves(table: Table) -> list[tuple[int, dict[str, Any]]]:
    """The table's moves as the game replays them, ``(seat, action)`` (a third item, who
    played it for a person, is for the record only)."""
    return [(int(move[0]), move[1]) for move in table.moves]


def persons_of(rows: Sequence[TableSeat]) -> frozenset[int]:
    return frozenset(row.seat for row in rows if row.kind == TableSeat.PERSON)


def replayed(table: Table, upto: int | None = None) -> TableGame:
    """The table's game replayed from its seats' decks and its first ``upto`` moves (all).
    Refused (409 ``not_replayable``) when its moves no longer replay: a table played with
    another version of the rules engine, whose rules or dice have changed since."""
    rows = list(table.seat_rows.order_by("seat"))
    try:
        return table_source(table, rows).replay_moves(table_moves(table), persons_of(rows),
                                                      upto=upto)
    except ValueError as error:
        played_with = (table.config or {}).get("rules_version", "an older version")
        raise Refused(
            "not_replayable",
            f"This table was played with the rules engine {played_with}, and the engine has "
            f"changed since ({RULES_VERSION} now): {error}, so its game can no longer be "
            "replayed. Start a new table.", status=409) from None


@dataclass(eq=False)
class Kept:
    """A kept game and the undos of the table it was played at (its ``decisions`` are the
    moves applied)."""

    game: TableGame
    undos: int
    taken: bool = False  # a write took it out: readers that hold it step back
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def state(self) -> tuple[int, int]:
        return self.undos, self.game.decisions

    def serves(self, table: Table) -> bool:
        """Whether the game is the table's as now, or behind it by moves only."""
        return self.undos == table.undos and self.game.decisions <= len(table.moves)


class TableGames(PerTable[Kept]):
    """The last games played in this process; ``size`` overrides the setting (tests)."""

    def __init__(self, size: int | None = None) -> None:
        super().__init__(size)
        self._replaying = [threading.Lock() for _ in range(REPLAY_LOCKS)]
        self.replays = 0  # games replayed from their first move (for the tests)

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, table: Table) -> bool:
        return self.key(table) in self._kept

    def _replayed(self, table: Table) -> TableGame:
        self.replays += 1
        return replayed(table)

    def replay_lock(self, table: Table) -> threading.Lock:
        """The lock a read holds while it replays the table's game for others to borrow."""
        return self._replaying[hash(self.key(table)) % REPLAY_LOCKS]

    def _touched(self, table: Table) -> Kept | None:
        """The table's kept game, now the most recently used, or None."""
        with self._lock:
            kept = self._kept.get(self.key(table))
            if kept is not None:
                self._kept.move_to_end(self.key(table))
        return kept

    def take(self, table: Table) -> TableGame:
        """The game of the table as it is now, the caller's alone (it holds the table's row
        lock): kept and caught up, or replayed. :meth:`put` gives it back."""
        with self._lock:
            kept = self._kept.pop(self.key(table), None)
            if kept is not None:
                kept.taken = True
        if kept is None or not kept.serves(table):
            return self._replayed(table)
        with kept.lock:  # a read still on it ends first
            pass
        play_moves(kept.game, table_moves(table))
        return kept.game

    def put(self, table: Table, game: TableGame) -> None:
        """Keep ``game``, the table's as it is now (committed), as the most recently used;
        a game kept already at a later state stays instead."""
        new = Kept(game, table.undos)
        self._keep(table, new, lambda old: old.state <= new.state)

    @contextmanager
    def reading(self, table: Table) -> Iterator[TableGame]:
        """The game of the table as read (``table``), for reading only while the ``with``
        lasts: the kept one (caught up) when it serves, else replayed and kept. With none
        kept, the replay holds the table's replay lock until it is kept, so that the reads
        waiting on it borrow it."""
        kept = self._touched(table)
        if kept is None:
            with self.replay_lock(table):
                kept = self._touched(table)  # another read's replay, kept while this one waited
                if kept is None:
                    game = self._replayed(table)
                    yield game
                    self.put(table, game)
                    return
        with kept.lock:
            if not kept.taken and kept.serves(table):
                play_moves(kept.game, table_moves(table))
                yield kept.game
                return
        game = self._replayed(table)
        yield game
        self.put(table, game)
