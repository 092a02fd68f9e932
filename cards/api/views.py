"""Read-only card API: cards, sets and the common-ability index."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import django_filters
from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import Count, F, QuerySet
from django.http import HttpResponse, HttpResponseBase
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import viewsets
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api.problems import ProblemSerializer, search_problem
from cards import extensions
from cards.api import list_cache, row_cache, search_cache
from cards.api.caching import not_modified_response, validators_for
from cards.api.list_cache import list_key
from cards.api.search_cache import SELECT_IDS, CompiledIds, CompiledSearch, ordering_sql
from cards.api.serializers import (
    ROW_EXPRESSIONS,
    ROW_FIELDS,
    AbilitySerializer,
    CardSearchPageSerializer,
    CardSerializer,
    CardSetSerializer,
    card_row_data,
)
from cards.card_search import CardSearch, SearchError, card_search
from cards.models import Card, CardKeyword, CardSet
from cards.revision_cache import shared_version
from cards.search.compile import Order, where_sql
from rules.abilities import CATEGORY_NAMES, COMMON_ABILITIES, CommonAbility


class CardFilter(django_filters.FilterSet):
    set = django_filters.CharFilter(field_name="set__code", lookup_expr="iexact")
    type = django_filters.CharFilter(lookup_expr="iexact")
    subtype = django_filters.CharFilter(lookup_expr="iexact")
    faction = django_filters.CharFilter(lookup_expr="iexact")
    rarity = django_filters.CharFilter(lookup_expr="iexact")
    # A choice (not a BooleanFilter, which silently ignores "maybe") so a typo is a 400.
    official = django_filters.ChoiceFilter(
        choices=[("true", "true"), ("false", "false")], method="filter_official"
    )

    class Meta:
        model = Card
        fields = ["set", "type", "subtype", "faction", "rarity", "official"]

    def filter_official(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        return queryset.filter(official=value == "true")


class CardViewSet(viewsets.ReadOnlyModelViewSet[Card]):
    """Cards matching a search query (`q`, see /search/help/) and filters, in a total order.

    Unknown facts are null, never zero. Every list response explains the query in English and
    lists ignored terms as `warnings`. A repeated request is answered 304 (ETag)."""

    serializer_class = CardSerializer
    filterset_class = CardFilter
    lookup_value_regex = r"[a-z0-9-]+"

    def get_queryset(self) -> QuerySet[Card]:
        return Card.objects.select_related("set", "picture").order_by("name", "id")

    def filter_queryset(self, queryset: QuerySet[Card, Any]) -> QuerySet[Card, Any]:
        # Building the filter form costs more than the rest of a kept answer's request.
        if not any(name in self.request.query_params for name in CardFilter.base_filters):
            return queryset
        return super().filter_queryset(queryset)

    @extend_schema(
        parameters=[OpenApiParameter("q", str, description="search query, e.g. t:troop f:kalim")],
        responses={200: CardSearchPageSerializer, 304: None, 400: ProblemSerializer},
    )
    def list(  # type: ignore[override]  # a kept answer is a plain HttpResponse
        self, request: Request, *args: Any, **kwargs: Any,
    ) -> HttpResponseBase:
        version = shared_version()  # no query when the shared cache has it
        key = list_key(request, version) if list_cache.cacheable(request) else None
        entry = list_cache.cached_list(key) if key else None
        if entry is not None and (
            entry.personal is None or entry.personal == extensions.personal_tag(request.user)
        ):
            if entry.validators.not_modified(request):
                return not_modified_response(entry.validators)
            return entry.validators.stamp(HttpResponse(entry.body, content_type=entry.content_type))
        text = request.query_params.get("q", "")
        query = (text, tuple((name, tuple(request.query_params.getlist(name)))
                             for name in CardFilter.base_filters if name in request.query_params))
        user_id = request.user.pk if request.user.is_authenticated else None
        compiled = search_cache.kept_search(version, query, user_id)
        if compiled is None:
            try:
                search = card_search(text, user=request.user)
            except SearchError as error:
                return search_problem(error)
            compiled = CompiledSearch(search, self._compiled_ids(search, filtered=bool(query[1])))
            search_cache.keep_search(version, query, compiled)
        search = compiled.search
        # Results that read the searcher's own rows change with them, not with the catalogue.
        personal = extensions.personal_tag(request.user) if search.reads_personal else None
        validators = validators_for(request, personal=personal, version=version)
        if validators.not_modified(request):
            return not_modified_response(validators)
        pages = self.paginator
        assert isinstance(pages, PageNumberPagination)
        first_page = request.query_params.get(pages.page_query_param, "1") == "1"
        size = pages.get_page_size(request) if first_page else None
        # Every card: the catalogue's revision came with their number (no COUNT(*) to run);
        # a search counted before, for another page or page size, is not counted again.
        every_card = compiled.ids is not None and compiled.ids.sql == SELECT_IDS
        shared = not search.reads_personal
        known = version.cards if every_card else (
            search_cache.kept_count(version, query) if shared else None)
        ids = IdsCountedBy(compiled.ids, size, known)
        page_ids: list[str] = self.paginate_queryset(ids)  # type: ignore[arg-type,assignment]
        if shared and known is None and ids.counted is not None:
            search_cache.keep_count(version, query, ids.counted)
        rows = row_cache.card_rows(page_ids, version, rendered_rows)
        search = search.with_name_suggestions(found_any=bool(rows))
        response = self.get_paginated_response([])
        response.data = {
            "query": search.text,
            "explained": search.explained,
            "warnings": list(search.warnings),
            "suggestions": search.suggestions,
            **response.data,
        }
        renderer = request.accepted_renderer
        compact = isinstance(renderer, JSONRenderer) and renderer.get_indent(
            request.accepted_media_type, {}) is None
        if key is None or not compact:
            response.data["results"] = [json.loads(row) for row in rows]
            if key is None:
                return validators.stamp(response)
            body = self._rendered(response.data)
        else:
            # The page without its rows, rendered as any answer, then the kept rows spliced in.
            body = spliced(self._rendered(response.data), rows)
        list_cache.keep_list(
            key, list_cache.CachedList.of(body, request.accepted_media_type, validators, personal))
        return validators.stamp(HttpResponse(body, content_type=request.accepted_media_type))

    def _compiled_ids(self, search: CardSearch, filtered: bool) -> CompiledIds | None:
        """The SQL of the matching cards' ids: written directly for a query of plain
        comparisons without filter parameters (cards.search.compile.where_sql), else through
        Django's lookups (and django-filter's filters)."""
        where = None if filtered else where_sql(search.parsed)
        if where is not None:
            sql, params = where
            return CompiledIds(f"{SELECT_IDS} WHERE {sql}" if sql else SELECT_IDS,
                               tuple(params), *ordering_sql(search.parsed.order))
        condition, _ = search.compiled()
        ids = Card.objects.values_list("id", flat=True).order_by().filter(condition)
        return compiled_ids(self.filter_queryset(ids), search.parsed.order)

    def _rendered(self, data: dict[str, Any]) -> bytes:
        renderer = self.request.accepted_renderer
        assert renderer is not None
        rendered = renderer.render(data, self.request.accepted_media_type,
                                   self.get_renderer_context())
        return rendered.encode() if isinstance(rendered, str) else rendered

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        validators = validators_for(request)
        if validators.not_modified(request):
            return not_modified_response(validators)
        return validators.stamp(super().retrieve(request, *args, **kwargs))


def compiled_ids(ids: QuerySet[Card, str], order: Order) -> CompiledIds | None:
    """The SQL of the matching cards' ``ids`` (filtered, not ordered) and of their ordering
    (the parsed query's ``order``), compiled once for both the count and
    the page: Django's count() and slice each copy and compile the whole filter again, and
    ordering the queryset first copies the filter once more (docs/search-speed.md). None when
    Django finds that nothing can match."""
    try:
        sql, params = ids.query.sql_with_params()
    except EmptyResultSet:
        return None
    return CompiledIds(sql, tuple(params), *ordering_sql(order))


class IdsCountedBy:
    """The ids of the cards to paginate (their rows come from cards.api.row_cache), counted
    on the filtered cards alone, from their compiled SQL (``compiled_ids``)."""

    ordered = True

    def __init__(self, compiled: CompiledIds | None, first_page: int | None = None,
                 known_count: int | None = None) -> None:
        """``first_page``: the page size when the first page is asked for: its ids are read
        before the count, which a page that is not full gives without counting.
        ``known_count``: the count when it is known without counting."""
        self.compiled = compiled
        self.first_page = first_page
        self.known_count = known_count
        self.counted: int | None = None  # the count, when count() found it
        self._first_ids: list[str] | None = None

    def count(self) -> int:
        if self.known_count is not None:
            return self.known_count
        self.counted = self._count()
        return self.counted

    def _count(self) -> int:
        if self.first_page and self.compiled is not None and connection.vendor == "postgresql":
            return self._first_page_and_count(self.compiled, self.first_page)
        if self.first_page:
            self._first_ids = self[0:self.first_page]
            if len(self._first_ids) < self.first_page:
                return len(self._first_ids)
        if self.compiled is None:
            return 0
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) FROM ({self.compiled.sql}) matches",
                           self.compiled.params)
            return int(cursor.fetchone()[0])

    def _first_page_and_count(self, sql: CompiledIds, size: int) -> int:
        """The first page's ids and, only when the page is full, the count, in one statement:
        on PostgreSQL each statement is a round trip to the server's process, which on a busy
        machine waits to be scheduled (docs/search-speed.md). The count is a scalar subquery
        in a CASE, which PostgreSQL runs only when the CASE reaches it (an InitPlan is run at
        its first use); the window counts the page's rows alone, after its LIMIT, and leaves
        their order as the page's ORDER BY made it."""
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT page.id, CASE WHEN COUNT(*) OVER () >= %s THEN (SELECT COUNT(*) FROM "
                f"({sql.sql}) matches) END FROM ({sql.sql} ORDER BY {sql.ordering} LIMIT %s) page",
                [size, *sql.params, *sql.params, *sql.ordering_params, size])
            rows = cursor.fetchall()
        self._first_ids = [card_id for card_id, _ in rows]
        return len(rows) if len(rows) < size else int(rows[0][1])

    def __getitem__(self, index: slice) -> list[str]:
        start, stop = index.start or 0, index.stop
        if self._first_ids is not None and start == 0 and stop <= len(self._first_ids):
            return self._first_ids[:stop]
        if self.compiled is None:
            return []
        sql = self.compiled
        with connection.cursor() as cursor:
            cursor.execute(f"{sql.sql} ORDER BY {sql.ordering} LIMIT %s OFFSET %s",
                           [*sql.params, *sql.ordering_params, stop - start, start])
            return [card_id for (card_id,) in cursor.fetchall()]


_RESULTS = b'"results":[]}'


def spliced(envelope: bytes, rows: list[bytes]) -> bytes:
    """``envelope`` (compact JSON whose last key is an empty ``results``) with ``rows`` in it."""
    assert envelope.endswith(_RESULTS), envelope[-40:]
    return b"".join((envelope[:-2], b",".join(rows), b"]}"))


def rendered_rows(card_ids: list[str]) -> dict[str, bytes]:
    """Cards' rows rendered as the JSON renderer renders them in a page, from one query: the
    .values() rows (no model instances) joined with their keywords, one row per keyword."""
    rows = Card.objects.filter(id__in=card_ids).order_by("id", "keywords__position").values(
        *ROW_FIELDS, **ROW_EXPRESSIONS, **_KEYWORD_EXPRESSIONS)
    cards: dict[str, dict[str, Any]] = {}
    keywords: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        cards.setdefault(row["id"], row)
        if row["keyword_ability"] is not None:
            keywords[row["id"]].append({"ability": row["keyword_ability"],
                                        "exhausts": row["keyword_exhausts"],
                                        "faction_threshold": row["keyword_threshold"]})
    renderer = JSONRenderer()
    return {card_id: renderer.render(card_row_data(row, keywords.get(card_id, [])))
            for card_id, row in cards.items()}


_KEYWORD_EXPRESSIONS = {
    "keyword_ability": F("keywords__ability"),
    "keyword_exhausts": F("keywords__exhausts"),
    "keyword_threshold": F("keywords__faction_threshold"),
}


class CardSetViewSet(viewsets.ReadOnlyModelViewSet[CardSet]):
    """Card sets with their card counts; fictional sets have official=false."""

    serializer_class = CardSetSerializer
    lookup_field = "code"

    def get_queryset(self) -> QuerySet[CardSet]:
        return CardSet.objects.annotate(card_count=Count("cards")).order_by("-official", "code")


class AbilityViewSet(viewsets.ViewSet):
    """The rulebook's 32 common abilities, each with the cards that have it."""

    serializer_class = AbilitySerializer
    lookup_value_regex = r"[a-z-]+"

    @extend_schema(responses=AbilitySerializer(many=True))
    def list(self, request: Request) -> Response:
        users = _cards_by_ability()
        data = [_ability_data(a, users[a.slug]) for a in COMMON_ABILITIES]
        return Response(AbilitySerializer(data, many=True).data)

    @extend_schema(responses=AbilitySerializer)
    def retrieve(self, request: Request, pk: str) -> Response:
        ability = next((a for a in COMMON_ABILITIES if a.slug == pk), None)
        if ability is None:
            raise NotFound(f"No common ability {pk!r}.")
        users = _cards_by_ability(pk)
        return Response(AbilitySerializer(_ability_data(ability, users[pk])).data)


def _cards_by_ability(slug: str | None = None) -> dict[str, list[dict[str, Any]]]:
    keywords = CardKeyword.objects.select_related("card__set").order_by(
        "ability", "card__name", "card_id", "position"
    )
    if slug is not None:
        keywords = keywords.filter(ability=slug)
    users: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for k in keywords:
        users[k.ability].append({
            "id": k.card_id, "name": k.card.name, "set": k.card.set.code,
            "exhausts": k.exhausts, "faction_threshold": k.faction_threshold,
        })
    return users


def _ability_data(ability: CommonAbility, cards: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "slug": ability.slug,
        "name": ability.name,
        "category": ability.category,
        "category_name": CATEGORY_NAMES[ability.category],
        "reaction": ability.reaction,
        "summary": ability.summary,
        "card_count": len({c["id"] for c in cards}),
        "cards": cards,
    }
