"""The API's token authentication, DRF's with what each key resolved to kept in the process for
``API_TOKEN_CACHE_SECONDS`` (0: off), so that a client polling with its token (a seat's view of
a table, every AI-facing script) costs no query to be recognised.

Revocation is at once in the process that revokes (a token deleted or saved, a user saved or
deleted: ``forget_token``, ``forget_user``, connected in ``AccountsConfig.ready``). Other
processes keep what they read until it expires: a revoked token, or an account made inactive,
may still be let in by another server process for up to ``API_TOKEN_CACHE_SECONDS`` (10 s;
docs/decks.md "Decks in the API")."""

from __future__ import annotations

import copy
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from rest_framework.authentication import TokenAuthentication

# Keys kept per process, the least recently used dropped first: a server's pollers, many times.
MAX_KEYS = 4096


@dataclass(frozen=True, slots=True)
class Resolved:
    """What a key resolved to: its token and the token's user, read together by DRF's query
    (only an active user's: an inactive one is refused and not kept)."""

    user: Any
    token: Any
    expires: float


def copies(user: Any, token: Any) -> tuple[Any, Any]:
    """A request's own user and token: a view that changes ``request.user`` (unsaved, or in a
    transaction that rolls back) changes nothing another request is handed."""
    user, token = copy.copy(user), copy.copy(token)
    token.user = user
    return user, token


class TokenCache:
    """Keys to what they resolved to, at most ``size``, each for the TTL it was kept with.
    Locked: a server's sync views run in threads."""

    def __init__(self, *, size: int = MAX_KEYS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self.clock = clock
        self._entries: OrderedDict[str, Resolved] = OrderedDict()
        self._lock = threading.Lock()
        # Counts revocations: a look-up that saw one while it read the database keeps nothing,
        # since what it read may be what was revoked.
        self.generation = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str) -> Resolved | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry.expires <= self.clock():
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return entry

    def keep(self, key: str, user: Any, token: Any, *, ttl: float, since: int) -> None:
        """Keep copies of what ``key`` resolved to, read while ``generation`` was ``since``."""
        user, token = copies(user, token)
        with self._lock:
            if self.generation != since:
                return
            self._entries[key] = Resolved(user, token, self.clock() + ttl)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def forget(self, *, key: str | None = None, user_id: Any = None) -> None:
        """Drop a key, or every key of a user."""
        with self._lock:
            self.generation += 1
            if key is not None:
                self._entries.pop(key, None)
            if user_id is not None:
                for gone in [k for k, e in self._entries.items() if e.user.pk == user_id]:
                    del self._entries[gone]

    def clear(self) -> None:
        with self._lock:
            self.generation += 1
            self._entries.clear()


tokens = TokenCache()


class CachedTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>`` as DRF reads it, the same refusals (an unknown key, an
    inactive user: DRF's 401 ``authentication_failed`` and its words, never kept), the same
    ``(request.user, request.auth)``. A key found in ``tokens`` costs no query; the user it
    gives is a copy of the one read when the key was kept, so for up to the TTL a request may
    see that user as he was then (a renamed user's old name, staff rights just removed) unless
    he was saved or deleted in this process, which drops the key (``forget_user``)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        ttl = settings.API_TOKEN_CACHE_SECONDS
        if ttl <= 0:
            return super().authenticate_credentials(key)
        kept = tokens.get(key)
        if kept is not None:
            return copies(kept.user, kept.token)
        since = tokens.generation
        user, token = super().authenticate_credentials(key)
        tokens.keep(key, user, token, ttl=ttl, since=since)
        return user, token


def _forget(using: str | None, **which: Any) -> None:
    tokens.forget(**which)
    # Again once the transaction commits: until then other connections still read the rows as
    # they were, and a look-up reading them meanwhile must not keep them.
    transaction.on_commit(lambda: tokens.forget(**which), using=using)


def forget_token(sender: Any, instance: Any, using: str | None = None, **kwargs: Any) -> None:
    """post_save and post_delete of the token model: a key deleted (revoked, its user's new
    password, its user deleted) or a user's token made anew."""
    _forget(using, key=instance.key, user_id=instance.user_id)


def forget_user(sender: Any, instance: Any, using: str | None = None, **kwargs: Any) -> None:
    """post_save and post_delete of the user model: any save (made inactive, renamed, staff
    rights changed) drops the user's keys, so this process reads him afresh."""
    _forget(using, user_id=instance.pk)
