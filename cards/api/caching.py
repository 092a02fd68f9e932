"""Conditional GETs for the card API: ETag and Last-Modified from the catalogue's version."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TypeVar

from django.http import HttpResponse
from django.utils.http import http_date, parse_http_date_safe
from rest_framework.request import Request
from rest_framework.response import Response

from cards.revision_cache import CatalogueVersion, catalogue_version

R = TypeVar("R", bound=HttpResponse)


@dataclass(frozen=True)
class Validators:
    etag: str
    last_modified: int | None  # seconds since the epoch

    def not_modified(self, request: Request) -> bool:
        """RFC 9110: If-None-Match wins; If-Modified-Since counts only without it."""
        match = request.headers.get("If-None-Match")
        if match is not None:
            return match.strip() == "*" or self.etag in [t.strip() for t in match.split(",")]
        since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
        return since is not None and self.last_modified is not None and (
            self.last_modified <= since
        )

    def stamp(self, response: R) -> R:
        response["ETag"] = self.etag
        if self.last_modified is not None:
            response["Last-Modified"] = http_date(self.last_modified)
        return response


def validators_for(request: Request, *, personal: str | None = None,
                   version: CatalogueVersion | None = None) -> Validators:
    """One tag per catalogue version and URL (query string and format included). An answer
    that also depends on the asker (``personal``: e.g. their collection's version) is tagged
    with that too and has no Last-Modified, which the catalogue's date cannot vouch for.
    ``version``: the one already read (default: read it)."""
    version = version or catalogue_version()
    raw = f"{version.tag}|{request.get_full_path()}|{request.accepted_media_type}"
    if personal is not None:
        raw += f"|{personal}"
    tag = '"' + hashlib.sha256(raw.encode()).hexdigest()[:32] + '"'
    modified = int(version.updated_at.timestamp()) if version.updated_at else None
    return Validators(etag=tag, last_modified=None if personal else modified)


def not_modified_response(validators: Validators) -> Response:
    return validators.stamp(Response(status=304))
