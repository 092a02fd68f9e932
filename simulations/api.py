"""The simulations' API, one family for every kind of run: ``/api/goldfish/`` (one deck solo)
and ``/api/matchups/`` (decks against decks: a matchup, a gauntlet or a matrix), each with
``POST`` to start a run, ``GET {id}/`` to poll it and ``POST {id}/cancel/`` (simulations.runs),
for anyone (smaller runs without an account).

A run answers with ``{"id", "url", "status", "progress", "report"}``; the report, once the run
is done, is the document the ``goldfish`` or ``matchup`` command prints with ``--format json``
(docs/design.md §10 and §14). The two paths differ only in what a request names (one deck, or
2 to 8) and in how progress is counted (chunks, or games): :class:`Family`.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from api.problems import ProblemSerializer, problem_response
from decks.api.serializers import DeckJsonSerializer, decklist_text
from decks.api.views import input_problem, not_playable_problem
from decks.deck_input import MAX_DECKLIST_BYTES, DeckInputError, deck_from_request
from decks.models import Deck
from decks.services import deck_data, readable_decks
from rules.decklist import Decklist
from rules.game.config import TARGETS
from rules.game.gauntlet import MAX_FIELD, MODES
from rules.game.matchup import MatchupSpec
from rules.game.runner import POLICY_NAMES, check_policy
from rules.game.table_policy import MULTIPLAYER_POLICIES
from simulations.games import DeckNotPlayable
from simulations.models import SimulationRun
from simulations.run_limits import refused_response, started_response
from simulations.runs import (
    ANONYMOUS,
    DEFAULT_GAMES,
    DEFAULT_SEED,
    LOOKAHEAD_GAMES,
    SIGNED_IN,
    TABLE_ANONYMOUS,
    TABLE_SIGNED_IN,
    MatchupOptions,
    RunOptions,
    RunRefused,
    goldfish_run_start,
    matchup_run_start,
    requester_key,
    simulation_run_cancel,
    simulation_run_nudge,
)
from sitewide.seeds import MAX_SEED
from sitewide.throttling import CostThrottle


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
        f"{LOOKAHEAD_GAMES:,} games a run); reference (reference:N) does the same with "
        "playouts that mix in random moves, so it finds uses greedy never tries (as slow; the "
        "same limit); random takes any legal move")
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


def run_serializer(name: str, what: str, page: str, progress: str,
                   report: str) -> type[serializers.Serializer[Any]]:
    """A run's document as the schema describes it, for one path (the views build it)."""
    fields: dict[str, Any] = {
        "id": serializers.UUIDField(),
        "url": serializers.URLField(help_text=f"this document; the report page is {page}"),
        "status": serializers.ChoiceField(choices=[c for c, _ in SimulationRun.STATUS_CHOICES]),
        "progress": serializers.DictField(child=serializers.IntegerField(), help_text=progress),
        "report": serializers.JSONField(allow_null=True, help_text=report),
    }
    return type(name, (serializers.Serializer,), {
        **fields, "__module__": __name__,
        "__doc__": f"A {what} run (for the schema; the views build the document)."})


GoldfishRunSerializer = run_serializer(
    "GoldfishRunSerializer", "goldfish", "/goldfish/{id}/", "{chunks_done, chunks_total}",
    "when done: the report of the goldfish command's --format json; null until then")


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
        help_text=f"games to play: at most {TABLE_ANONYMOUS.games:,} without an account, "
        f"{TABLE_SIGNED_IN.games:,} signed in")
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


MatchupRunSerializer = run_serializer(
    "MatchupRunSerializer", "matchup", "/matchups/{id}/",
    "{games_done, games}: games over all pairings",
    "when done: the report of the matchup command's --format json (with --gauntlet or "
    "--matrix for those modes); null until then")


class _Missing(Exception):
    def __init__(self, deck_id: int) -> None:
        super().__init__(deck_id)
        self.deck_id = deck_id


def _read_decks(request: Request, given: list[Any]) -> tuple[list[Decklist], Deck | None]:
    """The decks in seat order, and the first saved one (the run is listed on its page)."""
    decks: list[Decklist] = []
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


def _user(request: Request) -> Any:
    return request.user if request.user.is_authenticated else None


def _requester(request: Request) -> str:
    return requester_key(_user(request), request.META.get("REMOTE_ADDR"))


def _start_goldfish(request: Request, attrs: dict[str, Any]) -> tuple[SimulationRun, bool]:
    """Raises _Missing, DeckInputError, DeckNotPlayable or RunRefused."""
    source: Deck | None = None
    if isinstance(attrs.get("deck"), int):
        source = readable_decks(request.user).filter(pk=attrs["deck"]).first()
        if source is None:
            raise _Missing(attrs["deck"])
        deck = deck_data(source)
    else:
        deck = deck_from_request(attrs)
    options = RunOptions(games=attrs["games"], seed=attrs["seed"], policy=attrs["policy"],
                         target=int(attrs["target"]), players=attrs["players"])
    return goldfish_run_start(deck=deck, options=options, user=_user(request),
                              requester=_requester(request), source=source,
                              source_version=source.version if source else None)


def _start_matchup(request: Request, attrs: dict[str, Any]) -> tuple[SimulationRun, bool]:
    """Raises _Missing, DeckInputError, DeckNotPlayable or RunRefused."""
    decks, source = _read_decks(request, attrs["decks"])
    options = MatchupOptions(games=attrs["games"], seed=attrs["seed"], policy=attrs["policy"],
                             target=int(attrs["target"]), mode=attrs["mode"])
    return matchup_run_start(decks=decks, options=options, user=_user(request),
                             requester=_requester(request), source=source)


@dataclass(frozen=True)
class Family:
    """One path of the API: the kinds of run it serves and what tells its runs apart."""

    kinds: tuple[str, ...]
    what: str  # "goldfish" or "matchup": how its problems name a run
    detail: str  # the URL name of a run's document
    request: type[serializers.Serializer[Any]]
    start: Callable[[Request, dict[str, Any]], tuple[SimulationRun, bool]]


GOLDFISH = Family((SimulationRun.GOLDFISH,), "goldfish", "api:goldfish-detail",
                  GoldfishRequestSerializer, _start_goldfish)
MATCHUPS = Family(SimulationRun.TABLE_KINDS, "matchup", "api:matchup-detail",
                  MatchupRequestSerializer, _start_matchup)


def run_document(request: Request, run: SimulationRun) -> dict[str, Any]:
    family = GOLDFISH if run.kind in GOLDFISH.kinds else MATCHUPS
    url = request.build_absolute_uri(reverse(family.detail, args=[run.pk]))
    return {"id": str(run.pk), "url": url, "status": run.status, "progress": run.progress,
            "report": run.report}


class RunsView(APIView):
    """Start a run (or find the stored one). Starting runs is throttled (the ``goldfish``
    scope for both paths: both are thousands of games a request, counted in the shared cache,
    429 with Retry-After); polling is not."""

    throttle_classes = [ScopedRateThrottle, CostThrottle]
    throttle_scope = "goldfish"
    permission_classes = [permissions.AllowAny]
    family: Family

    def post(self, request: Request) -> Response:
        serializer = self.family.request(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            run, created = self.family.start(request, serializer.validated_data)
        except _Missing as missing:
            return problem_response(status.HTTP_404_NOT_FOUND, "not_found",
                                    f"There is no deck {missing.deck_id} you can read.")
        except DeckInputError as error:
            return input_problem(error)
        except DeckNotPlayable as error:
            return not_playable_problem(error)
        except RunRefused as refused:
            return refused_response(refused)
        return started_response(run_document(request, run),
                                done=not created and run.status == SimulationRun.DONE)


class _OneRun(APIView):
    permission_classes = [permissions.AllowAny]
    family: Family

    def _no_run(self, run_id: str) -> Response:
        return problem_response(status.HTTP_404_NOT_FOUND, "not_found",
                                f"There is no {self.family.what} run {run_id}.")


class RunView(_OneRun):
    """A run: its status, its progress and, when done, its report."""

    def get(self, request: Request, run_id: str) -> Response:
        run = run_or_none(run_id, self.family.kinds)
        if run is None:
            return self._no_run(run_id)
        simulation_run_nudge(run=run)
        return Response(run_document(request, run))


class CancelView(_OneRun):
    """Cancel a run you started."""

    def post(self, request: Request, run_id: str) -> Response:
        run = run_or_none(run_id, self.family.kinds)
        if run is None:
            return self._no_run(run_id)
        if run.requester != _requester(request):
            return problem_response(status.HTTP_403_FORBIDDEN, "permission_denied",
                                    "Only whoever started a run can cancel it.")
        if run.status in (SimulationRun.DONE, SimulationRun.FAILED):
            return problem_response(status.HTTP_409_CONFLICT, "already_finished",
                                    f"The run has finished already ({run.status}).")
        return Response(run_document(request, simulation_run_cancel(run=run)))


def run_or_none(run_id: str, kinds: tuple[str, ...]) -> SimulationRun | None:
    try:
        key = uuid.UUID(str(run_id))
    except ValueError:
        return None
    return SimulationRun.objects.filter(pk=key, kind__in=kinds).first()


# What the schema says of each path's operations (the words of the views before the merge).
GOLDFISH_CREATE = (
    "Play the deck solo `games` times in the background: 202 with the run and its `url`\n"
    "to poll, or 200 with the stored report when the same deck contents were already run\n"
    "with the same options (a run of them still going is returned with 202, not started\n"
    "twice). 400 when the deck cannot be read or played, or `games` is over your limit;\n"
    "429 when you already have two runs going."
)
MATCHUP_CREATE = (
    "Play the decks against one another `games` times in the background: 202 with the\n"
    "run and its `url` to poll, or 200 with the stored report when the same decks were\n"
    "already run with the same options. 400 when a deck cannot be read or played or `games`\n"
    "is over your limit; 404 for a saved deck you cannot read; 429 when you already have\n"
    "two runs going."
)
GOLDFISH_CANCEL = (
    "Stop a queued or running run: the games not played yet are skipped and its status\n"
    "becomes `cancelled`. 409 when it has finished already."
)
MATCHUP_CANCEL = (
    "Stop a queued or running run; its status becomes `cancelled`. 409 when it has\n"
    "finished already."
)


def _family_views(family: Family, title: str, operation: str,
                  run: type[serializers.Serializer[Any]], examples: list[OpenApiExample],
                  create: str, cancel: str) -> tuple[type[APIView], type[APIView], type[APIView]]:
    """The three views of one path, with what the schema says of each operation."""
    answers = {200: run, 404: ProblemSerializer}
    runs = extend_schema_view(post=extend_schema(
        operation_id=f"{operation}_create", request=family.request, description=create,
        responses={200: run, 202: run, 400: ProblemSerializer, 404: ProblemSerializer,
                   429: ProblemSerializer}, examples=examples,
    ))(type(f"{title}RunsView", (RunsView,), {"family": family, "name": f"{title} runs"}))
    one = extend_schema_view(get=extend_schema(
        operation_id=f"{operation}_retrieve", responses=answers,
        description="Poll until `status` is `done` (then `report` is there), `failed` or "
                    "`cancelled`.",
    ))(type(f"{title}RunView", (RunView,), {"family": family, "name": f"{title} run"}))
    stop = extend_schema_view(post=extend_schema(
        operation_id=f"{operation}_cancel", request=None, description=cancel,
        responses={**answers, 403: ProblemSerializer, 409: ProblemSerializer},
    ))(type(f"{title}CancelView", (CancelView,),
            {"family": family, "name": f"Cancel a {title.lower()} run"}))
    return runs, one, stop


GoldfishRunsView, GoldfishRunView, GoldfishCancelView = _family_views(
    GOLDFISH, "Goldfish", "goldfish", GoldfishRunSerializer,
    [OpenApiExample("a decklist", request_only=True, value={
        "text": "# Kalim Faithful\nInitial Holdings\n1 Fort Ashgate\n...", "games": 1000,
        "seed": 1, "policy": "greedy", "target": 25, "players": 1})],
    create=GOLDFISH_CREATE,
    cancel=GOLDFISH_CANCEL)
MatchupRunsView, MatchupRunView, MatchupCancelView = _family_views(
    MATCHUPS, "Matchup", "matchups", MatchupRunSerializer,
    [OpenApiExample("two saved decks", request_only=True, value={
        "decks": [12, 31], "games": 1000, "seed": 1, "policy": "greedy", "target": 25}),
     OpenApiExample("a matrix of three saved decks", request_only=True, value={
         "decks": [12, 31, 40], "mode": "matrix", "games": 300, "seed": 1})],
    create=MATCHUP_CREATE,
    cancel=MATCHUP_CANCEL)
