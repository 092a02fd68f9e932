"""Whom a deck may be matched against on its page: the sample decks, the public decks of
others, and the visitor's own decks (each saved deck they may read)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from decks.models import Deck
from decks.services import SAMPLE_OWNER, readable_decks

#: Opponents at one table besides the deck itself (a matchup seats 2 to 6).
MAX_OPPONENTS = 5


@dataclass(frozen=True)
class OpponentGroup:
    label: str
    decks: list[Deck]


def opponent_groups(user: Any, deck: Deck) -> list[OpponentGroup]:
    """The groups the Matchups panel offers, each sorted by name; the deck itself is left out
    (it always sits at the table), and empty groups too."""
    readable = readable_decks(user).exclude(pk=deck.pk).select_related("owner")
    samples = list(readable.filter(owner__username=SAMPLE_OWNER, visibility=Deck.PUBLIC)
                   .order_by("name", "id"))
    public = readable.filter(visibility=Deck.PUBLIC).exclude(owner__username=SAMPLE_OWNER)
    if user.is_authenticated:
        public = public.exclude(owner=user)
    mine = (list(readable.filter(owner=user).order_by("name", "id"))
            if user.is_authenticated else [])
    groups = [OpponentGroup("Sample decks", samples),
              OpponentGroup("Public decks", list(public.order_by("name", "id"))),
              OpponentGroup("My decks", mine)]
    return [group for group in groups if group.decks]
