"""What the background runs of the feature apps (goldfish, matchups) share: how big a run and
how many at once a requester may have, whom a run counts against, and the refusal."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from rest_framework import status
from rest_framework.response import Response

from api.problems import problem_response


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


def refused_response(refused: RunRefused) -> Response:
    """The problem document of a refused run; a requester with too many runs going is told
    when to ask again."""
    response = problem_response(refused.status, refused.code, refused.detail)
    if refused.status == status.HTTP_429_TOO_MANY_REQUESTS:
        response["Retry-After"] = "10"
    return response


def started_response(document: dict[str, Any], *, done: bool) -> Response:
    """A run asked for: 200 with the stored report when it is done already, else 202 with the
    run to poll; ``Location`` names the run either way."""
    response = Response(document, status=status.HTTP_200_OK if done
                        else status.HTTP_202_ACCEPTED)
    response["Location"] = document["url"]
    return response
