"""The rows each process keeps per table (tables.kept_rows): one version a table, as many
tables as TABLE_CACHE_SIZE (the least recently used dropped), never an older version over a
newer one, and a read at another version reads afresh."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from tables import services
from tables.kept_rows import KeptRows, TableRows
from tables.models import Table
from tests.tables.calls import SAMPLES
from tests.tables.makers import sample_deck

pytestmark = pytest.mark.django_db


def table_of(name: str) -> Table:
    user = User.objects.create_user(name)
    return services.table_create(host=user, deck=sample_deck(SAMPLES[0]), size=2,
                                 ai=[(1, sample_deck(SAMPLES[1]))])


def test_as_many_tables_as_the_setting_says_are_kept_the_least_recently_used_dropped() -> None:
    tables = [table_of(f"p{n}") for n in range(3)]
    kept = KeptRows()
    with override_settings(TABLE_CACHE_SIZE=2):
        for table in tables[:2]:
            kept.read(table)
        kept.read(tables[0])  # the first is now the most recently used
        kept.read(tables[2])
        assert kept.at(tables[0], tables[0].version) is not None
        assert kept.at(tables[1], tables[1].version) is None
        assert kept.at(tables[2], tables[2].version) is not None


def test_a_read_at_another_version_reads_afresh_and_a_later_version_stays() -> None:
    table = table_of("ada")
    kept = KeptRows(size=4)
    first = kept.read(table)
    assert [row.seat for row in first.seats] == [0, 1] and first.chat == first.offers == ()
    later = TableRows(table.version + 1, first.seats, ({"text": "hi"},), ())
    kept.put(table, later)
    again = kept.read(table)  # at the table's version: read afresh, not the later rows
    assert again is not later and again.version == table.version
    assert kept.at(table, table.version + 1) is later  # ... which stay kept
    kept.put(table, first)
    assert kept.at(table, table.version + 1) is later
