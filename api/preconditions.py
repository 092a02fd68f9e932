"""Optimistic concurrency for every versioned resource of the API (decks, collections).

A write must say which version it is based on: an ``If-Match`` header with the resource's
ETag, or a ``version`` field. A stale If-Match gets 412, a stale ``version`` 409, both with
``current_version`` (and the current ETag); an edit naming neither gets 428. Nothing is
written in any of those cases.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from api.problems import problem_response


@dataclass(frozen=True)
class Versioned:
    """What the check needs to know about a resource as it now is."""

    noun: str  # "deck", "collection": for the messages
    version: int
    etag: str


def if_match_parameter(noun: str, etag_form: str) -> OpenApiParameter:
    return OpenApiParameter(
        "If-Match", str, OpenApiParameter.HEADER, required=False,
        description=f"the {noun}'s ETag ({etag_form}); or send `version` in the body",
    )


def precondition(request: Request, attrs: Mapping[str, Any], current: Versioned
                 ) -> Response | None:
    """None when the edit is based on the current version, else the problem to answer."""
    if_match = request.headers.get("If-Match")
    if if_match is not None:
        return None if if_match == current.etag else stale(
            current, status.HTTP_412_PRECONDITION_FAILED)
    if "version" in attrs:
        return None if attrs["version"] == current.version else stale(
            current, status.HTTP_409_CONFLICT)
    return problem_response(
        status.HTTP_428_PRECONDITION_REQUIRED, "version_required",
        f"Say which version this edit is based on: an If-Match header with the {current.noun}'s "
        f"ETag, or a `version` field (the {current.noun} is at version {current.version}).",
        current_version=current.version,
    )


def stale(current: Versioned, code: int) -> Response:
    response = problem_response(
        code, "stale_version",
        f"The {current.noun} was changed since you loaded it: it is now at version "
        f"{current.version}. Nothing was saved; reload it, reapply your change and save again.",
        current_version=current.version,
    )
    response["ETag"] = current.etag
    return response
