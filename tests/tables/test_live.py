"""/ws/tables/<id>/ with Channels' WebsocketCommunicator on the in-memory layer: the current
version on connecting, `changed` after every change, nothing else; refusals."""

from __future__ import annotations

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


def test_a_socket_gets_the_version_at_once_and_after_every_change(
        django_capture_on_commit_callbacks: Any) -> None:
    table, ada, bob = two_seats()

    async def session() -> list[Any]:
        host, spectator = socket(table.pk, ada), socket(table.pk, AnonymousUser())
        seen = []
        for communicator in (host, spectator):
            connected, _ = await communicator.connect()
            assert connected
            seen.append(await communicator.receive_json_from())

        def changes() -> None:
            for change in (
                    lambda: table_join(table=table, user=bob, invite=table.invite,
                                       deck=deck("Mosfin Blades")),
                    lambda: table_start(table=table, user=ada),
                    lambda: table_chat(table=table, user=bob, text="good luck")):
                with django_capture_on_commit_callbacks(execute=True):
                    change()

        await database_sync_to_async(changes)()
        for communicator in (host, spectator):
            seen.extend([await communicator.receive_json_from() for _ in range(3)])
            await communicator.disconnect()
        return seen

    seen = async_to_sync(session)()
    version = table.version
    assert seen[:2] == [{"type": "changed", "version": version}] * 2
    assert seen[2:5] == seen[5:] == [{"type": "changed", "version": v}
                                     for v in (version + 1, version + 2, version + 3)]
    assert Table.objects.get().version == version + 3


@pytest.mark.parametrize(("case", "code"), [("no_table", NO_TABLE),
                                            ("no_spectators", NO_SPECTATORS)])
def test_a_socket_is_refused(case: str, code: int) -> None:
    table, _, _ = two_seats(spectators=False)
    table_id = table.pk + 1 if case == "no_table" else table.pk

    async def session() -> tuple[bool, Any]:
        connected, closed = await socket(table_id, AnonymousUser()).connect()
        return connected, closed

    assert async_to_sync(session)() == (False, code)


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
