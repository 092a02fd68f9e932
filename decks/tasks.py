"""Background tasks (Django's tasks API; ``manage.py db_worker`` runs them)."""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

from django.tasks import TaskContext, task

from decks.goldfish_jobs import default_worker_id, goldfish_run_work
from decks.models import GoldfishChunk

#: Set by the reliability tests only: after leasing its first chunk the worker says so on
#: stderr and stops there for good, to be killed mid-chunk (tests/decks/test_goldfish_workers.py).
HOLD_AFTER_LEASE = "GOLDFISH_HOLD_AFTER_LEASE"


@task(takes_context=True)
def goldfish_work(context: TaskContext, run_id: str) -> str:
    """Play the free chunks of a goldfish run (decks.goldfish_jobs); returns its status."""
    ids = context.task_result.worker_ids
    worker = f"{ids[-1] if ids else 'worker'}@{default_worker_id()}"
    hold = _hold_forever if os.environ.get(HOLD_AFTER_LEASE) else None
    return goldfish_run_work(run_id=run_id, worker=worker, on_leased=hold)


def _hold_forever(chunk: GoldfishChunk) -> Any:
    sys.stderr.write(f"goldfish: leased chunk {chunk.index} of run {chunk.run_id}\n")
    sys.stderr.flush()
    threading.Event().wait()
