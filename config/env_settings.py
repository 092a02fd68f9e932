"""Settings read from environment variables that need more than a flag: throttle rates and the
PostgreSQL connection pool. Pure functions of the variable's text, so tests need no process."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ImproperlyConfigured

# DRF reads "N/period" and looks only at the period's first letter (s, m, h, d).
RATE = re.compile(r"^\d+/(s|sec|second|m|min|minute|h|hour|d|day)$")


def throttle_rates(defaults: dict[str, str], value: str | None) -> dict[str, str]:
    """The defaults with ``scope=rate`` pairs of ``value`` (comma-separated) over them.

    A scope that no endpoint uses or a rate DRF cannot read stops the start-up: a typo would
    otherwise leave the default in force without a word.
    """
    rates = dict(defaults)
    for item in (value or "").split(","):
        if not item.strip():
            continue
        scope, _, rate = (part.strip() for part in item.partition("="))
        if scope not in defaults:
            raise ImproperlyConfigured(
                f"DJANGO_THROTTLE_RATES: unknown scope {scope!r}; the scopes are "
                f"{', '.join(sorted(defaults))}.")
        if not RATE.match(rate):
            raise ImproperlyConfigured(
                f"DJANGO_THROTTLE_RATES: {scope}={rate!r} is not a rate such as 120/minute.")
        rates[scope] = rate
    return rates


def pool_options(enabled: bool, min_size: str | None, max_size: str | None,
                 timeout: str | None) -> dict[str, Any] | None:
    """The psycopg pool options for Django's PostgreSQL backend, or None when pooling is off.

    A gunicorn sync worker serves one request at a time, so one connection per process is in
    use; the default of 1 to 2 keeps a spare for the worker's own checks without holding many
    idle connections per process on the server.
    """
    if not enabled:
        return None
    try:
        low = int(min_size or 1)
        high = int(max_size or max(low, 2))
        wait = float(timeout or 10)
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_POOL_*: {error}") from error
    if not 0 <= low <= high or high < 1 or wait <= 0:
        raise ImproperlyConfigured(
            "DATABASE_POOL_MIN_SIZE must be between 0 and DATABASE_POOL_MAX_SIZE (at least 1), "
            "and DATABASE_POOL_TIMEOUT positive.")
    return {"min_size": low, "max_size": high, "timeout": wait}


def whole_number(name: str, value: str | None, default: int, *, minimum: int = 0) -> int:
    """The variable's whole number, or ``default`` when it is unset; a value that is not a
    whole number of at least ``minimum`` stops the start-up with the variable named."""
    if value is None or not value.strip():
        return default
    try:
        number = int(value.strip())
    except ValueError:
        number = minimum - 1
    if number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r}: give a whole number of at least {minimum}.")
    return number


def one_of(name: str, value: str | None, choices: tuple[str, ...], default: str) -> str:
    """The variable's value if it is one of ``choices`` (without case), ``default`` when it is
    unset; any other value stops the start-up with the variable and the choices named."""
    if value is None or not value.strip():
        return default
    chosen = value.strip().lower()
    if chosen not in choices:
        raise ImproperlyConfigured(f"{name}={value!r}: give one of {', '.join(choices)}.")
    return chosen
