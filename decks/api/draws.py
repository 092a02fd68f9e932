"""POST /api/draws/ and POST /api/odds/: test draws and exact odds for a decklist, for anyone.

Both answer with the same JSON document as the ``draw`` and ``odds`` commands (built in
:mod:`decks.draws`); the deal comes with the per-card odds table for its strategy. Bad input is a
400 problem document; a strategy, goal or query that cannot be read says where (``position``,
``length``, ``expected``) and in which field (``field``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from api.problems import ProblemSerializer, problem_response
from cards.card_search import SearchError
from decks.api.serializers import DeckJsonSerializer, decklist_text
from decks.api.views import input_problem
from decks.deck_input import DeckInputError, deck_from_request
from decks.draws import DEFAULT_STRUCTURES, deal_document, odds_document, read_strategy
from rules.decklist import Decklist
from rules.draw_strategy import HAND_SIZE, SpecError, Strategy, StrategyError
from rules.odds import GoalError, TooComplexError
from sitewide.seeds import MAX_SEED
from sitewide.throttling import CostThrottle


class _DeckInput(serializers.Serializer[Any]):
    """A decklist: `text` (text or JSON format) or `deck` (the JSON decklist object)."""

    text = decklist_text(required=False, help_text="a decklist in the text (or JSON) format")
    deck = DeckJsonSerializer(required=False)
    structures = serializers.IntegerField(
        required=False, min_value=0, max_value=HAND_SIZE,
        help_text=f"a fixed split: K structures first, then {HAND_SIZE}-K personalities "
        f"(the default is {DEFAULT_STRUCTURES} when no strategy is given)")
    strategy = serializers.CharField(
        required=False, max_length=1000,
        help_text="a draw strategy, e.g. 'structures until 2 structures with residencies, "
        "then personalities' or 'alternate'")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == ("deck" in attrs):
            raise serializers.ValidationError("Give exactly one of `text` or `deck`.")
        if "structures" in attrs and "strategy" in attrs:
            raise serializers.ValidationError("Give `structures` or `strategy`, not both.")
        return attrs


class DrawRequestSerializer(_DeckInput):
    """A test draw: the deck, the seed and how to choose each pile."""

    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED,
                                    help_text="the same seed always deals the same hand")
    picks = serializers.ListField(
        child=serializers.ChoiceField(choices=["s", "p", "structures", "personalities"]),
        required=False, max_length=200,
        help_text="your own pile for each draw, in order; a split or a strategy given too "
        "continues after the last pick, otherwise the deal waits there")


class OddsRequestSerializer(_DeckInput):
    """Exact odds: `query` and `at_least`, or a `goal`; `advise` adds every fixed split."""

    query = serializers.CharField(required=False, max_length=1024,
                                  help_text="a search query, e.g. 't:troop f:guild'")
    at_least = serializers.IntegerField(required=False, default=1, min_value=0, max_value=99)
    goal = serializers.CharField(required=False, max_length=1000,
                                 help_text="e.g. '>= 1 citizen and >= 1 open residence'")
    advise = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if ("query" in attrs) == ("goal" in attrs):
            raise serializers.ValidationError("Give exactly one of `query` or `goal`.")
        return attrs


def _spec_problem(error: SpecError | SearchError, field: str) -> Response:
    extra: dict[str, Any] = {}
    if isinstance(error, SearchError):
        extra["suggestions"] = list(error.suggestions)
    return problem_response(
        status.HTTP_400_BAD_REQUEST, error.code, error.message, field=field,
        position=error.position, length=error.length, expected=error.expected, **extra,
    )


def _too_complex(error: TooComplexError) -> Response:
    return problem_response(status.HTTP_400_BAD_REQUEST, error.code, error.message)


def _deck_and_strategy(attrs: dict[str, Any]) -> tuple[Decklist, Strategy] | Response:
    """The request's deck and strategy, or the problem document saying why not."""
    try:
        deck = deck_from_request(attrs)
    except DeckInputError as error:
        return input_problem(error)
    try:
        strategy = read_strategy(attrs.get("structures"), attrs.get("strategy"),
                                 attrs.get("picks"))
    except StrategyError as error:
        return _spec_problem(error, "picks" if "strategy" not in attrs else "strategy")
    return deck, strategy


class DrawView(APIView):
    """Deal an opening hand by the rules, with the exact per-card odds for its strategy."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [ScopedRateThrottle, CostThrottle]
    throttle_scope = "draws"
    name = "Test draw"

    @extend_schema(
        operation_id="draws_create",
        request=DrawRequestSerializer,
        responses={200: OpenApiTypes.OBJECT, 400: ProblemSerializer},
        examples=[OpenApiExample("adaptive", request_only=True, value={
            "text": "Initial Holdings\n1 Fort Ashgate\nStructure Pile\n...", "seed": 42,
            "strategy": "structures until 2 structures with residencies, then personalities",
        })],
    )
    def post(self, request: Request) -> Response:
        """The Initial Holdings (the deck's own, or the advisor's) bought from the 12 starting
        tokens, the tokens left, the hand in draw order with the pile of each draw, the pile
        sizes left, and `table`: for every card of the two draw piles, the exact P(>=1),
        P(>=2) and expected copies in the opening hand under the same strategy. The same
        deck, seed and strategy (or picks) always give the same hand, here and in the `draw`
        command."""
        serializer = DrawRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        read = _deck_and_strategy(attrs)
        if isinstance(read, Response):
            return read
        deck, strategy = read
        try:
            return Response(deal_document(deck, attrs["seed"], strategy, table=True))
        except TooComplexError as error:
            return _too_complex(error)


class OddsView(APIView):
    """Exact odds that the opening hand holds what you ask for."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [ScopedRateThrottle, CostThrottle]
    throttle_scope = "odds"
    name = "Exact odds"

    @extend_schema(
        operation_id="odds_create",
        request=OddsRequestSerializer,
        responses={200: OpenApiTypes.OBJECT, 400: ProblemSerializer},
        examples=[
            OpenApiExample("query", request_only=True, value={
                "text": "...", "structures": 3, "query": "t:troop", "at_least": 2}),
            OpenApiExample("goal", request_only=True, value={
                "text": "...", "strategy": "alternate",
                "goal": ">= 1 citizen and >= 1 open residence", "advise": True}),
        ],
    )
    def post(self, request: Request) -> Response:
        """`{"probability": float, "exact": "p/q", ...}`: for a `query`, the probability that
        the opening hand holds at least `at_least` matching cards (with the expected count,
        the group's size in each pile and `table` for 1, 2 and 3); for a `goal`, that the goal
        holds. `advise` adds every fixed split's probability and the best split. Exact
        (fractions), never sampled."""
        serializer = OddsRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        read = _deck_and_strategy(attrs)
        if isinstance(read, Response):
            return read
        deck, strategy = read
        try:
            document = odds_document(deck, strategy, query=attrs.get("query"),
                                     at_least=attrs["at_least"], goal=attrs.get("goal"),
                                     advise=attrs["advise"])
        except SearchError as error:
            return _spec_problem(error, "query")
        except GoalError as error:
            return _spec_problem(error, "goal")
        except TooComplexError as error:
            return _too_complex(error)
        return Response(document)
