"""The PostgreSQL leg runs the tests that use the database (tests/database_use.py): which those
are is read from what each test asks for, and a test that asks for none cannot reach one."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import connection, connections

from tests.database_use import (
    NO_DATABASE_URL,
    UndeclaredDatabaseUse,
    database_forbidden,
    database_tests,
    uses_database,
)


@pytest.mark.parametrize(("fixtures", "markers", "expected"), [
    ({"tmp_path", "monkeypatch", "settings"}, set(), False),
    ({"rf", "mailoutbox"}, set(), False),  # a request factory's request reads no session
    ({"django_db_blocker"}, set(), False),  # pytest-django's autouse fixtures ask for it
    ({"db"}, set(), True),
    ({"transactional_db"}, set(), True),
    ({"django_db_reset_sequences"}, set(), True),
    ({"django_db_setup"}, set(), True),
    ({"live_server"}, set(), True),
    ({"client", "settings"}, set(), True),
    ({"admin_client"}, set(), True),
    ({"admin_user"}, set(), True),
    (set(), {"django_db"}, True),
    (set(), {"browser"}, True),
    (set(), {"database_connection"}, True),
    (set(), {"slow", "parametrize"}, False),
], ids=["plain", "request-factory", "blocker-alone", "db", "transactional", "sequences",
        "setup", "live-server", "client", "admin-client", "admin-user", "marker", "browser",
        "connection", "other-markers"])
def test_a_test_uses_the_database_by_its_fixtures_or_markers(
        fixtures: set[str], markers: set[str], expected: bool) -> None:
    assert uses_database(fixtures, markers) is expected


@dataclass
class Marker:
    name: str


@dataclass
class Item:
    name: str
    fixturenames: list[str]
    markers: list[str] = field(default_factory=list)

    def iter_markers(self) -> list[Marker]:
        return [Marker(name) for name in self.markers]


def test_the_collected_tests_are_split_in_their_order() -> None:
    items = [Item("pure", ["tmp_path"]), Item("page", ["client"]), Item("rules", []),
             Item("model", [], ["django_db"]), Item("ada", ["ada", "client", "db"])]
    using, others = database_tests(items)
    assert [item.name for item in using] == ["page", "model", "ada"]
    assert [item.name for item in others] == ["pure", "rules"]


def test_a_test_that_asks_for_no_database_cannot_reach_one() -> None:
    # This test asks for none, so the guard (tests/conftest.py) is on while it runs.
    with pytest.raises(UndeclaredDatabaseUse, match="asks for no database"):
        _ = connection.vendor
    with pytest.raises(UndeclaredDatabaseUse, match="'default'"):
        connections["default"]
    assert os.environ["DATABASE_URL"] == NO_DATABASE_URL  # nor can a subprocess


def test_lifting_pytest_django_s_blocker_does_not_get_past_the_guard(
        django_db_blocker: Any) -> None:
    with django_db_blocker.unblock():
        for wrapper in connections.all():  # the walk Django's request signals make
            with pytest.raises(UndeclaredDatabaseUse, match="uses the database connection"):
                wrapper.cursor()


@pytest.mark.django_db
def test_a_test_that_asks_for_the_database_reaches_it() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert os.environ.get("DATABASE_URL") != NO_DATABASE_URL


@pytest.mark.django_db
def test_the_guard_puts_back_what_it_replaced() -> None:
    url = os.environ.get("DATABASE_URL")
    with database_forbidden("a test"), pytest.raises(UndeclaredDatabaseUse, match=r"^a test looks"):
        _ = connection.vendor
    assert connection.vendor in {"sqlite", "postgresql"}
    assert os.environ.get("DATABASE_URL") == url
