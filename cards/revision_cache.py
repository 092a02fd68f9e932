"""Values derived from the whole catalogue, built once per catalogue revision and kept."""

from __future__ import annotations

import threading
from collections.abc import Callable

from cards.card_search import catalogue_version


class PerRevision[T]:
    """Call ``build()`` again only when the catalogue has changed since the last call.

    One value per process (the newest revision's): each worker rebuilds after a change,
    at the cost of reading the one-row catalogue revision per call.
    """

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._tag: str | None = None
        self._value: T | None = None

    def get(self) -> T:
        tag = catalogue_version().tag
        with self._lock:
            if self._tag != tag or self._value is None:
                self._value = self._build()
                self._tag = tag
            return self._value
