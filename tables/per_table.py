"""What a server process keeps per table: the last tables used, at most ``TABLE_CACHE_SIZE``,
the least recently used dropped first (tables.games keeps their games, tables.kept_rows the
rows their views read). A table is known by its number and creation time, so a table made
again under a number of a deleted one is never taken for it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from django.conf import settings

from tables.models import Table

type Key = tuple[int, str]


class PerTable[V]:
    """The values kept per table; ``size`` overrides the setting (tests)."""

    def __init__(self, size: int | None = None) -> None:
        self._size = size
        self._kept: OrderedDict[Key, V] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        return self._size if self._size is not None else int(settings.TABLE_CACHE_SIZE)

    @staticmethod
    def key(table: Table) -> Key:
        return table.pk, table.created_at.isoformat()

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def _keep(self, table: Table, value: V, replaces: Callable[[V], bool]) -> None:
        """Keep ``value`` as the table's most recently used, over the value kept unless
        ``replaces(old)`` says it must stay (it is of a later state)."""
        key = self.key(table)
        with self._lock:
            old = self._kept.get(key)
            if old is None or replaces(old):
                self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
