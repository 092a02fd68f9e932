"""The search of public decks by name, faction and card (NetrunnerDB's decklists, Moxfield's
deck search), for the page /decks/public/ and GET /api/decks/public/.

A deck's faction is that of its personalities (only personalities carry one), so a deck
matches a faction when it holds at least one of its personalities. A card is named by its id
or by words of its name; a deck matches when it holds any card so named.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from django.db.models import Q, QuerySet, Sum

from cards.models import Card
from decks.models import Deck, DeckCard
from rules.card_anatomy import FACTIONS

PAGE_SIZE: Final = 20
# A name matching more cards than this names none in particular: the search says so.
MAX_CARDS: Final = 12
LIMIT: Final = 200  # the longest name or card text read


class DeckSearchError(ValueError):
    """A search that cannot be run, naming the field at fault and why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class DeckSearch:
    name: str = ""  # words the deck's name holds, all of them, in any case
    faction: str = ""  # a key of rules.card_anatomy.FACTIONS, or "" for any
    card: str = ""  # a card's id or words of its name

    @property
    def empty(self) -> bool:
        return not (self.name or self.faction or self.card)


@dataclass(frozen=True)
class DeckSearchResult:
    decks: QuerySet[Deck]
    cards: tuple[Card, ...]  # the cards the card filter named (none without one)
    explained: str  # the search in words: "public decks named like …, with …"


def deck_search_from(params: Mapping[str, str]) -> DeckSearch:
    """The search a query string asks for; a clear error for a value it cannot hold."""
    values = {key: str(params.get(key, "") or "").strip() for key in ("name", "faction", "card")}
    for key in ("name", "card"):
        if len(values[key]) > LIMIT:
            raise DeckSearchError(key, f"“{key}” may be at most {LIMIT} characters long.")
        for ch in values[key]:
            # No database column holds these (PostgreSQL refuses a NUL outright).
            category = unicodedata.category(ch)
            if category == "Cs" or category == "Cc":
                raise DeckSearchError(
                    key, f"“{key}” may not hold the character U+{ord(ch):04X}: use "
                    "printable text.")
    faction = values["faction"].lower()
    if faction and faction not in FACTIONS:
        raise DeckSearchError(
            "faction", f"“{values['faction']}” is not a faction: use one of "
            f"{', '.join(FACTIONS)} (or leave it out for any).")
    return DeckSearch(name=values["name"], faction=faction, card=values["card"])


def named_cards(text: str) -> tuple[Card, ...]:
    """The cards a card filter names: the card with that id, or those whose name holds every
    word of it. None found is an error with the closest names; too many, one asking for more."""
    by_id = Card.objects.filter(id=text.lower()).first()
    if by_id is not None:
        return (by_id,)
    words = text.split()
    named = Q()
    for word in words:
        named &= Q(name__icontains=word)
    cards = list(Card.objects.filter(named).order_by("name", "id")[:MAX_CARDS + 1])
    if not cards:
        names = sorted(set(Card.objects.values_list("name", flat=True)))
        close = difflib.get_close_matches(text, names, n=3, cutoff=0.6)
        hint = f" Did you mean {' or '.join(f'“{name}”' for name in close)}?" if close else ""
        raise DeckSearchError("card", f"No card is named like “{text}”.{hint}")
    if len(cards) > MAX_CARDS:
        raise DeckSearchError("card", f"More than {MAX_CARDS} cards are named like “{text}”: "
                              "write more of the name, or the card's id.")
    return tuple(cards)


def public_decks(search: DeckSearch) -> DeckSearchResult:
    """The public decks the search matches, by name then number (a total order, so pages
    never repeat or skip a deck), each with ``card_count`` and, with a card filter,
    ``copies`` (of the cards named)."""
    decks = Deck.objects.filter(visibility=Deck.PUBLIC)
    said: list[str] = []
    for word in search.name.split():
        decks = decks.filter(name__icontains=word)
    if search.name:
        said.append(f"named like “{search.name}”")
    if search.faction:
        decks = decks.filter(entries__card__faction=search.faction,
                             entries__card__type="personality")
        said.append(f"with personalities of {FACTIONS[search.faction]}")
    cards: tuple[Card, ...] = ()
    if search.card:
        cards = named_cards(search.card)
        ids = [card.id for card in cards]
        decks = decks.filter(entries__card_id__in=ids)
        names = " or ".join(dict.fromkeys(card.name for card in cards))
        said.append(f"with {names}")
    # The filters above join the entries; the totals read them afresh, once per deck.
    matched = Deck.objects.filter(pk__in=decks.values("pk"))
    matched = matched.annotate(card_count=Sum("entries__count"))
    if cards:
        matched = matched.annotate(copies=Sum(
            "entries__count", filter=Q(entries__card_id__in=[card.id for card in cards])))
    explained = "public decks" + (" " + ", ".join(said) if said else "")
    return DeckSearchResult(matched.select_related("owner").order_by("name", "id"), cards,
                            explained)


def deck_factions(decks: Iterable[Deck]) -> dict[int, list[str]]:
    """The factions of each deck's personalities, by deck number, in the order of FACTIONS:
    one query for a page of decks."""
    found: dict[int, set[str]] = defaultdict(set)
    rows = (DeckCard.objects.filter(deck__in=[deck.pk for deck in decks],
                                    card__type="personality", card__faction__isnull=False)
            .values_list("deck_id", "card__faction").distinct())
    for deck_id, faction in rows:
        if faction is not None:
            found[deck_id].add(faction)
    return {deck_id: [FACTIONS[f] for f in FACTIONS if f in factions]
            for deck_id, factions in found.items()}
