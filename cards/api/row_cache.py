"""Each card's row of the card list, rendered to JSON once per catalogue revision and kept in
this process, so that a list whose answer is not kept yet (cards.api.list_cache) reads only
its page's card ids and splices the kept rows into the page.

A row is the same for everyone (the personal keys choose the cards, never what a row says),
so rows are shared by every asker; they depend on the catalogue's revision (cards, sets,
images) and the script prefix (the rows' URLs). The rows live in this process, not in the
shared file cache: a page would cost a file per card there, and each write lists the folder
to cull it. A worker fills its rows as it answers; at most :data:`MOST_ROWS` are kept.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from django.urls import get_script_prefix

from cards.revision_cache import CatalogueVersion

MOST_ROWS = 50_000  # about 75 MB at worst; the real catalogues have a few hundred cards

_lock = threading.Lock()
_stamp: tuple[str, object, str] | None = None  # the revision and prefix the rows belong to
_rows: dict[str, bytes] = {}


def card_rows(card_ids: Sequence[str], version: CatalogueVersion,
              render: Callable[[list[str]], dict[str, bytes]]) -> list[bytes]:
    """The rendered rows of ``card_ids``, in their order; ``render`` makes the missing ones
    (a card id it does not return has no row: a card deleted meanwhile)."""
    global _stamp
    stamp = (version.tag, version.updated_at, get_script_prefix())
    with _lock:
        if _stamp != stamp:
            _stamp = stamp
            _rows.clear()
        found = {card_id: _rows[card_id] for card_id in card_ids if card_id in _rows}
    missing = [card_id for card_id in card_ids if card_id not in found]
    if missing:
        made = render(missing)
        found.update(made)
        with _lock:
            if _stamp == stamp:
                if len(_rows) + len(made) > MOST_ROWS:
                    _rows.clear()
                _rows.update(made)
    return [found[card_id] for card_id in card_ids if card_id in found]


def forget_rows() -> None:
    """Drop every kept row (tests, and the benchmark's cold requests)."""
    global _stamp
    with _lock:
        _stamp = None
        _rows.clear()
