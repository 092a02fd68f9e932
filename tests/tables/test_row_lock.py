"""Two moves at once on one table: the row lock lets one apply; the other is refused as
stale and changes nothing."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection

from playtest.play import Refused
from rules.game import seats
from tables.models import Table
from tables.services import played_table, table_act, table_create, table_join, table_start
from tests.tables.test_live import deck


@pytest.mark.skipif(connection.vendor == "sqlite", reason=(
    "the in-memory SQLite of the tests shares one cache between threads, which refuses a "
    "second writer (table locked) instead of waiting: the PostgreSQL leg runs it"))
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_moves_at_once_one_applies() -> None:
    ada, bob = User.objects.create_user("ada"), User.objects.create_user("bob")
    table = table_create(host=ada, deck=deck("Guild Veterans"), size=2, seed=1, target=15)
    table_join(table=table, user=bob, invite=table.invite, deck=deck("Mosfin Blades"))
    table = table_start(table=table, user=ada)
    mover = (ada, bob)[seats.to_move(played_table(table).table)]
    decision = table.decision
    barrier = threading.Barrier(2)
    answers: list[str] = []

    def move() -> None:
        try:
            barrier.wait()
            table_act(table=Table.objects.get(pk=table.pk), user=mover, decision=decision,
                      index=0)
            answers.append("applied")
        except Refused as refused:
            answers.append(refused.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=move) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == ["applied", "stale_decision"]
    assert Table.objects.get(pk=table.pk).decision == decision + 1
