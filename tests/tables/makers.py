"""Tables of every kind, for the page checks (phone and desk widths, valid HTML)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from decks.models import Deck
from decks.services import deck_data
from rules.game import seats
from tables.models import Table
from tables.services import (
    SeatDeck,
    played_table,
    table_act,
    table_create,
    table_done,
    table_start,
    table_surrender,
)


def sample_deck(name: str) -> SeatDeck:
    saved = Deck.objects.get(owner__username="samples", name=name)
    return SeatDeck(deck_data(saved), saved)


def moves(table: Table, user: Any, count: int) -> Table:
    """``user`` plays the first legal move ``count`` times (the AI seats answering)."""
    for _ in range(count):
        played = played_table(table)
        waiting = seats.to_move(played.table)
        table_done(table, played)
        if waiting != 0:
            break
        table = table_act(table=table, user=user, decision=table.decision, index=0)
    return table


def table_pages(ada: User) -> list[str]:
    """ada's tables: one open with an open seat, one under way against two AI seats, one
    over; the lobby, the new-table form and another's invite link."""
    host = User.objects.create_user("host")
    waiting = table_create(host=host, deck=sample_deck("Guild Veterans"), size=3,
                           ai=[(2, sample_deck("Mosfin Blades"))], public=True)
    mine = table_create(host=ada, deck=sample_deck("Kalim Faithful"), size=3, seed=5,
                        target=15, ai=[(1, sample_deck("Mosfin Blades")),
                                       (2, sample_deck("Guild Merchants"))])
    mine = moves(table_start(table=mine, user=ada), ada, 6)
    over = table_create(host=ada, deck=sample_deck("Kalim Faithful"), size=2, seed=6,
                        ai=[(1, sample_deck("Mosfin Blades"))])
    over = table_surrender(table=table_start(table=over, user=ada), user=ada)
    return ["/tables/", "/tables/new/", f"/tables/invite/{waiting.invite}/",
            f"/tables/{waiting.pk}/", f"/tables/{mine.pk}/", f"/tables/{over.pk}/"]
