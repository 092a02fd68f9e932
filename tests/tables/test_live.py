"""/ws/tables/<id>/ with Channels' WebsocketCommunicator on the in-memory layer: the current
version on connecting, `changed` after every change, nothing else; refusals."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User

from config.asgi import application
from decks.models import Deck
from decks.services import deck_data
from tables.consumers import NO_SPECTATORS, NO_TABLE, TableConsumer
from tables.display import table_document
from tables.models import Table
from tables.services import SeatDeck, table_chat, table_create, table_join, table_start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def keep_the_test_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    """Channels closes old connections around each database call, as between requests: that
    would drop the test's transaction (the test client unhooks the same for HTTP)."""
    monkeypatch.setattr("channels.db.close_old_connections", lambda: None)


def deck(name: str) -> SeatDeck:
    saved = Deck.objects.get(owner__username="samples", name=name)
    return SeatDeck(deck_data(saved), saved)


def two_seats(**options: Any) -> tuple[Table, User, User]:
    ada = User.objects.create_user("ada")
    bob = User.objects.create_user("bob")
    table = table_create(host=ada, deck=deck("Guild Veterans"), size=2, seed=1, target=15,
                         **options)
    return table, ada, bob


def socket(table_id: int, user: Any) -> WebsocketCommunicator:
    # The consumer under the URL router, with the user the session would give.
    communicator = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table_id}/")
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"table_id": table_id}}
    return communicator


async def versions_until(communicator: WebsocketCommunicator, last: int) -> list[int]:
    """The versions a socket is told, up to ``last`` (each message exactly a `changed`)."""
    seen: list[int] = []
    while not seen or seen[-1] < last:
        message = await communicator.receive_json_from()
        assert set(message) == {"type", "version"} and message["type"] == "changed"
        seen.append(message["version"])
    return seen


def test_a_socket_gets_the_version_at_once_and_after_every_change(
        django_capture_on_commit_callbacks: Any) -> None:
    table, ada, bob = two_seats()
    start = table.version

    def changes() -> None:
        for change in (
                lambda: table_join(table=table, user=bob, invite=table.invite,
                                   deck=deck("Mosfin Blades")),
                lambda: table_start(table=table, user=ada),
                lambda: table_chat(table=table, user=bob, text="good luck")):
            with django_capture_on_commit_callbacks(execute=True):
                change()

    def present() -> list[bool]:
        return [s["present"] for s in table_document(Table.objects.get(), None, url="",
                                                     page="", invite="")["seats"]]

    async def session() -> tuple[list[int], list[int], list[bool], list[bool]]:
        spectator, host = socket(table.pk, AnonymousUser()), socket(table.pk, ada)
        assert (await spectator.connect())[0]
        assert await spectator.receive_json_from() == {"type": "changed", "version": start}
        with_host = await database_sync_to_async(present)()
        assert (await host.connect())[0]  # ada is present now: a change of its own
        told = await versions_until(host, start + 1)
        await database_sync_to_async(changes)()
        told += await versions_until(host, start + 4)
        watched = await versions_until(spectator, start + 4)
        await host.disconnect()
        gone = await database_sync_to_async(present)()
        await spectator.disconnect()
        return told, watched, with_host, gone

    told, watched, before, gone = async_to_sync(session)()
    assert before == [False, False] and gone == [False, False]
    assert told[0] == start + 1  # (its own presence: told to the others once committed)
    for seen in (told, watched):
        assert seen == sorted(seen) and set(range(start + 2, start + 5)) <= set(seen)


def test_a_seated_persons_socket_makes_him_present() -> None:
    table, ada, _ = two_seats()

    async def session() -> bool:
        host = socket(table.pk, ada)
        assert (await host.connect())[0]
        await versions_until(host, table.version + 1)
        document = await database_sync_to_async(lambda: table_document(
            Table.objects.select_related("host").get(), ada, url="", page="", invite=""))()
        await host.disconnect()
        return bool(document["seats"][0]["present"])

    assert async_to_sync(session)()


@pytest.mark.parametrize(("case", "code"), [("no_table", NO_TABLE),
                                            ("no_spectators", NO_SPECTATORS)])
def test_a_socket_is_refused(case: str, code: int) -> None:
    table, _, _ = two_seats(spectators=False)
    table_id = table.pk + 1 if case == "no_table" else table.pk

    async def session() -> tuple[bool, Any]:
        # Accepted and closed at once with the code: refused in the handshake, a browser
        # would see only 1006 and keep reconnecting.
        communicator = socket(table_id, AnonymousUser())
        connected, _ = await communicator.connect()
        closed = await communicator.receive_output()
        return connected, (closed["type"], closed.get("code"))

    assert async_to_sync(session)() == (True, ("websocket.close", code))


def test_the_asgi_application_routes_the_tables_socket() -> None:
    table, _, _ = two_seats()

    async def session() -> Any:
        communicator = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/",
                                             headers=[(b"origin", b"http://localhost"),
                                                      (b"host", b"localhost")])
        connected, _ = await communicator.connect()
        assert connected
        first = await communicator.receive_json_from()
        await communicator.disconnect()
        return first

    assert async_to_sync(session)() == {"type": "changed", "version": table.version}


def test_a_socket_connecting_plays_what_the_clock_owes(monkeypatch: pytest.MonkeyPatch) -> None:
    table, ada, _ = two_seats(clock={"bank": 10, "increment": 0},
                              ai=[(1, deck("Mosfin Blades"))])
    table = table_start(table=table, user=ada)
    assert table.clock_since is not None
    late = table.clock_since + timedelta(seconds=11)
    monkeypatch.setattr("tables.clock.now", lambda: late)

    async def connect() -> None:
        communicator = socket(table.pk, ada)
        connected, _ = await communicator.connect()
        assert connected
        await communicator.disconnect()

    async_to_sync(connect)()
    assert Table.objects.get().moves[0][2] == "clock"
