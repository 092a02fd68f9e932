"""The card search beside the builder: the catalogue or the deck's own cards, a page at
a time, each result with the pile it goes to and where the deck already has it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from django.db.models import QuerySet

from cards.card_search import SearchError, card_search
from cards.models import Card
from decks.deck_display import PART_NAMES
from decks.deck_edits import copies_in, own_pile
from decks.validation import catalogue_facts
from rules.decklist import SECTIONS, Decklist, SectionName

SEARCH_LIMIT: Final = 30


@dataclass(frozen=True)
class ResultRow:
    card: Card
    pile: SectionName
    in_deck: tuple[tuple[str, str, int], ...]  # (part, part name, copies) where the deck has it

    @property
    def is_structure(self) -> bool:
        return self.card.type == "structure"


@dataclass(frozen=True)
class SearchView:
    query: str
    scope: str  # "catalogue" or "deck"
    rows: tuple[ResultRow, ...] = ()
    total: int = 0
    explained: str = ""
    error: SearchError | None = None
    warnings: tuple[str, ...] = ()
    pointer: tuple[str, str, str] = ("", "", "")
    page: int = 1  # pages of SEARCH_LIMIT results

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // SEARCH_LIMIT))

    @property
    def first(self) -> int:
        """The position of the page's first result (1-based)."""
        return (self.page - 1) * SEARCH_LIMIT + 1

    @property
    def last(self) -> int:
        return self.first + len(self.rows) - 1


def search_view(query: str, scope: str, data: Decklist, *, user: Any = None,
                page: int = 1) -> SearchView:
    """Cards matching ``query`` (the card search language) in the catalogue, or among the
    deck's own cards when ``scope`` is "deck", SEARCH_LIMIT a page (a page past the last is
    the last); collection keys read ``user``'s collection."""
    scope = "deck" if scope == "deck" else "catalogue"
    query = query.strip()
    deck_ids = {e.card_id for _, e in data.all_entries()}
    if not query and scope == "catalogue":
        return SearchView(query, scope)
    try:
        search = card_search(query, user=user)
    except SearchError as error:
        end = error.position + max(error.length, 1)
        pointer = (query[: error.position], query[error.position: end], query[end:])
        return SearchView(query, scope, error=error, pointer=pointer)
    cards: QuerySet[Card] = Card.objects.select_related("set")
    if scope == "deck":
        cards = cards.filter(id__in=deck_ids)
    found = search.apply(cards)
    total = found.count()
    if not total:  # a name that matches nothing: the closest names
        search = search.with_name_suggestions(found_any=False)
    page = min(max(page, 1), max(1, -(-total // SEARCH_LIMIT)))
    start = (page - 1) * SEARCH_LIMIT
    facts = catalogue_facts()
    rows = tuple(
        ResultRow(
            card=card, pile=own_pile(facts.get(card.id)),
            in_deck=tuple(
                (s, PART_NAMES[s], n) for s in SECTIONS if (n := copies_in(data, card.id, s))
            ),
        )
        for card in found[start:start + SEARCH_LIMIT]
    )
    return SearchView(query, scope, rows, total, search.explained, None, search.warnings,
                      page=page)
