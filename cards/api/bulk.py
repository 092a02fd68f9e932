"""Bulk data: the whole catalogue as one gzipped card data file, as Scryfall offers."""

from __future__ import annotations

import gzip
import json
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.api.caching import not_modified_response, validators_for
from cards.revision_cache import PerRevision, catalogue_version
from cards.services import cards_export


def _gzipped_export() -> bytes:
    body = json.dumps(cards_export(), ensure_ascii=False).encode()
    return gzip.compress(body, compresslevel=6, mtime=0)


_bulk = PerRevision(_gzipped_export)


def bulk_bytes() -> bytes:
    """The gzipped export of every set, built once per catalogue revision."""
    return _bulk.get()


class BulkIndexView(APIView):
    """What bulk files exist, how big they are and when the catalogue last changed."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request) -> Response:
        version = catalogue_version()
        data = bulk_bytes()
        return Response({
            "cards": {
                "url": request.build_absolute_uri(reverse("api:bulk-cards")),
                "format": "card data bundle (a list of {\"set\", \"cards\"} documents), gzip",
                "size": len(data),
                "version": version.tag,
                "updated_at": version.updated_at.isoformat() if version.updated_at else None,
            }
        })


class BulkCardsView(APIView):
    """Every card of every set in the card data format, gzipped; import_cards reads it."""

    @extend_schema(responses={(200, "application/gzip"): OpenApiTypes.BINARY})
    def get(self, request: Request) -> Any:
        validators = validators_for(request)
        if validators.not_modified(request):
            return not_modified_response(validators)
        data = bulk_bytes()
        response = HttpResponse(data, content_type="application/gzip")
        response["Content-Disposition"] = 'attachment; filename="cards.json.gz"'
        return validators.stamp(response)
