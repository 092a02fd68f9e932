"""Simulation runs: many seeded games of one deck (goldfish) or of decks against decks
(matchup, gauntlet, matrix), played in the background in leased chunks (docs/architecture.md,
"Simulation runs").

One model for every kind of run: the kinds differ in what a chunk plays and how the report is
built (simulations.plays), not in how the work is shared out, leased or recovered."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse

from decks.models import Deck
from rules.game.gauntlet import pairings


class SimulationRun(models.Model):
    """N games of the run's decks by the rules engine, in chunks (SimulationChunk). The decks
    and the facts of their cards are stored as they were read, so every chunk plays the same
    cards even if the catalogue changes meanwhile; a run is found again by its contents hash,
    kind and options (asking twice returns the stored run)."""

    GOLDFISH = "goldfish"
    MATCHUP = "matchup"
    GAUNTLET = "gauntlet"
    MATRIX = "matrix"
    KIND_CHOICES = [(GOLDFISH, "Goldfish"), (MATCHUP, "Matchup"), (GAUNTLET, "Gauntlet"),
                    (MATRIX, "Matrix")]
    #: The kinds of decks against decks: the matchups API and pages, one limit between them.
    TABLE_KINDS = (MATCHUP, GAUNTLET, MATRIX)

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

    # A random id: a run's page shows its decks, so its URL must not be guessable.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.CASCADE, related_name="simulation_runs")
    # Whom the run counts against for the limits (simulations.run_limits.requester_key).
    requester = models.CharField(max_length=80)
    # The deck whose page started the run (its pages list it), if any, and its version.
    deck = models.ForeignKey(Deck, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="simulation_runs")
    deck_version = models.PositiveIntegerField(null=True, blank=True)
    deck_names = models.JSONField(help_text="the decks' names as the report shows them")
    decklists = models.JSONField(help_text="the decks in the JSON decklist shape, seat order")
    card_facts = models.JSONField(help_text="per deck, the facts of its cards as read")
    contents_hash = models.CharField(max_length=64)
    games = models.PositiveIntegerField(help_text="games per pairing (a run of one table: all)")
    seed = models.BigIntegerField()
    policy = models.CharField(max_length=80)
    target = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    round_cap = models.PositiveSmallIntegerField()
    rules_version = models.CharField(max_length=60)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=QUEUED)
    chunks_total = models.PositiveIntegerField()
    chunks_done = models.PositiveIntegerField(default=0)
    games_done = models.PositiveIntegerField(default=0)
    # The report as JSON text, not a JSONField: PostgreSQL's jsonb would reorder its keys, and
    # the report must read exactly as the command prints it.
    report_json = models.TextField(blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the run's next watchdog task is due (simulations.chunks): it re-leases the chunks
    # of workers that died.
    watch_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["requester", "status"], name="simulation_requester"),
                   models.Index(fields=["kind", "contents_hash"], name="simulation_contents")]
        constraints = [
            # At most one reusable run per kind, deck contents and options; a failed or
            # cancelled run may be asked for again.
            models.UniqueConstraint(
                fields=["kind", "contents_hash", "rules_version", "policy", "target", "players",
                        "round_cap", "games", "seed"],
                condition=models.Q(status__in=["queued", "running", "done"]),
                name="simulation_reusable_once",
            ),
            models.CheckConstraint(condition=models.Q(games__gte=1), name="simulation_games"),
        ]

    def __str__(self) -> str:
        kind = ("" if self.kind in (self.GOLDFISH, self.MATCHUP)
                else f"{self.get_kind_display()} of ")
        return (f"{kind}{' v '.join(self.deck_names) or 'deck'}: {self.games} games, "
                f"seed {self.seed} ({self.status})")

    def get_absolute_url(self) -> str:
        name = "goldfish:report" if self.kind == self.GOLDFISH else "matchups:report"
        return reverse(name, args=[self.pk])

    @property
    def active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def report(self) -> dict[str, Any] | None:
        return json.loads(self.report_json) if self.report_json else None

    @property
    def deck_name(self) -> str:
        """A goldfish run's deck (or the first deck of a table)."""
        return self.deck_names[0] if self.deck_names else ""

    @property
    def mode(self) -> str:
        """The ``mode`` of the matchup API and command: matchup, gauntlet or matrix."""
        return self.kind

    @property
    def pairs(self) -> Sequence[tuple[int, ...]]:
        """The tables the run plays: one of every deck for goldfish or a matchup, else the
        pairings of a gauntlet or matrix (rules.game.gauntlet)."""
        if self.kind in (self.GOLDFISH, self.MATCHUP):
            return [tuple(range(len(self.decklists)))]
        return pairings(len(self.decklists), self.kind)

    @property
    def total_games(self) -> int:
        """Games over all the pairings (``games`` is per pairing)."""
        return self.games * len(self.pairs)

    @property
    def progress(self) -> dict[str, int]:
        """As each API has always said it: goldfish in chunks, matchups in games."""
        if self.kind == self.GOLDFISH:
            return {"chunks_done": self.chunks_done, "chunks_total": self.chunks_total}
        return {"games_done": self.games_done, "games": self.total_games}


class SimulationChunk(models.Model):
    """Games ``first..last`` of pairing ``pairing`` of a run: leased to one worker until
    ``lease_expires``, then free again (the worker died); the tally is the first completed
    result, kept once."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    SKIPPED = "skipped"  # the run was cancelled or failed first
    STATUS_CHOICES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done"),
                      (SKIPPED, "Skipped")]

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    pairing = models.PositiveSmallIntegerField(default=0)
    first = models.PositiveIntegerField()
    last = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=QUEUED)
    lease_owner = models.CharField(max_length=100, blank=True)
    lease_expires = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # JSON text, not a JSONField: the tallies' card keys keep the order the games met them
    # in (jsonb would sort them), and the report lists cards in that order.
    tally_json = models.TextField(blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="simulation_chunk_index"),
        ]
        indexes = [models.Index(fields=["run", "status"], name="simulation_chunk_status")]

    def __str__(self) -> str:
        return f"{self.run_id} #{self.index} ({self.status})"

    @property
    def games(self) -> int:
        return self.last - self.first + 1

    @property
    def tally(self) -> dict[str, Any] | None:
        """The tally as data (``Tally.to_dict`` or ``simulations.tallies``), once done."""
        return json.loads(self.tally_json) if self.tally_json else None
