"""On PostgreSQL too, the index of every column the search's cheap keys compare (0006 made it
on SQLite; docs/search-speed.md).

PostgreSQL reads an index without the table (an index-only scan) for the pages its visibility
map marks all-visible, which a vacuum sets: autovacuum vacuums a table within a minute of a
bulk import (since PostgreSQL 13, inserts alone start one) and the catalogue is read far more
often than written. A count of a search that no other index serves then reads the narrow
index instead of every card's wide row: 1.7 to 0.9 ms for `(t:troop or t:wanderer) off>=4`,
1.8 to 0.4 ms for `agg>=4 bounty>=3` on 10,000 cards. Until the next vacuum after a change,
the planner, which knows how much is all-visible, reads the table as before.
"""

from typing import Any

from django.db import migrations

NAME = "cards_card_search_covering"
COLUMNS = (  # as in 0006
    "type", "subtype", "faction", "rarity", "set_id", "unique", "official",
    "offense", "defense", "total_cost", "cost_economic", "cost_religious", "cost_political",
    "cost_generic", "faction_influence", "vitality", "strength_economic",
    "strength_religious", "strength_political", "aggression", "residencies", "bounty",
)


def create_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    columns = ", ".join(f'"{column}"' for column in COLUMNS)
    schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {NAME} ON cards_card ({columns})")


def drop_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP INDEX IF EXISTS {NAME}")


class Migration(migrations.Migration):

    dependencies = [
        ("cards", "0006_sqlite_search_covering_index"),
    ]

    operations = [
        migrations.RunPython(create_index, drop_index, elidable=False),
    ]
