"""The house move (issue 16): the collection, goldfish and playtest left the decks app for apps
of their own. A database made before the move migrates forward with every row, no table copied;
and a backup archive made before the move restores after it."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission, User
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django_tasks_db.models import DBTaskResult

from backup.moved_models import MOVED_MODELS
from collection.models import Collection, CollectionEntry
from decks.models import Deck, DeckCard, DeckVersion
from playtest.models import PlaytestGame
from simulations.models import SimulationChunk, SimulationRun
from tests.backup.test_backups import empty_the_database
from tests.commands import run_command

FIXTURE = Path(__file__).parent / "fixtures" / "backup-before-the-house-move.tar.gz"
# The schema as the last commit before the move left it: every app at its migration then.
# The simulations app came later (issue 33): its tables replace the goldfish ones, whose runs
# it carries over.
LATER_TABLES = {"simulations_simulationrun", "simulations_simulationchunk",
                # the tables app (online tables) came after the move too
                "tables_table", "tables_tableseat", "tables_tablemessage", "tables_tableoffer",
                "tables_tablepresence"}
MERGED_TABLES = {"decks_goldfishrun", "decks_goldfishchunk"}
BEFORE = [("decks", "0005_playtest_game"), ("collection", None), ("simulations", None),
          ("playtest", None)]
NOW = datetime.datetime(2026, 11, 24, 12, 0, tzinfo=datetime.UTC)


def migrate(targets: list[tuple[str, str | None]]) -> Any:
    """Migrate to ``targets``; the apps (models as they were) at that state."""
    MigrationExecutor(connection).migrate(targets)
    ContentType.objects.clear_cache()
    loader = MigrationExecutor(connection).loader
    return loader.project_state(list(loader.applied_migrations)).apps


@pytest.fixture
def schema_before_the_move(transactional_db: None,
                           django_db_serialized_rollback: None) -> Iterator[Any]:
    """The test database migrated back to the schema before the move (and forward again after
    the test, whatever happens). Serialized rollback: the flush after a transactional test then
    re-creates no content type under a new id, which a later test's serialized restore would
    clash with."""
    try:
        yield migrate(BEFORE)
    finally:
        leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
        migrate(leaves)


def fill_the_old_schema(old: Any) -> dict[str, Any]:
    """Rows of every kind the moved models hold, written through the models as they were."""
    user = old.get_model("auth", "User").objects.create(username="old-ada", password="x")
    card_set = old.get_model("cards", "CardSet").objects.create(code="OLD", name="Old set",
                                                               official=False)
    card = old.get_model("cards", "Card").objects.create(
        id="old-card", name="Old Card", set=card_set, type="structure", official=False)
    deck = old.get_model("decks", "Deck").objects.create(
        owner=user, name="Old deck", sleeved=True)
    old.get_model("decks", "DeckCard").objects.create(deck=deck, section="structures",
                                                      card=card, count=2)
    old.get_model("decks", "DeckVersion").objects.create(deck=deck, number=1, snapshot={},
                                                         diff={}, summary="first")
    collection = old.get_model("decks", "Collection").objects.create(owner=user, version=3)
    old.get_model("decks", "CollectionEntry").objects.create(
        collection=collection, card=card, owned=2, want=1, trade=1)
    run = old.get_model("decks", "GoldfishRun").objects.create(
        owner=user, requester=f"user:{user.pk}", deck=deck, deck_version=1, deck_name="Old deck",
        decklist={}, card_facts={}, contents_hash="c" * 64, games=10, seed=1, policy="greedy",
        target=25, players=1, round_cap=40, rules_version="old", status="done", chunks_total=1,
        chunks_done=1, report_json='{"games": 10}')
    old.get_model("decks", "GoldfishChunk").objects.create(run=run, index=0, first=0, last=9,
                                                         status="done", tally={"games": 10})
    old.get_model("decks", "PlaytestGame").objects.create(
        owner=user, source_deck=deck, deck_name="Old deck", deck_text="1 Old Card", deck={},
        seed=7, config={}, state={}, decisions=0)
    content_type = old.get_model("contenttypes", "ContentType").objects.get_or_create(
        app_label="decks", model="goldfishrun")[0]
    permission = old.get_model("auth", "Permission").objects.get_or_create(
        codename="view_goldfishrun", content_type=content_type,
        defaults={"name": "Can view goldfish run"})[0]
    user.user_permissions.add(permission)
    DBTaskResult.objects.create(
        task_path="decks.tasks.goldfish_work", args_kwargs={"args": [str(run.pk)], "kwargs": {}},
        backend_name="default", enqueued_at=NOW, run_after=NOW, exception_class_path="",
        traceback="")
    return {"user": user.pk, "deck": deck.pk, "run": run.pk, "card": card.pk}


def test_a_database_from_before_the_move_migrates_with_every_row(
        schema_before_the_move: Any) -> None:
    ids = fill_the_old_schema(schema_before_the_move)
    tables = set(connection.introspection.table_names())

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    # No table made or dropped, but for those of models that came after the move.
    assert set(connection.introspection.table_names()) - LATER_TABLES == tables - MERGED_TABLES
    deck = Deck.objects.get(pk=ids["deck"])
    assert deck.sleeved and DeckCard.objects.get(deck=deck).count == 2
    assert len(deck.share_token) == 16  # decks/migrations/0008 gave the old deck its link
    assert DeckVersion.objects.get(deck=deck).summary == "first"
    collection = Collection.objects.get(owner_id=ids["user"])
    assert collection.version == 3
    entry = CollectionEntry.objects.get(collection=collection)
    assert (entry.card_id, entry.owned, entry.want, entry.trade) == (ids["card"], 2, 1, 1)
    run = SimulationRun.objects.get(pk=ids["run"])
    assert (run.deck, run.status, run.report) == (deck, "done", {"games": 10})
    assert SimulationChunk.objects.get(run=run).tally == {"games": 10}
    game = PlaytestGame.objects.get(source_deck=deck)
    assert (game.owner_id, game.seed) == (ids["user"], 7)
    # What named the models by their old app follows them.
    assert not ContentType.objects.filter(app_label="decks", model="goldfishrun").exists()
    # (The goldfish app's runs are the simulations app's now, issue 33.)
    assert not ContentType.objects.filter(app_label="goldfish").exists()
    assert User.objects.get(pk=ids["user"]).has_perm("simulations.view_simulationrun")
    assert list(DBTaskResult.objects.values_list("task_path", flat=True)) == [
        "simulations.tasks.simulation_work"]


def test_the_move_can_be_unapplied_and_applied_again(schema_before_the_move: Any) -> None:
    ids = fill_the_old_schema(schema_before_the_move)
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    again = migrate(BEFORE)
    assert again.get_model("decks", "GoldfishRun").objects.get(pk=ids["run"]).games == 10
    assert Permission.objects.filter(content_type__app_label="decks",
                                     codename="view_goldfishrun").exists()
    assert DBTaskResult.objects.get().task_path == "decks.tasks.goldfish_work"


@pytest.mark.django_db
def test_a_backup_made_before_the_move_restores_after_it(settings: Any, tmp_path: Path) -> None:
    # The fixture: `make backup` of a small site (the Demo cards, a sample deck and a clone of
    # it sleeved, a collection, a finished goldfish run with its queued tasks, a playtest game,
    # a permission on a goldfish run) made by the code of the last commit before the move.
    empty_the_database()
    settings.MEDIA_ROOT = tmp_path / "media"
    code, _, err = run_command("restore_data", str(FIXTURE))
    assert code == 0, err
    ada = User.objects.get(username="ada")
    assert Deck.objects.filter(owner=ada, sleeved=True).count() == 1
    # The archive has no share tokens: each deck gets its own on the way in.
    tokens = list(Deck.objects.values_list("share_token", flat=True))
    assert len(set(tokens)) == len(tokens) >= 2 and all(len(t) == 16 for t in tokens)
    assert CollectionEntry.objects.filter(collection__owner=ada).count() == 1
    run = SimulationRun.objects.get()
    assert run.status == "done" and run.report is not None and run.report["games"] == 200
    assert SimulationChunk.objects.filter(run=run).count() == run.chunks_total
    assert PlaytestGame.objects.get().owner == ada
    assert ada.has_perm("simulations.view_simulationrun")
    assert set(DBTaskResult.objects.values_list("task_path", flat=True)) == {
        "simulations.tasks.simulation_work"}


def test_every_moved_model_keeps_its_table_under_its_new_app() -> None:
    for old, new in MOVED_MODELS.items():
        assert apps.get_model(new)._meta.db_table == old.replace(".", "_")
