"""The browser tests' database (tests/browser/conftest.py): each starts from the state
django_db_setup left, both catalogues and the sample decks, whatever the test before did."""

from __future__ import annotations

import sqlite3

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.test import TransactionTestCase

from cards.models import Card
from decks.models import Deck
from tests.browser.conftest import (
    LIVE_DATABASE,
    ON_SQLITE,
    restore_at_teardown,
    restore_database,
)

pytestmark = [pytest.mark.browser, LIVE_DATABASE]


def state() -> tuple[int, int, int, list[str]]:
    return (Card.objects.count(), Deck.objects.count(), Permission.objects.count(),
            sorted(User.objects.values_list("username", flat=True)))


@pytest.mark.skipif(not ON_SQLITE, reason="elsewhere Django's serialized rollback restores it")
def test_the_database_comes_back_whole_after_a_test_changed_and_flushed_it(
        database_snapshot: sqlite3.Connection) -> None:
    start = state()
    assert start[0] > 100 and start[1] == 6 and start[3] == ["samples"]
    User.objects.create_user("ada")
    Card.objects.filter(id="demo-bog-hag").update(name="Changed")
    call_command("flush", verbosity=0, interactive=False)  # as pytest-django does after a test
    assert state()[:2] == (0, 0)
    restore_database(database_snapshot)
    assert state() == start
    assert Card.objects.get(id="demo-bog-hag").name == "Bog Hag"


@pytest.mark.skipif(not ON_SQLITE, reason="elsewhere Django's serialized rollback restores it")
def test_a_browser_test_s_teardown_copies_the_database_back_instead_of_flushing(
        database_snapshot: sqlite3.Connection) -> None:
    start = state()
    User.objects.create_user("ada")
    Card.objects.filter(id="demo-bog-hag").update(name="Changed")
    assert restore_at_teardown == [True]
    # What pytest-django calls after this test:
    TransactionTestCase(methodName="__init__")._fixture_teardown()  # type: ignore[attr-defined]
    assert state() == start  # the copy, not an empty flushed database
    assert restore_at_teardown == []  # once: a later transactional test is flushed as usual
    restore_at_teardown.append(True)
