"""Models that moved from one app to another, and what names them by their old app.

The house move (issue 16) gave the collection, goldfish and playtest apps of their own. Their
tables kept their names (``db_table``), so nothing was copied; what named the models or their
task by the old app is renamed: content types (by the new apps' first migrations, so that
permissions and admin history follow), the worker's queued tasks (they name the task by its
module), and the rows of a backup archive made before the move (sitewide.backup).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

MOVED_MODELS = {
    "decks.collection": "collection.collection",
    "decks.collectionentry": "collection.collectionentry",
    "decks.goldfishrun": "goldfish.goldfishrun",
    "decks.goldfishchunk": "goldfish.goldfishchunk",
    "decks.playtestgame": "playtest.playtestgame",
}
MOVED_TASKS = {"decks.tasks.goldfish_work": "goldfish.tasks.goldfish_work"}


def rename_content_types(app: str, models: list[str], old_app: str = "decks"
                         ) -> migrations.RunPython:
    """A migration operation: the content types of ``models`` move from ``old_app`` to
    ``app`` (and back, unapplied). A content type already made under the new name is kept."""

    def move(apps: Any, source: str, target: str) -> None:
        content_types = apps.get_model("contenttypes", "ContentType").objects
        for model in models:
            if not content_types.filter(app_label=target, model=model).exists():
                content_types.filter(app_label=source, model=model).update(app_label=target)

    return migrations.RunPython(lambda apps, _: move(apps, old_app, app),
                                lambda apps, _: move(apps, app, old_app))


def rename_task(old: str, new: str) -> migrations.RunPython:
    """A migration operation: tasks queued under the task's old module path run under its new
    one (and back, unapplied)."""

    def move(apps: Any, source: str, target: str) -> None:
        results = apps.get_model("django_tasks_database", "DBTaskResult").objects
        results.filter(task_path=source).update(task_path=target)

    return migrations.RunPython(lambda apps, _: move(apps, old, new),
                                lambda apps, _: move(apps, new, old))
