"""Writes to online tables: create, join, start, moves, surrender, chat (docs/tables.md).

Every write reads the table's row once, locked (``select_for_update``: a caller names the
table by its number, :func:`settled_first` hands the row to the writes), in one transaction,
and checks what the request assumed (the decision it was made at, whose decision it is), so
two people acting at once cannot both apply, and a refused request changes nothing. After a
person's move the AI seats play on the server until a person's decision is pending. Every
change bumps ``version`` and, once committed, tells the table's sockets (tables.live).
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from decks.exports import render_deck
from decks.formats.json_format import deck_to_dict
from decks.models import Deck
from decks.validation import catalogue_facts, deck_validate
from playtest.play import Move, Refused
from playtest.table_play import SURRENDER, TRADE, TableGame
from rules.decklist import Decklist
from rules.game import engine, seats
from rules.game.actions import Action
from rules.game.config import RULES_VERSION, GameConfig
from rules.game.engine import DeckNotPlayable
from rules.game.vocabulary import TOKEN_KINDS
from tables import clock, presence
from tables.games import TableGames, replayed
from tables.kept_rows import KeptRows, seat_rows
from tables.live import announce_change
from tables.models import (
    Table,
    TableMessage,
    TableOffer,
    TablePresence,
    TableSeat,
)
from tables.seat_view import card_named, tradable_refs

MIN_SEATS, MAX_SEATS = 2, 6
# Chat: at most this many lines from one person in the window, then 429.
CHAT_BURST: Final = 5
CHAT_WINDOW: Final = timedelta(seconds=10)
# The AI's decisions played in one go for people whose clock ran out or whose seat it holds:
# the rest on the next read (a table whose people all left would otherwise play to its end).
MAX_AUTOPLAY: Final = 400
# The fields of a table a move may change.
GAME_FIELDS: Final = ("moves", "status", "round", "outcome", "winner", "banks", "clock_seat",
                      "clock_since", "undo", "undos", "decision_banks")
# What marks a move the AI played for a person: his clock ran out, or his seat is handed over.
BY_CLOCK, BY_STAND_IN = "clock", "ai"


@dataclass(frozen=True)
class SeatDeck:
    """A deck for a seat: the list, and the saved deck it was read from (or None)."""

    deck: Decklist
    source: Deck | None = None

    @property
    def name(self) -> str:
        return self.deck.name or (self.source.name if self.source else "") or "Pasted deck"


def _seated(row: TableSeat, given: SeatDeck, size: int, who: str) -> None:
    """Put ``given`` in ``row`` as the engine will play it, once the validator passes it for
    a table of ``size`` (the wanderer pile's minimum depends on the players): else
    DeckNotPlayable with the validator's problems."""
    validation = deck_validate(given.deck, players=size)
    if not validation.legal:
        raise DeckNotPlayable(f"{who} is not legal at a table of {size}: "
                              + "; ".join(p.message for p in validation.errors),
                              validation.errors)
    try:
        prepared = engine.prepare(given.deck, catalogue_facts(), GameConfig())
    except DeckNotPlayable as error:
        raise DeckNotPlayable(f"{who}: {error}", error.problems) from None
    row.source_deck = given.source
    row.deck_name = given.name
    row.deck_text = render_deck(given.deck, "txt")
    row.deck = deck_to_dict(prepared.deck)
    row.facts = {cid: dict(f) for cid, f in prepared.facts.items()}


@transaction.atomic
def table_create(*, host: Any, deck: SeatDeck, size: int, ai: Sequence[tuple[int, SeatDeck]] = (),
                 target: int = 25, seed: int | None = None, public: bool = False,
                 spectators: bool = True, clock: dict[str, int] | None = None,
                 card_trades: bool = False) -> Table:
    """A new open table with ``host`` in seat 0 and the AI seats given (the others open).
    Raises Refused (400 invalid) for seats out of range, DeckNotPlayable for a deck the
    validator or the engine refuses."""
    if not MIN_SEATS <= size <= MAX_SEATS:
        raise Refused("invalid", f"A table seats {MIN_SEATS} to {MAX_SEATS}, not {size}.")
    ai_seats = [seat for seat, _ in ai]
    if len(set(ai_seats)) != len(ai_seats) or not all(1 <= s < size for s in ai_seats):
        raise Refused("invalid", f"AI seats are distinct seats from 1 to {size - 1} "
                      "(seat 0 is the host's).")
    table = Table.objects.create(
        host=host, size=size, seed=secrets.randbelow(10**9) if seed is None else seed,
        target=target, public=public, spectators=spectators, clock=clock,
        card_trades=card_trades, invite=secrets.token_urlsafe(24))
    given = dict(ai)
    for seat in range(size):
        row = TableSeat(table=table, seat=seat)
        if seat == 0:
            row.kind, row.user = TableSeat.PERSON, host
            presence.seated(row)
            _seated(row, deck, size, "Your deck")
        elif seat in given:
            row.kind = TableSeat.AI
            _seated(row, given[seat], size, f"The AI deck of seat {seat + 1}")
        row.save()
    return table


def seat_of(table: Table, user: Any, rows: Sequence[TableSeat] | None = None) -> int | None:
    """The seat ``user`` holds at ``table``, or None."""
    if user is None or not user.is_authenticated:
        return None
    for row in rows if rows is not None else seat_rows(table):
        if row.user_id == user.pk and row.kind == TableSeat.PERSON:
            return row.seat
    return None


def viewer_seat(table: Table, user: Any) -> int | None:
    """The seat ``user`` holds at ``table`` as read (its rows kept at its version): for
    reads; a write reads its own rows under the lock."""
    return seat_of(table, user, ROWS.read(table).seats)


def _locked(table: Table) -> Table:
    return Table.objects.select_for_update().get(pk=table.pk)


def table_named(pk: int) -> Table:
    """The table a write names by its number, unread (the write reads its row once, locked:
    :func:`settled_first`). A number outside the id column's range is a missing table
    (Table.DoesNotExist), as a read of it finds none: the database would refuse to bind it."""
    low, high = connection.ops.integer_field_range(Table._meta.pk.get_internal_type())
    if (low is not None and pk < low) or (high is not None and pk > high):
        raise Table.DoesNotExist(f"No table has the number {pk}.")
    return Table(pk=pk)


def _changed(table: Table, fields: Sequence[str] = (), played: TableGame | None = None,
             rows: Sequence[TableSeat] | None = None) -> None:
    """Bump the version, save, and tell the table's sockets once the write is committed;
    ``played``, the table's game after the write, is kept first, so the views the message
    calls for find it (tables.games), and so are ``rows``, the seats as the write saved them,
    given by a write that changed neither the talk nor the trades (tables.kept_rows)."""
    if played is not None:
        game = played
        transaction.on_commit(lambda: table_done(table, game))
    before = table.version
    table.version += 1
    table.save(update_fields=["version", "updated_at", *fields])
    kept = ROWS.written(table, before, rows) if rows is not None else None
    if kept is not None:
        entry = kept
        transaction.on_commit(lambda: ROWS.put(table, entry))
    pk, version = table.pk, table.version
    transaction.on_commit(lambda: announce_change(pk, version))


def tables_renamed(*, user_id: int) -> list[int]:
    """A person's name changed (once it is saved, in its transaction where there is one):
    every table where he has a seat, which shows it (his seat, his lines of talk: only the
    seated talk), changes. Their versions go up, so that what is kept of them at a version,
    their seats with their people's names and their talk (tables.kept_rows), is read afresh
    with the new name, and their sockets are told once committed, so the pages open at them
    show it. The tables changed."""
    shown = Table.objects.filter(seat_rows__user_id=user_id)  # one seat a table: no twice
    shown.update(version=F("version") + 1)
    changed = sorted(shown.values_list("pk", "version"))
    for pk, version in changed:
        transaction.on_commit(functools.partial(announce_change, pk, version))
    return [pk for pk, _ in changed]


def invite_token(given: str) -> str:
    """The token of an invite link, or the token itself."""
    given = given.strip().rstrip("/")
    return given.rsplit("/", 1)[-1].rsplit("=", 1)[-1]


@transaction.atomic
def table_join(*, table: Table, user: Any, invite: str, deck: SeatDeck,
               seat: int | None = None) -> Table:
    """Seat ``user`` in an open seat (the first, unless ``seat``). Refused: 403 bad_invite,
    409 already_seated, 409 table_full; DeckNotPlayable for a deck the validator refuses at
    this table's size."""
    table = _locked(table)
    if not secrets.compare_digest(invite_token(invite), table.invite):
        raise Refused("bad_invite", "This invite does not open this table.", status=403)
    rows = seat_rows(table)
    if seat_of(table, user, rows) is not None:
        raise Refused("already_seated", "You already have a seat at this table.", status=409)
    open_rows = [row for row in rows if row.kind == TableSeat.OPEN]
    if table.status != Table.OPEN or not open_rows:
        raise Refused("table_full", "This table has no open seat.", status=409)
    if seat is not None:
        open_rows = [row for row in open_rows if row.seat == seat]
        if not open_rows:
            raise Refused("table_full", f"Seat {seat} is not open.", status=409)
    row = open_rows[0]
    _seated(row, deck, table.size, "Your deck")
    row.kind, row.user = TableSeat.PERSON, user
    presence.seated(row)
    row.save()
    _changed(table, rows=rows)
    return table


# The games of the tables in play in this process (tables.games): a move or a view continues
# one instead of replaying the game.
TABLES = TableGames()
# Their seats, talk and trades at their last version (tables.kept_rows): every seat's view
# after a change reads them once.
ROWS = KeptRows()


def played_table(table: Table) -> TableGame:
    """The game of a started table as it is now, for a write holding its row lock: kept (and
    caught up) or replayed. The caller owns it; :func:`table_done` puts it back."""
    return TABLES.take(table)


def viewed_table(table: Table) -> AbstractContextManager[TableGame]:
    """The game of a started table as read, to read only inside the ``with``."""
    return TABLES.reading(table)


def replayed_at(table: Table, decision: int) -> TableGame:
    """The game after its first ``decision`` moves, replayed (never from the cache)."""
    return replayed(table, upto=decision)


def table_done(table: Table, played: TableGame) -> None:
    TABLES.put(table, played)


def _store(table: Table, played: TableGame) -> None:
    table.round = played.table.round
    table.outcome = played.table.outcome
    table.winner = played.table.winner
    if played.over:
        table.status = Table.OVER


# The clock and the AI standing in for people.


def _charge(table: Table, at: datetime) -> None:
    """The running seat's time up to ``at`` is spent (before a change of the table)."""
    if table.clock and table.clock_seat >= 0:
        table.banks = clock.banks_left(table, at)
        table.clock_since = at


def _rearm(table: Table, played: TableGame, rows: Sequence[TableSeat], at: datetime) -> None:
    """The clock runs from ``at`` on the person the engine waits on (none: it stops)."""
    waiting = seats.to_move(played.table) if not played.over else -1
    if table.clock and len(table.banks) != table.size:  # a clock set before it was enforced
        table.banks = [float(table.clock["bank"])] * table.size
    if not table.clock or waiting < 0 or rows[waiting].kind != TableSeat.PERSON \
            or rows[waiting].stand_in:
        table.clock_seat, table.clock_since = -1, None
    else:
        table.clock_seat, table.clock_since = waiting, at
    _mark_banks(table)


def _mark_banks(table: Table) -> None:
    """Keep the banks as the table's current decision begins, the first time it does (a
    hand-over or a take-back re-arms the clock within a decision): what an undo back to it
    restores. A decision reached without a mark (before they were kept) is null."""
    marks, reached = list(table.decision_banks), table.decision
    if table.clock and len(marks) <= reached:
        table.decision_banks = [*marks, *[None] * (reached - len(marks)), list(table.banks)]


def _record(table: Table, played: TableGame, seat: int, action: Action,
            rows: Sequence[TableSeat], by: str = "") -> None:
    """Apply ``seat``'s action (the AI seats answering) and keep it among the moves; any
    move cancels a pending undo request, and a decision of a seat with a clock earns it the
    increment."""
    played.apply_player(action, Move(), seat_names(rows), seat=seat)
    table.moves = [*table.moves, [seat, action.to_dict(), *([by] if by else [])]]
    table.undo = None
    if table.clock and action.kind != SURRENDER and by != BY_STAND_IN:
        banks = [float(b) for b in table.banks]
        banks[seat] += table.clock["increment"]
        table.banks = banks


def _policy_action(played: TableGame, seat: int) -> Action:
    legal = seats.legal_actions(played.table)
    return played.policies()[seat](played.table, seat, legal)


def _played_on(table: Table, played: TableGame, rows: Sequence[TableSeat],
               at: datetime) -> Table:
    """After a change of the game: the clock on whoever decides now, the AI's decisions
    played, the change announced, and the table kept in play once the write is committed."""
    _rearm(table, played, rows, at)
    _autoplay(table, played, rows, at)
    _changed(table, GAME_FIELDS, played, rows)
    return table


def _autoplay(table: Table, played: TableGame, rows: Sequence[TableSeat],
              at: datetime) -> bool:
    """The AI plays the decisions of people whose seat it holds, and of the person whose
    bank ran out by ``at`` (as of the moment it did); whether it played any."""
    played_any = False
    for _ in range(MAX_AUTOPLAY):
        seat = seats.to_move(played.table) if not played.over else -1
        if seat < 0 or rows[seat].kind != TableSeat.PERSON:
            break
        if rows[seat].stand_in:
            when, by = at, BY_STAND_IN
        elif clock.due(table, at) and table.clock_seat == seat:
            when, by = clock.deadline(table) or at, BY_CLOCK
            banks = [float(b) for b in table.banks]
            banks[seat] = 0.0
            table.banks = banks
        else:
            break
        _record(table, played, seat, _policy_action(played, seat), rows, by)
        _rearm(table, played, rows, when)
        played_any = True
    _store(table, played)
    return played_any


def _owed_played(table: Table, at: datetime) -> None:
    """Play what the clock owes by ``at`` at ``table``, locked by the caller."""
    rows = list(table.seat_rows.select_related("user").order_by("seat"))
    played = played_table(table)
    _autoplay(table, played, rows, at)
    _changed(table, GAME_FIELDS, played, rows)


def _settle(table: Table) -> Table:
    """Play what the clock owes (the AI's decisions for people whose bank ran out) before
    the table is read: in its own transaction. The table as it is now."""
    if not clock.due(table, clock.now()):
        return table
    with transaction.atomic():
        table = _locked(table)
        at = clock.now()
        if clock.due(table, at):
            _owed_played(table, at)
    return table


def table_settled(table: Table) -> Table:
    """The table with what the clock owes played: what every read goes through."""
    return _settle(table)


def settled_first[**P, R](write: Callable[P, R]) -> Callable[P, R]:
    """A write of a table, in one transaction, given (as its ``table`` keyword) the table's
    row as it locked it, after what the clock owes is played. Of the ``table`` passed only
    the number is read (a caller need not read the row: ``Table(pk=n)`` will do), and a
    missing table raises Table.DoesNotExist.

    The locked row is the one read: it says whether the clock owes anything, so a write
    reads the table once. When it does, what it owes is committed first, in a transaction
    of its own (a write refused afterwards keeps it), and the write locks the row afresh."""
    @functools.wraps(write)
    def settled(*args: P.args, **kwargs: P.kwargs) -> R:
        given = kwargs["table"]
        assert isinstance(given, Table)
        with transaction.atomic():
            table = _locked(given)
            at = clock.now()
            if not clock.due(table, at):
                kwargs["table"] = table
                return write(*args, **kwargs)
            _owed_played(table, at)
        with transaction.atomic():
            kwargs["table"] = _locked(given)
            return write(*args, **kwargs)
    return settled


@transaction.atomic
def table_start(*, table: Table, user: Any) -> Table:
    """The host starts the game once no seat is open: the AI seats play up to the first
    person's decision. Refused: 403 not_host, 409 seats_open, 409 already_started."""
    table = _locked(table)
    if user is None or user.pk != table.host_id:
        raise Refused("not_host", "Only the host starts the table.", status=403)
    if table.status != Table.OPEN:
        raise Refused("already_started", "This table has started already.", status=409)
    rows = seat_rows(table)
    if any(row.kind == TableSeat.OPEN for row in rows):
        raise Refused("seats_open", "Every seat must be taken (a person or an AI) first.",
                      status=409)
    table.config = {**GameConfig(target=table.target).to_dict(),
                    "rules_version": RULES_VERSION}
    played = played_table(table)
    table.config = {**played.table.config.to_dict(), "rules_version": RULES_VERSION}
    table.status = Table.PLAYING
    if table.clock:
        table.banks = [float(table.clock["bank"])] * table.size
    _store(table, played)
    _rearm(table, played, rows, clock.now())
    _changed(table, ["config", *GAME_FIELDS], played, rows)
    return table


def _check_move(table: Table, seat: int | None, decision: int | None) -> None:
    if table.status == Table.OPEN:
        raise Refused("not_started", "The game has not started yet.", status=409,
                      current_decision=table.decision)
    if decision is not None and decision != table.decision:
        why = "someone moved on" if decision < table.decision else "that decision has not come"
        raise Refused(
            "stale_decision",
            f"This move was chosen at decision {decision}, but the table is at decision "
            f"{table.decision} ({why}). Nothing was changed.",
            status=409, current_decision=table.decision)
    if table.status == Table.OVER:
        raise Refused("game_over", f"The game is over ({table.outcome}).", status=409,
                      current_decision=table.decision)
    if seat is None:
        raise Refused("not_your_decision", "You have no seat at this table.", status=403,
                      current_decision=table.decision)


@settled_first
def table_act(*, table: Table, user: Any, decision: int, index: int) -> Table:
    """Apply the caller's legal action number ``index`` at ``decision``; the AI seats answer.
    Refused: 409 stale_decision (with current_decision), 403 not_your_decision,
    400 illegal_action, 409 game_over, 409 not_started; nothing changes then."""
    rows = seat_rows(table)
    seat = seat_of(table, user, rows)
    _check_move(table, seat, decision)
    assert seat is not None
    played = played_table(table)
    try:
        legal = played.legal(seat)
        if not legal:
            raise Refused("not_your_decision", "The table waits on another seat.", status=403,
                          current_decision=table.decision)
        if not 0 <= index < len(legal):
            raise Refused("illegal_action",
                          f"Move {index} is not one of the {len(legal)} legal moves now.",
                          current_decision=table.decision)
        action = legal[index]
    except Refused:
        table_done(table, played)  # unchanged: it stays in the cache
        raise
    return _applied(table, played, seat, action, rows)


def _applied(table: Table, played: TableGame, seat: int, action: Action,
             rows: Sequence[TableSeat]) -> Table:
    at = clock.now()
    _charge(table, at)
    _record(table, played, seat, action, rows)
    return _played_on(table, played, rows, at)


@settled_first
def table_surrender(*, table: Table, user: Any) -> Table:
    """The caller leaves the game ("a player may surrender at any time"); the others play
    on. Refused: 403 not_your_decision (no seat), 409 game_over, 409 not_started."""
    rows = seat_rows(table)
    seat = seat_of(table, user, rows)
    _check_move(table, seat, None)
    assert seat is not None
    played = played_table(table)
    if not played.seat_playing(seat):
        table_done(table, played)
        raise Refused("game_over", "You are out of this game already.", status=409,
                      current_decision=table.decision)
    return _applied(table, played, seat, Action(SURRENDER), rows)


def seat_names(rows: Sequence[TableSeat]) -> list[str]:
    """Each seat as the log names it: the person's name, or the AI seat's deck."""
    return [row.name if row.kind == TableSeat.PERSON else f"AI, {row.deck_name}"
            for row in rows]


@settled_first
def table_chat(*, table: Table, user: Any, text: str) -> TableMessage:
    """A line of public table talk from a seated person. Refused: 403 not_seated,
    429 too_many_messages (more than CHAT_BURST in CHAT_WINDOW), 400 invalid (empty)."""
    seat = seat_of(table, user)
    if seat is None:
        raise Refused("not_seated", "Only the people seated at the table talk at it.",
                      status=403)
    text = text.strip()
    if not text:
        raise Refused("invalid", "Say something: the message is empty.")
    since = timezone.now() - CHAT_WINDOW
    if table.messages.filter(user=user, created_at__gte=since).count() >= CHAT_BURST:
        raise Refused("too_many_messages", f"At most {CHAT_BURST} messages in "
                      f"{CHAT_WINDOW.seconds} seconds: wait a moment.", status=429)
    message = TableMessage.objects.create(table=table, user=user, seat=seat, text=text[:500])
    _changed(table)
    return message


@transaction.atomic
def table_rematch(*, table: Table, user: Any) -> Table:
    """A new table of the same people and AI seats with the same decks (as played), options
    and size, hosted by ``user``, every seat taken: he starts it. Refused: 403 not_seated,
    409 not_over; a second rematch of the same table is the first one."""
    table = _locked(table)
    if seat_of(table, user) is None:
        raise Refused("not_seated", "Only the people seated at the table ask for a rematch.",
                      status=403)
    if table.status != Table.OVER:
        raise Refused("not_over", "A rematch follows a finished game.", status=409)
    if table.rematch_id is not None:
        return Table.objects.get(pk=table.rematch_id)
    again = Table.objects.create(
        host=user, size=table.size, seed=secrets.randbelow(10**9), target=table.target,
        public=False, spectators=table.spectators, clock=table.clock,
        card_trades=table.card_trades, invite=secrets.token_urlsafe(24))
    for row in table.seat_rows.order_by("seat"):
        row.pk, row.table = None, again
        # A new game: the AI stands in for nobody, and each person's first sign is being
        # seated now (tables.presence), until his page opens or he asks something.
        row.stand_in, row.left_at = False, None
        if row.kind == TableSeat.PERSON:
            presence.seated(row)
        row.save()
    table.rematch = again
    _changed(table, ["rematch"])
    return again


@transaction.atomic
def table_presence(*, table_id: int, user: Any, channel: str, connected: bool) -> int | None:
    """A socket of ``user`` opened (``connected``) or closed at the table: a seated person's
    first sign makes him present, the end of his last one absent, a change that bumps the
    version (so does clearing signs that ran out: tables.presence). The table's version now,
    or None when there is no such table."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        return None
    if seat_of(table, user) is None:
        return table.version
    at = clock.now()
    changed = presence.expired_cleared(table, at)
    before = user.pk in presence.table_presence_now(table, at).here
    if connected:
        TablePresence.objects.update_or_create(
            channel=channel, defaults={"table": table, "user": user,
                                       "server": presence.server_id(), "seen_at": at})
        table.seat_rows.filter(user=user).update(left_at=None)
    else:
        TablePresence.objects.filter(channel=channel).delete()
        if not table.presences.filter(user=user).exclude(server="").exists():
            # His last socket closed (a request of his may still count: left_at is read
            # once no sign does).
            table.seat_rows.filter(user=user).update(left_at=at)
    if changed or before != (user.pk in presence.table_presence_now(table, at).here):
        presence.bump(table)
    return table.version


def _tokens(given: dict[str, int]) -> list[int]:
    return [int(given.get(kind, 0)) for kind in TOKEN_KINDS]


@settled_first
def table_offer(*, table: Table, user: Any, to: int, give: dict[str, int],
                take: dict[str, int], give_cards: Sequence[str] = (),
                take_cards: Sequence[str] = ()) -> TableOffer:
    """A trade the caller offers seat ``to``: tokens, and cards in play (by the view's
    ``ref``, seat_view.card_ref) where the table agreed to card trades. Refused: 403
    not_seated, 409 not_started or game_over, 400 invalid (himself, no such seat, an AI seat,
    nothing traded, a card that is not that seat's to trade: seats.tradable), 409
    card_trades_off (cards at a table that did not agree to them)."""
    rows = seat_rows(table)
    seat = seat_of(table, user, rows)
    if seat is None:
        raise Refused("not_seated", "Only the people seated at the table trade.", status=403)
    _check_move(table, seat, None)
    if not 0 <= to < table.size or to == seat or rows[to].kind != TableSeat.PERSON:
        raise Refused("invalid", "Offer a trade to another person seated at the table.")
    cards = bool(give_cards or take_cards)
    if cards and not table.card_trades:
        raise Refused("card_trades_off", "Cards are not traded at this table: its people did "
                      "not agree to it before the game (the rulebook allows tokens only).",
                      status=409)
    given: list[int] = []
    taken: list[int] = []
    if cards:
        with viewed_table(table) as played:
            for who, named, found in ((seat, give_cards, given), (to, take_cards, taken)):
                allowed = tradable_refs(played.table, who)
                for ref in named:
                    if ref not in allowed or list(named).count(ref) > 1:
                        what = card_named(played.table, ref) or f"Card {ref!r}"
                        raise Refused("invalid", f"{what} is not seat {who + 1}'s to trade: "
                                      "name each of his cards in play once by its ref (not "
                                      "a wanderer, a stronghold, or a card attached or "
                                      "housed on another).")
                    found.append(allowed[ref])
    if not any(_tokens(give)) and not any(_tokens(take)) and not cards:
        raise Refused("invalid", "A trade gives or takes at least one token or card.")
    number = table.offers.count() + 1
    offer = TableOffer.objects.create(table=table, number=number, from_seat=seat, to_seat=to,
                                      give=_tokens(give), take=_tokens(take),
                                      give_cards=given, take_cards=taken)
    _changed(table)
    return offer


@settled_first
def table_offer_answer(*, table: Table, user: Any, number: int, accept: bool) -> Table:
    """The seat offered a trade accepts it (the tokens change hands at once, a move of the
    table) or declines it. Refused: 404 not_found, 403 not_your_offer, 409 offer_closed,
    409 not_enough_tokens, 409 card_trade_refused (cards change hands only in the City
    Maintenance Phase, and only cards still theirs to trade), 409 game_over; nothing
    changes then."""
    offer = table.offers.filter(number=number).first()
    if offer is None:
        raise Refused("not_found", f"This table has no offer {number}.", status=404)
    rows = seat_rows(table)
    if seat_of(table, user, rows) != offer.to_seat:
        raise Refused("not_your_offer", "Only the seat offered the trade answers it.",
                      status=403)
    if offer.status != TableOffer.OPEN:
        raise Refused("offer_closed", f"This offer was {offer.status} already.", status=409)
    _check_move(table, offer.to_seat, None)
    if not accept:
        offer.status = TableOffer.DECLINED
        offer.save(update_fields=["status"])
        _changed(table)
        return table
    played = played_table(table)
    try:
        played.apply_trade(offer.from_seat, offer.to_seat, offer.give, offer.take,
                           offer.give_cards, offer.take_cards)
    except Refused:
        table_done(table, played)
        raise
    offer.status = TableOffer.ACCEPTED
    offer.save(update_fields=["status"])
    _charge(table, clock.now())  # the banks as the decision after the trade begins
    trade = {"kind": TRADE, "from": offer.from_seat, "give": offer.give, "take": offer.take}
    if offer.give_cards or offer.take_cards:
        trade.update(give_cards=offer.give_cards, take_cards=offer.take_cards)
    table.moves = [*table.moves, [offer.to_seat, trade]]
    table.undo = None
    _mark_banks(table)
    _changed(table, ["moves", "undo", "banks", "clock_since", "decision_banks"], played)
    return table


# A person who left: his seat handed to the AI after the grace period, and taken back.


def grace_ends(row: TableSeat, present: presence.Presence) -> datetime | None:
    """When the grace period of a person who left ends (None: he is here, or never gave a
    sign of presence)."""
    left = present.left_at(row)
    if left is None:
        return None
    return left + timedelta(seconds=settings.TABLE_GRACE_SECONDS)


@settled_first
def table_hand_to_ai(*, table: Table, user: Any, seat: int) -> Table:
    """Another person at the table hands the seat of a person who left to the AI, once his
    grace period is over; the AI plays his decisions from then on. Refused: 403 not_seated,
    400 invalid (no such person's seat, or one's own), 409 still_here (a sign of his
    presence counts still, or he never gave one), 409 grace_period (with grace_ends),
    409 already_ai, 409 not_started or game_over."""
    rows = seat_rows(table)
    mine = seat_of(table, user, rows)
    if mine is None:
        raise Refused("not_seated", "Only the people seated at the table hand a seat over.",
                      status=403)
    _check_move(table, mine, None)
    if not 0 <= seat < table.size or seat == mine or rows[seat].kind != TableSeat.PERSON:
        raise Refused("invalid", "Hand over the seat of another person at the table.")
    row = rows[seat]
    if row.stand_in:
        raise Refused("already_ai", f"The AI plays seat {seat + 1} already.", status=409)
    at = clock.now()
    ends = grace_ends(row, presence.table_presence_now(table, at))
    if ends is None:
        raise Refused("still_here", f"{row.name} has not left the table.", status=409)
    if at < ends:
        raise Refused("grace_period", f"{row.name} keeps his seat until "
                      f"{ends.isoformat(timespec='seconds')}: he may come back.",
                      status=409, grace_ends=ends.isoformat())
    row.stand_in = True
    row.save(update_fields=["stand_in"])
    played = played_table(table)
    _charge(table, at)
    return _played_on(table, played, rows, at)


@settled_first
def table_take_back(*, table: Table, user: Any) -> Table:
    """The person whose seat the AI holds takes it back. Refused: 403 not_seated, 409
    not_handed (the AI does not hold it), 409 game_over."""
    rows = seat_rows(table)
    mine = seat_of(table, user, rows)
    if mine is None:
        raise Refused("not_seated", "You have no seat at this table.", status=403)
    if not rows[mine].stand_in:
        raise Refused("not_handed", "Your seat is yours: the AI does not hold it.", status=409)
    if table.status == Table.OVER:
        raise Refused("game_over", f"The game is over ({table.outcome}).", status=409)
    row = rows[mine]
    row.stand_in, row.left_at = False, None
    row.save(update_fields=["stand_in", "left_at"])
    played = played_table(table)
    _rearm(table, played, rows, clock.now())
    _changed(table, GAME_FIELDS, played, rows)
    return table


# Undo by consent: a person takes back his last decision if every other person agrees.


def _consenters(rows: Sequence[TableSeat], seat: int) -> list[int]:
    """The people who must agree to ``seat``'s undo: every other person the AI does not
    stand in for."""
    return [row.seat for row in rows
            if row.kind == TableSeat.PERSON and row.seat != seat and not row.stand_in]


def _chance_since(before: TableGame, now: TableGame) -> bool:
    """Whether a die was rolled or a hidden card drawn between the two states of one game:
    any of the table's random streams moved on, or the story told a draw."""
    def streams(game: TableGame) -> list[int]:
        return [game.table.rng, *(seat.rng for seat in game.table.state.seats)]

    told = (now.table.story or [])[len(before.table.story or []):]
    return streams(before) != streams(now) or any(text.startswith("Drew ")
                                                  for _, _, text in told)


@settled_first
def table_undo_ask(*, table: Table, user: Any) -> Table:
    """The caller asks to take back his last decision (and every move after it); with no
    other person to ask it applies at once. Refused: 403 not_seated, 409 not_started or
    game_over, 409 undo_pending (one request at a time), 409 nothing_to_undo (no decision of
    his own to take back), 409 undo_past_trade, 409 undo_past_chance (a die was rolled or a
    hidden card drawn since: never undone)."""
    rows = seat_rows(table)
    seat = seat_of(table, user, rows)
    if seat is None:
        raise Refused("not_seated", "Only the people seated at the table take moves back.",
                      status=403)
    _check_move(table, seat, None)
    if table.undo is not None:
        raise Refused("undo_pending", "An undo is waiting for answers already.", status=409)
    keep = next((number for number in range(len(table.moves) - 1, -1, -1)
                 if int(table.moves[number][0]) == seat and len(table.moves[number]) == 2
                 and table.moves[number][1].get("kind") not in (TRADE, SURRENDER)), None)
    if keep is None:
        raise Refused("nothing_to_undo", "You have no decision of your own to take back.",
                      status=409)
    if any(move[1].get("kind") == TRADE for move in table.moves[keep:]):
        raise Refused("undo_past_trade", "A trade was made since your last decision: a trade "
                      "is never taken back.", status=409)
    played = played_table(table)
    try:
        if _chance_since(replayed_at(table, keep), played):
            raise Refused("undo_past_chance", "A die was rolled or a hidden card drawn since "
                          "your last decision: that is never taken back.", status=409)
    finally:
        table_done(table, played)
    table.undo = {"seat": seat, "keep": keep, "consents": []}
    if not _consenters(rows, seat):
        return _undone(table, rows)
    _changed(table, ["undo"], rows=rows)
    return table


def _undone(table: Table, rows: Sequence[TableSeat]) -> Table:
    """Apply the pending undo: the moves after it are dropped and the game replays from the
    rest; the banks are as that decision began (nobody is charged for the time of the
    decisions taken back, nor earns their increments) and the clock runs afresh on whoever
    decides then."""
    assert table.undo is not None
    at = clock.now()
    _charge(table, at)
    keep, marks = int(table.undo["keep"]), table.decision_banks
    if table.clock and keep < len(marks) and marks[keep] is not None:
        table.banks = list(marks[keep])
    table.decision_banks = marks[:keep + 1]
    table.moves = table.moves[:keep]
    table.undo = None
    table.undos += 1
    played = played_table(table)
    _store(table, played)
    return _played_on(table, played, rows, at)


@settled_first
def table_undo_answer(*, table: Table, user: Any, accept: bool) -> Table:
    """Another person agrees to the pending undo (the last one to agree applies it) or
    declines it (it is dropped). Refused: 409 no_undo (none pending), 403 not_asked (the
    caller is not one of those asked), 409 already_answered."""
    if table.undo is None:
        raise Refused("no_undo", "No undo is waiting for an answer.", status=409)
    rows = seat_rows(table)
    seat = seat_of(table, user, rows)
    asked = _consenters(rows, int(table.undo["seat"]))
    if seat is None or seat not in asked:
        raise Refused("not_asked", "Only the other people at the table answer an undo.",
                      status=403)
    if seat in table.undo["consents"]:
        raise Refused("already_answered", "You agreed to this undo already.", status=409)
    if not accept:
        table.undo = None
        _changed(table, ["undo"], rows=rows)
        return table
    table.undo = {**table.undo, "consents": [*table.undo["consents"], seat]}
    if set(asked) <= set(table.undo["consents"]):
        return _undone(table, rows)
    _changed(table, ["undo"], rows=rows)
    return table
