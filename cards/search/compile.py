"""A parsed query as a Django filter and ordering: the one Django-aware module of the search.

``compile_query(parsed)`` returns ``(Q, order_by)`` for ``Card.objects.filter(q).order_by(*o)``.
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
from django.db.models import Case, Exists, F, OuterRef, Q, QuerySet, Value, When
from django.db.models.expressions import OrderBy

from cards.models import Card, CardImage, CardKeyword
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
from rules.card_facts import CARD_TYPES
from rules.names import fold_name

type Ordering = list[str | OrderBy]

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
    return condition, _ordering(parsed.order)


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
    """rules.card_facts.personality_kind: the printed subtype, else offense and defense."""
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


def _ordering(order: tuple[tuple[str, str], ...]) -> Ordering:
    result: Ordering = []
    for key, direction in order:
        spec = SORTS[key]
        descending = direction == "desc"
        if spec.kind == "text" and spec.name == "name":
            result.append("-name" if descending else "name")
            continue
        expressions: list[F | Case]
        if spec.kind == "rank":
            expressions = [_ranked(spec.model_fields[0], spec.ranks)]
        else:
            expressions = [F(column) for column in spec.model_fields]
        for expression in expressions:
            if descending:
                result.append(expression.desc(nulls_last=True))
            else:
                result.append(expression.asc(nulls_last=True))
        result.append("name")
    result.append("id")
    return result
