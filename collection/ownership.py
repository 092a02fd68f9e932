"""Decks against a user's collection: the adapter between the database and the pure
allocation (collection.allocation), for the deck pages, the allocation page, the public deck
filters and the API.

Every figure is for one viewer: their owned copies, less the copies their sleeved decks hold
(a sleeved deck of theirs uses the copies it was allocated).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db.models import OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from cards.card_urls import card_url
from cards.models import Card
from collection.allocation import Allocation, Ownership, allocate, deck_needs
from collection.csv_format import render_missing_csv
from collection.models import CollectionEntry
from decks.formats.card_refs import CardRef
from decks.formats.text import render_text
from decks.models import Deck, DeckCard
from decks.services import catalogue_cards
from decks.validation import catalogue_facts
from rules.decklist import SECTIONS, DeckEntry, Decklist


def owned_counts(owner: Any, card_ids: Iterable[str] | None = None) -> dict[str, int]:
    """Owned copies per card id (of ``card_ids`` only, if given); cards not owned are left out."""
    entries = CollectionEntry.objects.filter(collection__owner=owner, owned__gt=0)
    if card_ids is not None:
        entries = entries.filter(card_id__in=list(card_ids))
    return dict(entries.values_list("card_id", "owned"))


def with_owned(cards: QuerySet[Card], owner: Any) -> QuerySet[Card]:
    """``cards``, each with ``owned``: the copies ``owner`` has (0 for none), in the same query."""
    entry = CollectionEntry.objects.filter(card=OuterRef("pk"), collection__owner=owner)
    return cards.annotate(owned=Coalesce(Subquery(entry.values("owned")[:1]), Value(0)))


def _needs_of(deck_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    """Copies per card of each deck, in deck order, in one query."""
    needs: dict[int, dict[str, int]] = {}
    rows = DeckCard.objects.filter(deck_id__in=list(deck_ids)).order_by("deck_id", "position")
    for deck_id, card_id, count in rows.values_list("deck_id", "card_id", "count"):
        cards = needs.setdefault(deck_id, {})
        cards[card_id] = cards.get(card_id, 0) + count
    return needs


def sleeved_decks(owner: Any) -> list[Deck]:
    """The owner's sleeved decks in the order they are served: oldest first, then by id."""
    return list(Deck.objects.filter(owner=owner, sleeved=True).order_by("created_at", "id"))


def sleeved_allocation(owner: Any, decks: list[Deck] | None = None) -> Allocation:
    decks = sleeved_decks(owner) if decks is None else decks
    needs = _needs_of(d.pk for d in decks)
    return allocate(owned_counts(owner), [(d.pk, needs.get(d.pk, {})) for d in decks])


# --- one deck ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class OwnershipRow:
    card_id: str
    name: str
    url: str
    needed: int
    owned: int
    elsewhere: int
    have: int

    @property
    def missing(self) -> int:
        return self.needed - self.have


@dataclass(frozen=True)
class OwnershipView:
    """What the deck pages show: per card, owned against needed; can it be built now."""

    ownership: Ownership
    rows: tuple[OwnershipRow, ...]
    sleeved: bool  # this deck is one of the viewer's sleeved decks

    @property
    def buildable(self) -> bool:
        return self.ownership.buildable

    @property
    def missing(self) -> int:
        return self.ownership.missing


def deck_ownership(viewer: Any, deck: Deck, data: Decklist) -> OwnershipView:
    allocation = sleeved_allocation(viewer)
    mine = deck.owner_id == viewer.pk and deck.sleeved
    ownership = allocation.ownership(deck_needs(data), deck.pk if mine else None)
    facts = catalogue_facts()
    rows = tuple(
        OwnershipRow(c.card_id, facts[c.card_id].name if c.card_id in facts else c.card_id,
                     card_url(c.card_id, "page"), c.needed, c.owned, c.elsewhere, c.have)
        for c in ownership.cards
    )
    return OwnershipView(ownership, rows, mine)


def missing_deck(data: Decklist, ownership: Ownership) -> Decklist:
    """The copies the deck lacks, as a decklist named after it: each card in the first part of
    the deck that holds it."""
    missing = ownership.missing_cards()
    parts: dict[str, list[DeckEntry]] = {section: [] for section in SECTIONS}
    for section, entry in data.all_entries():
        count = missing.pop(entry.card_id, 0)
        if count:
            parts[section].append(DeckEntry(entry.card_id, count))
    name = f"{data.name} (missing cards)" if data.name else "Missing cards"
    sections: dict[str, Any] = {section: tuple(entries) for section, entries in parts.items()}
    return Decklist(name=name, players=data.players, **sections)


def missing_text(data: Decklist, ownership: Ownership) -> str:
    cards = {card.id: card for card in catalogue_cards()}
    return render_text(missing_deck(data, ownership), cards)


def missing_csv(ownership: Ownership) -> str:
    cards = {card.id: card for card in catalogue_cards()}
    return render_missing_csv(
        (cards.get(card_id) or CardRef(card_id, card_id, None, None), count)
        for card_id, count in ownership.missing_cards().items()
    )


def ownership_data(view: OwnershipView) -> dict[str, Any]:
    """The API's shape of a deck's ownership."""
    return {
        "buildable": view.buildable,
        "needed": view.ownership.needed,
        "have": view.ownership.have,
        "missing": view.missing,
        "sleeved": view.sleeved,
        "cards": [
            {"id": r.card_id, "name": r.name, "needed": r.needed, "owned": r.owned,
             "in_sleeved_decks": r.elsewhere, "have": r.have, "missing": r.missing}
            for r in view.rows
        ],
    }


# --- many decks -------------------------------------------------------------------------------


def decks_missing(viewer: Any, decks: Iterable[Deck]) -> dict[int, int]:
    """How many copies each deck lacks for ``viewer`` (0: buildable now), in two queries
    beyond the allocation's."""
    decks = list(decks)
    allocation = sleeved_allocation(viewer)
    needs = _needs_of(d.pk for d in decks)
    return {
        d.pk: allocation.ownership(
            needs.get(d.pk, {}), d.pk if d.owner_id == viewer.pk and d.sleeved else None
        ).missing
        for d in decks
    }


class PublicDeckFilters(forms.Form):
    """The public deck list's filters for signed-in visitors."""

    buildable = forms.BooleanField(required=False, label="Buildable from my collection")
    missing = forms.IntegerField(required=False, min_value=0, max_value=9999,
                                 label="Missing at most", help_text="cards")

    @property
    def active(self) -> bool:
        return self.is_valid() and (self.cleaned_data["buildable"]
                                    or self.cleaned_data["missing"] is not None)


def public_decks_for(viewer: Any, decks: Iterable[Deck], filters: PublicDeckFilters
                     ) -> list[tuple[Deck, int]]:
    """The decks with the copies ``viewer`` lacks for each, keeping those the filters let
    through (all of them when the filters are empty or invalid)."""
    decks = list(decks)
    missing = decks_missing(viewer, decks)
    limit: int | None = None
    if filters.active:
        limit = 0 if filters.cleaned_data["buildable"] else filters.cleaned_data["missing"]
    return [(d, missing[d.pk]) for d in decks if limit is None or missing[d.pk] <= limit]


@dataclass(frozen=True)
class AllocationRow:
    card_id: str
    name: str
    url: str
    owned: int
    in_decks: tuple[int, ...]  # copies in each sleeved deck, in the page's column order
    free: int
    short: int  # copies the sleeved decks need but do not get


@dataclass(frozen=True)
class AllocationView:
    decks: tuple[Deck, ...]
    rows: tuple[AllocationRow, ...]
    shortfalls: tuple[tuple[Deck, tuple[tuple[str, int], ...]], ...]  # (deck, (name, copies))

    @property
    def owned(self) -> int:
        return sum(r.owned for r in self.rows)

    @property
    def free(self) -> int:
        return sum(r.free for r in self.rows)

    @property
    def short(self) -> int:
        return sum(r.short for r in self.rows)


def allocation_view(owner: Any) -> AllocationView:
    """Where each owned copy is: in which sleeved deck, or free; and what the sleeved decks
    lack. Every owned card and every card of a sleeved deck, by name."""
    decks = sleeved_decks(owner)
    allocation = sleeved_allocation(owner, decks)
    facts = catalogue_facts()

    def name(card_id: str) -> str:
        return facts[card_id].name if card_id in facts else card_id

    card_ids = set(allocation.owned)
    for share in allocation.decks:
        card_ids |= set(share.taken) | set(share.short)
    rows = tuple(
        AllocationRow(
            card_id, name(card_id), card_url(card_id, "page"), allocation.owned.get(card_id, 0),
            tuple(share.taken.get(card_id, 0) for share in allocation.decks),
            allocation.free(card_id),
            sum(share.short.get(card_id, 0) for share in allocation.decks),
        )
        for card_id in sorted(card_ids, key=lambda c: (name(c).casefold(), c))
    )
    shortfalls = tuple(
        (deck, tuple((name(card_id), n) for card_id, n in share.short.items()))
        for deck, share in zip(decks, allocation.decks, strict=True) if share.short
    )
    return AllocationView(tuple(decks), rows, shortfalls)
