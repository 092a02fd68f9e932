"""What the background runs of the feature apps (goldfish, matchups) share: how big a run and
how many at once a requester may have, whom a run counts against, and the refusal."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Limits:
    games: int  # per run
    at_once: int  # runs queued or running at the same time


class RunRefused(Exception):
    """A run that may not start: too many games for this user, or too many runs at once."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


def requester_key(user: Any, address: str | None) -> str:
    """Whom a run counts against: the user, or (anonymous) a hash of the client's address."""
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    digest = hashlib.sha256((address or "unknown").encode()).hexdigest()[:24]
    return f"anon:{digest}"
