"""A parsed query as a Django filter and ordering: the one Django-aware module of the search.

``compile_query(parsed)`` returns ``(Q, order_by)`` for ``Card.objects.filter(q).order_by(*o)``;
``where_sql(parsed)`` writes the same filter as SQL directly when every term is a plain
comparison (the card list's first requests: docs/search-speed.md), else None.
It never touches the database itself, and the filter never joins a many-valued relation:
abilities (``kw:``, ``is:reaction``), scans (``has:image``) and the searcher's own rows (the
collection's ``own``, ``want``, ``trade``) are ``Exists`` subqueries, so a card is never
returned twice and a whole page is one query.

Personal keys are registered by a feature app (``register_personal_rows``: the catalogue never
imports it) and compare a count in the rows of the user whose id is given as ``owner_id`` (the
signed-in user; ``cards.card_search`` refuses them for anyone else). A card without a row
counts 0, so when 0 satisfies the comparison (``own=0``, ``own<2``) a card matches unless its
row says otherwise, and otherwise only if its row satisfies it; no count is ever null, so
``~Q`` is again the exact complement.

Unknown (null) values: SQL comparisons with NULL are never true, so a term misses cards whose
field is unknown, and Django adds ``IS NOT NULL`` to every nullable column it negates, which
makes ``~Q`` the exact complement; ``-off>=3`` therefore includes cards whose offense is
unknown (the tests check this on both kinds of terms). ``key!=v`` is compiled as "known and
not equal".

Regular expressions run through ``__iregex`` (``__regex`` for the case-sensitive exhausting
check): SQLite calls Python's ``re`` and PostgreSQL uses ``~*``. Patterns get the ``(?s)``
prefix, which means "dot matches newline" to both, and ``=`` patterns are anchored with
``\\A(?:...)\\Z``, which both read as the start and end of the text. Numeric sorts put unknown
values last in both directions (``nulls_last``), so SQLite and PostgreSQL agree, and every
ordering ends with ``name`` (where it is not the key) and ``id``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.db.models import Case, Exists, F, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.expressions import OrderBy

from cards.models import Card, CardImage, CardKeyword, CardSet
from cards.revision_cache import PerRevision
from cards.search import fields as registry
from cards.search.fields import (
    EXHAUSTING_PATTERN,
    PERSONALITY_KINDS,
    REACTION_ABILITIES,
    REACTION_MARK,
    SORTS,
)
from cards.search.parser import And, NameTerm, Node, Not, ParsedQuery, SearchError, Term
from cards.search.regex_words import required_words
from rules.card_anatomy import CARD_TYPES
from rules.names import fold_name

type Ordering = list[str | OrderBy]
type Order = tuple[tuple[str, str], ...]  # a parsed query's order: (sort key, direction)

_LOOKUPS = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    ":": operator.eq, "=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}


def compile_query(parsed: ParsedQuery, *, owner_id: int | None = None) -> tuple[Q, Ordering]:
    """The filter (an empty ``Q`` matches every card) and the ``order_by`` arguments, which
    always end with ``"id"`` so that pages are stable. ``owner_id``: whose rows the personal
    keys read (they raise ``SearchError`` without one)."""
    condition = Q() if parsed.root is None else _node(parsed.root, owner_id)
    return condition, ordering(parsed.order)


def filter_cards(parsed: ParsedQuery, cards: QuerySet[Card] | None = None, *,
                 owner_id: int | None = None) -> QuerySet[Card]:
    """``cards`` (default: every card) filtered and ordered by the query."""
    queryset = Card.objects.all() if cards is None else cards
    condition, ordering = compile_query(parsed, owner_id=owner_id)
    return queryset.filter(condition).order_by(*ordering)


def _node(node: Node, owner_id: int | None) -> Q:
    if isinstance(node, Term):
        return _term(node, owner_id)
    if isinstance(node, NameTerm):
        if node.exact:
            return Q(name__iexact=node.text)
        # Forgiving (rules.names): case, accents, apostrophes, hyphens and plurals aside.
        folded = fold_name(node.text)
        ids = [card_id for card_id, name in _folded_names.get() if folded and folded in name]
        return Q(name__icontains=node.text) | Q(pk__in=ids)
    if isinstance(node, Not):
        return ~_node(node.child, owner_id)
    # A database tests ANDed conditions in the order given and stops at the first false:
    # the cheap comparisons first spare most rows the costly ones (text, regexes, groups).
    children = sorted(node.children, key=_cost) if isinstance(node, And) else node.children
    combined = _node(children[0], owner_id)
    for child in children[1:]:
        if isinstance(node, And):
            combined &= _node(child, owner_id)
        else:
            combined |= _node(child, owner_id)
    return combined


def _cost(node: Node) -> int:
    """How costly a node is to test on a row, roughly: 0 a column compared with a value, 1 a
    group of such comparisons, 2 a text search, 3 a subquery (abilities, scans, own rows)."""
    if isinstance(node, NameTerm):
        return 2
    if isinstance(node, Not):
        return _cost(node.child)
    if not isinstance(node, Term):
        return max(1, *(_cost(child) for child in node.children))
    kind = registry.field(node.key).kind
    if kind in ("keyword", "personal") or (kind == "flag" and node.key == "has" and
                                           node.value == "image"):
        return 3
    if kind == "text" or (kind == "flag" and node.value in ("exhausting", "reaction")):
        return 2
    if kind == "set" or node.value in PERSONALITY_KINDS:
        return 1  # a join to the sets, or the printed subtype else offense and defense
    return 0


def _read_folded_names() -> list[tuple[str, str]]:
    return [(card_id, fold_name(name))
            for card_id, name in Card.objects.order_by("id").values_list("id", "name")]


_folded_names = PerRevision(_read_folded_names)


def _known_and_not(column: str, condition: Q) -> Q:
    return Q(**{f"{column}__isnull": False}) & ~condition


def _term(term: Term, owner_id: int | None) -> Q:
    f = registry.field(term.key)
    if f.kind == "personal":
        return _personal(term, f.model_field, owner_id)
    if f.kind == "text":
        return _text(term, f.model_field)
    if f.kind == "number":
        return _number(term, f.model_field)
    if f.kind == "set":
        matches = Q(set__code__iexact=term.value)
        return ~matches if term.op == "!=" else matches
    if f.kind == "keyword":
        return Q(Exists(CardKeyword.objects.filter(card=OuterRef("pk"), ability=term.value)))
    if f.kind == "flag":
        return _is(term.value) if term.key == "is" else _has(term.value)
    condition = _enum(term)
    if term.op != "!=":
        return condition
    if term.key == "faction" and term.value == "none":
        return ~condition  # a faction, whichever
    return _known_and_not(f.model_field, condition)


def _text(term: Term, column: str) -> Q:
    if term.is_regex:
        pattern = term.value if term.op == ":" else f"\\A(?:{term.value})\\Z"
        condition = Q(**{f"{column}__iregex": "(?s)" + pattern})
        if connection.vendor == "sqlite":
            # SQLite calls Python's re on every row; a LIKE (in C) on words every match
            # contains rules out most rows first, as SQLite tests ANDed terms in order.
            for words in required_words(term.value):
                any_word = Q(**{f"{column}__icontains": words[0]})
                for word in words[1:]:
                    any_word |= Q(**{f"{column}__icontains": word})
                condition = any_word & condition
        return condition
    if term.op == ":":
        return Q(**{f"{column}__icontains": term.value})
    equal = Q(**{f"{column}__iexact": term.value})
    return _known_and_not(column, equal) if term.op == "!=" else equal


def _number(term: Term, column: str) -> Q:
    other = registry.field(term.value).model_field if term.value_is_key else None
    value: F | int = int(term.value) if other is None else F(other)
    if term.op == "!=":
        condition = _known_and_not(column, Q(**{column: value}))
        if other is not None:
            condition &= Q(**{f"{other}__isnull": False})
        return condition
    return Q(**{f"{column}__{_LOOKUPS[term.op]}": value})


# The rows each personal key reads, by key: a user's rows with a ``card`` foreign key and a
# column per key (the field's model_field).
type PersonalRows = Callable[[int], QuerySet[Any]]
_PERSONAL_ROWS: dict[str, PersonalRows] = {}


def register_personal_rows(keys: tuple[str, ...], rows: PersonalRows) -> None:
    """Where a feature app's personal keys (registered in ``fields.register_section``) find
    their rows: ``rows(owner_id)``."""
    for key in keys:
        _PERSONAL_ROWS[key] = rows


def _personal(term: Term, column: str, owner_id: int | None) -> Q:
    if owner_id is None:
        raise SearchError("needs_sign_in", f"{term.key} searches your own data: log in to use it.",
                          term.start, term.end - term.start)
    value = int(term.value)
    entries = _PERSONAL_ROWS[term.key](owner_id).filter(card=OuterRef("pk"))
    if term.op == "!=":
        holds = ~Q(**{column: value})
    else:
        holds = Q(**{f"{column}__{_LOOKUPS[term.op]}": value})
    if _COMPARE[term.op](0, value):  # a card without an entry matches: unless its entry does not
        return ~Q(Exists(entries.exclude(holds)))
    return Q(Exists(entries.filter(holds)))


def _personality_kind(kind: str) -> Q:
    """rules.card_anatomy.personality_kind: the printed subtype, else offense and defense."""
    derived = Q(offense=0, defense=0) if kind == "citizen" else Q(offense__gt=0, defense__gt=0)
    unprinted = Q(subtype__isnull=True) | ~Q(subtype__in=PERSONALITY_KINDS)
    return Q(subtype=kind) | (Q(type="personality") & unprinted & derived)


def _enum(term: Term) -> Q:
    value = term.value
    if term.key == "type":
        if value in CARD_TYPES:
            return Q(type=value)
        if value in PERSONALITY_KINDS:
            return _personality_kind(value)
        return Q(subtype=value)
    if term.key == "faction" and value == "none":
        return Q(faction__isnull=True)
    return Q(**{registry.field(term.key).model_field: value})


def _is(value: str) -> Q:
    if value == "unique":
        return Q(unique=True)
    if value in PERSONALITY_KINDS:
        return _personality_kind(value)
    if value == "exhausting":
        return Q(abilities__regex=EXHAUSTING_PATTERN)
    if value == "reaction":
        keyword = CardKeyword.objects.filter(card=OuterRef("pk"), ability__in=REACTION_ABILITIES)
        return Q(Exists(keyword)) | Q(abilities__icontains=REACTION_MARK)
    if value == "official":
        return Q(official=True)
    if value == "demo":
        return Q(official=False)
    complete = Q(unknown_fields=[])
    return complete if value == "complete" else ~complete


def _has(value: str) -> Q:
    if value == "image":
        scans = CardImage.objects.filter(card=OuterRef("pk"), status=CardImage.SCAN)
        return Q(Exists(scans))
    f = registry.field(value)
    return Q(**{f"{f.model_field}__isnull": False})


def _ranked(column: str, ranks: tuple[str, ...]) -> Case:
    return Case(*(When(**{column: v}, then=Value(i)) for i, v in enumerate(ranks)), default=None)


def _sort_column(column: str) -> F | Subquery:
    """A sort column; the set's code as a subquery, not a join: the card list runs the ids'
    SELECT of the card table alone with these ORDER BY terms (cards.api.search_cache)."""
    if column == "set__code":
        return Subquery(CardSet.objects.filter(pk=OuterRef("set_id")).values("code")[:1])
    return F(column)


def ordering(order: Order) -> Ordering:
    """The ``order_by`` arguments of a parsed query's ``order``."""
    result: Ordering = []
    for key, direction in order:
        spec = SORTS[key]
        descending = direction == "desc"
        if spec.kind == "text" and spec.name == "name":
            result.append("-name" if descending else "name")
            continue
        expressions: list[F | Case | Subquery]
        if spec.kind == "rank":
            expressions = [_ranked(spec.model_fields[0], spec.ranks)]
        else:
            expressions = [_sort_column(column) for column in spec.model_fields]
        for expression in expressions:
            if descending:
                result.append(expression.desc(nulls_last=True))
            else:
                result.append(expression.asc(nulls_last=True))
        result.append("name")
    result.append("id")
    return result


# --- the plain comparisons written as SQL, without Django's lookups ---------------------------
#
# A card list's first request spent more time in Django building and compiling the filter's
# lookups (Query.build_filter, the compiler) than in running its SQL (docs/search-speed.md).
# ``where_sql`` writes the WHERE clause itself for queries made only of the terms below, with
# the same null handling as Django's: SQL comparisons with NULL are unknown, which a WHERE
# treats as false, and inside an odd number of NOTs every comparison of a nullable column is
# ANDed with "column IS NOT NULL", so that a negation is the exact complement. Other terms
# (sets, regexes, the flags read from text, scans, personal keys) go through compile_query.

type _Sql = tuple[str, list[Any]]


class _NotPlain(Exception):
    """A term ``where_sql`` leaves to Django's lookups."""


class _Atom:
    """A comparison: unknown when one of its ``nullable`` columns is null, else true or false."""

    __slots__ = ("nullable", "params", "sql")

    def __init__(self, sql: str, params: list[Any], nullable: tuple[str, ...] = ()) -> None:
        self.sql, self.params, self.nullable = sql, params, nullable


class _Not:
    __slots__ = ("child",)

    def __init__(self, child: _Expression) -> None:
        self.child = child


class _Group:
    __slots__ = ("children", "joiner")

    def __init__(self, joiner: str, children: list[_Expression]) -> None:
        self.joiner, self.children = joiner, children


type _Expression = _Atom | _Not | _Group

_TABLE = Card._meta.db_table
_OPERATORS = {":": "=", "=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
# Each column's SQL ("table"."column"), whether it may be null, and its Django type.
_columns: dict[str, tuple[str, bool, str]] = {}


def _column(name: str) -> tuple[str, bool, str]:
    if not _columns:
        quote = connection.ops.quote_name
        for model_field in Card._meta.concrete_fields:
            column = model_field.column or model_field.name
            _columns[model_field.name] = (f"{quote(_TABLE)}.{quote(column)}",
                                          model_field.null, model_field.get_internal_type())
    if name not in _columns:  # a related model's field (set__code)
        raise _NotPlain(name)
    return _columns[name]


def _compared(column: str, op: str, value: Any) -> _Atom:
    sql, null, _ = _column(column)
    return _Atom(f"{sql} {_OPERATORS[op]} %s", [value], (sql,) if null else ())


def _null(column: str, null: bool = True) -> _Atom:
    return _Atom(f"{_column(column)[0]} IS {'' if null else 'NOT '}NULL", [])


def _all(*children: _Expression) -> _Group:
    return _Group(" AND ", list(children))


def _any(*children: _Expression) -> _Group:
    return _Group(" OR ", list(children))


def _known_and_differs(column: str, equal: _Expression) -> _Group:
    return _all(_null(column, False), _Not(equal))


def _text_lookup(column: str, lookup: str, value: str) -> _Atom:
    """``column`` ``lookup`` (icontains, iexact) ``value``, as Django's lookup writes it on
    this database: PostgreSQL compares UPPER(column), which its trigram indexes serve."""
    sql, null, internal_type = _column(column)
    lhs = connection.ops.lookup_cast(lookup, internal_type) % sql
    if lookup == "icontains":
        value = f"%{connection.ops.prep_for_like_query(value)}%"
    else:
        value = connection.ops.prep_for_iexact_query(value)
    operator = connection.operators[lookup] % "%s"  # type: ignore[attr-defined]  # not in the stubs
    return _Atom(f"{lhs} {operator}", [value], (sql,) if null else ())


def _plain_personality_kind(kind: str) -> _Expression:
    """_personality_kind without Django: the printed subtype, else offense and defense."""
    derived = (_all(_compared("offense", "=", 0), _compared("defense", "=", 0)) if kind == "citizen"
               else _all(_compared("offense", ">", 0), _compared("defense", ">", 0)))
    subtype, null, _ = _column("subtype")
    listed = _Atom(f"{subtype} IN ({', '.join(['%s'] * len(PERSONALITY_KINDS))})",
                   list(PERSONALITY_KINDS), (subtype,) if null else ())
    unprinted = _any(_null("subtype"), _Not(listed))
    return _any(_compared("subtype", "=", kind),
                _all(_compared("type", "=", "personality"), unprinted, derived))


def _plain_term(term: Term) -> _Expression:
    f = registry.field(term.key)
    if f.kind == "text" and not term.is_regex:
        if term.op == ":":
            return _text_lookup(f.model_field, "icontains", term.value)
        equal = _text_lookup(f.model_field, "iexact", term.value)
        return _known_and_differs(f.model_field, equal) if term.op == "!=" else equal
    if f.kind == "number":
        if not term.value_is_key:
            if term.op == "!=":
                return _known_and_differs(f.model_field,
                                          _compared(f.model_field, "=", int(term.value)))
            return _compared(f.model_field, term.op, int(term.value))
        left, left_null, _ = _column(f.model_field)
        right, right_null, _ = _column(registry.field(term.value).model_field)
        nullable = (left,) * left_null + (right,) * right_null
        if term.op == "!=":
            equal = _Atom(f"{left} = {right}", [], nullable)
            return _all(_known_and_differs(f.model_field, equal), _null(
                registry.field(term.value).model_field, False))
        return _Atom(f"{left} {_OPERATORS[term.op]} {right}", [], nullable)
    if f.kind == "keyword":
        keywords = CardKeyword._meta.db_table
        quote = connection.ops.quote_name
        return _Atom(f"EXISTS(SELECT 1 FROM {quote(keywords)} WHERE {quote(keywords)}."
                     f"{quote('card_id')} = {_column('id')[0]} AND {quote(keywords)}."
                     f"{quote('ability')} = %s)", [term.value])
    if f.kind == "flag" and term.key == "is":
        if term.value == "unique":
            return _compared("unique", "=", True)
        if term.value in PERSONALITY_KINDS:
            return _plain_personality_kind(term.value)
        if term.value in ("official", "demo"):
            return _compared("official", "=", term.value == "official")
        raise _NotPlain(term.value)  # read from the text or the unknown fields' list
    if f.kind == "flag" and term.value != "image":  # has:
        return _null(registry.field(term.value).model_field, False)
    if f.kind == "enum":
        return _plain_enum(term)
    raise _NotPlain(term.key)


def _plain_enum(term: Term) -> _Expression:
    value = term.value
    condition: _Expression
    if term.key == "type" and value in CARD_TYPES:
        condition = _compared("type", "=", value)
    elif term.key == "type" and value in PERSONALITY_KINDS:
        condition = _plain_personality_kind(value)
    elif term.key == "type":
        condition = _compared("subtype", "=", value)
    elif term.key == "faction" and value == "none":
        condition = _null("faction")
    else:
        condition = _compared(registry.field(term.key).model_field, "=", value)
    if term.op != "!=":
        return condition
    if term.key == "faction" and value == "none":
        return _Not(condition)  # a faction, whichever
    return _known_and_differs(registry.field(term.key).model_field, condition)


def _plain_node(node: Node) -> _Expression:
    if isinstance(node, Term):
        return _plain_term(node)
    if isinstance(node, NameTerm):
        if node.exact:
            return _text_lookup("name", "iexact", node.text)
        folded = fold_name(node.text)
        ids = [card_id for card_id, name in _folded_names.get() if folded and folded in name]
        contains = _text_lookup("name", "icontains", node.text)
        if not ids:
            return contains
        return _any(contains, _Atom(f"{_column('id')[0]} IN ({', '.join(['%s'] * len(ids))})",
                                    ids))
    if isinstance(node, Not):
        return _Not(_plain_node(node.child))
    if isinstance(node, And):  # cheap comparisons first, as _node
        return _all(*(_plain_node(child) for child in sorted(node.children, key=_cost)))
    return _any(*(_plain_node(child) for child in node.children))


def _written(expression: _Expression, negated: bool) -> _Sql:
    if isinstance(expression, _Atom):
        if not (negated and expression.nullable):
            return expression.sql, expression.params
        known = " AND ".join(f"{column} IS NOT NULL" for column in expression.nullable)
        return f"({expression.sql} AND {known})", expression.params
    if isinstance(expression, _Not):
        sql, params = _written(expression.child, not negated)
        return f"NOT ({sql})", params
    parts, params = [], []
    for child in expression.children:
        sql, child_params = _written(child, negated)
        parts.append(sql)
        params.extend(child_params)
    return f"({expression.joiner.join(parts)})", params


def where_sql(parsed: ParsedQuery) -> _Sql | None:
    """The WHERE condition (over the card table alone, "" for every card) of a query made only
    of plain comparisons (numbers, enumerations, plain text, names, keywords, the flags of the
    card's own columns), and its parameters; None for any other query, which compile_query
    compiles through Django's lookups. The same cards as compile_query's filter (the oracle
    tests of tests/search/test_compile.py run both)."""
    if parsed.root is None:
        return "", []
    try:
        expression = _plain_node(parsed.root)
    except _NotPlain:
        return None
    return _written(expression, False)
