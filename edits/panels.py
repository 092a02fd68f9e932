"""What the card edits add to pages of the apps below them (which never import edits): the
deck page's list of cards whose missing facts keep the deck from goldfish and playtest
(decks.panels), and the home page's cards most needed (cards.extensions)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.http import HttpRequest

from cards.anatomy_display import FIELD_LABELS
from cards.extensions import HomeSection
from cards.models import Card
from decks.models import Deck, DeckCard
from decks.panels import Panel
from decks.validation import catalogue_facts
from rules.decklist import Decklist
from rules.game.profile import unknown_numbers

MOST_NEEDED = 8


def missing_facts_panel(request: HttpRequest, deck: Deck, data: Decklist) -> Panel | None:
    """The deck's cards that the rules engine cannot play yet, each with the facts it lacks."""
    facts = catalogue_facts()
    cards: list[dict[str, Any]] = []
    seen: set[str] = set()
    for _, entry in data.all_entries():
        card = facts.get(entry.card_id)
        if card is None or entry.card_id in seen:
            continue
        seen.add(entry.card_id)
        missing = unknown_numbers(card)
        if missing:
            cards.append({"id": card.id, "name": card.name,
                          "missing": [FIELD_LABELS.get(k, k) for k in missing]})
    if not cards:
        return None
    return Panel("edits/_deck_missing_facts.html", {"missing_facts": cards})


def most_needed(request: HttpRequest) -> dict[str, Any] | None:
    """The real cards not yet complete, those in the most decks first, then those closest to
    complete: where a card owner's transcription helps most."""
    incomplete = list(Card.objects.filter(official=True).exclude(unknown_fields=[])
                      .select_related("set").only("id", "name", "set__code", "set__name",
                                                  "unknown_fields"))
    if not incomplete:
        return None
    in_decks = dict(DeckCard.objects.filter(card_id__in=[c.id for c in incomplete])
                    .values("card_id").annotate(n=Count("deck", distinct=True))
                    .values_list("card_id", "n"))
    incomplete.sort(key=lambda c: (-in_decks.get(c.id, 0), len(c.unknown_fields), c.name))
    return {"needed": [{"card": c, "decks": in_decks.get(c.id, 0),
                        "unknown": len(c.unknown_fields)} for c in incomplete[:MOST_NEEDED]],
            "incomplete": len(incomplete)}


HOME_SECTION = HomeSection("edits/_home_most_needed.html", most_needed)
