"""Retrying a database write that SQLite refused because another process held the lock, and
a background worker's step that met a database which went away (a restarted PostgreSQL).

SQLite has one writer at a time. The connection already waits up to its ``timeout`` for the
lock (config/settings.py), but a busy web server, a worker and an import can still outlast it;
then the write fails with ``OperationalError: database is locked`` and nothing was written. Such
a write is safe to try again: :func:`retry_locked` does, a few times, waiting a little longer
each time. Every attempt is its own atomic block (a savepoint inside a transaction), so a failed
attempt leaves the surrounding transaction usable on PostgreSQL too.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.db import InterfaceError, OperationalError, connection, transaction

log = logging.getLogger(__name__)

TRIES = 5
FIRST_WAIT = 0.05  # seconds; doubled after each refusal: 0.05, 0.1, 0.2, 0.4
# A database that went away: the connection broke (OperationalError: server closed the
# connection, could not connect, the pool timed out) or was already closed (InterfaceError).
OUTAGE_ERRORS = (OperationalError, InterfaceError)
OUTAGE_PATIENCE = 300.0  # seconds a worker waits for the database before it gives up the step
OUTAGE_FIRST_WAIT = 0.5
OUTAGE_MOST_WAIT = 5.0


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


def retry_outage[T](step: Callable[[], T], *, patience: float = OUTAGE_PATIENCE,
                    first_wait: float = OUTAGE_FIRST_WAIT, most_wait: float = OUTAGE_MOST_WAIT,
                    sleep: Callable[[float], None] | None = None,
                    clock: Callable[[], float] | None = None) -> T:
    """``step()``, tried again while the database cannot be reached, for a background worker
    that should wait out a restart rather than fail its task.

    After each failure the broken connection is closed (a pooled one goes back to the pool,
    which throws it away), then it waits 0.5 s, twice as long each time up to 5 s, until
    ``patience`` seconds have passed; then the error is raised. Only for steps that are safe to
    run again (a lease, a conditional store), and never inside a transaction, which a lost
    connection has ended anyway: there it raises at once.
    """
    pause = sleep or time.sleep
    now = clock or time.monotonic
    deadline = now() + patience
    wait = first_wait
    while True:
        try:
            return step()
        except OUTAGE_ERRORS as error:
            if connection.in_atomic_block or now() + wait > deadline:
                raise
            log.warning("the database cannot be reached (%s); trying again in %.1f s",
                        str(error).strip().splitlines()[0] if str(error).strip() else
                        type(error).__name__, wait)
            close_broken_connection()
        pause(wait)
        wait = min(wait * 2, most_wait)


def close_broken_connection() -> None:
    """Close the default connection whatever state it is in, so the next query opens (or takes
    from the pool) a fresh one."""
    try:
        connection.close()
    except Exception:  # a broken connection may fail to close; it is dropped all the same
        connection.connection = None
