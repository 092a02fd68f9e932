"""Shared fixtures. The test database starts with both catalogues loaded (no images), once per
run; each test runs in a transaction that is rolled back."""

from __future__ import annotations

import os
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import settings as hypothesis_settings

from tests.database_use import database_forbidden, database_tests, item_uses_database

# CI runs the same examples every time (a failure there is reproducible, never a fluke of
# the draw); developers' runs keep exploring new examples.
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "default")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CATALOGUES = [FIXTURES / "cards" / "wof.json", FIXTURES / "cards" / "demo.json"]
SHARED = ROOT.parent / "shared"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-tests-only", action="store_true",
        help="run only the tests that use the database (tests/database_use.py); the others "
             "give the same result on either database: make test's PostgreSQL leg")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("database_tests_only"):
        return
    using, others = database_tests(items)
    config.hook.pytest_deselected(items=others)
    items[:] = using


def guarded(item: pytest.Item) -> AbstractContextManager[None]:
    """A test that asks for no database runs (its fixtures' setup too) with none to reach:
    the proof that the PostgreSQL leg may leave it out."""
    if item.config.pluginmanager.hasplugin("django") and not item_uses_database(item):
        return database_forbidden(item.nodeid)
    return nullcontext()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Any:
    with guarded(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    with guarded(item):
        return (yield)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> None:
    with django_db_blocker.unblock():
        call_command("import_cards", *map(str, CATALOGUES), "--no-images", verbosity=0)
        call_command("load_sample_decks", *map(str, sorted((FIXTURES / "decklists").glob("*.txt"))))
        # Tests that need a real server commit and are flushed; a serialized rollback brings
        # back this state, catalogue included (the browser tests copy it back whole instead:
        # tests/browser/conftest.py).
        from django.db import connection

        if hasattr(connection, "_test_serialized_contents"):
            connection._test_serialized_contents = connection.creation.serialize_db_to_string()


@pytest.fixture(autouse=True)
def media_in_tmp(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """Image renditions written by a test go to its own folder, never to var/media.

    Skipped when pytest-django is off (``-p no:django``), so the pure tests run without Django.
    """
    if request.config.pluginmanager.hasplugin("django"):
        request.getfixturevalue("settings").MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def fast_password_hasher(request: pytest.FixtureRequest) -> None:
    """Users made by the tests get a fast hash: the real hasher (PBKDF2) is slow on purpose,
    about a second of CPU for each user made or password checked, and hundreds of tests make
    one (the settings' own hashers are untouched)."""
    if request.config.pluginmanager.hasplugin("django"):
        request.getfixturevalue("settings").PASSWORD_HASHERS = [
            "django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_throttle_counts(request: pytest.FixtureRequest) -> None:
    """Throttle counts, card list answers and API tokens live in caches: every test starts with
    none (a rolled-back test's catalogue revision may come again with other cards)."""
    if request.config.pluginmanager.hasplugin("django"):
        from django.core.cache import caches

        for cache in caches.all():
            cache.clear()
        from cards.api.row_cache import forget_rows
        from cards.api.search_cache import forget_searches

        forget_rows()  # kept per revision, and a rolled-back revision may come again
        forget_searches()
        from accounts.token_authentication import tokens

        tokens.clear()  # the API tokens kept per process: a rolled-back user may come again


# Decklists whose Initial Holdings break the rules (each with one holdings error code), made
# from a sample deck: goldfish and playtest must refuse them with the validator's problems.
_VETERANS = (FIXTURES / "decklists" / "guild-veterans.txt").read_text(encoding="utf-8")
_VETERANS_HOLDINGS = "Initial Holdings\n1 Fort Ashgate\n1 Beggars' Arch\n"
ILLEGAL_HOLDINGS = {
    "too_many_strongholds": "1 Hillside Redoubt\n1 Fortified Manor House\n",
    "too_many_zero_cost_structures": "1 Hillside Redoubt\n1 Empty Market Stall\n"
                                     "1 Ragpicker's Hovel\n1 Riverside Tenement\n"
                                     "1 Beggars' Arch\n",
    "unique_structure_in_holdings": "1 Hillside Redoubt\n1 Bell of Judgement\n",
}


def with_holdings(lines: str, text: str = _VETERANS) -> str:
    """The guild-veterans sample decklist with these Initial Holdings ("": none, its holdings
    moved to the Structure Pile for the holdings advisor to choose from)."""
    assert _VETERANS_HOLDINGS in text
    if lines:
        return text.replace(_VETERANS_HOLDINGS, f"Initial Holdings\n{lines}")
    moved = _VETERANS_HOLDINGS.removeprefix("Initial Holdings\n")
    return text.replace(_VETERANS_HOLDINGS, "").replace("Structure Pile\n",
                                                        f"Structure Pile\n{moved}")


PASSWORD = "x-Secret-123456"


@pytest.fixture
def ada(client: Any) -> Any:
    """The test client, signed in as a new user "ada"."""
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("ada", password=PASSWORD))
    return client


@pytest.fixture
def bob(db: None) -> Any:
    """A second client, signed in as another new user "bob"."""
    from django.contrib.auth.models import User
    from django.test import Client

    other = Client()
    other.force_login(User.objects.create_user("bob", password=PASSWORD))
    return other
