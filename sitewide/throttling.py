"""The API's scoped throttles on the pages that do the same expensive work.

A page and its API endpoint count in one bucket (DRF's cache key is the scope and the user, or
the visitor's address), so the page is no way around the API's limit. Rates are in
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``; the counts live in the default cache.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.throttling import ScopedRateThrottle


def throttle_wait(request: HttpRequest, scope: str) -> int | None:
    """Count this request in ``scope``; None when it is allowed, else the seconds to wait. For a
    page that shows its own answer to a refusal (a form that keeps what was typed)."""
    throttle = ScopedRateThrottle()
    if throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):  # type: ignore[arg-type]
        return None
    return max(1, round(throttle.wait() or 1))


def throttled[V: Callable[..., HttpResponse]](scope: str) -> Callable[[V], V]:
    """Answer 429 with Retry-After once this visitor has used up ``scope``'s rate."""

    def decorate(view: V) -> V:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            wait = throttle_wait(request, scope)
            if wait is None:
                return view(request, *args, **kwargs)
            response = render(request, "429.html", {"wait": wait}, status=429)
            response["Retry-After"] = str(wait)
            return response

        return wrapper  # type: ignore[return-value]

    return decorate
