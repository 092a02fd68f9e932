"""POST /api/matchups/, GET /api/matchups/{id}/ and POST /api/matchups/{id}/cancel/: matchup
runs in the background (matchups.runs), as the goldfish API does for one deck.

A run answers with ``{"id", "url", "status", "progress", "report"}``; the report, once the run
is done, is the document the ``matchup`` command prints with ``--format json`` (docs/design.md §14).
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from decks.api.serializers import DeckJsonSerializer
from decks.api.views import not_playable_problem
from decks.deck_input import MAX_DECKLIST_BYTES, DeckInputError, deck_from_request
from decks.models import Deck
from decks.services import deck_data, readable_decks
from matchups.games import DeckNotPlayable
from matchups.models import MatchupRun
from matchups.runs import (
    ANONYMOUS,
    DEFAULT_GAMES,
    DEFAULT_SEED,
    SIGNED_IN,
    MatchupOptions,
    matchup_run_cancel,
    matchup_run_nudge,
    matchup_run_start,
)
from rules.decklist import Deck as DeckData
from rules.game.config import TARGETS
from rules.game.gauntlet import MAX_FIELD, MODES
from rules.game.matchup import MatchupSpec
from rules.game.multiplayer_policy import MULTIPLAYER_POLICIES
from sitewide.background_runs import (
    RunRefused,
    refused_response,
    requester_key,
    started_response,
)
from sitewide.problems import ProblemSerializer, problem_response
from sitewide.throttling import CostThrottle

MAX_SEED = 2**63 - 1


@extend_schema_field({
    "oneOf": [{"type": "integer", "description": "the id of a saved deck you may read"},
              {"type": "string", "description": "a decklist in any supported format"},
              {"type": "object", "description": "a decklist as the JSON decklist object"}],
})
class MatchupDeckField(serializers.Field):
    """One seat's deck: a saved deck's id, a decklist text, or a JSON decklist object."""

    default_error_messages = {
        "invalid": "Give a saved deck's id (a number), a decklist text or a JSON decklist "
                   "object.",
    }

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, int) and not isinstance(data, bool):
            return data
        if isinstance(data, str) and data.strip():
            if len(data) > MAX_DECKLIST_BYTES:
                raise serializers.ValidationError(
                    f"A decklist may be at most {MAX_DECKLIST_BYTES:,} characters "
                    f"({MAX_DECKLIST_BYTES // 1024} kB).")
            return {"text": data}
        if isinstance(data, dict):
            decklist = DeckJsonSerializer(data=data)
            decklist.is_valid(raise_exception=True)
            return {"deck": dict(decklist.validated_data)}
        self.fail("invalid")

    def to_representation(self, value: Any) -> Any:
        return value


class MatchupRequestSerializer(serializers.Serializer[Any]):
    """A matchup run: 2 to 6 decks, one seat each, and the options of the ``matchup``
    command."""

    decks = serializers.ListField(
        child=MatchupDeckField(), min_length=2, max_length=MAX_FIELD,
        help_text=f"a matchup: 2 to 6 decks (the same deck may sit twice); a gauntlet or a "
        f"matrix: 2 to {MAX_FIELD}")
    mode = serializers.ChoiceField(
        choices=list(MODES), default="matchup",
        help_text="matchup: every deck at one table (the docs/design.md §14 report); gauntlet: the "
        "first deck against each of the others; matrix: every deck against every other (each "
        "pairing a 2-player matchup of `games` games; the report adds the matrix of win rates)")
    games = serializers.IntegerField(
        min_value=1, default=DEFAULT_GAMES,
        help_text=f"games to play: at most {ANONYMOUS.games:,} without an account, "
        f"{SIGNED_IN.games:,} signed in")
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, default=DEFAULT_SEED,
                                    help_text="the same seed, the same report")
    policy = serializers.CharField(
        default="greedy", max_length=80,
        help_text=f"who decides: {', '.join(MULTIPLAYER_POLICIES)} at every seat, or one per "
        "deck, comma-separated")
    target = serializers.ChoiceField(choices=list(TARGETS), default=25,
                                     help_text="faction influence needed to win")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["mode"] == "matchup" and len(attrs["decks"]) > 6:
            raise serializers.ValidationError(
                {"decks": f"A matchup seats 2 to 6 decks, not {len(attrs['decks'])}."})
        return attrs

    def validate_policy(self, value: str) -> str:
        try:
            MatchupSpec(1, 0, value)
        except ValueError as error:
            raise serializers.ValidationError(str(error)) from None
        return value


class MatchupRunSerializer(serializers.Serializer[Any]):
    """A matchup run (for the schema; the views build the document)."""

    id = serializers.UUIDField()
    url = serializers.URLField(help_text="this document; the report page is /matchups/{id}/")
    status = serializers.ChoiceField(choices=[c for c, _ in MatchupRun.STATUS_CHOICES])
    progress = serializers.DictField(child=serializers.IntegerField(),
                                     help_text="{games_done, games}: games over all pairings")
    report = serializers.JSONField(allow_null=True, help_text="when done: the report of the "
                                   "matchup command's --format json (with --gauntlet or "
                                   "--matrix for those modes); null until then")


def run_document(request: Request, run: MatchupRun) -> dict[str, Any]:
    url = request.build_absolute_uri(reverse("api:matchup-detail", args=[run.pk]))
    return {"id": str(run.pk), "url": url, "status": run.status, "progress": run.progress,
            "report": run.report}


class _Missing(Exception):
    def __init__(self, deck_id: int) -> None:
        super().__init__(deck_id)
        self.deck_id = deck_id


def _read_decks(request: Request, given: list[Any]) -> tuple[list[DeckData], Deck | None]:
    """The decks in seat order, and the first saved one (the run is listed on its page)."""
    decks: list[DeckData] = []
    first_saved: Deck | None = None
    for number, item in enumerate(given, 1):
        if isinstance(item, int):
            saved = readable_decks(request.user).filter(pk=item).first()
            if saved is None:
                raise _Missing(item)
            first_saved = first_saved or saved
            decks.append(deck_data(saved))
            continue
        try:
            decks.append(deck_from_request(item))
        except DeckInputError as error:
            raise replace(error, detail=f"Deck {number}: {error.detail}") from None
    return decks, first_saved


class MatchupRunsView(APIView):
    """Start a matchup run (or find the stored one). Starting runs is throttled like goldfish
    runs (the ``goldfish`` scope: both are thousands of games a request); polling is not."""

    throttle_classes = [ScopedRateThrottle, CostThrottle]
    throttle_scope = "goldfish"
    permission_classes = [permissions.AllowAny]
    name = "Matchup runs"

    @extend_schema(
        operation_id="matchups_create",
        request=MatchupRequestSerializer,
        responses={200: MatchupRunSerializer, 202: MatchupRunSerializer,
                   400: ProblemSerializer, 404: ProblemSerializer, 429: ProblemSerializer},
        examples=[OpenApiExample("two saved decks", request_only=True, value={
            "decks": [12, 31], "games": 1000, "seed": 1, "policy": "greedy", "target": 25}),
                  OpenApiExample("a matrix of three saved decks", request_only=True, value={
                      "decks": [12, 31, 40], "mode": "matrix", "games": 300, "seed": 1})],
    )
    def post(self, request: Request) -> Response:
        """Play the decks against one another `games` times in the background: 202 with the
        run and its `url` to poll, or 200 with the stored report when the same decks were
        already run with the same options. 400 when a deck cannot be read or played or `games`
        is over your limit; 404 for a saved deck you cannot read; 429 when you already have
        two runs going."""
        serializer = MatchupRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            decks, source = _read_decks(request, attrs["decks"])
        except _Missing as missing:
            return problem_response(status.HTTP_404_NOT_FOUND, "not_found",
                                    f"There is no deck {missing.deck_id} you can read.")
        except DeckInputError as error:
            return problem_response(status.HTTP_400_BAD_REQUEST, error.code, error.detail,
                                    errors=error.errors())
        options = MatchupOptions(games=attrs["games"], seed=attrs["seed"],
                                 policy=attrs["policy"], target=int(attrs["target"]),
                                 mode=attrs["mode"])
        user = request.user if request.user.is_authenticated else None
        try:
            run, created = matchup_run_start(
                decks=decks, options=options, user=user,
                requester=requester_key(user, request.META.get("REMOTE_ADDR")), source=source)
        except DeckNotPlayable as error:
            return not_playable_problem(error)
        except RunRefused as refused:
            return refused_response(refused)
        return started_response(run_document(request, run),
                                done=not created and run.status == MatchupRun.DONE)


class MatchupRunView(APIView):
    """A matchup run: its status, its progress and, when done, its report."""

    permission_classes = [permissions.AllowAny]
    name = "Matchup run"

    @extend_schema(operation_id="matchups_retrieve",
                   responses={200: MatchupRunSerializer, 404: ProblemSerializer})
    def get(self, request: Request, run_id: str) -> Response:
        """Poll until `status` is `done` (then `report` is there), `failed` or `cancelled`."""
        run = run_or_none(run_id)
        if run is None:
            return _no_run(run_id)
        matchup_run_nudge(run=run)
        return Response(run_document(request, run))


class MatchupCancelView(APIView):
    """Cancel a run you started."""

    permission_classes = [permissions.AllowAny]
    name = "Cancel a matchup run"

    @extend_schema(operation_id="matchups_cancel", request=None,
                   responses={200: MatchupRunSerializer, 403: ProblemSerializer,
                              404: ProblemSerializer, 409: ProblemSerializer})
    def post(self, request: Request, run_id: str) -> Response:
        """Stop a queued or running run; its status becomes `cancelled`. 409 when it has
        finished already."""
        run = run_or_none(run_id)
        if run is None:
            return _no_run(run_id)
        user = request.user if request.user.is_authenticated else None
        if run.requester != requester_key(user, request.META.get("REMOTE_ADDR")):
            return problem_response(status.HTTP_403_FORBIDDEN, "permission_denied",
                                    "Only whoever started a run can cancel it.")
        if run.status in (MatchupRun.DONE, MatchupRun.FAILED):
            return problem_response(status.HTTP_409_CONFLICT, "already_finished",
                                    f"The run has finished already ({run.status}).")
        return Response(run_document(request, matchup_run_cancel(run=run)))


def run_or_none(run_id: str) -> MatchupRun | None:
    try:
        key = uuid.UUID(str(run_id))
    except ValueError:
        return None
    return MatchupRun.objects.filter(pk=key).first()


def _no_run(run_id: str) -> Response:
    return problem_response(status.HTTP_404_NOT_FOUND, "not_found",
                            f"There is no matchup run {run_id}.")
