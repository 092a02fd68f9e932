"""Writes to decks and collections, and the one adapter between deck models and the pure deck
dataclasses."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from cards.models import Card
from decks.diff import deck_diff
from decks.formats.collection_csv import MAX_COPIES, Counts
from decks.formats.json_format import deck_to_dict
from decks.formats.model import SECTIONS, CardRef, DeckEntry
from decks.formats.model import Deck as DeckData
from decks.formats.text import CatalogueResolver
from decks.models import Collection, CollectionEntry, Deck, DeckCard, DeckVersion

SAMPLE_OWNER = "samples"


def catalogue_cards() -> list[CardRef]:
    return [
        CardRef(id=i, name=n, type=t, faction=f)
        for i, n, t, f in Card.objects.order_by("id").values_list("id", "name", "type", "faction")
    ]


def catalogue_resolver() -> CatalogueResolver:
    """Resolves decklist names against the whole catalogue (one query)."""
    return CatalogueResolver(catalogue_cards())


def deck_data(deck: Deck) -> DeckData:
    """The model as the pure dataclass every format and rule works on."""
    entries = list(deck.entries.order_by("position"))
    parts: dict[str, Any] = {
        section: tuple(DeckEntry(e.card_id, e.count) for e in entries if e.section == section)
        for section in SECTIONS
    }
    return DeckData(
        name=deck.name, players=deck.players, description=deck.description, **parts
    )


@transaction.atomic
def deck_save(*, owner: Any, data: DeckData, deck: Deck | None = None,
              visibility: str = Deck.PRIVATE, author: Any = None) -> Deck:
    """Create a deck, or replace an existing deck's content; every save is a new version
    that keeps the whole deck and its diff from the version before."""
    before: DeckData | None = None
    if deck is None:
        deck = Deck(owner=owner, visibility=visibility, version=1)
    else:
        before = deck_data(deck)
        deck.version += 1
        deck.entries.all().delete()
    deck.name = data.name
    deck.players = data.players
    deck.description = data.description
    deck.full_clean(exclude=["owner"])
    deck.save()
    DeckCard.objects.bulk_create(
        DeckCard(deck=deck, section=section, card_id=entry.card_id, count=entry.count,
                 position=position)
        for position, (section, entry) in enumerate(data.all_entries())
    )
    diff = deck_diff(before, data)
    DeckVersion.objects.create(
        deck=deck, number=deck.version, author=author or owner, snapshot=deck_to_dict(data),
        diff=diff.to_dict(), summary=diff.summary()[:300],
    )
    return deck


def sample_owner() -> Any:
    user, created = get_user_model().objects.get_or_create(username=SAMPLE_OWNER)
    if created:
        user.set_unusable_password()
        user.save()
    return user


def sample_deck_load(data: DeckData) -> tuple[Deck, bool]:
    """Create or refresh a public sample deck by name; True when something changed."""
    owner = sample_owner()
    existing = Deck.objects.filter(owner=owner, name=data.name).first()
    if existing is not None and deck_data(existing) == data:
        return existing, False
    return deck_save(owner=owner, data=data, deck=existing, visibility=Deck.PUBLIC), True


def deck_clone(*, deck: Deck, owner: Any) -> Deck:
    """A private copy of a deck for ``owner``, starting its own history."""
    data = deck_data(deck)
    copy_name = data.name if deck.owner_id != owner.pk else f"{data.name} (copy)"
    return deck_save(owner=owner, data=replace(data, name=copy_name))


def deck_set_sleeved(*, deck: Deck, sleeved: bool) -> Deck:
    """Mark a deck as built from real cards (or not). Not a change of the decklist, so no new
    version; the collection's allocation follows from it (decks.allocation)."""
    if deck.sleeved != sleeved:
        deck.sleeved = sleeved
        deck.save(update_fields=["sleeved"])
    return deck


# --- collections ----------------------------------------------------------------------------


def collection_of(owner: Any) -> Collection:
    collection, _ = Collection.objects.get_or_create(owner=owner)
    return collection


def collection_lock(owner: Any) -> Collection:
    """The owner's collection, locked until the end of the transaction (call inside one)."""
    collection_of(owner)
    return Collection.objects.select_for_update().get(owner=owner)


def collection_counts(collection: Collection) -> dict[str, Counts]:
    return {
        card_id: Counts(owned, want, trade)
        for card_id, owned, want, trade in collection.entries.order_by("card_id").values_list(
            "card_id", "owned", "want", "trade")
    }


@transaction.atomic
def collection_change_owned(*, owner: Any, card_id: str, delta: int) -> int:
    """One more (or fewer) owned copy of a card; returns the copies now owned. A change by a
    difference, so two tabs clicking at once both count: no version check is needed."""
    collection = collection_lock(owner)
    entry = CollectionEntry.objects.filter(collection=collection, card_id=card_id).first()
    before = entry.owned if entry else 0
    after = min(max(before + delta, 0), MAX_COPIES)
    if after != before:
        if entry is None:
            entry = CollectionEntry(collection=collection, card_id=card_id)
        entry.owned = after
        _entry_save(entry)
        _bump(collection)
    return after


@transaction.atomic
def collection_update(*, collection: Collection, counts: Mapping[str, Counts],
                      replace: bool = False) -> Collection:
    """Set the counts of the cards given (all 0 removes a card); with ``replace``, every
    other card is removed. The caller checks the version on the locked collection."""
    entries = {e.card_id: e for e in collection.entries.all()}
    if replace:
        collection.entries.exclude(card_id__in=list(counts)).delete()
    for card_id, wanted in counts.items():
        entry = entries.get(card_id) or CollectionEntry(collection=collection, card_id=card_id)
        entry.owned, entry.want, entry.trade = wanted.owned, wanted.want, wanted.trade
        _entry_save(entry)
    _bump(collection)
    return collection


@transaction.atomic
def collection_add_set(*, owner: Any, set_code: str, copies: int) -> int:
    """``copies`` more owned copies of every card of a set; returns how many cards."""
    collection = collection_lock(owner)
    card_ids = list(Card.objects.filter(set__code=set_code).values_list("id", flat=True))
    entries = {e.card_id: e for e in collection.entries.filter(card_id__in=card_ids)}
    for card_id in card_ids:
        entry = entries.get(card_id) or CollectionEntry(collection=collection, card_id=card_id)
        entry.owned = min(entry.owned + copies, MAX_COPIES)
        _entry_save(entry)
    if card_ids:
        _bump(collection)
    return len(card_ids)


def collection_share(*, collection: Collection, shared: bool) -> Collection:
    """Give the collection a read-only link (a new one, unless it has one), or take the link
    away: a link shared again later is a different one, so an old link stays dead."""
    token = (collection.share_token or secrets.token_urlsafe(32)) if shared else None
    if token != collection.share_token:
        collection.share_token = token
        collection.save(update_fields=["share_token", "updated_at"])
    return collection


def _entry_save(entry: CollectionEntry) -> None:
    if entry.owned or entry.want or entry.trade:
        entry.save()
    elif entry.pk is not None:
        entry.delete()


def _bump(collection: Collection) -> None:
    collection.version += 1  # the collection is locked (collection_lock), so this is safe
    collection.save(update_fields=["version", "updated_at"])
