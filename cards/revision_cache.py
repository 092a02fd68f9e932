"""The catalogue's revision (what ETags and caches key on), and values derived from the whole
catalogue, built once per revision and kept."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import caches
from django.db import transaction
from django.db.models.expressions import RawSQL

from cards.models import Card, CatalogueRevision

# The shared cache (settings.CACHES) that holds the revision for every process, and the card
# list answers keyed on it (cards.api.list_cache).
SHARED_CACHE = "card_lists"
_REVISION_KEY = "catalogue-revision"
# A writer that does not share the cache (a command run with other settings) cannot forget
# the revision there: it is read again from the database at least this often.
REVISION_SECONDS = 10


@dataclass(frozen=True)
class CatalogueVersion:
    tag: str  # changes whenever any card, set or image changes
    updated_at: dt.datetime | None  # the newest change to a card or image
    # How many cards the catalogue holds at this revision (the count of the unfiltered card
    # list), read with it in one statement by shared_version; None when not read.
    cards: int | None = None


def catalogue_version(*, count_cards: bool = False) -> CatalogueVersion:
    """The basis of the API's ETags and Last-Modified, and of the bulk file's freshness;
    ``count_cards``: with the number of cards, from the same statement (the same snapshot)."""
    revisions = CatalogueRevision.objects.filter(pk=1)
    if count_cards:
        revisions = revisions.annotate(
            cards=RawSQL(f'SELECT COUNT(*) FROM "{Card._meta.db_table}"', ()))
    revision = revisions.first()
    if revision is None:
        return CatalogueVersion(tag="0", updated_at=None)
    return CatalogueVersion(tag=str(revision.number), updated_at=revision.updated_at,
                            cards=getattr(revision, "cards", None))


def shared_version() -> CatalogueVersion:
    """The catalogue's version as the shared cache has it: no query when it has it."""
    cache = caches[SHARED_CACHE]
    version = cache.get(_REVISION_KEY)
    if not isinstance(version, CatalogueVersion):
        version = catalogue_version(count_cards=True)
        # add, not set: a change committed meanwhile has put the newer version there.
        cache.add(_REVISION_KEY, version, REVISION_SECONDS)
    return version


def forget_shared_revision() -> None:
    """After a change: forget the revision now (this transaction's own later reads see the
    change), and once committed put the new one, over any older one that a reader read
    before the commit and put back meanwhile."""
    cache = caches[SHARED_CACHE]
    cache.delete(_REVISION_KEY)
    transaction.on_commit(
        lambda: cache.set(_REVISION_KEY, catalogue_version(count_cards=True), REVISION_SECONDS))


class PerRevision[T]:
    """Call ``build()`` again only when the catalogue has changed since the last call.

    One value per process (the newest revision's): each worker rebuilds after a change,
    at the cost of reading the revision from the shared cache per call.
    """

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._tag: str | None = None
        self._value: T | None = None

    def get(self) -> T:
        version = shared_version()
        tag = f"{version.tag}.{version.updated_at}"  # a rolled-back number may come again
        with self._lock:
            if self._tag != tag or self._value is None:
                self._value = self._build()
                self._tag = tag
            return self._value
