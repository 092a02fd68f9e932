"""Goldfish runs: a deck played solo N times in the background, in leased chunks
(docs/goldfish.md).

The tables keep the names they had when goldfish lived in the decks app (the move, issue 16,
copied no table: migration 0001 of this app adopts them)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse

from decks.models import Deck


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
    # When the run's next watchdog task is due (goldfish.runs): it re-leases the chunks
    # of workers that died.
    watch_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "decks_goldfishrun"
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
        db_table = "decks_goldfishchunk"
        ordering = ["run", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="goldfish_chunk_index"),
        ]
        indexes = [models.Index(fields=["run", "status"], name="goldfish_chunk_status")]

    def __str__(self) -> str:
        return f"{self.run_id} #{self.index} ({self.status})"
