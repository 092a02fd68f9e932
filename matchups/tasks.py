"""The matchup worker's task (Django's tasks API; ``manage.py db_worker`` runs it, beside the
goldfish tasks)."""

from __future__ import annotations

import os
import socket

from django.tasks import TaskContext, task

from matchups.worker import matchup_run_work


@task(takes_context=True)
def matchup_work(context: TaskContext, run_id: str) -> str:
    """Play a matchup run; returns its status."""
    ids = context.task_result.worker_ids
    worker = f"{ids[-1] if ids else 'worker'}@{socket.gethostname()}:{os.getpid()}"
    return matchup_run_work(run_id=run_id, worker=worker, background=True)
