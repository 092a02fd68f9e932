"""What the tables add to the home page (cards.extensions): play with friends, and the
public tables waiting for players."""

from __future__ import annotations

from typing import Any, Final

from django.http import HttpRequest

from cards.extensions import HomeSection
from tables.models import Table

LISTED: Final = 5


def open_tables(request: HttpRequest) -> dict[str, Any]:
    tables = list(Table.objects.filter(public=True, status=Table.OPEN)
                  .select_related("host")[:LISTED])
    return {"open_tables": tables}


HOME_SECTION = HomeSection("tables/_home.html", open_tables)
