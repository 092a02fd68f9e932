"""Trigram indexes for the text keys on PostgreSQL (docs/search-speed.md).

Search compiles ``name:x`` and ``o:x`` to ``UPPER(column) LIKE UPPER('%x%')`` and ``o:/re/`` to
``column ~* 're'``; without an index both read every card (12 ms for a regex on 10,000 cards).
pg_trgm's GIN indexes answer both: one on ``UPPER(column)`` for the substring searches, one on
the column for the regexes. PostgreSQL rechecks every candidate row, so the results are the
same. SQLite has no such index for either; there the compiler puts a plain LIKE on a regex's
literal words before the regex (cards.search.compile). Nothing happens on SQLite, nor on a
PostgreSQL without the pg_trgm extension (search is then slower, not different).

Reversing drops the indexes and keeps the extension, which other objects may use.
"""

from typing import Any

from django.db import migrations

COLUMNS = ("name", "abilities", "quotation")
# Rows go straight into the index, not into GIN's pending list: until a vacuum merged that
# list, every search read it whole, and after an import the planner rightly chose to read the
# table instead. The catalogue is read far more often than written.
_DIRECT = "WITH (fastupdate = off)"


def _index_names(column: str) -> tuple[str, str]:
    return f"cards_card_{column}_upper_trgm", f"cards_card_{column}_trgm"


def create_indexes(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'")
        if cursor.fetchone() is None:
            return
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for column in COLUMNS:
            upper, plain = _index_names(column)
            cursor.execute(f'CREATE INDEX IF NOT EXISTS {upper} ON cards_card '
                           f'USING gin ((UPPER("{column}"::text)) gin_trgm_ops) {_DIRECT}')
            cursor.execute(f'CREATE INDEX IF NOT EXISTS {plain} ON cards_card '
                           f'USING gin ("{column}" gin_trgm_ops) {_DIRECT}')


def drop_indexes(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for column in COLUMNS:
            for name in _index_names(column):
                cursor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):

    dependencies = [
        ("cards", "0004_set_size"),
    ]

    operations = [
        migrations.RunPython(create_indexes, drop_indexes, elidable=False),
    ]
