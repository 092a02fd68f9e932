"""A table's clock (docs/tables.md): a time bank per seat and an increment per decision,
running only while the engine waits on that seat's person. At zero the AI plays that decision
for him (never a forfeit): tables.services plays it when the table is next read or written,
as of the moment the bank ran out, so the outcome does not depend on when someone looks.

The time comes from :func:`now` alone, so tests set it instead of sleeping.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone


def now() -> datetime:
    """The time every clock reads (tests replace it)."""
    return timezone.now()


def deadline(table: Any) -> datetime | None:
    """When the running seat's bank runs out, or None (no clock runs)."""
    if not table.clock or table.clock_seat < 0 or table.clock_since is None:
        return None
    return table.clock_since + timedelta(seconds=float(table.banks[table.clock_seat]))


def due(table: Any, at: datetime) -> bool:
    """Whether the running seat's bank is spent at ``at`` (the AI plays for him then)."""
    ends = deadline(table)
    return table.status == "playing" and ends is not None and at >= ends


def banks_left(table: Any, at: datetime) -> list[float]:
    """Each seat's bank at ``at``: the running seat's less the time it has run."""
    if len(table.banks) != table.size:  # not started, or a clock set before it was enforced
        return [float(table.clock["bank"])] * table.size if table.clock else []
    banks = [float(b) for b in table.banks]
    if table.clock_seat >= 0 and table.clock_since is not None and banks:
        spent = (at - table.clock_since).total_seconds()
        banks[table.clock_seat] = max(0.0, banks[table.clock_seat] - spent)
    return banks


def clock_document(table: Any, at: datetime) -> dict[str, Any] | None:
    """What a view says of the clock: null without one."""
    if not table.clock:
        return None
    ends = deadline(table)
    return {"bank": table.clock["bank"], "increment": table.clock["increment"],
            "left": [round(b, 1) for b in banks_left(table, at)],
            "running": table.clock_seat,
            "deadline": ends.isoformat() if ends is not None else None}
