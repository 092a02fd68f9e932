"""The card edit API (docs/design.md §13): ``/api/edits/`` and ``/api/cards/{id}/history/``.

Thin views: each reads its input with a serializer, calls one service of edits.services and
answers the edit document (edits.documents); a refusal of the service (edits.errors) is a
problem document with its status, code, detail and, where useful, ``errors`` (each key at
fault) or ``conflicts`` (each field changed since the edit was proposed).
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import FileResponse, Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from accounts.fingerprints import client_fingerprint
from api.parsers import JSONParser
from api.problems import ProblemSerializer, problem_response
from cards.images.photo_cards import read_photo
from cards.images.scan import MAX_BYTES, ScanError
from cards.models import Card
from cards.services import card_provenance
from edits.api.serializers import (
    CardHistorySerializer,
    DecisionSerializer,
    EditDocumentSerializer,
    EditorRevertedSerializer,
    ProposalSerializer,
    RevertEditorSerializer,
    RevertedSerializer,
    RevertSerializer,
    ScanPhotoSerializer,
    ScanReadingSerializer,
    ScanUploadSerializer,
    VoidSerializer,
    VoteSerializer,
)
from edits.documents import SCAN_SIZES, edit_documents, edits_for_documents
from edits.errors import EditError, EditForbidden, EditInvalid
from edits.models import Edit, EditScan
from edits.photo_reading import catalogue_hints, photo_document
from edits.services import (
    Skipped,
    edit_apply,
    edit_attach_scan,
    edit_cancel,
    edit_competitors,
    edit_propose,
    edit_reject,
    edit_revert,
    edit_vote,
    edit_vote_void,
    edit_voter_vote,
    edits_revert_by_editor,
)

P = ProblemSerializer
# The write operations throttled per user, and their scopes in DEFAULT_THROTTLE_RATES.
THROTTLE_SCOPES = {"create": "edits", "revert": "edits", "votes": "votes", "scan": "scans"}


def edit_problem(error: EditError) -> Response:
    return problem_response(error.status, error.code, error.detail, **error.extra)


class EditFilter(django_filters.FilterSet):
    card = django_filters.CharFilter(field_name="card_slug", help_text="a card id")
    status = django_filters.ChoiceFilter(choices=Edit.STATUS_CHOICES)
    editor = django_filters.CharFilter(field_name="editor__username", help_text="a user name")
    set = django_filters.CharFilter(field_name="set_code", lookup_expr="iexact",
                                    help_text="a set code")

    class Meta:
        model = Edit
        fields = ["card", "status", "editor", "set"]


class EditViewSet(viewsets.GenericViewSet[Edit]):
    """Card edits by card owners: proposals reviewed by votes, each with its source.

    Anyone may read; signed-in users (with a verified e-mail, when the site asks for it)
    propose and vote; staff apply, reject and revert."""

    serializer_class = EditDocumentSerializer
    filterset_class = EditFilter
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = [JSONParser]
    # Any id reaches the view, so that a visitor's write is refused (403) before an id that
    # cannot be one is a 404 (get_object).
    lookup_value_regex = r"[^/]+"

    def get_queryset(self) -> QuerySet[Edit]:
        return edits_for_documents(Edit.objects.order_by("-created_at", "-id"))

    def get_object(self) -> Edit:
        pk = str(self.kwargs.get("pk", ""))
        if not (pk.isascii() and pk.isdigit() and len(pk) <= 18):
            raise Http404("No edit with this id.")
        return super().get_object()

    def get_throttles(self) -> list[BaseThrottle]:
        scope = THROTTLE_SCOPES.get(self.action or "")
        if scope is None or self.request.method != "POST":
            return []
        self.throttle_scope = scope
        return [ScopedRateThrottle()]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, EditError):
            return edit_problem(exc)
        return super().handle_exception(exc)

    def _documents(self, edits: list[Edit]) -> list[dict[str, Any]]:
        """The edits' documents, with the staff-only ``trust`` for staff."""
        return edit_documents(edits, url_of=self.request.build_absolute_uri,
                              for_staff=bool(getattr(self.request.user, "is_staff", False)))

    def _answer(self, edit: Edit, code: int = status.HTTP_200_OK, **extra: Any) -> Response:
        fresh = self.get_queryset().get(pk=edit.pk)
        document = self._documents([fresh])[0]
        response = Response({**document, **extra}, status=code)
        if code == status.HTTP_201_CREATED:
            response["Location"] = document["url"]
        return response

    @extend_schema(responses={200: EditDocumentSerializer(many=True), 400: P})
    def list(self, request: Request) -> Response:
        """Edits, newest first, filtered by card, status, editor (user name) and set."""
        edits = self.filter_queryset(self.get_queryset())
        page: list[Edit] = self.paginate_queryset(edits) or []
        return self.get_paginated_response(self._documents(page))

    @extend_schema(responses={200: EditDocumentSerializer, 404: P})
    def retrieve(self, request: Request, pk: str) -> Response:
        return self._answer(self.get_object())

    @extend_schema(
        request=ProposalSerializer,
        responses={201: EditDocumentSerializer, 400: P, 403: P, 409: P, 429: P},
        examples=[
            OpenApiExample("changes to a card", request_only=True, value={
                "card": "demo-bog-hag", "changes": {"offense": 2, "quotation": None},
                "source": "my own copy of the card", "note": ""}),
            OpenApiExample("a new card", request_only=True, value={
                "new_card": {"id": "demo-new-card", "name": "New Card", "set": "DEMO",
                             "type": "event"},
                "source": "the printed checklist"}),
        ],
    )
    def create(self, request: Request) -> Response:
        """Propose changes to a card, or a card that is not in the catalogue yet. 400 names
        every key at fault (an unknown key or card, a wrong type or enum value, an empty
        source) and nothing is stored; 403 for an account that may not edit or a new account
        at its limit of open edits; 409 when `before` is given and the card has changed since.
        A trusted editor's edit is applied at once."""
        serializer = ProposalSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        edit = edit_propose(
            editor=request.user, source=data["source"], note=data["note"],
            card=data.get("card"), changes=data.get("changes"), new_card=data.get("new_card"),
            before=data.get("before"), client=client_fingerprint(request),
        )
        return self._answer(edit, status.HTTP_201_CREATED)

    @extend_schema(request=VoteSerializer,
                   responses={200: EditDocumentSerializer, 400: P, 403: P, 404: P, 409: P,
                              429: P})
    @action(detail=True, methods=["post"])
    def votes(self, request: Request, pk: str) -> Response:
        """Approve or reject the edit (a second vote replaces the first; a rejection needs a
        note). 403 on your own edit; 409 when it is no longer open. Answers the edit, applied
        if this vote completed its approvals."""
        serializer = VoteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        edit = edit_vote(edit=self.get_object(), voter=request.user,
                         vote=serializer.validated_data["vote"],
                         note=serializer.validated_data["note"],
                         client=client_fingerprint(request))
        return self._answer(edit)

    @extend_schema(request=VoidSerializer,
                   responses={200: EditDocumentSerializer, 400: P, 403: P, 404: P, 409: P})
    @action(detail=True, methods=["post"], url_path=r"votes/(?P<voter>[^/]+)/void",
            url_name="vote-void")
    def void_vote(self, request: Request, pk: str, voter: str) -> Response:
        """Staff: void the vote of the user named `voter` (a sock puppet's, say). It is kept and
        shown as voided, never counts, and its voter may not vote on the edit again; an open
        edit is settled again. 409 `already_voided`; 404 `no_vote`."""
        if not request.user.is_staff:
            raise EditForbidden("Only staff may void votes.", code="staff_only")
        serializer = VoidSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        vote = edit_voter_vote(edit=self.get_object(), voter_name=voter)
        return self._answer(edit_vote_void(vote=vote, user=request.user,
                                           note=serializer.validated_data["note"]))

    @extend_schema(request=None, responses={200: EditDocumentSerializer, 403: P, 404: P, 409: P})
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str) -> Response:
        """The editor withdraws their open edit."""
        return self._answer(edit_cancel(edit=self.get_object(), user=request.user))

    @extend_schema(request=DecisionSerializer,
                   responses={200: EditDocumentSerializer, 400: P, 403: P, 404: P, 409: P})
    @action(detail=True, methods=["post"])
    def apply(self, request: Request, pk: str) -> Response:
        """Staff: apply the open edit now, whatever its votes. 409 (with `conflicts`) when a
        field it changes has changed since it was proposed; the edit stays open."""
        serializer = DecisionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return self._answer(edit_apply(edit=self.get_object(), user=request.user,
                                       note=serializer.validated_data["note"]))

    @extend_schema(request=DecisionSerializer,
                   responses={200: EditDocumentSerializer, 400: P, 403: P, 404: P, 409: P})
    @action(detail=True, methods=["post"])
    def reject(self, request: Request, pk: str) -> Response:
        """Staff: reject the open edit; the note (required) says why."""
        serializer = DecisionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return self._answer(edit_reject(edit=self.get_object(), user=request.user,
                                        note=serializer.validated_data["note"]))

    @extend_schema(request=RevertSerializer,
                   responses={201: RevertedSerializer, 400: P, 403: P, 404: P, 409: P, 429: P})
    @action(detail=True, methods=["post"])
    def revert(self, request: Request, pk: str) -> Response:
        """Propose an edit that puts back what this applied edit replaced (applied at once
        for staff and trusted editors). Fields changed since by others are left alone and
        listed in `skipped`; 409 when nothing is left to revert."""
        serializer = RevertSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = edit_revert(edit=self.get_object(), user=request.user,
                             source=serializer.validated_data["source"],
                             note=serializer.validated_data["note"],
                             client=client_fingerprint(request))
        return self._answer(result.edit, status.HTTP_201_CREATED,
                            skipped=_skipped(result.skipped))

    @extend_schema(request=RevertEditorSerializer,
                   responses={200: EditorRevertedSerializer, 400: P, 403: P})
    @action(detail=False, methods=["post"], url_path="revert-editor")
    def revert_editor(self, request: Request) -> Response:
        """Staff: revert every applied edit of one editor, newest first (fields changed since
        by others are skipped, and said so), and reject their open edits."""
        if not request.user.is_staff:
            raise EditForbidden("Only staff may revert an editor's edits.", code="staff_only")
        serializer = RevertEditorSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        name = serializer.validated_data["editor"]
        editor = get_user_model().objects.filter(username=name).first()
        if editor is None:
            raise EditInvalid({"editor": [f"no user {name!r}."]})
        report = edits_revert_by_editor(editor=editor, user=request.user,
                                        note=serializer.validated_data["note"])
        ids = [r.edit.pk for r in report.reverted] + [e.pk for e in report.rejected]
        documents = {d["id"]: d for d in self._documents(
            list(self.get_queryset().filter(pk__in=ids)))}
        return Response({
            "editor": name,
            "reverted": [documents[r.edit.pk] for r in report.reverted],
            "rejected": [documents[e.pk] for e in report.rejected],
            "skipped": _skipped(report.skipped),
        })

    @extend_schema(responses={200: EditDocumentSerializer(many=True), 404: P})
    @action(detail=True, methods=["get"], pagination_class=None, filterset_class=None)
    def competing(self, request: Request, pk: str) -> Response:
        """The other open edits of the same card that change any of the same fields (for a
        new card, the other proposals of the same id), oldest first: to show side by side."""
        others = edit_competitors(self.get_object())
        fresh = {e.pk: e for e in self.get_queryset().filter(pk__in=[o.pk for o in others])}
        return Response(self._documents([fresh[o.pk] for o in others]))

    @extend_schema(request={"multipart/form-data": ScanUploadSerializer},
                   responses={200: EditDocumentSerializer, 400: P, 403: P, 404: P, 409: P,
                              413: P, 429: P})
    @action(detail=True, methods=["post"], parser_classes=[MultiPartParser, FormParser])
    def scan(self, request: Request, pk: str) -> Response:
        """Attach a photo or scan of the card to the open edit (its editor or staff),
        replacing an earlier one: checked (type by content, size, pixel count) and re-encoded
        to WebP renditions without metadata."""
        edit = self.get_object()
        serializer = ScanUploadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload = serializer.validated_data["file"]
        if upload.size > MAX_BYTES:
            raise EditInvalid({"file": [f"is {upload.size / 2**20:.1f} MB; the limit is "
                                        f"{MAX_BYTES // 2**20} MB."]})
        edit_attach_scan(edit=edit, user=request.user, data=upload.read())
        return self._answer(edit)

    @extend_schema(responses={(200, "image/webp"): OpenApiTypes.BINARY, 404: P})
    @action(detail=True, methods=["get"], url_path=r"scan/(?P<size>small|normal|large)",
            url_name="scan-image", pagination_class=None, filterset_class=None)
    def scan_image(self, request: Request, pk: str, size: str) -> FileResponse:
        """A rendition of the edit's scan (WebP)."""
        picture = EditScan.objects.filter(edit=self.get_object()).first()
        if picture is None or size not in SCAN_SIZES:
            raise Http404("This edit has no scan.")
        response = FileResponse(getattr(picture, size).open("rb"), content_type="image/webp")
        response["Cache-Control"] = "public, max-age=31536000, immutable" \
            if "v" in request.GET else "public, max-age=300"
        return response


def _skipped(skipped: list[Skipped]) -> list[dict[str, Any]]:
    return [{"edit": s.edit, "field": s.field, "reason": s.reason} for s in skipped]


class CardHistoryView(APIView):
    """A card's history of edits: where each field's current value came from, the applied
    edits (newest first) and the open ones (oldest first)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="cards_history", responses={200: CardHistorySerializer,
                                                             404: P})
    def get(self, request: Request, card_id: str) -> Response:
        card = Card.objects.filter(id=card_id).first()
        if card is None:
            raise Http404(f"No card {card_id!r}.")
        edits = edits_for_documents(Edit.objects.filter(card_slug=card.id))
        applied = list(edits.filter(status=Edit.APPLIED).order_by("-decided_at", "-id"))
        still_open = list(edits.filter(status=Edit.OPEN).order_by("created_at", "id"))
        documents = edit_documents(applied + still_open, url_of=request.build_absolute_uri,
                                   for_staff=bool(request.user.is_staff))
        return Response({
            "card": card.id,
            "provenance": card_provenance(card),
            "applied": documents[:len(applied)],
            "open": documents[len(applied):],
        })


class ScanReadView(APIView):
    """``POST /api/scans/`` (docs/design.md §13): the cards in a photo, read. Nothing is
    stored."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "scans"

    @extend_schema(operation_id="scans_read",
                   request={"multipart/form-data": ScanPhotoSerializer},
                   responses={200: ScanReadingSerializer, 400: P, 403: P, 413: P, 429: P})
    def post(self, request: Request) -> Response:
        """Find every card in a photo of one card or of a binder page and read each: its
        corners (clockwise from the card's top left), the values read (only the keys its
        type prints; null where printed but not read), the doubtful keys and the catalogue
        card with the name read. The file is checked by its content, size and pixel count."""
        serializer = ScanPhotoSerializer(data=request.data)
        if not serializer.is_valid():
            return problem_response(400, "invalid", "Attach the photo as the multipart field "
                                    "`image`.", errors=serializer.errors)
        upload = serializer.validated_data["image"]
        if upload.size > MAX_BYTES:
            return problem_response(400, "too_large", f"The photo is {upload.size / 2**20:.1f} "
                                    f"MB; the limit is {MAX_BYTES // 2**20} MB.")
        try:
            reading = read_photo(upload.read(), hints=catalogue_hints())
        except ScanError as error:
            return problem_response(400, "bad_image", f"The photo was refused: {error}.")
        return Response(photo_document(reading))
