"""Decks: an owner's named list of cards in the four parts of DESIGN §5; and each user's
collection, the physical cards they own (docs/collection.md)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse

from cards.models import Card
from decks.formats.model import SECTION_TITLES
from decks.playtest_models import PlaytestGame as PlaytestGame  # registered with the app

SECTION_CHOICES = list(SECTION_TITLES.items())


class Deck(models.Model):
    PRIVATE = "private"
    UNLISTED = "unlisted"
    PUBLIC = "public"
    VISIBILITY_CHOICES = [
        (PRIVATE, "Private"),
        (UNLISTED, "Anyone with the link"),
        (PUBLIC, "Public"),
    ]

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    players = models.PositiveSmallIntegerField(
        default=4, validators=[MinValueValidator(2), MaxValueValidator(6)]
    )
    visibility = models.CharField(max_length=10, choices=VISIBILITY_CHOICES, default=PRIVATE)
    version = models.PositiveIntegerField(default=1)
    # Built from real cards: its copies are taken out of the owner's collection for every
    # other deck (decks.allocation). Not part of the decklist, so not versioned.
    sleeved = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(players__gte=2, players__lte=6), name="deck_players_2_to_6"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("decks:detail", args=[self.pk])


class DeckCard(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    section = models.CharField(max_length=20, choices=SECTION_CHOICES)
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="deck_entries")
    count = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["deck", "section", "position"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "section", "card"], name="deck_section_card"),
            models.CheckConstraint(condition=models.Q(count__gte=1), name="deckcard_count_min_1"),
        ]

    def __str__(self) -> str:
        return f"{self.count} {self.card_id} ({self.section})"


class DeckVersion(models.Model):
    """Every save of a deck: the whole deck as it was, and what changed from the version
    before, so history can be read and any two versions compared."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    snapshot = models.JSONField(help_text="the deck in the JSON decklist shape")
    diff = models.JSONField(help_text="changes from the previous version")
    summary = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="deck_version_number")
        ]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"


class Collection(models.Model):
    """The cards a user owns. ``version`` goes up on every change (the optimistic check of
    the API, as for decks); ``share_token`` set means anyone with the link may read it."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection"
    )
    version = models.PositiveIntegerField(default=1)
    share_token = models.CharField(max_length=43, unique=True, null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

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
