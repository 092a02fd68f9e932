"""Background tasks (Django's tasks API; ``manage.py db_worker`` runs them)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable

from django.tasks import TaskContext, task

from decks.goldfish_jobs import default_worker_id, goldfish_run_work
from decks.models import GoldfishChunk

#: Set by the reliability tests only (tests/decks/test_goldfish_workers.py): the worker says on
#: stderr which chunk it leased, then, after its first lease, waits: "forever" (to be killed
#: mid-chunk) or until a line arrives on stdin ("stdin": to hold two workers on one run at once).
HOLD_AFTER_LEASE = "GOLDFISH_HOLD_AFTER_LEASE"


@task(takes_context=True)
def goldfish_work(context: TaskContext, run_id: str) -> str:
    """Play the free chunks of a goldfish run (decks.goldfish_jobs); returns its status."""
    ids = context.task_result.worker_ids
    worker = f"{ids[-1] if ids else 'worker'}@{default_worker_id()}"
    hold = os.environ.get(HOLD_AFTER_LEASE)
    return goldfish_run_work(run_id=run_id, worker=worker,
                             on_leased=_holder(hold) if hold else None)


def _holder(mode: str) -> Callable[[GoldfishChunk], None]:
    leased = 0

    def hold(chunk: GoldfishChunk) -> None:
        nonlocal leased
        leased += 1
        sys.stderr.write(f"goldfish: leased chunk {chunk.index} of run {chunk.run_id}\n")
        sys.stderr.flush()
        if mode == "forever":
            threading.Event().wait()
        elif leased == 1:
            sys.stdin.readline()

    return hold
