"""Models that moved from one app to another, and what names them by their old app.

The house move (issue 16) gave the collection, goldfish and playtest apps of their own. Their
tables kept their names (``db_table``), so nothing was copied; what named the models or their
task by the old app is renamed: content types (by the new apps' first migrations, so that
permissions and admin history follow), the worker's queued tasks (they name the task by its
module), and the rows of a backup archive made before the move (backup.archive).

The goldfish and matchups apps then became one, simulations (issue 33), whose runs have a model
of another shape: their rows are converted, not renamed, by the upgrade the simulations app
registers (:func:`register_row_upgrade`); a permission or content type of a goldfish or matchup
run names the simulation run's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import migrations

MOVED_MODELS = {
    "decks.collection": "collection.collection",
    "decks.collectionentry": "collection.collectionentry",
    "decks.playtestgame": "playtest.playtestgame",
}
#: Models whose rows an upgrade converts: what their natural keys name now.
MERGED_MODELS = {
    "decks.goldfishrun": "simulations.simulationrun",
    "decks.goldfishchunk": "simulations.simulationchunk",
    "goldfish.goldfishrun": "simulations.simulationrun",
    "goldfish.goldfishchunk": "simulations.simulationchunk",
    "matchups.matchuprun": "simulations.simulationrun",
}
#: Apps that are gone (their models moved): an archive's migrations of them are not newer than
#: this site, whatever this database recorded of them.
RETIRED_APPS = frozenset({"goldfish", "matchups"})
SIMULATION_TASK = "simulations.tasks.simulation_work"
MOVED_TASKS = {"decks.tasks.goldfish_work": SIMULATION_TASK,
               "goldfish.tasks.goldfish_work": SIMULATION_TASK,
               "matchups.tasks.matchup_work": SIMULATION_TASK}

type RowUpgrade = Callable[[list[dict[str, Any]]], list[dict[str, Any]]]
#: What converts an archive's rows of models that changed shape, registered by their app.
ROW_UPGRADES: list[RowUpgrade] = []


def register_row_upgrade(upgrade: RowUpgrade) -> None:
    if upgrade not in ROW_UPGRADES:
        ROW_UPGRADES.append(upgrade)


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
