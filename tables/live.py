"""Telling every browser at a table that it changed (Django Channels' group of the table).

A message carries only the table's new version: each browser then fetches its own seat's
view, so nothing hidden ever travels through the channel layer."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def announce_change(table_id: int, version: int) -> None:
    """Send ``{"type": "changed", "version": v}`` to every socket of the table."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(table_group(table_id),
                                    {"type": "table.changed", "version": version})
