"""The API's scoped throttles on the pages that do the same expensive work, and the throttle
by cost of the routes whose work grows with what they are sent.

A page and its API endpoint count in one bucket (DRF's cache key is the scope and the user, or
the visitor's address), so the page is no way around the API's limit. Rates are in
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``; the counts live in the default cache.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, ClassVar

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.throttling import ScopedRateThrottle


def throttle_wait(request: HttpRequest, scope: str, cost: int = 1) -> int | None:
    """Count this request in ``scope`` (``cost`` units of a cost scope); None when it is
    allowed, else the seconds to wait. For a page that shows its own answer to a refusal (a
    form that keeps what was typed)."""
    throttle: CostThrottle | ScopedRateThrottle = (
        CostThrottle(cost, scope) if scope in COST_SCOPES else ScopedRateThrottle())
    if throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):  # type: ignore[arg-type]
        return None
    return max(1, round(throttle.wait() or 1))


# Scopes whose rate counts units of work (lines of decklists read), not requests.
COST_SCOPES = frozenset({"decklists"})
# The most one request is charged: the largest request a route accepts (seven decklists of
# decks.deck_input's 1,000 lines, a matchup of six or a playtest table); anything larger is
# refused by the route's own limits, with a 400 that says so, not a 429 that never ends.
MAX_CHARGE = 7_000


def body_cost(data: Any) -> int:
    """What a request body holds, as lines of work: the lines of its strings and the items of
    its lists (a decklist entry is a line), at least 1 and at most MAX_CHARGE."""
    cost, stack, seen = 0, [data], 0
    while stack and cost < MAX_CHARGE and seen < 10 * MAX_CHARGE:
        item = stack.pop()
        seen += 1
        if isinstance(item, str):
            cost += item.count("\n") + 1
        elif isinstance(item, list):
            cost += len(item)
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return max(1, min(cost, MAX_CHARGE))


class CostThrottle(ScopedRateThrottle):
    """A rate in units of work per period rather than requests: each request is charged its
    cost (by default :func:`body_cost` of its body), and refused with 429 while the costs of
    the period's requests would pass the rate. Its scope is its own, ``cost_scope``: the
    view's ``throttle_scope`` stays its count throttle's, if it has one."""

    cost_scope: ClassVar[str] = "decklists"

    def __init__(self, cost: int | None = None, scope: str | None = None) -> None:
        super().__init__()
        self.cost = cost
        self.scope = scope or self.cost_scope
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.cost is None:
            self.cost = body_cost(getattr(request, "data", None))
        self.key = self.get_cache_key(request, view)
        if self.key is None or self.num_requests is None or self.duration is None:
            return True
        self.now = self.timer()
        # [time, cost] pairs, newest first, as DRF keeps the times of a count throttle.
        self.history = [entry for entry in self.cache.get(self.key, [])
                        if entry[0] > self.now - self.duration]
        if sum(cost for _, cost in self.history) + self.cost > self.num_requests:
            return False
        self.history.insert(0, [self.now, self.cost])
        self.cache.set(self.key, self.history, self.duration)
        return True

    def wait(self) -> float | None:
        """Until enough of the period's costs have expired to let this request through."""
        duration = self.duration or 0
        needed = sum(cost for _, cost in self.history) + (self.cost or 0) - (self.num_requests or 0)
        for when, cost in reversed(self.history):  # oldest first
            needed -= cost
            if needed <= 0:
                return max(0.0, duration - (self.now - when))
        return float(duration)


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
