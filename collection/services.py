"""Writes to collections: owned, wanted and traded copies, each change bumping the version that
the API's optimistic check reads."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from cards.models import Card
from collection.csv_format import MAX_COPIES, Counts
from collection.models import Collection, CollectionEntry


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
