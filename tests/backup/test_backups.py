"""make backup / make restore: every row and media file through one archive into an empty
database, unchanged; and from SQLite into PostgreSQL by the same path."""

from __future__ import annotations

import datetime
import gzip
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core import serializers
from django.core.management import call_command
from django.db import connection
from rest_framework.authtoken.models import Token

from backup import exact_json
from backup.archive import LEFT_OUT
from cards.image_services import cards_ensure_images
from cards.models import Card, CatalogueRevision
from decks.models import Deck
from decks.services import deck_data, deck_save
from tests.commands import run_command
from tests.conftest import CATALOGUES, FIXTURES, ROOT

pytestmark = pytest.mark.django_db
# Moves on by one at every restore, on purpose (backup.archive), so compared apart.
REVISION = "cards.cataloguerevision"


def backed_up_models() -> list[Any]:
    return [m for m in apps.get_models()
            if m._meta.app_label not in LEFT_OUT and m._meta.label_lower not in LEFT_OUT
            and m._meta.label_lower != REVISION]


def everything() -> dict[str, list[str]]:
    """Every row that a backup carries, as natural-key JSON, model by model, in a set order."""
    found = {}
    for model in backed_up_models():
        rows = json.loads(serializers.serialize(
            exact_json.FORMAT, model._default_manager.all(), use_natural_foreign_keys=True,
            use_natural_primary_keys=True))
        found[model._meta.label_lower] = sorted(json.dumps(r, sort_keys=True) for r in rows)
    return found


def assert_same_rows(found: dict[str, list[str]], expected: dict[str, list[str]]) -> None:
    assert found.keys() == expected.keys()
    for model, rows in expected.items():
        missing = sorted(set(rows) - set(found[model]))
        extra = sorted(set(found[model]) - set(rows))
        assert (missing, extra) == ([], []), model
        assert len(found[model]) == len(rows), model


def media_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def empty_the_database() -> None:
    """What a fresh `migrate` leaves: no rows but content types and permissions. (Inside the
    test's transaction, so the other tests get their catalogue back.)"""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # TRUNCATE waits for no deferred check
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        call_command("flush", interactive=False, verbosity=0)
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


@pytest.fixture
def a_lived_in_site(ada: Any, bob: Any) -> None:
    ada_user = User.objects.get(username="ada")
    sample = Deck.objects.filter(owner__username="samples").first()
    assert sample is not None
    deck = deck_save(owner=ada_user, data=deck_data(sample), visibility=Deck.PRIVATE)
    deck_save(owner=ada_user, data=deck_data(sample), deck=deck, author=ada_user)
    Token.objects.create(user=ada_user)
    # Django's own JSON would bring this back as 12:00:00 (it keeps milliseconds).
    User.objects.filter(pk=ada_user.pk).update(
        last_login=datetime.datetime(2026, 1, 2, 12, 0, 0, 123, tzinfo=datetime.UTC))
    cards_ensure_images(list(Card.objects.filter(pk__in=["demo-bog-hag", "wof-bowman-kalim"])))


def test_a_backup_restores_every_row_and_file_into_an_empty_database(
        a_lived_in_site: None, settings: Any, tmp_path: Path) -> None:
    before, files = everything(), media_files(Path(settings.MEDIA_ROOT))
    revision = CatalogueRevision.objects.get(pk=1).number
    assert files and len(before["decks.deckversion"]) > len(before["decks.deck"])
    code, out, _ = run_command("backup_data", "-o", str(tmp_path / "site.tar.gz"))
    assert code == 0 and out.strip() == str(tmp_path / "site.tar.gz")

    empty_the_database()
    settings.MEDIA_ROOT = tmp_path / "new-media"
    code, _, err = run_command("restore_data", str(tmp_path / "site.tar.gz"))
    assert code == 0, err
    assert_same_rows(everything(), before)
    assert media_files(Path(settings.MEDIA_ROOT)) == files
    assert CatalogueRevision.objects.get(pk=1).number == revision + 1
    ada = User.objects.get(username="ada")
    assert ada.check_password("x-Secret-123456")
    assert ada.last_login is not None and ada.last_login.microsecond == 123


def test_a_restore_refuses_a_database_that_is_not_empty(tmp_path: Path) -> None:
    run_command("backup_data", "-o", str(tmp_path / "site.tar.gz"))
    decks = Deck.objects.count()
    code, _, err = run_command("restore_data", str(tmp_path / "site.tar.gz"))
    assert code == 1 and "already holds" in err and "nothing was changed" in err
    assert Deck.objects.count() == decks


def test_a_file_that_is_not_a_backup_changes_nothing(tmp_path: Path) -> None:
    empty_the_database()
    bogus = tmp_path / "bogus.tar.gz"
    bogus.write_bytes(gzip.compress(b"not a tar"))
    code, _, err = run_command("restore_data", str(bogus))
    assert code == 1 and "not a backup archive" in err
    with tarfile.open(tmp_path / "evil.tar.gz", "w:gz") as tar:
        tar.add(ROOT / "README.md", arcname="../escaped.md")
    code, _, err = run_command("restore_data", str(tmp_path / "evil.tar.gz"))
    assert code == 1 and not (tmp_path / "escaped.md").exists()
    assert not Card.objects.exists()


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="moving into PostgreSQL runs in the PostgreSQL leg of make test")
def test_a_sqlite_site_moves_to_postgresql_by_backup_and_restore(tmp_path: Path,
                                                                  settings: Any) -> None:
    """A real SQLite site (made by the commands, in its own process), backed up there and
    restored here, into the PostgreSQL test database."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(ALLEGIANCE_VAR_DIR=str(tmp_path / "var"), MEDIA_ROOT=str(tmp_path / "media"))

    def manage(*args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    manage("migrate", "--noinput", "-v", "0")
    manage("import_cards", "--no-images", *map(str, CATALOGUES))
    manage("load_sample_decks", *map(str, sorted((FIXTURES / "decklists").glob("*.txt"))))
    manage("shell", "-c", LIVED_IN)
    expected = json.loads(manage("dumpdata", "--format", exact_json.FORMAT,
                                 "--natural-foreign", "--natural-primary",
                                 *[f"--exclude={label}" for label in LEFT_OUT],
                                 f"--exclude={REVISION}"))
    archive = manage("backup_data", "-o", str(tmp_path / "site.tar.gz")).strip()

    empty_the_database()
    code, _, err = run_command("restore_data", archive)
    assert code == 0, err
    assert_same_rows(everything(), {
        model._meta.label_lower: sorted(json.dumps(r, sort_keys=True) for r in expected
                                        if r["model"] == model._meta.label_lower)
        for model in backed_up_models()
    })
    assert Deck.objects.filter(owner__username="ada", versions__number=2).exists()
    assert media_files(Path(settings.MEDIA_ROOT)) == media_files(tmp_path / "media")


LIVED_IN = """
from django.contrib.auth.models import User
from backup import exact_json
from cards.image_services import cards_ensure_images
from cards.models import Card
from decks.models import Deck
from decks.services import deck_data, deck_save
ada = User.objects.create_user("ada", password="x-Secret-123456")
sample = Deck.objects.filter(owner__username="samples").first()
deck = deck_save(owner=ada, data=deck_data(sample))
deck_save(owner=ada, data=deck_data(sample), deck=deck, author=ada)
cards_ensure_images(list(Card.objects.filter(pk__in=["demo-bog-hag", "wof-bowman-kalim"])))
"""
