"""Decks: an owner's named list of cards in the four parts of docs/design.md §5, and every saved
version of it."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone

from cards.models import Card
from rules.decklist import SECTION_TITLES

SECTION_CHOICES = list(SECTION_TITLES.items())


def new_share_token() -> str:
    """The secret part of an unlisted deck's link: 96 random bits, so the link of one deck
    cannot be guessed from another's (deck numbers are sequential)."""
    return secrets.token_urlsafe(12)


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
    # other deck (collection.allocation). Not part of the decklist, so not versioned.
    sleeved = models.BooleanField(default=False)
    # What "anyone with the link" holds (/s/<share_token>): the only way to an unlisted deck
    # for anyone but its owner (decks.share_links).
    share_token = models.CharField(max_length=32, unique=True, default=new_share_token,
                                   editable=False)
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

    @classmethod
    def visible_to(cls, user: Any, links: Iterable[str] = ()) -> models.QuerySet[Deck]:
        """Decks this user (maybe anonymous, maybe None) may open by their number: public ones,
        their own, and the unlisted ones whose link (``share_token``) they have followed. The
        one visibility rule: every page, API route and picker that takes a deck number reads
        through it, so a deck it leaves out is "no such deck", whether or not it exists."""
        shown = models.Q(visibility=cls.PUBLIC)
        held = list(links)
        if held:
            shown |= models.Q(visibility=cls.UNLISTED, share_token__in=held)
        if user is not None and user.is_authenticated:
            shown |= models.Q(owner=user)
        return cls.objects.filter(shown)


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
    """A saved version of a deck: the whole deck as it was, and what changed from the version
    before, so history can be read and any two versions compared.

    The builder's edits of one sitting make one version (an *open* one, amended by each edit
    and renumbered to the deck's version, so the latest version is always the deck as it is);
    it is closed by an explicit Save (with an optional note), by half an hour without an edit,
    or by any other write (the API, a restore, an import), which makes a version of its own.
    """

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    snapshot = models.JSONField(help_text="the deck in the JSON decklist shape")
    diff = models.JSONField(help_text="changes from the previous version")
    summary = models.CharField(max_length=300, blank=True)
    note = models.CharField(max_length=300, blank=True,
                            help_text="what the author said of it when saving it")
    open = models.BooleanField(default=False,
                               help_text="an editing session still gathering the builder's edits")
    edits = models.PositiveIntegerField(default=1, help_text="the writes it gathers")
    created_at = models.DateTimeField(auto_now_add=True)
    # Set by each edit the version gathers (decks.services); a default, not auto_now, so that a
    # backup from before it existed restores (backup.archive).
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="deck_version_number")
        ]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"
