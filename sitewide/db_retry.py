"""Retrying a database write that SQLite refused because another process held the lock.

SQLite has one writer at a time. The connection already waits up to its ``timeout`` for the
lock (config/settings.py), but a busy web server, a worker and an import can still outlast it;
then the write fails with ``OperationalError: database is locked`` and nothing was written. Such
a write is safe to try again: :func:`retry_locked` does, a few times, waiting a little longer
each time. Every attempt is its own atomic block (a savepoint inside a transaction), so a failed
attempt leaves the surrounding transaction usable on PostgreSQL too.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.db import OperationalError, transaction

TRIES = 5
FIRST_WAIT = 0.05  # seconds; doubled after each refusal: 0.05, 0.1, 0.2, 0.4


def is_database_locked(error: OperationalError) -> bool:
    return "is locked" in str(error).lower()


def retry_locked[T](write: Callable[[], T], *, tries: int = TRIES, first_wait: float = FIRST_WAIT,
                    sleep: Callable[[float], None] | None = None) -> T:
    """``write()`` in an atomic block, tried again while the database is locked, at most
    ``tries`` times in all; any other error, or the last refusal, is raised."""
    wait = first_wait
    pause = sleep or time.sleep
    for attempt in range(1, tries + 1):
        try:
            with transaction.atomic():
                return write()
        except OperationalError as error:
            if attempt == tries or not is_database_locked(error):
                raise
        pause(wait)
        wait *= 2
    raise AssertionError("unreachable")  # the loop returns or raises
