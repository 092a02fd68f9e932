"""Decks: an owner's named list of cards in the four parts of DESIGN §5; each user's
collection, the physical cards they own (docs/collection.md); and goldfish runs, a deck played
solo N times in the background (docs/goldfish.md)."""

from __future__ import annotations

import json
import uuid
from typing import Any

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


class GoldfishRun(models.Model):
    """N solo games of one deck by the rules engine, played in the background in chunks
    (docs/goldfish.md). The deck and the facts of its cards are stored as they were read, so
    every chunk plays the same cards even if the catalogue changes meanwhile; a run is found
    again by its contents hash and options (asking twice returns the stored run)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"
    STATUS_CHOICES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done"),
                      (FAILED, "Failed"), (CANCELLED, "Cancelled")]
    ACTIVE = (QUEUED, RUNNING)
    # Runs that answer a repeated request: everything but failed and cancelled ones.
    REUSABLE = (QUEUED, RUNNING, DONE)

    # A random id: a run's page shows its deck, so its URL must not be guessable.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.CASCADE, related_name="goldfish_runs")
    # Whom the run counts against for the limits: "user:<id>", or "anon:<hash of the address>".
    requester = models.CharField(max_length=80)
    deck = models.ForeignKey(Deck, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="goldfish_runs")
    deck_version = models.PositiveIntegerField(null=True, blank=True)
    deck_name = models.CharField(max_length=200, blank=True)
    decklist = models.JSONField(help_text="the deck in the JSON decklist shape")
    card_facts = models.JSONField(help_text="the facts of its cards, as the engine read them")
    contents_hash = models.CharField(max_length=64)
    games = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    policy = models.CharField(max_length=20)
    target = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    round_cap = models.PositiveSmallIntegerField()
    rules_version = models.CharField(max_length=60)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=QUEUED)
    chunks_total = models.PositiveIntegerField()
    chunks_done = models.PositiveIntegerField(default=0)
    # The report as JSON text, not a JSONField: PostgreSQL's jsonb would reorder its keys, and
    # the report must read exactly as the goldfish command prints it.
    report_json = models.TextField(blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the run's next watchdog task is due (decks.goldfish_jobs): it re-leases the chunks
    # of workers that died.
    watch_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["requester", "status"], name="goldfish_run_requester")]
        constraints = [
            # At most one reusable run per deck contents and options; a failed or cancelled run
            # may be asked for again.
            models.UniqueConstraint(
                fields=["contents_hash", "rules_version", "policy", "target", "players",
                        "round_cap", "games", "seed"],
                condition=models.Q(status__in=["queued", "running", "done"]),
                name="goldfish_run_reusable_once",
            ),
            models.CheckConstraint(condition=models.Q(games__gte=1), name="goldfish_run_games"),
        ]

    def __str__(self) -> str:
        return f"{self.deck_name or 'deck'}: {self.games} games, seed {self.seed} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("goldfish:report", args=[self.pk])

    @property
    def active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def report(self) -> dict[str, Any] | None:
        return json.loads(self.report_json) if self.report_json else None

    @property
    def progress(self) -> dict[str, int]:
        return {"chunks_done": self.chunks_done, "chunks_total": self.chunks_total}


class GoldfishChunk(models.Model):
    """Games ``first..last`` of a run: leased to one worker until ``lease_expires``, then free
    again (the worker died); ``tally`` is the first completed result, kept once."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    SKIPPED = "skipped"  # the run was cancelled or failed first
    STATUS_CHOICES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done"),
                      (SKIPPED, "Skipped")]

    run = models.ForeignKey(GoldfishRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    first = models.PositiveIntegerField()
    last = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=QUEUED)
    lease_owner = models.CharField(max_length=100, blank=True)
    lease_expires = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    tally = models.JSONField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="goldfish_chunk_index"),
        ]
        indexes = [models.Index(fields=["run", "status"], name="goldfish_chunk_status")]

    def __str__(self) -> str:
        return f"{self.run_id} #{self.index} ({self.status})"
