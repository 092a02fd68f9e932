"""Failed logins counted per account and per client address; too many lock both for a while.

Every way in (the login page, the admin's, ``POST /api/auth/token/``) goes through Django's
``authenticate``: ``accounts.backends.LockoutBackend`` refuses a locked account or address there
(the right password included), and the ``user_login_failed`` signal counts the failures. The
counts live in the default cache, which every worker shares (the file cache in production), as
the API's throttles do. Two workers counting the same failure at the same instant may lose one
count: the limit can be overshot by the number of workers, never by more.

``ACCOUNTS_LOGIN_FAILURES_PER_ACCOUNT`` failures within ``ACCOUNTS_LOGIN_LOCKOUT_SECONDS`` lock
the account for that long; ``ACCOUNTS_LOGIN_FAILURES_PER_ADDRESS`` (higher: many people can
share an address) do the same for the address. 0 turns a limit off. A successful login clears
the account's count but not the address's, or one valid account would let its owner guess
others' passwords from the same address without end.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle

PREFIX = "accounts:login-failures"


def client_address(request: HttpRequest | Any | None) -> str:
    """The visitor's address as the API's throttles see it (X-Forwarded-For only as far as
    ``DJANGO_NUM_PROXIES`` trusted proxies vouch for it), so both agree on who is who."""
    if request is None or not hasattr(request, "META"):
        return ""
    return str(BaseThrottle().get_ident(request) or "")  # type: ignore[arg-type]  # reads META


def _account_key(username: str) -> str:
    # Case-blind, so "Ada" and "ada" share one count; hashed, so any length or character fits.
    digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()
    return f"{PREFIX}:account:{digest}"


def _address_key(address: str) -> str:
    return f"{PREFIX}:address:{address}"


def _keys(username: str | None, address: str | None) -> list[tuple[str, int]]:
    """(cache key, limit) for each count that applies and is turned on."""
    keys = []
    if username and settings.ACCOUNTS_LOGIN_FAILURES_PER_ACCOUNT > 0:
        keys.append((_account_key(username), settings.ACCOUNTS_LOGIN_FAILURES_PER_ACCOUNT))
    if address and settings.ACCOUNTS_LOGIN_FAILURES_PER_ADDRESS > 0:
        keys.append((_address_key(address), settings.ACCOUNTS_LOGIN_FAILURES_PER_ADDRESS))
    return keys


def locked_for(username: str | None, address: str | None, now: float | None = None) -> int:
    """Seconds until a login as ``username`` from ``address`` may be tried again (0: now)."""
    now = time.time() if now is None else now
    wait = 0.0
    for key, _limit in _keys(username, address):
        record = cache.get(key)
        if record and record["locked_until"] > now:
            wait = max(wait, record["locked_until"] - now)
    return math.ceil(wait)


def failure_record(username: str | None, address: str | None, now: float | None = None) -> None:
    """Count one failed login; the count that reaches its limit locks for the lockout time.

    Failures while locked are not counted: the lock ends when the answer said it would.
    """
    now = time.time() if now is None else now
    period = settings.ACCOUNTS_LOGIN_LOCKOUT_SECONDS
    for key, limit in _keys(username, address):
        record = cache.get(key)
        if record and record["locked_until"] > now:
            continue
        if not record or record["locked_until"] or now - record["first"] >= period:
            record = {"failures": 0, "first": now, "locked_until": 0.0}
        record["failures"] += 1
        if record["failures"] >= limit:
            record["locked_until"] = now + period
        ends = max(record["locked_until"], record["first"] + period)
        cache.set(key, record, timeout=math.ceil(ends - now) + 1)


def clear(*, username: str | None = None, address: str | None = None) -> None:
    """Forget the failures of an account or an address, and any lock on it."""
    if username:
        cache.delete(_account_key(username))
    if address:
        cache.delete(_address_key(address))


def wait_in_words(seconds: int) -> str:
    """'40 seconds', '1 minute', '15 minutes': for the page and the API's detail."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def on_login_failed(sender: Any, credentials: dict[str, Any], request: Any = None,
                    **kwargs: Any) -> None:
    """``user_login_failed`` receiver."""
    username = credentials.get("username")
    failure_record(username if isinstance(username, str) else None, client_address(request))


def on_logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """``user_logged_in`` receiver: the account's count starts again."""
    clear(username=user.get_username())
