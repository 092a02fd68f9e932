"""Running a search query against the catalogue: the one place the pure search package
(parse, explain) meets the database (compile), shared by the API, the pages and the command."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import QuerySet

from cards.models import Card, CatalogueRevision
from cards.search.compile import compile_query
from cards.search.explain import explain
from cards.search.parser import NameTerm, Node, ParsedQuery, SearchError, parse
from cards.search.suggest import closest_names

__all__ = ["CardSearch", "SearchError", "card_search", "catalogue_version"]


@dataclass(frozen=True)
class CardSearch:
    text: str
    parsed: ParsedQuery
    explained: str
    warnings: tuple[str, ...]
    suggestions: list[str] = field(default_factory=list)

    def apply(self, cards: QuerySet[Card]) -> QuerySet[Card]:
        condition, ordering = compile_query(self.parsed)
        return cards.filter(condition).order_by(*ordering)

    def with_name_suggestions(self, found_any: bool) -> CardSearch:
        """When nothing matched and the query names cards, suggest the closest card names."""
        words = " ".join(_name_words(self.parsed.root))
        if found_any or not words:
            return self
        names = Card.objects.order_by().values_list("name", flat=True).distinct()
        suggestions = closest_names(words, names)
        if not suggestions:
            return self
        hint = f"No card name matches {words!r}; did you mean {', '.join(suggestions)}?"
        return CardSearch(self.text, self.parsed, self.explained, (*self.warnings, hint),
                          suggestions)


def card_search(text: str) -> CardSearch:
    """Parse and explain a query; raises SearchError (with position and suggestions)."""
    parsed = parse(text)
    return CardSearch(text=text, parsed=parsed, explained=explain(parsed),
                      warnings=tuple(parsed.warnings))


def _name_words(node: Node | None) -> list[str]:
    if node is None:
        return []
    if isinstance(node, NameTerm):
        return [node.text]
    words: list[str] = []
    for child in getattr(node, "children", ()) or ((getattr(node, "child", None),)):
        words.extend(_name_words(child))
    return words


@dataclass(frozen=True)
class CatalogueVersion:
    tag: str  # changes whenever any card, set or image changes
    updated_at: dt.datetime | None  # the newest change to a card or image


def catalogue_version() -> CatalogueVersion:
    """The basis of the API's ETags and Last-Modified, and of the bulk file's freshness."""
    revision = CatalogueRevision.objects.filter(pk=1).first()
    if revision is None:
        return CatalogueVersion(tag="0", updated_at=None)
    return CatalogueVersion(tag=str(revision.number), updated_at=revision.updated_at)
