"""/ws/tables/<id>/: tells every browser at a table when it changes (docs/design.md §15).

On connecting, and after every change, a socket receives ``{"type": "changed", "version":
v}`` and nothing else: the browser fetches its own seat's view over HTTP, so no message can
carry another seat's hidden cards, and a client that missed messages loses nothing. The
session cookie says who is connecting; anonymous sockets are spectators, refused (closed)
when the table takes none. A seated person's socket is a sign of his presence, which this
process confirms while it holds it (tables.presence)."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tables.live import table_group
from tables.models import Table
from tables.presence import holding
from tables.services import table_presence, table_settled, viewer_seat

# Close codes: the table does not exist, or it takes no spectators.
NO_TABLE, NO_SPECTATORS = 4404, 4403


@database_sync_to_async
def _version(table_id: int, user: Any) -> int | str | None:
    """The table's version; None when there is no such table, "refused" for a spectator of a
    table that takes none."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    if not table.spectators and viewer_seat(table, user) is None:
        return "refused"
    return table_settled(table).version  # a socket connecting plays what the clock owes too


class TableConsumer(AsyncJsonWebsocketConsumer):
    group = ""
    table_id = 0

    async def connect(self) -> None:
        table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        version = await _version(table_id, self.scope.get("user"))
        if not isinstance(version, int):
            # Accepted, then closed with the reason: a socket closed before it is accepted is
            # a handshake refused with HTTP 403, and the browser would never see the code.
            await self.accept()
            await self.close(code=NO_TABLE if version is None else NO_SPECTATORS)
            return
        self.group, self.table_id = table_group(table_id), table_id
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        holding(table_id, self.scope.get("user"), opened=True)
        # A seated person's socket makes him present (a change of its own, told to all).
        now = await database_sync_to_async(table_presence)(
            table_id=table_id, user=self.scope.get("user"), channel=self.channel_name,
            connected=True)
        await self.send_json({"type": "changed", "version": now or version})

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            holding(self.table_id, self.scope.get("user"), opened=False)
            await database_sync_to_async(table_presence)(
                table_id=self.table_id, user=self.scope.get("user"), channel=self.channel_name,
                connected=False)

    async def table_changed(self, event: dict[str, Any]) -> None:
        """A change of the table (tables.live.announce_change)."""
        await self.send_json({"type": "changed", "version": event["version"]})
