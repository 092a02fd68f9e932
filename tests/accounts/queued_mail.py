"""The accounts' mails wait in the task queue for the background worker (accounts.tasks):
tests deliver them here, in the test's process, as the worker would."""

from __future__ import annotations


def queued_mail() -> int:
    """The account mails waiting for the worker."""
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.filter(task_path__startswith="accounts.tasks.",
                                       status="READY").count()


def deliver_queued_mail() -> list[object]:
    """Run the queued account mail tasks, oldest first; what each returned."""
    from django_tasks_db.models import DBTaskResult

    done = []
    rows = DBTaskResult.objects.filter(task_path__startswith="accounts.tasks.",
                                       status="READY").order_by("enqueued_at")
    for row in rows:
        done.append(row.task.call(*row.args_kwargs["args"], **row.args_kwargs["kwargs"]))
        row.delete()
    return done
