"""/api/tables/: online tables of people and AI seats, refereed on the server (docs/design.md §15,
docs/tables.md).

Moves name the decision they were chosen at: stale is 409 `stale_decision` (with
`current_decision`), another seat's decision 403 `not_your_decision`, an index that is not
legal 400 `illegal_action`, a finished game 409 `game_over`; none changes anything.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from api.problems import ProblemSerializer, deck_problem, problem_response
from decks.api.serializers import decklist_text
from decks.deck_input import DeckInputError, deck_from_text
from decks.models import Deck
from decks.services import deck_data, readable_decks
from playtest.play import Refused
from rules.game.config import TARGETS
from rules.game.engine import DeckNotPlayable
from sitewide.seeds import MAX_SEED
from sitewide.throttling import CostThrottle
from tables.display import replay_document, table_document, view_document
from tables.models import Table
from tables.presence import table_seen
from tables.services import (
    MAX_SEATS,
    MIN_SEATS,
    SeatDeck,
    table_act,
    table_chat,
    table_create,
    table_hand_to_ai,
    table_join,
    table_named,
    table_offer,
    table_offer_answer,
    table_settled,
    table_start,
    table_surrender,
    table_take_back,
    table_undo_answer,
    table_undo_ask,
    viewer_seat,
)


class TableDeckChoice(serializers.Serializer[Any]):
    """A deck: a saved deck you may read (`deck`, its id) or a decklist (`text`)."""

    deck = serializers.IntegerField(required=False, help_text="the id of a saved deck you may read")
    text = decklist_text(required=False, help_text="a decklist in any supported format")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("deck" in attrs) == ("text" in attrs):
            raise serializers.ValidationError("Give exactly one of `deck` or `text`.")
        return attrs


class TableAiSeatSerializer(TableDeckChoice):
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS - 1,
                                    help_text="the seat (0-based; seat 0 is the host's)")


class TableClockSerializer(serializers.Serializer[Any]):
    bank = serializers.IntegerField(min_value=0, max_value=24 * 3600, help_text="seconds")
    increment = serializers.IntegerField(min_value=0, max_value=3600,
                                         help_text="seconds added per decision")


class TableCreateSerializer(TableDeckChoice):
    seats = serializers.IntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS)
    ai = TableAiSeatSerializer(many=True, required=False,
                               help_text="the AI seats, each with a deck")
    target = serializers.ChoiceField(choices=sorted(TARGETS), default=25)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEED)
    public = serializers.BooleanField(default=False, help_text="listed in the lobby")
    spectators = serializers.BooleanField(default=True)
    clock = TableClockSerializer(required=False, allow_null=True, default=None,
                                 help_text="a time bank per seat and an increment per "
                                           "decision; at zero the AI plays that decision")
    card_trades = serializers.BooleanField(
        default=False, help_text="the people agree before the game that cards may be traded")


class TableJoinSerializer(TableDeckChoice):
    invite = serializers.CharField(max_length=500, help_text="the invite link or its token")
    seat = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEATS - 1)


class TableMoveSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(min_value=0, help_text="in the order of `legal_actions`")
    decision = serializers.IntegerField(min_value=0, help_text="the view's `decision`")


class TokensSerializer(serializers.Serializer[Any]):
    economic = serializers.IntegerField(min_value=0, max_value=99, required=False)
    religious = serializers.IntegerField(min_value=0, max_value=99, required=False)
    political = serializers.IntegerField(min_value=0, max_value=99, required=False)


class TableOfferSerializer(serializers.Serializer[Any]):
    to = serializers.IntegerField(min_value=0, max_value=MAX_SEATS - 1,
                                  help_text="the seat offered the trade")
    give = TokensSerializer(help_text="your tokens offered, by kind")
    take = TokensSerializer(help_text="his tokens asked for, by kind")
    give_cards = serializers.ListField(
        child=serializers.CharField(max_length=16), required=False, max_length=20,
        help_text="your cards in play offered, by the view's in_play `ref` (only at a table "
                  "with card_trades; they change hands in the City Maintenance Phase)")
    take_cards = serializers.ListField(
        child=serializers.CharField(max_length=16), required=False, max_length=20,
        help_text="his cards in play asked for, by `ref`")


class TableChatSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(max_length=500)


# Documents answered (for the schema: the views build plain dicts).


class TableSeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    kind = serializers.CharField(help_text="person, ai or open")
    name = serializers.CharField()
    deck_name = serializers.CharField()
    present = serializers.BooleanField()
    out = serializers.BooleanField()
    stand_in = serializers.BooleanField(required=False,
                                        help_text="a person's seat: the AI plays it")
    grace_ends = serializers.DateTimeField(
        required=False, allow_null=True,
        help_text="a person's seat: when his grace period ends since his page closed")


class TableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.URLField()
    page = serializers.URLField()
    invite = serializers.URLField(required=False, help_text="only for seated people")
    status = serializers.CharField(help_text="open, playing or over")
    host = serializers.CharField()
    version = serializers.IntegerField()
    you = serializers.IntegerField(allow_null=True)
    seats = TableSeatSerializer(many=True)
    card_trades = serializers.BooleanField()
    clock = TableClockSerializer(allow_null=True)


class TableLegalActionSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    text = serializers.CharField()
    kind = serializers.CharField()
    policy = serializers.BooleanField()


class TableViewDocumentSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    status = serializers.CharField()
    decision = serializers.IntegerField()
    round = serializers.IntegerField()
    phase = serializers.CharField()
    step = serializers.CharField()
    to_move = serializers.ListField(child=serializers.IntegerField())
    you = serializers.IntegerField(allow_null=True)
    legal_actions = TableLegalActionSerializer(many=True, required=False)
    hand = serializers.ListField(child=serializers.JSONField(), required=False,
                                 help_text="your own hand: id and name of each card")
    seats = serializers.ListField(child=serializers.JSONField())
    log = serializers.ListField(child=serializers.JSONField())
    chat = serializers.ListField(child=serializers.JSONField())
    offers = serializers.ListField(child=serializers.JSONField())
    card_trades = serializers.BooleanField()
    clock = serializers.JSONField(allow_null=True, help_text="null, or bank, increment, left "
                                  "(each seat's bank now, seconds), running, deadline")
    undo = serializers.JSONField(allow_null=True, help_text="null, or the pending request: "
                                 "seat, to_decision, consents, waiting")
    outcome = serializers.CharField()
    winner = serializers.IntegerField()
    combat = serializers.JSONField(allow_null=True, help_text="null, or the battle on now: "
                                   "kind, title, step, step_title, attacker, defender, sides "
                                   "(each role, title, cards), assignments, berserk")


# The path's numbers, typed for the schema (a route's regex alone makes them strings).
TABLE_ID = OpenApiParameter("id", {"type": "integer", "minimum": 1}, OpenApiParameter.PATH,
                            description="the table's number")
OFFER_NUMBER = OpenApiParameter("number", {"type": "integer", "minimum": 1},
                                OpenApiParameter.PATH,
                                description="the offer's number at the table, from 1")
# The operations on one table (every one but the lobby and the creation).
ONE_TABLE = ("retrieve", "join", "start", "view", "actions", "surrender", "offers", "accept",
             "decline", "chat", "hand_to_ai", "take_back", "undo", "undo_accept",
             "undo_decline", "replay")

PROBLEMS = {400: ProblemSerializer, 403: ProblemSerializer, 404: ProblemSerializer,
            409: ProblemSerializer}


def _refused(refused: Refused) -> Response:
    return problem_response(refused.status, refused.code, refused.detail, **refused.extra)


def _seat_deck(user: Any, attrs: dict[str, Any], what: str) -> SeatDeck:
    """Deck.DoesNotExist for a saved deck the caller may not read; DeckInputError."""
    if "deck" in attrs:
        saved: Deck = readable_decks(user).get(pk=attrs["deck"])
        return SeatDeck(deck_data(saved), saved)
    try:
        return SeatDeck(deck_from_text(attrs["text"]))
    except DeckInputError as error:
        raise replace(error, detail=f"{what}: {error.detail}") from None


@extend_schema_view(**{name: extend_schema(parameters=[TABLE_ID]) for name in ONE_TABLE})
@extend_schema_view(accept=extend_schema(parameters=[OFFER_NUMBER]),
                    decline=extend_schema(parameters=[OFFER_NUMBER]))
class TableViewSet(viewsets.GenericViewSet[Table]):
    """Online tables: people and AI seats at one game, refereed on the server."""

    lookup_value_regex = r"[0-9]+"
    pagination_class = None
    serializer_class = TableCreateSerializer
    queryset = Table.objects.select_related("host")

    def get_permissions(self) -> list[Any]:
        if self.action in ("view", "retrieve", "list", "replay"):
            return [permissions.AllowAny()]
        return [permissions.IsAuthenticated()]

    def get_throttles(self) -> list[Any]:
        # Creating and joining read decklists: charged by their size (CostThrottle).
        throttles = list(super().get_throttles())
        return [*throttles, CostThrottle()] if self.action in ("create", "join") else throttles

    def get_queryset(self) -> QuerySet[Table]:
        # The host's name is in the table document, which a view or a write's answer is not
        # (join and start document the table their write locked).
        if self.action in ("list", "retrieve"):
            return Table.objects.select_related("host")
        return Table.objects.all()

    def get_object(self) -> Table:
        # Every read and write sees the table after what its clock owes is played.
        table = table_settled(super().get_object())
        # A seated person's request is a sign of his presence: an API client opens no socket
        # (docs/tables.md "Presence").
        table_seen(table_id=table.pk, user=self.request.user)
        return table

    def _named(self) -> Table:
        """The table a write names, unread: the write reads its row once, locked
        (tables.services.settled_first), and a missing one is the 404 of get_object
        (:meth:`handle_exception`). A seated person's request is a sign of his presence."""
        table = table_named(int(self.kwargs["pk"]))
        table_seen(table_id=table.pk, user=self.request.user)
        return table

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, Table.DoesNotExist):  # a write's locked read found no table
            exc = Http404(f"No {Table._meta.object_name} matches the given query.")
        if isinstance(exc, Refused):  # not_replayable, wherever the game is read
            return _refused(exc)
        return super().handle_exception(exc)

    def _document(self, table: Table) -> dict[str, Any]:
        request = self.request
        return table_document(
            table, request.user,
            url=request.build_absolute_uri(reverse("api:table-detail", args=[table.pk])),
            page=request.build_absolute_uri(table.get_absolute_url()),
            invite=request.build_absolute_uri(reverse("tables:invite", args=[table.invite])))

    @extend_schema(operation_id="tables_list", responses={200: TableSerializer(many=True)})
    def list(self, request: Request) -> Response:
        """The lobby: public tables with an open seat, newest first."""
        tables = self.get_queryset().filter(public=True, status=Table.OPEN)[:50]
        return Response([self._document(table) for table in tables])

    @extend_schema(
        operation_id="tables_create", request=TableCreateSerializer,
        responses={201: TableSerializer, **PROBLEMS},
        examples=[OpenApiExample("two people and an AI seat", request_only=True,
                                 value={"deck": 3, "seats": 3, "ai": [{"seat": 2, "deck": 5}],
                                        "target": 25})])
    def create(self, request: Request) -> Response:
        """Make a table with you, its host, in seat 0; the other seats are AI (`ai`) or open
        (taken through the invite link). 400 `deck_not_playable` (with the validator's
        problems) for a deck that is not legal at this table's size."""
        serializer = TableCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            deck = _seat_deck(request.user, attrs, "Your deck")
            ai = [(item["seat"], _seat_deck(request.user, item, f"AI seat {item['seat']}"))
                  for item in attrs.get("ai", [])]
            table = table_create(
                host=request.user, deck=deck, size=attrs["seats"], ai=ai,
                target=int(attrs["target"]), seed=attrs.get("seed"), public=attrs["public"],
                spectators=attrs["spectators"], card_trades=attrs["card_trades"],
                clock=dict(attrs["clock"]) if attrs.get("clock") else None)
        except (Deck.DoesNotExist, DeckInputError, DeckNotPlayable) as error:
            return deck_problem(error)
        except Refused as refused:
            return _refused(refused)
        response = Response(self._document(table), status=status.HTTP_201_CREATED)
        response["Location"] = reverse("api:table-detail", args=[table.pk])
        return response

    @extend_schema(operation_id="tables_retrieve",
                   responses={200: TableSerializer, 404: ProblemSerializer})
    def retrieve(self, request: Request, pk: str) -> Response:
        """The table document: status, version, seats."""
        return Response(self._document(self.get_object()))

    @extend_schema(operation_id="tables_join", request=TableJoinSerializer,
                   responses={200: TableSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str) -> Response:
        """Take an open seat (the first, unless `seat`) with your deck. 403 `bad_invite`,
        409 `table_full`, 409 `already_seated`, 400 `deck_not_playable`."""
        serializer = TableJoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            deck = _seat_deck(request.user, attrs, "Your deck")
            table = table_join(table=self._named(), user=request.user, invite=attrs["invite"],
                               deck=deck, seat=attrs.get("seat"))
        except (Deck.DoesNotExist, DeckInputError, DeckNotPlayable) as error:
            return deck_problem(error)
        except Refused as refused:
            return _refused(refused)
        return Response(self._document(table))

    @extend_schema(operation_id="tables_start", request=None,
                   responses={200: TableSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str) -> Response:
        """The host starts the game once no seat is open (409 `seats_open`)."""
        try:
            table = table_start(table=self._named(), user=request.user)
        except Refused as refused:
            return _refused(refused)
        return Response(self._document(table))

    def _view(self, table: Table) -> Response:
        if not table.spectators and viewer_seat(table, self.request.user) is None:
            return problem_response(status.HTTP_403_FORBIDDEN, "no_spectators",
                                    "This table takes no spectators.")
        return Response(view_document(table, self.request.user))

    @extend_schema(operation_id="tables_view",
                   responses={200: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["get"])
    def view(self, request: Request, pk: str) -> Response:
        """Your seat's view: your hand, every seat's public zones and counts, your legal
        moves when the table waits on you; a spectator's view without hand and moves."""
        return self._view(self.get_object())

    @extend_schema(operation_id="tables_actions_create", request=TableMoveSerializer,
                   responses={200: TableViewDocumentSerializer, **PROBLEMS},
                   examples=[OpenApiExample("by index", request_only=True,
                                            value={"index": 0, "decision": 12})])
    @action(detail=True, methods=["post"])
    def actions(self, request: Request, pk: str) -> Response:
        """Apply one of your legal moves; the AI seats answer up to a person's decision."""
        serializer = TableMoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            table = table_act(table=self._named(), user=request.user,
                              decision=attrs["decision"], index=attrs["index"])
        except Refused as refused:
            return _refused(refused)
        return self._view(table)

    @extend_schema(operation_id="tables_surrender", request=None,
                   responses={200: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"])
    def surrender(self, request: Request, pk: str) -> Response:
        """Leave the game at any moment; the others play on."""
        try:
            table = table_surrender(table=self._named(), user=request.user)
        except Refused as refused:
            return _refused(refused)
        return self._view(table)

    @extend_schema(operation_id="tables_offers_create", request=TableOfferSerializer,
                   responses={201: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"])
    def offers(self, request: Request, pk: str) -> Response:
        """Offer another person at the table a trade of tokens (and of cards in play, where
        the table agreed to card trades); he accepts or declines it."""
        serializer = TableOfferSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attrs = serializer.validated_data
        try:
            offer = table_offer(table=self._named(), user=request.user, to=attrs["to"],
                                give=attrs["give"], take=attrs["take"],
                                give_cards=attrs.get("give_cards", []),
                                take_cards=attrs.get("take_cards", []))
        except Refused as refused:
            return _refused(refused)
        # Its table is the row the write locked and changed: no read again.
        return Response(view_document(offer.table, request.user),
                        status=status.HTTP_201_CREATED)

    def _answer(self, number: str, accept: bool) -> Response:
        try:
            table = table_offer_answer(table=self._named(), user=self.request.user,
                                       number=int(number), accept=accept)
        except Refused as refused:
            return _refused(refused)
        return self._view(table)

    @extend_schema(operation_id="tables_offers_accept", request=None,
                   responses={200: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"], url_path=r"offers/(?P<number>[0-9]+)/accept")
    def accept(self, request: Request, pk: str, number: str) -> Response:
        """Accept a trade offered to you: the tokens (and cards) change hands at once."""
        return self._answer(number, True)

    @extend_schema(operation_id="tables_offers_decline", request=None,
                   responses={200: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"], url_path=r"offers/(?P<number>[0-9]+)/decline")
    def decline(self, request: Request, pk: str, number: str) -> Response:
        """Decline a trade offered to you."""
        return self._answer(number, False)

    @extend_schema(operation_id="tables_chat", request=TableChatSerializer,
                   responses={201: TableViewDocumentSerializer, 429: ProblemSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"])
    def chat(self, request: Request, pk: str) -> Response:
        """Say something to the table (public, as all table talk is). 429 when flooding."""
        serializer = TableChatSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            said = table_chat(table=self._named(), user=request.user,
                              text=serializer.validated_data["text"])
        except Refused as refused:
            return _refused(refused)
        return Response(view_document(said.table, request.user), status=status.HTTP_201_CREATED)

    def _write(self, write: Any, **kwargs: Any) -> Response:
        """A write answered with the caller's new view (a refusal as its problem)."""
        try:
            table = write(table=self._named(), user=self.request.user, **kwargs)
        except Refused as refused:
            return _refused(refused)
        return self._view(table)

    @extend_schema(operation_id="tables_seat_hand_to_ai", request=None,
                   parameters=[OpenApiParameter("seat", int, OpenApiParameter.PATH,
                                                description="the seat handed over, from 0")],
                   responses={200: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"], url_path=r"seats/(?P<seat>[0-9]+)/hand-to-ai")
    def hand_to_ai(self, request: Request, pk: str, seat: str) -> Response:
        """Hand the seat of a person who left to the AI, once his grace period is over
        (409 `grace_period` before, with `grace_ends`; 409 `still_here` while his page is
        open). He may take it back."""
        return self._write(table_hand_to_ai, seat=int(seat))

    @extend_schema(operation_id="tables_take_back", request=None,
                   responses={200: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"], url_path="take-back")
    def take_back(self, request: Request, pk: str) -> Response:
        """Take back your seat from the AI that played it while you were away."""
        return self._write(table_take_back)

    @extend_schema(operation_id="tables_undo", request=None,
                   responses={200: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str) -> Response:
        """Ask to take back your last decision: every other person must agree (never past
        a die roll, a hidden draw or a trade; one request at a time; any move drops it)."""
        return self._write(table_undo_ask)

    @extend_schema(operation_id="tables_undo_accept", request=None,
                   responses={200: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"], url_path="undo/accept")
    def undo_accept(self, request: Request, pk: str) -> Response:
        """Agree to the pending undo; the last to agree applies it."""
        return self._write(table_undo_answer, accept=True)

    @extend_schema(operation_id="tables_undo_decline", request=None,
                   responses={200: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["post"], url_path="undo/decline")
    def undo_decline(self, request: Request, pk: str) -> Response:
        """Decline the pending undo: it is dropped."""
        return self._write(table_undo_answer, accept=False)

    @extend_schema(operation_id="tables_replay",
                   parameters=[OpenApiParameter("decision", int, description="0 to the "
                                                "game's last decision (default: the end)")],
                   responses={200: TableViewDocumentSerializer, **PROBLEMS})
    @action(detail=True, methods=["get"])
    def replay(self, request: Request, pk: str) -> Response:
        """A finished game at one of its decisions, every hand shown (409 `not_over` while
        it is played: no hand is shown before the end)."""
        table = self.get_object()
        if not table.spectators and viewer_seat(table, request.user) is None:
            return problem_response(status.HTTP_403_FORBIDDEN, "no_spectators",
                                    "This table takes no spectators.")
        if table.status != Table.OVER:
            return problem_response(status.HTTP_409_CONFLICT, "not_over",
                                    "A game is replayed once it is over.")
        given = request.query_params.get("decision", str(table.decision))
        if not given.isdigit() or int(given) > table.decision:
            return problem_response(status.HTTP_400_BAD_REQUEST, "invalid",
                                    f"`decision` is a whole number from 0 to {table.decision}.")
        return Response(replay_document(table, int(given)))
