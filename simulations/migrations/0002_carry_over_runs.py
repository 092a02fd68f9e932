"""The goldfish and matchup runs of the two apps this one replaced move into its tables
(simulations.legacy says how each row converts); queued tasks of the old apps run the new
task; permissions given on the old models are given on the new ones (their content types go);
then the old tables go.

The old apps are gone, and their models with them, so the old tables are read through models
made here for the purpose, in a registry of their own (never migrated, never installed). A
database made after the merge has ``decks_goldfishrun`` and ``decks_goldfishchunk`` (the decks
app's migrations make them) but no ``matchups_matchuprun``: an absent table has no runs.
Unapplied, the goldfish tables come back with the goldfish runs, their permissions and queued
tasks named as the decks app named them before issue 16 (the app whose migrations made those
tables, and whose state they return to); matchup runs cannot go back, their app is gone.
"""

from collections import defaultdict
from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models

from simulations import legacy

OLD_TABLES = ("decks_goldfishchunk", "decks_goldfishrun", "matchups_matchuprun")


def legacy_models() -> dict[str, Any]:
    """The old tables as models, by table name: the columns read, foreign keys as numbers."""
    registry = Apps()

    def model(name: str, table: str, fields: dict[str, models.Field[Any, Any]]) -> Any:
        meta = type("Meta", (), {"app_label": "simulations_legacy", "db_table": table,
                                 "managed": False, "apps": registry})
        return type(name, (models.Model,), {"__module__": __name__, "Meta": meta, **fields})

    def run_fields() -> dict[str, models.Field[Any, Any]]:
        return {
            "id": models.UUIDField(primary_key=True),
            "owner_id": models.IntegerField(null=True), "requester": models.CharField(),
            "deck_id": models.BigIntegerField(null=True), "contents_hash": models.CharField(),
            "card_facts": models.JSONField(), "games": models.IntegerField(),
            "seed": models.BigIntegerField(), "policy": models.CharField(),
            "target": models.IntegerField(), "round_cap": models.IntegerField(),
            "rules_version": models.CharField(), "status": models.CharField(),
            "report_json": models.TextField(), "error": models.TextField(),
            "created_at": models.DateTimeField(), "started_at": models.DateTimeField(null=True),
            "finished_at": models.DateTimeField(null=True),
        }

    return {
        "decks_goldfishrun": model("GoldfishRun", "decks_goldfishrun", {
            **run_fields(), "deck_version": models.IntegerField(null=True),
            "deck_name": models.CharField(), "decklist": models.JSONField(),
            "players": models.IntegerField(), "chunks_total": models.IntegerField(),
            "chunks_done": models.IntegerField(), "watch_at": models.DateTimeField(null=True),
        }),
        "decks_goldfishchunk": model("GoldfishChunk", "decks_goldfishchunk", {
            "run_id": models.UUIDField(), "index": models.IntegerField(),
            "first": models.IntegerField(), "last": models.IntegerField(),
            "status": models.CharField(), "lease_owner": models.CharField(),
            "lease_expires": models.DateTimeField(null=True), "attempts": models.IntegerField(),
            "tally": models.JSONField(null=True), "finished_at": models.DateTimeField(null=True),
        }),
        "matchups_matchuprun": model("MatchupRun", "matchups_matchuprun", {
            **run_fields(), "mode": models.CharField(), "deck_names": models.JSONField(),
            "decklists": models.JSONField(), "games_done": models.IntegerField(),
            "lease_expires": models.DateTimeField(null=True),
            "played_json": models.TextField(),
        }),
    }


def carry_over(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    present = set(connection.introspection.table_names())
    old = legacy_models()
    runs = apps.get_model("simulations", "SimulationRun").objects.using(connection.alias)
    chunk_model = apps.get_model("simulations", "SimulationChunk")

    def store(row: dict[str, Any], chunks: list[dict[str, Any]]) -> None:
        created_at = row["created_at"]
        run = runs.create(**row)
        runs.filter(pk=run.pk).update(created_at=created_at)  # not the time of the copy
        chunk_model.objects.using(connection.alias).bulk_create(
            chunk_model(run=run, **{k: v for k, v in chunk.items() if k != "run_id"})
            for chunk in chunks)

    if {"decks_goldfishrun", "decks_goldfishchunk"} <= present:
        chunks: dict[Any, list[dict[str, Any]]] = defaultdict(list)
        for row in old["decks_goldfishchunk"].objects.using(connection.alias).values():
            chunks[row["run_id"]].append(row)
        for row in old["decks_goldfishrun"].objects.using(connection.alias).values():
            mine = sorted(chunks.get(row["id"], []), key=lambda c: c["index"])
            done = sum(c["last"] - c["first"] + 1 for c in mine if c["status"] == "done")
            store(legacy.goldfish_run(row, done), [legacy.goldfish_chunk(c) for c in mine])
    if "matchups_matchuprun" in present:
        for row in old["matchups_matchuprun"].objects.using(connection.alias).values():
            store(*legacy.matchup_run(row))
    tasks = apps.get_model("django_tasks_database", "DBTaskResult").objects.using(
        connection.alias)
    for path, new in legacy.TASKS.items():
        tasks.filter(task_path=path).update(task_path=new)
    move_permissions(apps, connection.alias, legacy.MERGED_MODELS)
    for table in OLD_TABLES:
        if table in present:
            schema_editor.delete_model(old[table])


def move_permissions(apps: Any, alias: str, moves: dict[str, str]) -> None:
    """Whoever was given a permission on an old model (view a goldfish run, say) has it on
    the new one; the old content types go, with their permissions. ``moves``: old model label
    to new."""
    content_types = apps.get_model("contenttypes", "ContentType").objects.using(alias)
    permissions = apps.get_model("auth", "Permission").objects.using(alias)
    for label, new_label in moves.items():
        app, model = label.split(".")
        old_type = content_types.filter(app_label=app, model=model).first()
        if old_type is None:
            continue
        new_app, new_model = new_label.split(".")
        new_type = content_types.get_or_create(app_label=new_app, model=new_model)[0]
        for old in permissions.filter(content_type=old_type):
            action = old.codename.removesuffix(model)
            new = permissions.get_or_create(
                content_type=new_type, codename=f"{action}{new_model}",
                defaults={"name": old.name})[0]
            new.user_set.add(*old.user_set.all())
            new.group_set.add(*old.group_set.all())
        old_type.delete()


def carry_back(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    old = legacy_models()
    for table in ("decks_goldfishrun", "decks_goldfishchunk"):
        schema_editor.create_model(old[table])
    runs = apps.get_model("simulations", "SimulationRun").objects.using(connection.alias)
    chunks = apps.get_model("simulations", "SimulationChunk").objects.using(connection.alias)
    for row in runs.filter(kind="goldfish").values():
        old["decks_goldfishrun"].objects.using(connection.alias).create(
            **legacy.goldfish_run_back(row))
    old["decks_goldfishchunk"].objects.using(connection.alias).bulk_create(
        old["decks_goldfishchunk"](**legacy.goldfish_chunk_back(row))
        for row in chunks.filter(run__kind="goldfish").values())
    tasks = apps.get_model("django_tasks_database", "DBTaskResult").objects.using(
        connection.alias)
    tasks.filter(task_path=legacy.TASK).update(task_path="decks.tasks.goldfish_work")
    move_permissions(apps, connection.alias, {"simulations.simulationrun": "decks.goldfishrun",
                                              "simulations.simulationchunk": "decks.goldfishchunk"})


class Migration(migrations.Migration):

    dependencies = [
        ("simulations", "0001_initial"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(carry_over, carry_back, elidable=False)]
