"""The queue of cards read from one photo (a binder page, or several cards on a table): each
card's crop kept as a pending scan (edits.pending_scans), the values read from it, and what
the person chose that carries from one card to the next (the source).

Kept in the person's session (stored server-side), so a reload shows the same card again;
the head of the queue is the card the form shows, and it leaves the queue when it is
proposed.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.base import SessionBase

KEY = "edits_scan_queue"
# A value read with a doubtful reading is marked with this confidence, the others with
# CONFIDENT: the form marks below 0.6 as "hard to read".
DOUBTFUL, CONFIDENT = 0.4, 0.9


def queue_start(session: SessionBase, *, set_code: str, entries: list[dict[str, Any]]) -> None:
    """A new queue for ``set_code``: ``entries`` are ``{"token", "fields", "doubtful",
    "outline"}`` in reading order. Replaces any queue before it."""
    session[KEY] = {"set": set_code.upper(), "entries": entries,
                    "source_kind": session.get(KEY, {}).get("source_kind", "")}


def queue_head(session: SessionBase, set_code: str) -> tuple[dict[str, Any] | None, int]:
    """The card the form shows (the first of the queue) and how many are queued, for this
    set; (None, 0) when there is no queue for it."""
    queue = session.get(KEY)
    if not queue or queue.get("set") != set_code.upper() or not queue.get("entries"):
        return None, 0
    return queue["entries"][0], len(queue["entries"])


def queue_done(session: SessionBase, token: str, *, source_kind: str = "") -> int:
    """The card of scan ``token`` was proposed: it leaves the queue, and the source chosen
    is kept for the next. Returns how many cards are left."""
    queue = session.get(KEY)
    if not queue:
        return 0
    queue["entries"] = [e for e in queue["entries"] if e.get("token") != token]
    if source_kind:
        queue["source_kind"] = source_kind
    session[KEY] = queue
    return len(queue["entries"])


def queue_source_kind(session: SessionBase) -> str:
    """The source chosen for the last card proposed from a queue, or ""."""
    return str(session.get(KEY, {}).get("source_kind", ""))


def readings(entry: dict[str, Any]) -> dict[str, tuple[object, float]]:
    """A queue entry's values as the form's ``apply_reading`` takes them."""
    doubtful = set(entry.get("doubtful", ()))
    return {key: (value, DOUBTFUL if key in doubtful else CONFIDENT)
            for key, value in entry.get("fields", {}).items() if value is not None}
