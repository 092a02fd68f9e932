"""POST /api/goldfish/, GET /api/goldfish/{id}/ and POST /api/goldfish/{id}/cancel/: goldfish
runs in the background (goldfish.runs), for anyone (smaller runs without an account).

A run answers with ``{"id", "url", "status", "progress", "report"}``; the report, once the run
is done, is the document the ``goldfish`` command prints with ``--format json``.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from decks.api.serializers import DeckJsonSerializer, decklist_text
from decks.api.views import input_problem, not_playable_problem
from decks.deck_input import DeckInputError, deck_from_request
from decks.models import Deck
from decks.services import deck_data, readable_decks
from goldfish.games import DeckNotPlayable
from goldfish.models import GoldfishRun
from goldfish.runs import (
    ANONYMOUS,
    DEFAULT_GAMES,
    DEFAULT_SEED,
    LOOKAHEAD_GAMES,
    SIGNED_IN,
    RunOptions,
    RunRefused,
    goldfish_run_cancel,
    goldfish_run_nudge,
    goldfish_run_start,
    requester_key,
)
from rules.game.config import TARGETS
from rules.game.runner import POLICY_NAMES, check_policy
from sitewide.background_runs import refused_response, started_response
from sitewide.problems import ProblemSerializer, problem_response
from sitewide.throttling import CostThrottle

MAX_SEED = 2**63 - 1


@extend_schema_field({
    "oneOf": [{"type": "integer", "description": "the id of a saved deck you may read"},
              {"type": "object", "description": "a decklist as the JSON decklist object"}],
})
class DeckReferenceField(serializers.Field):
    """A saved deck's id, or a JSON decklist object (checked like POST /api/decks/validate/)."""

    default_error_messages = {
        "invalid": "Give a saved deck's id (a number) or a JSON decklist object.",
    }

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, int) and not isinstance(data, bool):
            return data
        if isinstance(data, dict):
            decklist = DeckJsonSerializer(data=data)
            decklist.is_valid(raise_exception=True)
            return dict(decklist.validated_data)
        self.fail("invalid")

    def to_representation(self, value: Any) -> Any:
        return value


class GoldfishRequestSerializer(serializers.Serializer[Any]):
    """A goldfish run: the deck (`text`, or `deck`: a saved deck's id or a JSON decklist) and
    the options of the ``goldfish`` command."""

    text = decklist_text(required=False, help_text="a decklist in any supported format")
    deck = DeckReferenceField(required=False)
    games = serializers.IntegerField(
        min_value=1, default=DEFAULT_GAMES,
        help_text=f"games to play: at most {ANONYMOUS.games:,} without an account, "
        f"{SIGNED_IN.games:,} signed in")
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, default=DEFAULT_SEED,
                                    help_text="game n of the run uses a seed derived from "
                                    "(seed, n): the same seed, the same report")
    policy = serializers.CharField(
        default="greedy", max_length=20,
        help_text=f"who decides each move ({', '.join(POLICY_NAMES)}): greedy (the default) "
        "takes the best move now by fixed rules of thumb; lookahead plays each choice out to "
        "the end of the game first (lookahead:N with N playouts a choice; at most "
        f"{LOOKAHEAD_GAMES:,} games a run); random takes any legal move")
    target = serializers.ChoiceField(choices=list(TARGETS), default=25,
                                     help_text="faction influence needed to win")
    players = serializers.IntegerField(min_value=1, max_value=6, default=1,
                                       help_text="the table's size: the game is lost once more "
                                       "than 3 wanderers per player are in play (3 solo, "
                                       "12 at 4)")

    def validate_policy(self, value: str) -> str:
        try:
            return check_policy(value)
        except ValueError as error:
            raise serializers.ValidationError(str(error)) from None

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == ("deck" in attrs):
            raise serializers.ValidationError("Give exactly one of `text` or `deck`.")
        return attrs


class GoldfishRunSerializer(serializers.Serializer[Any]):
    """A goldfish run (for the schema; the views build the document)."""

    id = serializers.UUIDField()
    url = serializers.URLField(help_text="this document; the report page is /goldfish/{id}/")
    status = serializers.ChoiceField(choices=[c for c, _ in GoldfishRun.STATUS_CHOICES])
    progress = serializers.DictField(child=serializers.IntegerField(),
                                     help_text="{chunks_done, chunks_total}")
    report = serializers.JSONField(allow_null=True, help_text="when done: the report of the "
                                   "goldfish command's --format json; null until then")


def run_document(request: Request, run: GoldfishRun) -> dict[str, Any]:
    url = request.build_absolute_uri(reverse("api:goldfish-detail", args=[run.pk]))
    return {"id": str(run.pk), "url": url, "status": run.status, "progress": run.progress,
            "report": run.report}


class GoldfishRunsView(APIView):
    """Start a goldfish run (or find the stored one). Starting runs is throttled (the
    ``goldfish`` scope, counted in the shared cache, 429 with Retry-After); polling is not."""

    throttle_classes = [ScopedRateThrottle, CostThrottle]
    throttle_scope = "goldfish"

    permission_classes = [permissions.AllowAny]
    name = "Goldfish runs"

    @extend_schema(
        operation_id="goldfish_create",
        request=GoldfishRequestSerializer,
        responses={200: GoldfishRunSerializer, 202: GoldfishRunSerializer,
                   400: ProblemSerializer, 404: ProblemSerializer, 429: ProblemSerializer},
        examples=[OpenApiExample("a decklist", request_only=True, value={
            "text": "# Kalim Faithful\nInitial Holdings\n1 Fort Ashgate\n...", "games": 1000,
            "seed": 1, "policy": "greedy", "target": 25, "players": 1})],
    )
    def post(self, request: Request) -> Response:
        """Play the deck solo `games` times in the background: 202 with the run and its `url`
        to poll, or 200 with the stored report when the same deck contents were already run
        with the same options (a run of them still going is returned with 202, not started
        twice). 400 when the deck cannot be read or played, or `games` is over your limit;
        429 when you already have two runs going."""
        serializer = GoldfishRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        source: Deck | None = None
        try:
            if isinstance(attrs.get("deck"), int):
                source = readable_decks(request.user).filter(pk=attrs["deck"]).first()
                if source is None:
                    return problem_response(status.HTTP_404_NOT_FOUND, "not_found",
                                            f"There is no deck {attrs['deck']} you can read.")
                deck = deck_data(source)
            else:
                deck = deck_from_request(attrs)
        except DeckInputError as error:
            return input_problem(error)
        options = RunOptions(games=attrs["games"], seed=attrs["seed"], policy=attrs["policy"],
                             target=int(attrs["target"]), players=attrs["players"])
        user = request.user if request.user.is_authenticated else None
        try:
            run, created = goldfish_run_start(
                deck=deck, options=options, user=user,
                requester=requester_key(user, request.META.get("REMOTE_ADDR")),
                source=source, source_version=source.version if source else None)
        except DeckNotPlayable as error:
            return not_playable_problem(error)
        except RunRefused as refused:
            return refused_response(refused)
        return started_response(run_document(request, run),
                                done=not created and run.status == GoldfishRun.DONE)


class GoldfishRunView(APIView):
    """A goldfish run: its status, its progress and, when done, its report."""

    permission_classes = [permissions.AllowAny]
    name = "Goldfish run"

    @extend_schema(operation_id="goldfish_retrieve",
                   responses={200: GoldfishRunSerializer, 404: ProblemSerializer})
    def get(self, request: Request, run_id: str) -> Response:
        """Poll until `status` is `done` (then `report` is there), `failed` or `cancelled`."""
        run = _run_or_none(run_id)
        if run is None:
            return _no_run(run_id)
        goldfish_run_nudge(run=run)
        return Response(run_document(request, run))


class GoldfishCancelView(APIView):
    """Cancel a run you started."""

    permission_classes = [permissions.AllowAny]
    name = "Cancel a goldfish run"

    @extend_schema(operation_id="goldfish_cancel", request=None,
                   responses={200: GoldfishRunSerializer, 403: ProblemSerializer,
                              404: ProblemSerializer, 409: ProblemSerializer})
    def post(self, request: Request, run_id: str) -> Response:
        """Stop a queued or running run: the games not played yet are skipped and its status
        becomes `cancelled`. 409 when it has finished already."""
        run = _run_or_none(run_id)
        if run is None:
            return _no_run(run_id)
        user = request.user if request.user.is_authenticated else None
        if run.requester != requester_key(user, request.META.get("REMOTE_ADDR")):
            return problem_response(status.HTTP_403_FORBIDDEN, "permission_denied",
                                    "Only whoever started a run can cancel it.")
        if run.status in (GoldfishRun.DONE, GoldfishRun.FAILED):
            return problem_response(status.HTTP_409_CONFLICT, "already_finished",
                                    f"The run has finished already ({run.status}).")
        return Response(run_document(request, goldfish_run_cancel(run=run)))


def _run_or_none(run_id: str) -> GoldfishRun | None:
    try:
        key = uuid.UUID(run_id)
    except ValueError:
        return None
    return GoldfishRun.objects.filter(pk=key).first()


def _no_run(run_id: str) -> Response:
    return problem_response(status.HTTP_404_NOT_FOUND, "not_found",
                            f"There is no goldfish run {run_id}.")

