"""The table pages (filled in with the page step)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tables.models import Table


def _table(table_id: int) -> Table:
    return get_object_or_404(Table, pk=table_id)


def table_lobby(request: HttpRequest) -> HttpResponse:
    return HttpResponse("")


def table_new(request: HttpRequest) -> HttpResponse:
    return HttpResponse("")


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    return HttpResponse(str(_table(table_id)))


table_view_fragment = table_act_view = table_start_view = table_page
table_surrender_view = table_chat_view = table_page


def table_invite(request: HttpRequest, token: str) -> HttpResponse:
    return HttpResponse("")
