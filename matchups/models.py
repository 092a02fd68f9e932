"""Matchup runs: 2 to 6 decks played against one another N times in the background
(docs/matchups.md), the report of the ``matchup`` command when done."""

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


class MatchupRun(models.Model):
    """N games of 2 to 6 decks at one table, one seat each, the seats rotating. The decks and
    the facts of their cards are stored as they were read, so a run restarted after its worker
    died plays the same cards; the same decks and options find the stored run again."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"
    STATUS_CHOICES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done"),
                      (FAILED, "Failed"), (CANCELLED, "Cancelled")]
    ACTIVE = (QUEUED, RUNNING)
    REUSABLE = (QUEUED, RUNNING, DONE)

    # A random id: a run's page shows its decks, so its URL must not be guessable.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.CASCADE, related_name="matchup_runs")
    # Whom the run counts against for the limits (sitewide.background_runs.requester_key).
    requester = models.CharField(max_length=80)
    # The deck whose page started the run (its Matchups panel lists it), if any.
    deck = models.ForeignKey(Deck, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="matchup_runs")
    # "matchup": every deck at one table (docs/design.md §14); "gauntlet", "matrix": 2-player
    # matchups of the decks (rules.game.gauntlet), ``games`` each.
    mode = models.CharField(max_length=10, default="matchup",
                            choices=[("matchup", "Matchup"), ("gauntlet", "Gauntlet"),
                                     ("matrix", "Matrix")])
    deck_names = models.JSONField(help_text="the decks' names as the report shows them")
    decklists = models.JSONField(help_text="the decks in the JSON decklist shape, seat order")
    card_facts = models.JSONField(help_text="per deck, the facts of its cards as read")
    contents_hash = models.CharField(max_length=64)
    games = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    policy = models.CharField(max_length=80)
    target = models.PositiveSmallIntegerField()
    round_cap = models.PositiveSmallIntegerField()
    rules_version = models.CharField(max_length=60)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=QUEUED)
    games_done = models.PositiveIntegerField(default=0)
    # JSON text, not a JSONField: jsonb would reorder the keys of the §14 report.
    report_json = models.TextField(blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Held by the worker playing the run, renewed every 5 s by its heartbeat; once it has
    # expired (the worker died) whoever looks at the run queues it again (matchups.runs).
    # While queued: when a look may queue it again if no worker has taken it.
    lease_expires = models.DateTimeField(null=True, blank=True)
    # The tallies of the games played so far (``games_done``), one per pairing begun
    # (matchups.tallies), stored with the progress after every chunk: a worker that takes the
    # run over goes on from there. JSON text, so that the tallies' keys keep their order.
    played_json = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["requester", "status"], name="matchup_run_requester")]
        constraints = [
            models.UniqueConstraint(
                fields=["contents_hash", "mode", "rules_version", "policy", "target",
                        "round_cap", "games", "seed"],
                condition=models.Q(status__in=["queued", "running", "done"]),
                name="matchup_run_reusable_once",
            ),
            models.CheckConstraint(condition=models.Q(games__gte=1), name="matchup_run_games"),
        ]

    def __str__(self) -> str:
        kind = "" if self.mode == "matchup" else f"{self.get_mode_display()} of "
        return f"{kind}{' v '.join(self.deck_names)}: {self.games} games, seed {self.seed}"

    def get_absolute_url(self) -> str:
        return reverse("matchups:report", args=[self.pk])

    @property
    def active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def report(self) -> dict[str, Any] | None:
        return json.loads(self.report_json) if self.report_json else None

    @property
    def pairs(self) -> Sequence[tuple[int, ...]]:
        """The tables the run plays: one of every deck for a matchup, else its pairings."""
        if self.mode == "matchup":
            return [tuple(range(len(self.deck_names)))]
        return pairings(len(self.deck_names), self.mode)

    @property
    def total_games(self) -> int:
        """Games over all the pairings (``games`` is per pairing)."""
        return self.games * len(self.pairs)

    @property
    def progress(self) -> dict[str, int]:
        return {"games_done": self.games_done, "games": self.total_games}
