"""A playtest game: a deck played by hand, refereed by the engine (docs/playtest.md), solo or
against AI opponents.

The table keeps the name it had when playtest lived in the decks app (the move, issue 16,
copied no table: migration 0001 of this app adopts it).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse

from decks.formats.json_format import deck_from_dict
from playtest.table_play import TableSource
from rules.game.config import GameConfig


class PlaytestGame(models.Model):
    """The game is its source (each seat's deck and card facts, options, seed) and the
    player's actions: the table (solo: a table of one, playtest.table_play) replays them
    exactly. ``state`` is the player's seat's JSON engine state after the last action (a
    solo game's is the solo engine's); ``decisions`` equals the number of actions. Private
    to its owner, or, for a visitor without an account, to the session holding
    ``session_token``; ``share_token`` set means anyone with the link may watch it."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.CASCADE, related_name="playtest_games")
    session_token = models.CharField(max_length=43, blank=True, db_index=True)
    source_deck = models.ForeignKey("decks.Deck", null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="playtest_games")
    deck_name = models.CharField(max_length=200)
    deck_text = models.TextField(help_text="the decklist as text, to read and to play again")
    deck = models.JSONField(help_text="the deck as played (JSON decklist shape), holdings chosen")
    opponents = models.JSONField(
        default=list, blank=True,
        help_text="the AI opponents, seat 2 on (empty: a solo game): each its name, source "
                  "deck id, decklist text, deck as played and card facts")
    seed = models.BigIntegerField()
    config = models.JSONField(help_text="the engine's options: target, players, round cap...")
    actions = models.JSONField(default=list, help_text="every action applied, in order")
    state = models.JSONField(help_text="the engine's state after the last action")
    decisions = models.PositiveIntegerField(default=0)
    round = models.PositiveIntegerField(default=1)
    outcome = models.CharField(max_length=20, blank=True)
    share_token = models.CharField(max_length=43, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "decks_playtestgame"
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(owner__isnull=False) | ~models.Q(session_token=""),
                name="playtest_game_has_an_owner_or_a_session",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.deck_name} (seed {self.seed})"

    def get_absolute_url(self) -> str:
        return reverse("playtest:game", args=[self.pk])

    @property
    def at_table(self) -> bool:
        """Played against AI opponents, not solo (a table of one)."""
        return bool(self.opponents)

    def seat_names(self) -> list[str]:
        """The deck in each seat: the player's first."""
        return [self.deck_name, *(o["name"] for o in self.opponents)]

    def table_source(self) -> TableSource:
        """What the game replays from: the player's deck, then the opponents' (solo: a
        table of one)."""
        facts = [self.player_facts, *(o["facts"] for o in self.opponents)]
        decks = [deck_from_dict(self.deck), *(deck_from_dict(o["deck"]) for o in self.opponents)]
        return TableSource(tuple(decks), tuple(facts), GameConfig.from_dict(self.config),
                           self.seed)

    @property
    def player_facts(self) -> dict[str, Any]:
        facts: dict[str, Any] = self.state["facts"]
        return facts
