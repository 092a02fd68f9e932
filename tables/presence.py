"""Who is at a table now (docs/tables.md "Presence").

A seated person is *here* while he has a sign of presence younger than TABLE_PRESENCE_TTL, each
a row of TablePresence:

- an open socket: its row is made when it connects and deleted when it closes, and the server
  process holding it (``server``) confirms it every third of the TTL (:func:`presence_round`,
  from :func:`keep_confirming` while the process holds sockets). A server that dies confirms
  nothing more, so its rows stop counting after the TTL, whichever process reads them;
- his last request of the table (an API client, or a page without JavaScript: it opens no
  socket), stamped by :func:`table_seen`.

When he is not here, he *left* at the latest of: his taking the seat (:func:`seated`) or his
last socket's closing (the seat's ``left_at``), the moment a dead server's socket stopped
counting (its last confirmation plus the TTL: he never loses grace time to a server's death),
and his last request (the last sign he gave himself). The grace period runs from then.

Every read counts only the rows within the TTL, so nothing has to be cleared to be right. Rows
past it are deleted, what they said of his leaving kept in ``left_at``, by
:func:`expired_cleared` under the table's lock (on a socket's opening or closing, and in each
live server's round).

The time is :func:`tables.clock.now`, which the tests set.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import transaction
from django.db.models import F

from tables import clock
from tables.live import announce_change
from tables.models import Table, TablePresence, TableSeat

REQUEST: Final = "request"
logger = logging.getLogger(__name__)


def ttl() -> timedelta:
    return timedelta(seconds=settings.TABLE_PRESENCE_TTL)


def confirm_every() -> float:
    """Seconds between a server's confirmations: a third of the TTL, so one late round does
    not make a live socket count as gone."""
    return settings.TABLE_PRESENCE_TTL / 3


_server: tuple[int, str] | None = None


def server_id() -> str:
    """This server process's name in the rows of its sockets (made after a fork too: a
    process started from another gets its own)."""
    global _server
    if _server is None or _server[0] != os.getpid():
        _server = (os.getpid(), f"{socket.gethostname()[:60]}:{os.getpid()}:"
                                f"{secrets.token_hex(4)}")
    return _server[1]


@dataclass(frozen=True)
class Presence:
    """The people at a table now (``here``) and, for those whose every sign ran out, when
    those signs said they left (``gone``)."""

    here: frozenset[int] = frozenset()
    gone: dict[int, datetime] = field(default_factory=dict)

    def left_at(self, row: TableSeat) -> datetime | None:
        """When the person of ``row`` left (None: he is here, or gave no sign at all)."""
        if row.user_id is None or row.user_id in self.here:
            return None
        times = [t for t in (row.left_at, self.gone.get(row.user_id)) if t is not None]
        return max(times, default=None)


def seated(row: TableSeat) -> None:
    """A person takes a seat (or a rematch seats him): his first sign of presence, so a
    person who never comes to the table, or an API client who joins and is never heard from
    again, is handed over once the grace period from then is over. Until his page opens or
    he asks something, he has left as of now."""
    row.left_at = clock.now()


def _departure(server: str, seen_at: datetime) -> datetime:
    """When a sign that ran out says its person left: a request is the last sign he gave; a
    socket of a dead server stopped counting only after the TTL."""
    return seen_at if not server else seen_at + ttl()


def presence_of(rows: Iterable[tuple[int, str, datetime]], at: datetime) -> Presence:
    """The presence that rows ``(user, server, seen_at)`` of one table say at ``at``."""
    since = at - ttl()
    here: set[int] = set()
    gone: dict[int, datetime] = {}
    for user, server, seen_at in rows:
        if seen_at >= since:
            here.add(user)
        else:
            left = _departure(server, seen_at)
            gone[user] = max(gone.get(user, left), left)
    return Presence(frozenset(here), {u: t for u, t in gone.items() if u not in here})


def table_presence_now(table: Table, at: datetime | None = None) -> Presence:
    """Who is at ``table`` now: one query."""
    return presence_of(table.presences.values_list("user_id", "server", "seen_at"),
                       clock.now() if at is None else at)


def expired_cleared(table: Table, at: datetime) -> bool:
    """Delete the table's rows past the TTL, keeping in the seats' ``left_at`` when they
    say their people left (for those with no sign left); under the table's lock. Whether any
    was deleted (a change of the table's seats: the caller bumps its version)."""
    rows = list(table.presences.values_list("pk", "user_id", "server", "seen_at"))
    since = at - ttl()
    expired = [row for row in rows if row[3] < since]
    if not expired:
        return False
    TablePresence.objects.filter(pk__in=[row[0] for row in expired]).delete()
    still = {row[1] for row in rows if row[3] >= since}
    left: dict[int, datetime] = {}
    for _, user, server, seen_at in expired:
        if user not in still:
            when = _departure(server, seen_at)
            left[user] = max(left.get(user, when), when)
    for seat in table.seat_rows.filter(user_id__in=list(left)):
        assert seat.user_id is not None
        if seat.left_at is None or seat.left_at < left[seat.user_id]:
            seat.left_at = left[seat.user_id]
            seat.save(update_fields=["left_at"])
    # A change of the table's people even when only requests ran out: the seats now say when
    # those people left from left_at, not from the rows (a reader keeping a table's rows by
    # its version must see the new ones).
    return True


def bump(table: Table) -> int:
    """A change of the table's people: its version goes up and its sockets are told once the
    transaction is committed. The new version."""
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.version += 1
    pk, version = table.pk, table.version
    transaction.on_commit(lambda: announce_change(pk, version))
    return version


# A server's round: it confirms its sockets and clears what the dead ones left.


def presence_round(at: datetime | None = None, server: str | None = None) -> list[int]:
    """Confirm this server's sockets at ``at`` and clear every table's rows past the TTL (a
    dead server's), telling those tables' sockets. The tables changed."""
    at = clock.now() if at is None else at
    TablePresence.objects.filter(server=server or server_id()).update(seen_at=at)
    changed = []
    stale = (TablePresence.objects.filter(seen_at__lt=at - ttl())
             .values_list("table_id", flat=True).distinct())
    for table_id in sorted(set(stale)):
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is not None and expired_cleared(table, at):
                bump(table)
                changed.append(table_id)
    return changed


# The sockets this process holds, by table and person, and the task confirming them.
_held: dict[tuple[int, int], int] = {}
_confirming: asyncio.Task[None] | None = None


def holding(table_id: int, user: Any, opened: bool) -> None:
    """A socket of ``user`` at the table opened or closed in this process: the confirming
    task runs while any is open."""
    global _confirming
    key = (table_id, user.pk if user is not None and user.is_authenticated else 0)
    _held[key] = _held.get(key, 0) + (1 if opened else -1)
    if _held[key] <= 0:
        del _held[key]
    loop = asyncio.get_running_loop()
    if _held and (_confirming is None or _confirming.done()
                  or _confirming.get_loop() is not loop):
        _confirming = loop.create_task(keep_confirming())
    elif not _held and _confirming is not None:
        _confirming.cancel()
        _confirming = None


async def keep_confirming() -> None:
    """Every third of the TTL, the round of this server (while it holds sockets). A round
    that fails (the database restarting) is logged and the next one tried: a task that died
    would let this server's live sockets count as gone."""
    while True:
        await asyncio.sleep(confirm_every())
        try:
            await database_sync_to_async(presence_round)()
        except Exception:
            logger.exception("The presence round of this server failed; trying again later")


# A request as a sign of presence.

# When this process last stamped a person's request at a table: at most once a confirmation
# interval (a person polling his view writes nothing more).
_stamped: dict[tuple[int, int], datetime] = {}
STAMPED_MAX: Final = 10_000


def table_seen(*, table_id: int, user: Any) -> None:
    """A request of ``user`` at the table: if he is seated, it is a sign of his presence
    (skipped while a socket of his at the table is open in this process, or when this
    process stamped one lately)."""
    if user is None or not user.is_authenticated:
        return
    key, at = (table_id, user.pk), clock.now()
    if key in _held:
        return
    last = _stamped.get(key)
    if last is not None and timedelta(0) <= at - last < timedelta(seconds=confirm_every()):
        return
    channel = f"{REQUEST}:{table_id}:{user.pk}"
    if not TablePresence.objects.filter(channel=channel).update(seen_at=at):
        if not TableSeat.objects.filter(table_id=table_id, user=user,
                                        kind=TableSeat.PERSON).exists():
            return
        TablePresence.objects.get_or_create(
            channel=channel, defaults={"table_id": table_id, "user": user, "seen_at": at})
    if len(_stamped) >= STAMPED_MAX:
        _stamped.clear()
    _stamped[key] = at


def forget_stamps() -> None:
    """Forget the requests stamped (the tests' tables reuse numbers)."""
    _stamped.clear()
