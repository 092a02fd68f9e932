"""The deck API: owner-scoped CRUD with optimistic versioning, clone and history."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from api.parsers import JSONParser
from api.preconditions import Versioned, if_match_parameter, precondition, stale
from api.problems import ProblemSerializer, problem_response
from decks.api.serializers import (
    DeckImportSerializer,
    DeckImportTextSerializer,
    DeckSerializer,
    DeckValidateSerializer,
    DeckVersionSerializer,
    DeckWriteSerializer,
)
from decks.deck_input import (
    DeckInputError,
    deck_from_input,
    deck_from_request,
    deck_from_text,
    deck_to_save,
    read_upload,
)
from decks.exports import BINARY, EXPORTS, export_deck, export_filename
from decks.formats.pdf import PageSize
from decks.models import Deck
from decks.public_search import DeckSearchError, deck_search_from, public_decks
from decks.services import deck_clone, deck_data, deck_save, deck_set_sleeved
from decks.validation import deck_validate
from decks.version_check import deck_etag
from rules.card_anatomy import FACTIONS
from rules.game.engine import DeckNotPlayable
from sitewide.throttling import CostThrottle

IF_MATCH = if_match_parameter("deck", '"<id>.<version>"')

# Each export format's media type, with what its body is (the JSON decklist is an object).
EXPORT_RESPONSES = {
    (200, media.split(";")[0]): (
        OpenApiTypes.OBJECT if fmt == "json" else OpenApiTypes.BINARY if fmt in BINARY
        else OpenApiTypes.STR
    )
    for fmt, (media, _) in EXPORTS.items()
}


def deck_versioned(deck: Deck) -> Versioned:
    return Versioned("deck", deck.version, deck_etag(deck))


class DeckViewSet(viewsets.ModelViewSet[Deck]):
    """Your decks. Others' public decks can be read by id; their private and unlisted ones are
    invisible (404: an unlisted deck is shared by its link, /s/<token>, not by its number).
    Every write must name the version it is based on (If-Match or `version`); a stale write is
    refused with the current version and nothing is lost."""

    serializer_class = DeckSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    lookup_value_regex = r"[0-9]+"
    throttle_scope: str | None = None  # set per action: only the expensive ones are throttled
    # The actions that read a decklist: charged by its size (sitewide.throttling.CostThrottle).
    READS_DECKLISTS = frozenset({"create", "update", "partial_update", "validate", "import_"})

    def get_throttles(self) -> list[Any]:
        throttles = list(super().get_throttles())
        if self.action in self.READS_DECKLISTS:
            throttles.append(CostThrottle())
        return throttles

    def get_queryset(self) -> QuerySet[Deck]:
        decks = Deck.objects.select_related("owner").prefetch_related("entries__card")
        user = self.request.user
        if self.action == "list":
            if user.is_authenticated:
                return decks.filter(owner=user).order_by("name", "id")
            return decks.filter(visibility=Deck.PUBLIC).order_by("name", "id")
        return Deck.visible_to(user).select_related("owner").prefetch_related("entries__card")

    def _owned(self) -> Deck:
        deck = self.get_object()
        if deck.owner_id != self.request.user.pk:
            raise PermissionDenied("Only the deck's owner can change it; clone it to edit a copy.")
        return deck

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        deck = self.get_object()
        response = Response(self.get_serializer(deck).data)
        response["ETag"] = deck_etag(deck)
        return response

    @extend_schema(request=DeckWriteSerializer, responses={201: DeckSerializer,
                                                           400: ProblemSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        attrs = self._input(request)
        try:
            data = deck_to_save(deck_from_input(attrs))
        except DeckInputError as error:
            return input_problem(error)
        deck = deck_save(owner=request.user, data=data,
                         visibility=attrs.get("visibility", Deck.PRIVATE))
        deck_set_sleeved(deck=deck, sleeved=attrs.get("sleeved", False))
        response = Response(self._fresh(deck), status=status.HTTP_201_CREATED)
        response["ETag"] = deck_etag(deck)
        response["Location"] = deck.get_absolute_url()
        return response

    @extend_schema(request=DeckWriteSerializer, parameters=[IF_MATCH],
                   responses={200: DeckSerializer, 409: ProblemSerializer,
                              412: ProblemSerializer, 428: ProblemSerializer})
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """PUT replaces the deck: its name, description, players and four parts are what the
        body gives (what it leaves out is empty, or the default a new deck gets); PATCH
        changes only what the body gives. Both keep `visibility` and `sleeved` unless given."""
        partial = kwargs.pop("partial", False)
        attrs = self._input(request)
        with transaction.atomic():
            deck = self._owned()
            deck = Deck.objects.select_for_update().get(pk=deck.pk)
            refused = precondition(request, attrs, deck_versioned(deck))
            if refused is not None:
                return refused
            try:
                data = deck_to_save(
                    deck_from_input(attrs, base=deck_data(deck) if partial else None))
            except DeckInputError as error:
                return input_problem(error)
            if "visibility" in attrs:
                deck.visibility = attrs["visibility"]
            if "sleeved" in attrs:
                deck.sleeved = attrs["sleeved"]
            deck = deck_save(owner=deck.owner, data=data, deck=deck, author=request.user)
            # Read back while the row is still locked: the answer shows exactly the version
            # this edit made, never a later one saved the moment the lock is released.
            response = Response(self._fresh(deck))
        response["ETag"] = deck_etag(deck)
        return response

    @extend_schema(request=DeckWriteSerializer, parameters=[IF_MATCH])
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.update(request, *args, partial=True, **kwargs)

    @extend_schema(parameters=[IF_MATCH], responses={204: None, 412: ProblemSerializer})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        deck = self._owned()
        if request.headers.get("If-Match") and request.headers["If-Match"] != deck_etag(deck):
            return stale(deck_versioned(deck), status.HTTP_412_PRECONDITION_FAILED)
        deck.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=DeckValidateSerializer,
                   responses={200: OpenApiTypes.OBJECT, 400: ProblemSerializer})
    @action(detail=False, methods=["post"], permission_classes=[permissions.AllowAny])
    def validate(self, request: Request) -> Response:
        """Check a decklist against the construction rules without saving it: every problem
        at once, each with the rule it enforces and the edits that would clear it."""
        serializer = DeckValidateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            deck = deck_from_request(attrs)
        except DeckInputError as error:
            return input_problem(error)
        return Response(deck_validate(deck, players=attrs.get("players")).to_dict())

    @extend_schema(
        parameters=[
            OpenApiParameter("to", str, enum=list(EXPORTS), default="txt"),
            OpenApiParameter("page", str, enum=["a4", "letter"], default="a4",
                             description="paper size of pdf and proxies"),
            OpenApiParameter("cards", str, description="proxies: only these card ids, "
                             "comma-separated"),
        ],
        responses={**EXPORT_RESPONSES, 400: ProblemSerializer},
    )
    @action(detail=True, methods=["get"], throttle_classes=[ScopedRateThrottle],
            throttle_scope="exports")
    def export(self, request: Request, pk: str | None = None) -> HttpResponse | Response:
        """The deck in one format: txt, json, csv, a deck code, a printable decklist (pdf) or
        a 3x3 proxy sheet of its cards at real size (proxies); `page=a4|letter` for PDFs."""
        fmt = request.query_params.get("to", "txt")
        if fmt not in EXPORTS:
            return problem_response(
                status.HTTP_400_BAD_REQUEST, "bad_format",
                f"Unknown export format {fmt!r}; use one of {', '.join(EXPORTS)}.",
            )
        deck = self.get_object()
        media_type = EXPORTS[fmt][0]
        page: PageSize = "letter" if request.query_params.get("page") == "letter" else "a4"
        only = request.query_params.get("cards")
        low_ink = request.query_params.get("ink") == "low"
        data = export_deck(deck_data(deck), fmt, page, owner=deck.owner.username,
                           only=set(only.split(",")) if only else None, low_ink=low_ink)
        response = HttpResponse(data, content_type=media_type)
        filename = export_filename(slugify(deck.name) or f"deck-{deck.pk}", fmt, low_ink=low_ink)
        response["Content-Disposition"] = f'inline; filename="{filename}"'
        return response

    @extend_schema(request={"application/json": DeckImportTextSerializer,
                            "multipart/form-data": DeckImportSerializer},
                   responses={201: DeckSerializer, 400: ProblemSerializer})
    @action(detail=False, methods=["post"], url_path="import",
            parser_classes=[JSONParser, MultiPartParser])
    def import_(self, request: Request) -> Response:
        """Create a deck from a decklist in any format (text, JSON, CSV or a deck code),
        pasted as `text` or uploaded as `file` (UTF-8; at most 64 kB and 1,000 lines, as
        every decklist)."""
        serializer = DeckImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            text = attrs["text"] if "text" in attrs else read_upload(attrs["file"])
            overrides = {k: attrs[k] for k in ("name", "description", "players") if k in attrs}
            data = deck_to_save(replace(deck_from_text(text), **overrides))
        except DeckInputError as error:
            return input_problem(error)
        deck = deck_save(owner=request.user, data=data,
                         visibility=attrs.get("visibility", Deck.PRIVATE))
        response = Response(self._fresh(deck), status=status.HTTP_201_CREATED)
        response["ETag"] = deck_etag(deck)
        return response

    @extend_schema(request=None, responses={201: DeckSerializer})
    @action(detail=True, methods=["post"])
    def clone(self, request: Request, pk: str | None = None) -> Response:
        """Copy a deck you can see into a new private deck of yours."""
        copy = deck_clone(deck=self.get_object(), owner=request.user)
        return Response(self._fresh(copy), status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[
            OpenApiParameter("name", str, description="words the deck's name holds (all)"),
            OpenApiParameter("faction", str, enum=list(FACTIONS),
                             description="a faction of the deck's personalities"),
            OpenApiParameter("card", str, description="a card the deck plays: its id or "
                             "words of its name"),
            OpenApiParameter("page", int), OpenApiParameter("page_size", int),
        ],
        responses={200: DeckSerializer(many=True), 400: ProblemSerializer},
    )
    @action(detail=False, methods=["get"], url_path="public",
            permission_classes=[permissions.AllowAny])
    def public(self, request: Request) -> Response:
        """Search everyone's public decks (the sample decks too) by name, faction and card,
        by name then id, a page at a time. A faction that is not one, or a card no name or id
        matches, is a 400 problem naming the parameter (`errors`)."""
        try:
            found = public_decks(deck_search_from(request.query_params))
        except DeckSearchError as error:
            return problem_response(status.HTTP_400_BAD_REQUEST, "invalid_search",
                                    error.message, errors={error.field: [error.message]})
        decks = found.decks.prefetch_related("entries__card")
        page = self.paginate_queryset(decks)
        return self.get_paginated_response(DeckSerializer(page, many=True).data)

    @extend_schema(responses=DeckVersionSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def versions(self, request: Request, pk: str | None = None) -> Response:
        """Every saved version, newest first, with what changed."""
        deck = self.get_object()
        versions = deck.versions.select_related("author")
        return Response(DeckVersionSerializer(versions, many=True).data)

    def _input(self, request: Request) -> dict[str, Any]:
        serializer = DeckWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def _fresh(self, deck: Deck) -> dict[str, Any]:
        return dict(self.get_serializer(
            Deck.objects.select_related("owner").prefetch_related("entries__card").get(pk=deck.pk)
        ).data)


def not_playable_problem(error: DeckNotPlayable) -> Response:
    """A deck the rules engine cannot play (goldfish, playtest): why, and when its Initial
    Holdings break the rules, the validator's problems (codes and messages of
    POST /api/decks/validate/) as ``errors``."""
    extra = {"errors": [p.to_dict() for p in error.problems]} if error.problems else {}
    return problem_response(status.HTTP_400_BAD_REQUEST, "deck_not_playable", str(error),
                            **extra)


def input_problem(error: DeckInputError) -> Response:
    """A decklist that cannot be read: every line or field at fault; nothing was saved."""
    return problem_response(
        status.HTTP_400_BAD_REQUEST, error.code, error.detail, errors=error.errors()
    )

