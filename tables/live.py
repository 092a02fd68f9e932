"""Telling every browser at a table that it changed (Django Channels' group of the table).

A message carries only the table's new version: each browser then fetches its own seat's
view, so nothing hidden ever travels through the channel layer."""

from __future__ import annotations

import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def announce_change(table_id: int, version: int) -> None:
    """Send ``{"type": "changed", "version": v}`` to every socket of the table."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "table.changed", "version": version}
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # a sync view's thread, as Django runs them: no loop here
        async_to_sync(layer.group_send)(table_group(table_id), message)
    else:  # called from a thread that runs a loop: sent by that loop, not awaited here
        _sending.add(task := loop.create_task(layer.group_send(table_group(table_id), message)))
        task.add_done_callback(_sending.discard)


# The sends under way from a running loop (a task nobody holds may be collected unfinished).
_sending: set[asyncio.Task[None]] = set()
