"""/api/playtest/: play a deck yourself, refereed by the engine (docs/playtest.md).

A game is private to whoever started it: a signed-in user, or for anonymous clients the
session (keep its cookie). Anyone else gets 404. Every move names the decision it was chosen
at (``decision``, the game's counter): a stale one is refused with 409 and the current
decision, an illegal one with 400 and the engine's reason; neither changes anything.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from api.problems import ProblemSerializer, deck_problem, problem_response
from decks.api.serializers import DeckJsonSerializer, decklist_text
from decks.deck_input import DeckInputError, deck_from_request
from decks.models import Deck
from decks.services import deck_data
from playtest.game_display import game_document, game_view
from playtest.hints import victory_chances
from playtest.models import PlaytestGame
from playtest.play import UNTIL, Move, Refused
from playtest.services import (
    Opponent,
    playtest_apply,
    playtest_auto,
    playtest_session_token,
    playtest_start_from,
    playtest_state,
    playtest_undo,
    playtests_visible,
    readable_deck,
    table_done,
    table_game,
)
from playtest.table_play import MAX_OPPONENTS
from rules.game.config import TARGETS
from rules.game.engine import DeckNotPlayable
from sitewide.seeds import MAX_SEED
from sitewide.throttling import CostThrottle

MAX_HINT_SAMPLES = 50


class OpponentSerializer(serializers.Serializer[Any]):
    """One AI opponent's deck: a saved deck (`id`), a decklist text (`text`) or a JSON
    decklist object (`deck`)."""

    id = serializers.IntegerField(required=False, help_text="the id of a saved deck you may read")
    text = decklist_text(required=False, help_text="a decklist in any supported format")
    deck = DeckJsonSerializer(required=False, help_text="a decklist as the JSON decklist object")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if sum(key in attrs for key in ("id", "text", "deck")) != 1:
            raise serializers.ValidationError("Give exactly one of `id`, `text` or `deck`.")
        return attrs


class StartSerializer(serializers.Serializer[Any]):
    """A new game: a saved deck (`deck`, its id) or a decklist (`text`), a seed, a target;
    and, for a game at a table, the AI opponents (`opponents`)."""

    deck = serializers.IntegerField(required=False,
                                    help_text="the id of a saved deck you may read")
    text = decklist_text(required=False, help_text="a decklist in any supported format")
    seed = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEED,
                                    help_text="the same seed deals the same game; "
                                    "random when missing")
    target = serializers.ChoiceField(choices=sorted(TARGETS), default=25,
                                     help_text="the faction influence that wins")
    opponents = OpponentSerializer(  # type: ignore[call-arg]  # to the list, with many=True
        many=True, required=False, max_length=MAX_OPPONENTS,
        error_messages={"max_length": f"A table seats {MAX_OPPONENTS} opponents at most."},
        help_text=f"0 to {MAX_OPPONENTS} AI opponents, each played by the greedy seat "
        "policy (none or missing: a solo game)")

    def validate_opponents(self, value: list[Any]) -> list[Any]:
        if len(value) > MAX_OPPONENTS:
            raise serializers.ValidationError(
                f"A table seats {MAX_OPPONENTS} opponents at most, not {len(value)}.")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("deck" in attrs) == ("text" in attrs):
            raise serializers.ValidationError("Give exactly one of `deck` or `text`.")
        return attrs


class ActionValueSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField()
    card = serializers.IntegerField(default=-1)
    target = serializers.IntegerField(default=-1)
    option = serializers.CharField(default="", allow_blank=True)


class MoveSerializer(serializers.Serializer[Any]):
    """One action: by its `index` among the legal actions, or by value (`action`)."""

    index = serializers.IntegerField(required=False, min_value=0,
                                     help_text="0-based, in the order of `legal_actions`")
    action = ActionValueSerializer(required=False)
    decision = serializers.IntegerField(min_value=0,
                                        help_text="the game's `decision` the move was chosen at")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("index" in attrs) == ("action" in attrs):
            raise serializers.ValidationError("Give exactly one of `index` or `action`.")
        return attrs


class UndoSerializer(serializers.Serializer[Any]):
    decision = serializers.IntegerField(
        min_value=0, help_text="go back to this decision (0 = the start of the game)")


class AutoSerializer(serializers.Serializer[Any]):
    until = serializers.ChoiceField(choices=list(UNTIL),
                                    help_text="one action, to the end of the phase, or the game")
    decision = serializers.IntegerField(required=False, min_value=0,
                                        help_text="refuse (409) unless the game is here")


# Documents answered (for the schema: the views build plain dicts).


class LegalActionSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text="0-based, the engine's stable order")
    number = serializers.IntegerField(help_text="index + 1, as the page numbers it")
    text = serializers.CharField(help_text="the action in words")
    policy = serializers.BooleanField(help_text="what the greedy policy would do")
    kind = serializers.CharField()
    card = serializers.IntegerField(help_text="the card instance acting or played, or -1")
    target = serializers.IntegerField(help_text="its target instance, or -1")
    option = serializers.CharField()


class GameSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.URLField()
    page = serializers.URLField(help_text="the game's page")
    deck_name = serializers.CharField()
    seed = serializers.IntegerField()
    config = serializers.JSONField(help_text="target, players, round_cap, city_pool")
    decision = serializers.IntegerField(help_text="how many actions were applied")
    round = serializers.IntegerField()
    phase = serializers.CharField()
    step = serializers.CharField()
    over = serializers.BooleanField()
    outcome = serializers.CharField(help_text="'', victory, overrun, stronghold or timeout")
    legal_actions = LegalActionSerializer(many=True)
    policy_index = serializers.IntegerField(allow_null=True)
    table = serializers.JSONField(help_text="the table by the rulebook's Game Layout (at a "
                                  "table: the player's seat, and to_move, lead, winner)")
    state = serializers.JSONField(help_text="the engine's JSON state (at a table: the player's "
                                  "seat)")
    seat = serializers.IntegerField(required=False,
                                    help_text="at a table: the player's seat (0, seat 1)")
    opponents = serializers.ListField(
        child=serializers.JSONField(), required=False,
        help_text="at a table: each opponent's seat, name, source_deck and visible side "
        "(influence, personal pool, hand size, stronghold, holdings, wanderers, out)")
    to_move = serializers.IntegerField(required=False,
                                       help_text="at a table: the seat to move (-1: over)")
    winner = serializers.IntegerField(required=False,
                                      help_text="at a table: the winning seat, or -1")
    share_url = serializers.URLField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MoveResultSerializer(serializers.Serializer[Any]):
    applied = serializers.ListField(child=serializers.CharField(),
                                    help_text="each action applied, in words")
    lines = serializers.ListField(child=serializers.CharField(),
                                  help_text="the log lines of what happened")
    game = GameSerializer()


class LogLineSerializer(serializers.Serializer[Any]):
    text = serializers.CharField()
    kind = serializers.CharField(help_text="round, phase, action, die, roll, attack or event")
    decision = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(required=False, allow_null=True,
                                    help_text="at a table: the seat the line tells of (0 is "
                                    "the player; null for the table's own lines)")


class LogSerializer(serializers.Serializer[Any]):
    decision = serializers.IntegerField()
    lines = LogLineSerializer(many=True)
    actions = serializers.ListField(child=serializers.JSONField())


class HintsSerializer(serializers.Serializer[Any]):
    decision = serializers.IntegerField()
    samples = serializers.IntegerField(help_text="playouts per action")
    seconds = serializers.FloatField()
    best = serializers.IntegerField(allow_null=True, help_text="the index of the best action")
    policy_index = serializers.IntegerField(allow_null=True)
    actions = serializers.ListField(child=serializers.JSONField(), help_text=(
        "per action: index, samples, victories, rate, low, high (95% Wilson), "
        "mean_victory_round"))


def _opponents(request: Request, given: list[dict[str, Any]]) -> list[Opponent]:
    """The opponents in seat order (Deck.DoesNotExist for a saved deck the client may not
    read; DeckInputError naming the opponent whose list does not read)."""
    found: list[Opponent] = []
    for number, item in enumerate(given, 1):
        if "id" in item:
            saved = readable_deck(request.user, item["id"])
            found.append((deck_data(saved), saved))
            continue
        try:
            found.append((deck_from_request(item), None))
        except DeckInputError as error:
            raise replace(error, detail=f"Opponent {number}: {error.detail}") from None
    return found


def _refused(refused: Refused) -> Response:
    return problem_response(refused.status, refused.code, refused.detail, **refused.extra)


class PlaytestViewSet(viewsets.GenericViewSet[PlaytestGame]):
    """Play a deck yourself: the engine deals, rolls and referees; you choose each move."""

    permission_classes = [permissions.AllowAny]
    lookup_value_regex = r"[0-9]+"
    pagination_class = None
    serializer_class = StartSerializer

    def handle_exception(self, exc: Exception) -> Response:
        # A game that no longer replays (not_replayable) is refused wherever it is read.
        if isinstance(exc, Refused):
            return _refused(exc)
        return super().handle_exception(exc)

    def get_throttles(self) -> list[Any]:
        # Starting a game reads its decklists: charged by their size (CostThrottle).
        throttles = list(super().get_throttles())
        return [*throttles, CostThrottle()] if self.action == "create" else throttles

    def get_queryset(self) -> QuerySet[PlaytestGame]:
        token = playtest_session_token(self.request.session)
        return playtests_visible(user=self.request.user, session_token=token)

    def _document(self, game: PlaytestGame) -> dict[str, Any]:
        request = self.request
        share = (request.build_absolute_uri(reverse("playtest:shared", args=[game.share_token]))
                 if game.share_token else None)
        document = game_document(
            game, request.build_absolute_uri(reverse("api:playtest-detail", args=[game.pk])),
            share_url=share)
        document["page"] = request.build_absolute_uri(game.get_absolute_url())
        return document

    def _move(self, game: PlaytestGame, move: Move) -> Response:
        return Response({"applied": move.texts, "lines": move.lines,
                         "game": self._document(game)})

    @extend_schema(
        operation_id="playtest_create", request=StartSerializer,
        responses={201: GameSerializer, 400: ProblemSerializer, 404: ProblemSerializer},
        examples=[OpenApiExample("saved deck", request_only=True,
                                 value={"deck": 3, "seed": 42, "target": 25}),
                  OpenApiExample("decklist", request_only=True,
                                 value={"text": "Initial Holdings\n1 Emberhold Keep\n...",
                                        "seed": 42}),
                  OpenApiExample("against two AI opponents", request_only=True,
                                 value={"deck": 3, "seed": 42, "target": 15,
                                        "opponents": [{"id": 5}, {"text": "..."}]})],
    )
    def create(self, request: Request) -> Response:
        """Start a game; it stops at the player's first decision (with `opponents`, the
        opponents have moved up to it). 400 `deck_not_playable` when the
        engine cannot play the deck (cards whose numbers are not transcribed yet, no
        stronghold); 404 for a saved deck you may not read."""
        serializer = StartSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            opponents = _opponents(request, attrs.get("opponents", []))
            game = playtest_start_from(
                user=request.user,
                session_token=playtest_session_token(request.session, create=True),
                deck_id=attrs.get("deck"), text=attrs.get("text"), seed=attrs.get("seed"),
                target=int(attrs["target"]), opponents=opponents)
        except (Deck.DoesNotExist, DeckInputError, DeckNotPlayable) as error:
            return deck_problem(error)
        response = Response(self._document(game), status=status.HTTP_201_CREATED)
        response["Location"] = reverse("api:playtest-detail", args=[game.pk])
        return response

    @extend_schema(operation_id="playtest_retrieve",
                   responses={200: GameSerializer, 404: ProblemSerializer})
    def retrieve(self, request: Request, pk: str) -> Response:
        """The game now: round, phase and step, the table, the engine's JSON state, and the
        legal actions in the engine's stable order (each in words, the greedy policy's
        choice marked)."""
        return Response(self._document(self.get_object()))

    @extend_schema(operation_id="playtest_actions_create", request=MoveSerializer,
                   responses={200: MoveResultSerializer, 400: ProblemSerializer,
                              404: ProblemSerializer, 409: ProblemSerializer},
                   examples=[OpenApiExample("by index", request_only=True,
                                            value={"index": 0, "decision": 12})])
    @action(detail=True, methods=["post"])
    def actions(self, request: Request, pk: str) -> Response:
        """Apply one legal action. 409 `stale_decision` (with `current_decision`) when the
        game is no longer at `decision`; 400 `illegal_action` with the engine's reason; the
        game is unchanged in both cases."""
        game = self.get_object()
        serializer = MoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            game, move = playtest_apply(game=game, decision=attrs["decision"],
                                        index=attrs.get("index"), action=attrs.get("action"))
        except Refused as refused:
            return _refused(refused)
        return self._move(game, move)

    @extend_schema(operation_id="playtest_undo", request=UndoSerializer,
                   responses={200: GameSerializer, 400: ProblemSerializer, 404: ProblemSerializer})
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str) -> Response:
        """Go back to an earlier decision: the game is replayed from its seed up to there
        (deterministic) and the later actions are dropped."""
        game = self.get_object()
        serializer = UndoSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            game = playtest_undo(game=game, decision=serializer.validated_data["decision"])
        except Refused as refused:
            return _refused(refused)
        return Response(self._document(game))

    @extend_schema(operation_id="playtest_auto", request=AutoSerializer,
                   responses={200: MoveResultSerializer, 404: ProblemSerializer,
                              409: ProblemSerializer})
    @action(detail=True, methods=["post"])
    def auto(self, request: Request, pk: str) -> Response:
        """Let the greedy policy play one action, to the end of the current phase, or to the
        end of the game; take over again at any point."""
        game = self.get_object()
        serializer = AutoSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            game, move = playtest_auto(game=game, until=attrs["until"],
                                       decision=attrs.get("decision"))
        except Refused as refused:
            return _refused(refused)
        return self._move(game, move)

    @extend_schema(operation_id="playtest_log",
                   responses={200: LogSerializer, 404: ProblemSerializer})
    @action(detail=True, methods=["get"])
    def log(self, request: Request, pk: str) -> Response:
        """The game told line by line, from the seed: every draw, die roll and aggression
        roll, and each attack's offense against defense; the player's actions carry their
        decision number (undo to `decision - 1` takes one back)."""
        game = self.get_object()
        view = game_view(game)
        if view.cached:  # read, not changed: back to the cache
            table_done(game, view.played)
        return Response({
            "decision": view.played.decisions,
            "lines": [{"text": line.text, "kind": line.kind, "decision": line.decision,
                       **({"seat": line.seat} if game.at_table else {})}
                      for line in view.log],
            "actions": game.actions,
        })

    @extend_schema(
        operation_id="playtest_hints",
        parameters=[OpenApiParameter(
            "samples", int, required=False,
            description=f"playouts per action (1-{MAX_HINT_SAMPLES}): the same answer every "
            "time; without it, as many as a 2-second budget allows")],
        responses={200: HintsSerializer, 400: ProblemSerializer, 404: ProblemSerializer,
                   409: ProblemSerializer})
    @action(detail=True, methods=["get"])
    def hints(self, request: Request, pk: str) -> Response:
        """Each legal action's chance of victory: the action, then greedy playouts to the end
        with different dice and shuffles; the rate, its 95% Wilson interval and the mean
        round of victory. Solo games only: 409 `not_available` at a table."""
        game = self.get_object()
        if game.at_table:
            return problem_response(status.HTTP_409_CONFLICT, "not_available",
                                    "Victory chances are computed for solo games only.")
        raw = request.query_params.get("samples")
        samples: int | None = None
        if raw is not None:
            try:
                samples = int(raw)
            except ValueError:
                samples = 0
            if not 1 <= samples <= MAX_HINT_SAMPLES:
                return problem_response(status.HTTP_400_BAD_REQUEST, "invalid",
                                        f"`samples` is a number from 1 to {MAX_HINT_SAMPLES}.")
        state = playtest_state(game)
        found = (victory_chances(state, budget=None, max_samples=samples) if samples
                 else victory_chances(state))
        played = table_game(game)
        policy = played.policy_index()
        table_done(game, played)
        return Response({
            "decision": state.decisions, "samples": found["samples"],
            "seconds": found["seconds"], "best": found["best"],
            "policy_index": policy, "actions": found["actions"],
        })
