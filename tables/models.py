"""Online tables: a game of 2 to 6 seats, people and AI, refereed on the server
(docs/tables.md, docs/design.md §15).

A table is its seats (each seat's deck as played and card facts), its seed and the people's
moves, ``(seat, action)`` in order: the AI seats' moves are deterministic given those, so the
game is replayed from them (playtest.table_play) and never serialized.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from decks.formats.json_format import deck_from_dict
from playtest.table_play import TableSource
from rules.game.config import GameConfig


class Table(models.Model):
    OPEN, PLAYING, OVER = "open", "playing", "over"
    STATUSES = [(OPEN, "open"), (PLAYING, "playing"), (OVER, "over")]

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="hosted_tables")
    status = models.CharField(max_length=8, choices=STATUSES, default=OPEN)
    version = models.PositiveIntegerField(default=1, help_text="bumped by every change")
    size = models.PositiveSmallIntegerField(help_text="the number of seats, 2 to 6")
    seed = models.BigIntegerField()
    target = models.PositiveSmallIntegerField(default=25)
    public = models.BooleanField(default=False, help_text="listed in the lobby of open tables")
    spectators = models.BooleanField(default=True)
    clock = models.JSONField(null=True, blank=True,
                             help_text="null, or {bank, increment} in seconds")
    # The clock as it runs (tables.clock): each seat's bank left, in seconds, and the seat
    # it runs on now (-1: none, the table waits on no person) since when.
    banks = models.JSONField(default=list, help_text="each seat's time bank left, seconds")
    clock_seat = models.SmallIntegerField(default=-1, help_text="the seat the clock runs on")
    clock_since = models.DateTimeField(null=True, blank=True)
    card_trades = models.BooleanField(
        default=False, help_text="the people agreed before the game that cards may be traded")
    undo = models.JSONField(null=True, blank=True,
                            help_text="a pending undo request: {seat, keep, consents}")
    undos = models.PositiveIntegerField(default=0, help_text="undos applied (moves taken back)")
    # Each seat's bank as each decision began (index: the decision), so an undo gives back the
    # time of the decisions it takes back (tables.services._undone).
    decision_banks = models.JSONField(
        default=list, help_text="each seat's bank as each decision began (null: not known)")
    invite = models.CharField(max_length=43, unique=True)
    config = models.JSONField(default=dict, help_text="the engine's options, set at the start")
    moves = models.JSONField(default=list, help_text="the people's moves: [seat, action] pairs")
    round = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=20, blank=True)
    winner = models.SmallIntegerField(default=-1)
    rematch = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+", help_text="the table that replays this one")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("tables:table", args=[self.pk])

    @property
    def decision(self) -> int:
        """The table's decision counter: the people's moves applied so far."""
        return len(self.moves)


class TableSeat(models.Model):
    PERSON, AI, OPEN = "person", "ai", "open"
    KINDS = [(PERSON, "person"), (AI, "AI"), (OPEN, "open")]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_rows")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=6, choices=KINDS, default=OPEN)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="table_seats")
    source_deck = models.ForeignKey("decks.Deck", null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="table_seats")
    deck_name = models.CharField(max_length=200, blank=True)
    deck_text = models.TextField(blank=True)
    deck = models.JSONField(null=True, blank=True, help_text="the deck as played, holdings chosen")
    facts = models.JSONField(null=True, blank=True, help_text="the card facts the engine read")
    left_at = models.DateTimeField(null=True, blank=True,
                                   help_text="when the person's last page at the table closed")
    stand_in = models.BooleanField(default=False,
                                   help_text="the AI plays this person's seat (handed over)")

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_once"),
            models.UniqueConstraint(fields=["table", "user"], name="table_person_once",
                                    condition=models.Q(user__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat + 1} ({self.kind})"

    @property
    def name(self) -> str:
        if self.kind == self.PERSON and self.user is not None:
            return str(self.user.get_username())
        return "AI" if self.kind == self.AI else "Open seat"


def table_source(table: Table, seat_rows: list[TableSeat]) -> TableSource:
    """The game of a started table, to replay (its seats in order)."""
    facts: list[dict[str, Any]] = [row.facts or {} for row in seat_rows]
    decks = [deck_from_dict(row.deck or {}) for row in seat_rows]
    return TableSource(tuple(decks), tuple(facts), GameConfig.from_dict(table.config),
                       table.seed)


class TableMessage(models.Model):
    """A line of the table's chat: public, as the rulebook has all table talk."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                             related_name="table_messages")
    seat = models.SmallIntegerField(null=True)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return self.text[:40]


class TableOffer(models.Model):
    """A trade one seated person offers another (docs/design.md §15): tokens, and cards in
    play where the table agreed to card trades; open until the other accepts (they change
    hands, a move of the table) or declines."""

    OPEN, ACCEPTED, DECLINED = "open", "accepted", "declined"
    STATUSES = [(OPEN, "open"), (ACCEPTED, "accepted"), (DECLINED, "declined")]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="offers")
    number = models.PositiveIntegerField(help_text="1, 2, 3... within the table")
    from_seat = models.PositiveSmallIntegerField()
    to_seat = models.PositiveSmallIntegerField()
    give = models.JSONField(help_text="tokens offered: [economic, religious, political]")
    take = models.JSONField(help_text="tokens asked for, the same way")
    # Cards in play, by instance (the view's in_play "instance"), at a table that agreed to
    # card trades: the offerer's given, the other's asked for.
    give_cards = models.JSONField(default=list, blank=True,
                                  help_text="cards offered (instances), if card trades are on")
    take_cards = models.JSONField(default=list, blank=True,
                                  help_text="cards asked for (instances)")
    status = models.CharField(max_length=8, choices=STATUSES, default=OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"],
                                               name="table_offer_number_once")]

    def __str__(self) -> str:
        return f"{self.table} offer {self.number}"


class TablePresence(models.Model):
    """A sign that a seated person is at a table (what the seats' `present` says): an open
    socket, its row confirmed by the server process holding it (``server``) and gone when it
    closes, or his last request of the table (``server`` empty). A row not confirmed within
    TABLE_PRESENCE_TTL counts as gone: a server that died leaves its rows (tables.presence)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="presences")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="table_presences")
    channel = models.CharField(max_length=200, unique=True,
                               help_text="the socket's channel, or request:<table>:<user>")
    server = models.CharField(max_length=100, blank=True, db_index=True,
                              help_text="the server process holding the socket; empty for a "
                                        "request")
    seen_at = models.DateTimeField(default=timezone.now, db_index=True,
                                   help_text="when the sign was last confirmed")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id}"
