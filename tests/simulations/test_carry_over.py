"""Migration 0002 of the simulations app on rows made by hand in the old apps' tables (no
django-test-migrations here): goldfish runs keep their chunks, a finished matchup keeps its
report, a matchup under way goes on from the games it had played and ends with the command's
report, queued tasks run the new task, permissions follow, the old tables go; and a backup
archive's rows of the old apps convert the same way."""

from __future__ import annotations

import importlib
import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission, User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django_tasks_db.models import DBTaskResult

from cards.models import Card
from decks.deck_input import deck_from_text
from decks.formats.json_format import deck_to_dict
from rules.game.gauntlet import pair_spec
from rules.game.matchup import MatchupSpec, run_chunk
from simulations import legacy
from simulations.games import deck_names, prepare_decks, stored_facts
from simulations.models import SimulationRun
from simulations.runs import MatchupOptions
from simulations.tallies import tally_to_data
from simulations.tasks import simulation_run_work
from tests.commands import run_command
from tests.conftest import CATALOGUES, FIXTURES

carry = importlib.import_module("simulations.migrations.0002_carry_over_runs")
FILES = [FIXTURES / "decklists" / name
         for name in ("kalim-faithful.txt", "mosfin-blades.txt", "guild-veterans.txt")]
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
OLD = carry.legacy_models()


@pytest.fixture
def old_tables(transactional_db: None, django_db_serialized_rollback: None) -> Iterator[None]:
    """The old apps' tables, empty (the migration drops them; so does the end of the test).
    Serialized rollback: the flush after a transactional test then re-creates no content type
    under a new id, which a later test's serialized restore would clash with."""
    with connection.schema_editor() as editor:
        for table in carry.OLD_TABLES[::-1]:
            editor.create_model(OLD[table])
    yield
    present = set(connection.introspection.table_names())
    with connection.schema_editor() as editor:
        for table in carry.OLD_TABLES:
            if table in present:
                editor.delete_model(OLD[table])


def run_fields(status: str, games: int, **more: Any) -> dict[str, Any]:
    return {"id": uuid.uuid4(), "requester": "anon:old", "contents_hash": "h" * 64,
            "games": games, "seed": 3, "policy": "greedy", "target": 25, "round_cap": 40,
            "rules_version": "old",
            "status": status, "report_json": "", "error": "", "created_at": NOW,
            "owner_id": None, "deck_id": None, **more}


def gauntlet_decks() -> tuple[list[Any], list[str], list[dict[str, Any]], list[Any]]:
    decks = [deck_from_text(path.read_text(encoding="utf-8")) for path in FILES]
    prepared = prepare_decks(decks, MatchupOptions(mode="gauntlet").config(3))
    return (prepared, deck_names(decks), [deck_to_dict(d) for d in decks],
            [stored_facts(p) for p in prepared])


def carry_over() -> None:
    with connection.schema_editor() as editor:
        carry.carry_over(apps, editor)


def test_the_old_apps_runs_carry_over_and_one_under_way_goes_on(old_tables: None) -> None:
    # (a transactional test that reads the catalogue: another transactional test before it
    # on the same worker may have flushed it; a serialized rollback cannot bring it back
    # after test_moved_models, whose migrations remake the content types)
    if not Card.objects.exists():
        call_command("import_cards", *map(str, CATALOGUES), "--no-images", verbosity=0)
    # A finished goldfish run in two chunks, with a permission on it.
    old_run = OLD["decks_goldfishrun"].objects.create(
        **run_fields("done", 20, report_json='{"games": 20}'), deck_version=2,
        deck_name="Kalim Faithful", decklist={"name": "Kalim Faithful"}, card_facts={"a": {}},
        players=1, chunks_total=2, chunks_done=2, watch_at=None)
    for index, first in enumerate((1, 11)):
        OLD["decks_goldfishchunk"].objects.create(
            run_id=old_run.pk, index=index, first=first, last=first + 9, status="done",
            lease_owner="w", attempts=1, tally={"games": 10, "cards": {"b": 1, "a": 2}})
    # A gauntlet of three decks, 20 games a pairing, stopped by its worker's death after the
    # first pairing and 10 games of the second; and a finished matchup.
    prepared, names, decklists, facts = gauntlet_decks()
    config = MatchupOptions(mode="gauntlet").config(3)
    spec = MatchupSpec(20, 3)
    played = [run_chunk([prepared[0], prepared[1]], pair_spec(spec, (0, 1)), config, 1, 20),
              run_chunk([prepared[0], prepared[2]], pair_spec(spec, (0, 2)), config, 1, 10)]
    under_way = OLD["matchups_matchuprun"].objects.create(
        **run_fields("running", 20), mode="gauntlet", deck_names=names,
        decklists=decklists, card_facts=facts, games_done=30, lease_expires=NOW,
        played_json=json.dumps([tally_to_data(t) for t in played]))
    finished = OLD["matchups_matchuprun"].objects.create(
        **run_fields("done", 5, report_json='{"games": 5}'), mode="matchup",
        deck_names=names[:2], decklists=decklists[:2], card_facts=facts[:2], games_done=5,
        lease_expires=None, played_json="")
    DBTaskResult.objects.create(
        task_path="matchups.tasks.matchup_work",
        args_kwargs={"args": [str(under_way.pk)], "kwargs": {}}, backend_name="default",
        enqueued_at=NOW, run_after=NOW, exception_class_path="", traceback="")
    ada = User.objects.create(username="ada")
    old_type = ContentType.objects.create(app_label="goldfish", model="goldfishrun")
    ada.user_permissions.add(Permission.objects.create(
        codename="view_goldfishrun", name="Can view goldfish run", content_type=old_type))

    carry_over()

    assert not set(carry.OLD_TABLES) & set(connection.introspection.table_names())
    goldfish = SimulationRun.objects.get(pk=old_run.pk)
    assert (goldfish.kind, goldfish.deck_names, goldfish.decklists, goldfish.card_facts,
            goldfish.deck_version, goldfish.created_at, goldfish.report) == (
        "goldfish", ["Kalim Faithful"], [{"name": "Kalim Faithful"}], [{"a": {}}], 2, NOW,
        {"games": 20})
    assert goldfish.progress == {"chunks_done": 2, "chunks_total": 2}
    # (compared as values: PostgreSQL's jsonb, the old column, keeps no key order)
    assert [json.loads(c.tally_json) for c in goldfish.chunks.order_by("index")] == [
        {"games": 10, "cards": {"b": 1, "a": 2}}] * 2
    done = SimulationRun.objects.get(pk=finished.pk)
    assert (done.kind, done.players, done.report, done.progress) == (
        "matchup", 2, {"games": 5}, {"games_done": 5, "games": 5})
    run = SimulationRun.objects.get(pk=under_way.pk)
    assert (run.kind, run.players, run.progress) == ("gauntlet", 2, {"games_done": 30,
                                                                     "games": 40})
    assert list(run.chunks.values_list("pairing", "first", "last", "status")) == [
        (0, 1, 20, "done"), (1, 1, 10, "done"), (1, 11, 20, "queued")]
    assert DBTaskResult.objects.get().task_path == "simulations.tasks.simulation_work"
    assert User.objects.get(pk=ada.pk).has_perm("simulations.view_simulationrun")
    assert not ContentType.objects.filter(app_label="goldfish").exists()

    # The worker plays the 10 games left; the report is the command's.
    assert simulation_run_work(run_id=run.pk, worker="w", now=lambda: NOW) == "done"
    run.refresh_from_db()
    code, out, _ = run_command("matchup", *map(str, FILES), "--gauntlet", "--games", "20",
                               "--seed", "3", "--format", "json")
    assert code == 0
    assert json.dumps(run.report) == json.dumps(json.loads(out))


def test_a_database_made_after_the_merge_has_no_old_runs_to_carry(
        transactional_db: None, django_db_serialized_rollback: None) -> None:
    carry_over()  # no old table: nothing to do
    assert not SimulationRun.objects.exists()


def test_a_backup_s_rows_of_the_old_apps_convert_as_the_migration_converts_them() -> None:
    rows: list[dict[str, Any]] = [
        {"model": "goldfish.goldfishrun", "pk": "r1", "fields": {
            "owner": ["ada"], "deck": 4, "deck_name": "D", "decklist": {}, "card_facts": {},
            "games": 10, "status": "done"}},
        {"model": "goldfish.goldfishchunk", "pk": 7, "fields": {
            "run": "r1", "index": 0, "first": 1, "last": 10, "status": "done",
            "tally": {"games": 10}}},
        {"model": "matchups.matchuprun", "pk": "r2", "fields": {
            "mode": "matrix", "decklists": [{}, {}, {}], "deck_names": ["A", "B", "C"],
            "games": 3, "games_done": 3, "status": "queued", "played_json": json.dumps([{}]),
            "lease_expires": None, "created_at": "2026-11-20T12:00:00Z"}},
        {"model": "decks.deck", "pk": 4, "fields": {"name": "D"}},
    ]
    upgraded = legacy.upgrade_archive_rows(rows)
    assert [(r["model"], r.get("pk")) for r in upgraded] == [
        ("simulations.simulationrun", "r1"), ("simulations.simulationchunk", None),
        ("simulations.simulationrun", "r2"), *[("simulations.simulationchunk", None)] * 3,
        ("decks.deck", 4)]
    assert upgraded[0]["fields"]["deck_names"] == ["D"]
    assert upgraded[0]["fields"]["games_done"] == 10
    assert upgraded[0]["fields"]["owner"] == ["ada"]  # a natural key passes as it is
    assert upgraded[1]["fields"] == {
        "run": "r1", "index": 0, "first": 1, "last": 10, "status": "done",
        "tally_json": '{"games": 10}', "pairing": 0}
    matrix = upgraded[2]["fields"]
    assert (matrix["kind"], matrix["players"], matrix["chunks_total"], matrix["games_done"],
            matrix["watch_at"]) == ("matrix", 2, 3, 3, "2026-11-20T12:00:00Z")
    assert [(c["fields"]["run"], c["fields"]["pairing"], c["fields"]["first"],
             c["fields"]["status"]) for c in upgraded[3:6]] == [
        ("r2", 0, 1, "done"), ("r2", 1, 1, "queued"), ("r2", 2, 1, "queued")]
