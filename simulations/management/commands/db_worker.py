"""manage.py db_worker: django-tasks-db's worker, made to outlive a database that goes away.

The library's worker stops at the first database error it does not expect: a restarted
PostgreSQL ends it (its loop polls the task table every second), and a deployment without a
supervisor that restarts it would play no goldfish run until someone noticed. This one, which
replaces it (``django_tasks_db`` is listed after the project's apps in INSTALLED_APPS, so this
command is the one ``db_worker`` names), takes the same options and does the same work, and on
a lost connection closes it, waits (0.5 s, twice as long each time, at most 5 s) and goes on.

A task that was running meanwhile waits out the outage itself (simulations.tasks retries each of
its database steps); if the database was gone just when the task's result was to be recorded,
the result row stays "running" (nothing reads it: the run's own row says whether it is done).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.management.base import CommandError
from django_tasks_db.management.commands.db_worker import Command as TasksDbWorkerCommand
from django_tasks_db.management.commands.db_worker import Worker

from simulations.db_retry import (
    OUTAGE_ERRORS,
    OUTAGE_FIRST_WAIT,
    OUTAGE_MOST_WAIT,
    close_broken_connection,
)

logger = logging.getLogger("django_tasks_db")
CALM = 60.0  # seconds without an outage after which the wait starts short again


class SteadyWorker(Worker):
    """The library's worker, whose loop is started again after a database outage."""

    def run(self) -> None:
        wait = OUTAGE_FIRST_WAIT
        last_outage = 0.0
        while self.running:
            try:
                super().run()
                return  # --batch or --max-tasks: done
            except OUTAGE_ERRORS as error:
                if time.monotonic() - last_outage > CALM:
                    wait = OUTAGE_FIRST_WAIT
                last_outage = time.monotonic()
                first = str(error).strip().splitlines()[0] if str(error).strip() else ""
                logger.warning("worker %s: the database cannot be reached (%s: %s); trying "
                               "again in %.1f s", self.worker_id, type(error).__name__, first,
                               wait)
                self.running_task = False
                close_broken_connection()
                time.sleep(wait)  # SIGTERM meanwhile exits at once (Worker.shutdown)
                wait = min(wait * 2, OUTAGE_MOST_WAIT)
                self.startup_delay = False


class Command(TasksDbWorkerCommand):
    help = ("Run a database background worker (django-tasks-db's), which waits out a database "
            "restart instead of stopping")

    def handle(self, *, verbosity: int, queue_name: str, interval: float, batch: bool,
               backend_name: str, startup_delay: bool, reload: bool, max_tasks: int | None,
               worker_id: str, exclude_queues: str, **options: Any) -> None:
        self.configure_logging(verbosity)
        if reload and batch:
            logger.warning("Warning: --reload and --batch cannot be specified together. "
                           "Disabling autoreload.")
            reload = False
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = SteadyWorker(
            queue_names=queue_names, interval=interval, batch=batch, backend_name=backend_name,
            startup_delay=startup_delay, max_tasks=max_tasks, worker_id=worker_id,
            excluded_queue_names=excluded,
        )
        if reload:
            import os

            from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader

            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
