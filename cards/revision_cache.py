"""The catalogue's revision (what ETags and caches key on), and values derived from the whole
catalogue, built once per revision and kept."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from dataclasses import dataclass

from cards.models import CatalogueRevision


@dataclass(frozen=True)
class CatalogueVersion:
    tag: str  # changes whenever any card, set or image changes
    updated_at: dt.datetime | None  # the newest change to a card or image


def catalogue_version() -> CatalogueVersion:
    """The basis of the API's ETags and Last-Modified, and of the bulk file's freshness."""
    revision = CatalogueRevision.objects.filter(pk=1).first()
    if revision is None:
        return CatalogueVersion(tag="0", updated_at=None)
    return CatalogueVersion(tag=str(revision.number), updated_at=revision.updated_at)


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
