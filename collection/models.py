"""Each user's collection: the physical cards they own, want and offer for trade
(docs/collection.md).

The tables keep the names they had when the collection lived in the decks app (the move,
issue 16, copied no table: migrations 0001 of this app adopt them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from cards.models import Card


class Collection(models.Model):
    """The cards a user owns. ``version`` goes up on every change (the optimistic check of
    the API, as for decks); ``share_token`` set means anyone with the link may read it."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection"
    )
    version = models.PositiveIntegerField(default=1)
    share_token = models.CharField(max_length=43, unique=True, null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "decks_collection"

    def __str__(self) -> str:
        return f"{self.owner_id}'s collection"


class CollectionEntry(models.Model):
    """Copies of one card: owned, wanted and offered for trade. A card without an entry
    counts 0 of each, so an entry whose counts are all 0 is deleted rather than kept."""

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="collection_entries")
    owned = models.PositiveIntegerField(default=0)
    want = models.PositiveIntegerField(default=0)
    trade = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "decks_collectionentry"
        ordering = ["collection", "card"]
        constraints = [
            models.UniqueConstraint(fields=["collection", "card"], name="collection_card"),
            models.CheckConstraint(
                condition=models.Q(owned__gte=0, want__gte=0, trade__gte=0),
                name="collection_entry_counts_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.card_id}: {self.owned} owned"
