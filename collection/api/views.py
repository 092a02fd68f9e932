"""The collection API: your collection (read, replace, change), its CSV import and export, its
share link, and a shared collection read by its link.

A collection is private: there is no address for another user's collection, only the share
link's (``/api/collection/shared/{token}/``), and a wrong or revoked token is a 404. Writes use
the same optimistic version check as decks (api.preconditions).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.parsers import JSONParser
from api.preconditions import Versioned, if_match_parameter, precondition
from api.problems import ProblemSerializer, problem_response
from collection.api.serializers import (
    CollectionImportSerializer,
    CollectionImportTextSerializer,
    CollectionSerializer,
    CollectionWriteSerializer,
    DeckOwnershipSerializer,
    ShareSerializer,
)
from collection.collection_display import collection_csv, collection_view, read_collection_csv
from collection.csv_format import MAX_FILE_BYTES, MAX_FILE_LINES, Counts
from collection.models import Collection
from collection.ownership import deck_ownership, missing_csv, missing_text, ownership_data
from collection.services import (
    collection_counts,
    collection_lock,
    collection_of,
    collection_share,
    collection_update,
)
from decks.deck_input import DeckInputError, read_upload
from decks.models import Deck
from decks.services import deck_data
from decks.validation import catalogue_facts

IF_MATCH = if_match_parameter("collection", '"collection-<id>.<version>"')
WRITE_RESPONSES = {200: CollectionSerializer, 400: ProblemSerializer, 409: ProblemSerializer,
                   412: ProblemSerializer, 428: ProblemSerializer}


def collection_etag(collection: Collection) -> str:
    return f'"collection-{collection.pk}.{collection.version}"'


def collection_versioned(collection: Collection) -> Versioned:
    return Versioned("collection", collection.version, collection_etag(collection))


def collection_document(request: Request, collection: Collection, *, shared: bool = False
                        ) -> dict[str, Any]:
    view = collection_view(collection)
    link = reverse("collection:shared", args=[collection.share_token]) \
        if collection.share_token else None
    return {
        "owner": collection.owner.username,
        "version": collection.version,
        "page": link if shared else reverse("collection:page"),
        "shared_url": request.build_absolute_uri(link) if link else None,
        "totals": {"cards": view.cards, "copies": view.copies, "want": view.wanted,
                   "trade": view.for_trade},
        "sets": [
            {"code": t.set.code, "name": t.set.name, "cards": t.cards, "owned": t.owned,
             "copies": t.copies, "playsets": t.playsets}
            for t in view.sets
        ],
        "cards": [
            {"id": e.card_id, "name": e.card.name, "owned": e.owned, "want": e.want,
             "trade": e.trade}
            for e in view.entries
        ],
    }


def _answer(request: Request, collection: Collection) -> Response:
    response = Response(collection_document(request, collection))
    response["ETag"] = collection_etag(collection)
    return response


def _counts(items: Iterable[Mapping[str, Any]], base: Mapping[str, Counts] | None
            ) -> tuple[dict[str, Counts], list[dict[str, Any]]]:
    """The counts the items set (an omitted count: 0, or ``base``'s when patching), and the
    errors: unknown and repeated card ids."""
    known = catalogue_facts()
    counts: dict[str, Counts] = {}
    errors: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        card_id = item["id"]
        if card_id not in known:
            errors.append({"index": index, "card": card_id, "code": "unknown_card",
                           "message": f"There is no card with id {card_id!r}."})
        elif card_id in counts:
            errors.append({"index": index, "card": card_id, "code": "duplicate_card",
                           "message": f"{card_id!r} is listed more than once."})
        else:
            before = (base or {}).get(card_id, Counts())
            counts[card_id] = Counts(*(item.get(k, getattr(before, k))
                                       for k in ("owned", "want", "trade")))
    return counts, errors


class CollectionView(APIView):
    """Your collection: every card you own, want or offer for trade, with totals. Every write
    must name the version it is based on (If-Match or `version`); a stale write is refused
    with the current version and nothing is lost."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: CollectionSerializer})
    def get(self, request: Request) -> Response:
        return _answer(request, collection_of(request.user))

    @extend_schema(request=CollectionWriteSerializer, parameters=[IF_MATCH],
                   responses=WRITE_RESPONSES)
    def put(self, request: Request) -> Response:
        """Replace the whole collection: every card not listed is removed."""
        return self._write(request, whole=True)

    @extend_schema(request=CollectionWriteSerializer, parameters=[IF_MATCH],
                   responses=WRITE_RESPONSES)
    def patch(self, request: Request) -> Response:
        """Change the cards listed; a count left out keeps its value."""
        return self._write(request, whole=False)

    def _write(self, request: Request, *, whole: bool) -> Response:
        serializer = CollectionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        with transaction.atomic():
            collection = collection_lock(request.user)
            refused = precondition(request, attrs, collection_versioned(collection))
            if refused is not None:
                return refused
            base = None if whole else collection_counts(collection)
            counts, errors = _counts(attrs["cards"], base)
            if errors:
                return problem_response(
                    status.HTTP_400_BAD_REQUEST, "bad_cards",
                    f"{len(errors)} card(s) cannot be set; nothing was saved.", errors=errors,
                )
            collection_update(collection=collection, counts=counts, replace=whole)
        return _answer(request, collection)


class CollectionExportView(APIView):
    """Your collection as CSV: `id,name,owned,want,trade`, one row per card; the import reads
    it back exactly."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request) -> HttpResponse:
        response = HttpResponse(collection_csv(collection_of(request.user)),
                                content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'inline; filename="collection.csv"'
        return response


class CollectionImportView(APIView):
    """Import a collection CSV. A file with any error imports nothing: the answer lists every
    line at fault (`errors`: line, code, message, text, suggestions as card ids)."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [JSONParser, MultiPartParser, FormParser]

    @extend_schema(request={"application/json": CollectionImportTextSerializer,
                            "multipart/form-data": CollectionImportSerializer},
                   parameters=[IF_MATCH],
                   responses=WRITE_RESPONSES)
    def post(self, request: Request) -> Response:
        serializer = CollectionImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            text = attrs["text"] if "text" in attrs else read_upload(
                attrs["file"], what="collection file", expected="a CSV file",
                max_bytes=MAX_FILE_BYTES, max_lines=MAX_FILE_LINES)
        except DeckInputError as error:
            return problem_response(status.HTTP_400_BAD_REQUEST, "bad_file", error.detail)
        counts, errors = read_collection_csv(text)
        if errors:
            return problem_response(
                status.HTTP_400_BAD_REQUEST, "bad_collection_csv",
                f"{len(errors)} line(s) of the file need fixing; nothing was imported.",
                errors=[{"line": e.line, "code": e.code, "message": e.message, "text": e.text,
                         "suggestions": list(e.suggestions)} for e in errors],
            )
        with transaction.atomic():
            collection = collection_lock(request.user)
            # An import needs no version, but one that names a version gets it checked.
            if request.headers.get("If-Match") is not None or "version" in attrs:
                refused = precondition(request, attrs, collection_versioned(collection))
                if refused is not None:
                    return refused
            collection_update(collection=collection, counts=counts,
                              replace=attrs["mode"] == "replace")
        return _answer(request, collection)


class CollectionShareView(APIView):
    """The collection's read-only link: POST makes one (or returns the one there is), DELETE
    takes it away (the old link then answers 404, and a new one is different)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: ShareSerializer})
    def post(self, request: Request) -> Response:
        collection = collection_share(collection=collection_of(request.user), shared=True)
        link = reverse("collection:shared", args=[collection.share_token])
        return Response({"shared_url": request.build_absolute_uri(link)})

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        collection_share(collection=collection_of(request.user), shared=False)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SharedCollectionView(APIView):
    """A collection its owner shared by link, read-only. Anyone with the link may read it."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: CollectionSerializer, 404: ProblemSerializer})
    def get(self, request: Request, token: str) -> Response:
        collection = Collection.objects.select_related("owner").filter(share_token=token).first()
        if collection is None:
            return problem_response(status.HTTP_404_NOT_FOUND, "not_found",
                                    "No collection is shared with this link.")
        return Response(collection_document(request, collection, shared=True))


# --- a deck against my collection -------------------------------------------------------------
# Under /api/decks/{id}/ (the deck API's paths), served here: decks knows nothing of collections.

MISSING_EXPORTS = {"txt": "text/plain; charset=utf-8", "csv": "text/csv; charset=utf-8"}
DECK_ID = OpenApiParameter("id", str, OpenApiParameter.PATH, pattern="^[0-9]+$")


def _visible_deck(request: Request, deck_id: str) -> Deck:
    return get_object_or_404(Deck.visible_to(request.user).select_related("owner"), pk=deck_id)


class DeckOwnershipView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="decks_ownership_retrieve", tags=["decks"],
                   parameters=[DECK_ID],
                   responses={200: DeckOwnershipSerializer, 404: ProblemSerializer})
    def get(self, request: Request, pk: str, format: str | None = None) -> Response:
        """The deck against your collection: per card, copies needed, owned, held by your
        other sleeved decks and missing; can you build it now. A sleeved deck of yours counts
        the copies allocated to it, any other deck the copies no sleeved deck holds."""
        deck = _visible_deck(request, pk)
        view = deck_ownership(request.user, deck, deck_data(deck))
        return Response({"deck": deck.pk, **ownership_data(view)})


class DeckMissingView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="decks_missing_retrieve", tags=["decks"],
        parameters=[DECK_ID,
                    OpenApiParameter("to", str, enum=list(MISSING_EXPORTS), default="txt")],
        responses={**{(200, media.split(";")[0]): OpenApiTypes.STR
                      for media in MISSING_EXPORTS.values()},
                   400: ProblemSerializer, 404: ProblemSerializer},
    )
    def get(self, request: Request, pk: str, format: str | None = None
            ) -> HttpResponse | Response:
        """The cards your collection lacks for the deck: a decklist in the text format (`txt`)
        or CSV `id,name,missing` (`csv`)."""
        fmt = request.query_params.get("to", "txt")
        if fmt not in MISSING_EXPORTS:
            return problem_response(
                status.HTTP_400_BAD_REQUEST, "bad_format",
                f"Unknown format {fmt!r}; use one of {', '.join(MISSING_EXPORTS)}.",
            )
        deck = _visible_deck(request, pk)
        data = deck_data(deck)
        ownership = deck_ownership(request.user, deck, data).ownership
        body = missing_text(data, ownership) if fmt == "txt" else missing_csv(ownership)
        return HttpResponse(body, content_type=MISSING_EXPORTS[fmt])
