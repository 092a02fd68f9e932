"""Which tests use the database, decided from what each test asks for.

The PostgreSQL leg of ``make test`` runs only these (``pytest --database-tests-only``): a test
that asks for no database gives the same result on SQLite and PostgreSQL, and the SQLite leg
runs it. A test that uses the database without asking for it fails, on every run, with
:class:`UndeclaredDatabaseUse` (the guard below), so it cannot quietly drop out of the
PostgreSQL leg.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

# pytest-django's fixtures that open the test database (a client's pages read sessions and
# users); a project fixture that needs one of them is in the test's fixture closure too. Not
# django_db_blocker: pytest-django's own autouse fixtures ask for it in every test (a test that
# unblocks the database with it meets the guard below).
DATABASE_FIXTURES = frozenset({
    "db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
    "django_db_setup", "live_server", "client", "async_client", "admin_client", "admin_user",
})
# database_connection: the test uses Django's connection object (its state, closing it) but not
# the test database, so it takes no django_db transaction (pyproject.toml).
DATABASE_MARKERS = frozenset({"django_db", "browser", "database_connection"})

# What a test that asks for no database finds in DATABASE_URL while it runs: a PostgreSQL that
# refuses every connection (nothing listens on port 9 of loopback), so a subprocess it starts
# cannot reach a database either.
NO_DATABASE_URL = "postgres://no-database-asked-for@127.0.0.1:9/none"


def uses_database(fixtures: Iterable[str], markers: Iterable[str]) -> bool:
    """Whether a test with this fixture closure and these markers uses the database."""
    return not DATABASE_FIXTURES.isdisjoint(fixtures) or not DATABASE_MARKERS.isdisjoint(markers)


class UndeclaredDatabaseUse(RuntimeError):
    """A test that asks for no database touched one."""


@contextmanager
def database_forbidden(test: str) -> Iterator[None]:
    """While ``test`` runs: no connection of Django's may be looked up (so neither a query nor
    the backend's vendor, operations or SQL compiler) nor opened or queried, even with
    pytest-django's blocker lifted, and subprocesses find a DATABASE_URL that reaches nothing.

    Django's request signals walk the connections already open (``connections.all``) to reset
    or close them; that walk is allowed, and any query it made would still be refused."""
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.utils import ConnectionHandler
    from django.utils.connection import BaseConnectionHandler

    walk = BaseConnectionHandler.all.__code__
    lookup = BaseConnectionHandler.__getitem__

    def refuse(what: str) -> UndeclaredDatabaseUse:
        return UndeclaredDatabaseUse(
            f"{test} {what} but asks for no database: give it the django_db marker or the db "
            f"fixture, so the PostgreSQL leg runs it (tests/database_use.py)")

    def look_up(handler: ConnectionHandler, alias: str) -> BaseDatabaseWrapper:
        if sys._getframe(1).f_code is not walk:
            raise refuse(f"looks up the database connection {alias!r}")
        wrapper: BaseDatabaseWrapper = lookup(handler, alias)
        return wrapper

    def use(wrapper: BaseDatabaseWrapper, *args: Any, **kwargs: Any) -> Any:
        raise refuse(f"uses the database connection {wrapper.alias!r}")

    # The caches' handler shares the base class, so only the databases' one is patched.
    patches = [(ConnectionHandler, "__getitem__", look_up), (BaseDatabaseWrapper, "connect", use),
               (BaseDatabaseWrapper, "_cursor", use)]
    before = [(owner, name, vars(owner).get(name)) for owner, name, _ in patches]
    url = os.environ.get("DATABASE_URL")
    for owner, name, new in patches:
        setattr(owner, name, new)
    os.environ["DATABASE_URL"] = NO_DATABASE_URL
    try:
        yield
    finally:
        for owner, name, old in before:
            if old is None:
                delattr(owner, name)
            else:
                setattr(owner, name, old)
        if url is None:
            os.environ.pop("DATABASE_URL", None)
        else:
            os.environ["DATABASE_URL"] = url


def item_uses_database(item: Any) -> bool:
    """Whether a collected test (a pytest item) uses the database."""
    return uses_database(getattr(item, "fixturenames", ()),
                         (marker.name for marker in item.iter_markers()))


def database_tests[T](items: Iterable[T]) -> tuple[list[T], list[T]]:
    """The collected tests that use the database, and the others, each in the order given."""
    using: list[T] = []
    others: list[T] = []
    for item in items:
        (using if item_uses_database(item) else others).append(item)
    return using, others
