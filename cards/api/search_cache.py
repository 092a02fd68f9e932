"""Searches compiled to SQL, kept in this process per catalogue revision, so that a card list
request whose answer is not kept (cards.api.list_cache) but whose query was compiled before,
for another page, another page size or another asker, skips parsing, building the filter and
Django's compilation, which cost a first request more than its SQL (docs/search-speed.md).

An entry is keyed by the query's text and filters; a search that reads the searcher's own rows
(own:, want:, trade:) compiles their user id into its SQL and is kept under that user alone,
so it never serves another. The rows the SQL reads are read live: a personal search follows
its owner's changes. The SQL of a name search lists the ids of cards whose folded name matches
(cards.search.compile), so every entry belongs to one catalogue revision; a change drops
them all. At most :data:`MOST_SEARCHES` are kept, the least recently used dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from cards.card_search import CardSearch
from cards.models import Card
from cards.revision_cache import CatalogueVersion
from cards.search.compile import Order, ordering

MOST_SEARCHES = 2000  # a few kB each
# A name search's SQL lists the ids of the cards whose folded name matches: one that matches
# thousands of cards is compiled for each request instead of kept, so that the entries stay
# small (at most about 2000 x 200 values).
MOST_PARAMETERS = 200


@dataclass(frozen=True)
class CompiledIds:
    """The SELECT of the matching cards' ids and its parameters, then its ORDER BY terms and
    theirs (cards.api.views.IdsCountedBy runs them); None for a search that matches nothing
    by construction (Django's EmptyResultSet)."""

    sql: str
    params: tuple[Any, ...]
    ordering: str
    ordering_params: tuple[Any, ...]


@dataclass(frozen=True)
class CompiledSearch:
    search: CardSearch
    ids: CompiledIds | None


_lock = threading.Lock()
_stamp: tuple[str, object] | None = None  # the revision the entries belong to
_searches: OrderedDict[Hashable, CompiledSearch] = OrderedDict()
# The number of cards each kept search (not a personal one) found, once a request counted them.
_counts: dict[Hashable, int] = {}


def _current(version: CatalogueVersion) -> None:
    """Drop every entry when the revision has changed (under the lock)."""
    global _stamp
    stamp = (version.tag, version.updated_at)
    if _stamp != stamp:
        _stamp = stamp
        _searches.clear()
        _counts.clear()


def kept_search(version: CatalogueVersion, query: Hashable,
                user_id: int | None) -> CompiledSearch | None:
    """The compiled ``query`` (its text and filters) for any asker, else for ``user_id``'s
    personal searches."""
    with _lock:
        _current(version)
        for key in ((query, None), (query, user_id)) if user_id is not None else ((query, None),):
            found = _searches.get(key)
            if found is not None:
                _searches.move_to_end(key)
                return found
    return None


def keep_search(version: CatalogueVersion, query: Hashable, compiled: CompiledSearch) -> None:
    """Keep ``compiled`` for any asker, or for its owner alone when it reads their rows."""
    if compiled.ids is not None and len(compiled.ids.params) > MOST_PARAMETERS:
        return
    owner = compiled.search.owner_id if compiled.search.reads_personal else None
    with _lock:
        _current(version)
        _searches[(query, owner)] = compiled
        _searches.move_to_end((query, owner))
        while len(_searches) > MOST_SEARCHES:
            _counts.pop(_searches.popitem(last=False)[0], None)


def kept_count(version: CatalogueVersion, query: Hashable) -> int | None:
    """How many cards ``query`` (its text and filters, not a personal search) found at this
    revision, when a request for another page or page size has counted them."""
    with _lock:
        _current(version)
        return _counts.get((query, None))


def keep_count(version: CatalogueVersion, query: Hashable, count: int) -> None:
    """Keep the count of a kept search that reads no one's rows (the same for every asker
    until the catalogue changes)."""
    with _lock:
        _current(version)
        if (query, None) in _searches:
            _counts[(query, None)] = count


def forget_searches() -> None:
    """Drop every kept search (tests, and the benchmark's first requests)."""
    global _stamp
    with _lock:
        _stamp = None
        _searches.clear()
        _counts.clear()


# The SELECT of CompiledIds written by hand (cards.search.compile.where_sql), as Django writes it.
SELECT_IDS = 'SELECT "cards_card"."id" FROM "cards_card"'
_ORDERINGS: dict[Order, tuple[str, tuple[Any, ...]]] = {}


def ordering_sql(order: Order) -> tuple[str, tuple[Any, ...]]:
    """The ORDER BY terms of a parsed query's ``order`` and their parameters, compiled once
    per process: an ordering names the card's own columns or the selected id (as "1"), never
    a join (cards.search.compile orders by the card's columns only), so the terms are the same
    whatever the filter."""
    kept = _ORDERINGS.get(order)
    if kept is None:
        ordered = Card.objects.values_list("id", flat=True).order_by(*ordering(order))
        compiler = ordered.query.get_compiler(using=ordered.db)
        compiler.setup_query()
        terms, term_params = [], []
        for _, (term, term_param, _) in compiler.get_order_by():
            terms.append(term)
            term_params.extend(term_param)
        kept = _ORDERINGS[order] = ", ".join(terms), tuple(term_params)
    return kept
