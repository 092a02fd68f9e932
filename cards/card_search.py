"""Running a search query against the catalogue: the one place the pure search package
(parse, explain) meets the database (compile), shared by the API, the pages and the command."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from cards.models import Card
from cards.revision_cache import PerRevision
from cards.search.compile import Ordering, compile_query
from cards.search.explain import explain, explain_matching
from cards.search.parser import (
    NameTerm,
    Node,
    ParsedQuery,
    SearchError,
    parse,
    personal_terms,
    refuse_personal_terms,
)
from cards.search.suggest import closest_names

__all__ = ["CardSearch", "SearchError", "card_search"]


@dataclass(frozen=True)
class CardSearch:
    text: str
    parsed: ParsedQuery
    explained: str
    warnings: tuple[str, ...]
    suggestions: list[str] = field(default_factory=list)
    owner_id: int | None = None  # whose rows the personal keys read
    name_hint: str = ""  # the warning that says the suggestions (pages show them as links)
    retries: tuple[str, ...] = ()  # other queries to try when no name is close (o:words)

    @property
    def matching(self) -> str:
        """The cards it matches, in words, without the sort ("cards where the card is a
        troop")."""
        return explain_matching(self.parsed)

    @property
    def page_warnings(self) -> tuple[str, ...]:
        """The warnings but the name hint, which the pages show as links."""
        return tuple(w for w in self.warnings if w != self.name_hint)

    @property
    def reads_personal(self) -> bool:
        """The results depend on the searcher's own data (so on who asks, and when)."""
        return bool(personal_terms(self.parsed.root))

    def apply(self, cards: QuerySet[Card]) -> QuerySet[Card]:
        condition, ordering = self.compiled()
        return cards.filter(condition).order_by(*ordering)

    def compiled(self) -> tuple[Q, Ordering]:
        """The filter and the ``order_by`` arguments (cards.search.compile)."""
        return compile_query(self.parsed, owner_id=self.owner_id)

    def with_name_suggestions(self, found_any: bool) -> CardSearch:
        """When nothing matched and the query names cards, suggest the closest card names."""
        words = " ".join(_name_words(self.parsed.root))
        if found_any or not words:
            return self
        suggestions = list(dict.fromkeys(closest_names(words, _card_names.get())))
        if suggestions:
            hint = f"No card name matches {words!r}; did you mean {', '.join(suggestions)}?"
            retries: tuple[str, ...] = ()
        else:
            retry = f"o:{_quoted(words)}"
            in_text = Card.objects.filter(abilities__icontains=words).exists()
            hint = (f"No card name matches {words!r}, nor is any like it: a word without a key "
                    "searches the names." + (f" The cards' text has it: {retry}." if in_text
                                              else " Search the text with o:, or see the syntax."))
            retries = (retry,) if in_text else ()
        return CardSearch(self.text, self.parsed, self.explained, (*self.warnings, hint),
                          suggestions, self.owner_id, hint, retries)


def _read_card_names() -> list[str]:
    return list(Card.objects.order_by().values_list("name", flat=True).distinct())


_card_names = PerRevision(_read_card_names)


def card_search(text: str, *, user: Any = None) -> CardSearch:
    """Parse and explain a query; raises SearchError (with position and suggestions). The
    personal keys (the collection's) read ``user``'s rows and are refused when nobody is
    signed in."""
    parsed = parse(text)
    owner_id = user.pk if user is not None and user.is_authenticated else None
    if owner_id is None:
        refuse_personal_terms(parsed)
    return CardSearch(text=text, parsed=parsed, explained=explain(parsed),
                      warnings=tuple(parsed.warnings), owner_id=owner_id)


def _quoted(words: str) -> str:
    return f'"{words}"' if " " in words else words


def _name_words(node: Node | None) -> list[str]:
    if node is None:
        return []
    if isinstance(node, NameTerm):
        return [node.text]
    words: list[str] = []
    for child in getattr(node, "children", ()) or ((getattr(node, "child", None),)):
        words.extend(_name_words(child))
    return words
