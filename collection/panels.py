"""What the collection adds to other apps' pages through their extension points: the owned
copies beside every card (cards.extensions), and on deck pages what my collection holds of the
deck and the public decks I could build (decks.panels)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest

from cards.extensions import CardControl
from collection.ownership import PublicDeckFilters, deck_ownership, public_decks_for, with_owned
from decks.models import Deck
from decks.panels import Panel
from rules.decklist import Decklist

CARD_CONTROL = CardControl(
    heading="Owned",
    tile="collection/_card_tile_control.html",
    detail="collection/_card_detail_control.html",
    annotate=with_owned,
)


def ownership_panel(request: HttpRequest, deck: Deck, data: Decklist) -> Panel | None:
    """The deck against the visitor's collection, for signed-in visitors."""
    if not request.user.is_authenticated:
        return None
    return Panel("collection/_ownership.html",
                 {"ownership": deck_ownership(request.user, deck, data)})


def builder_ownership_panel(request: HttpRequest, deck: Deck, data: Decklist) -> Panel | None:
    panel = ownership_panel(request, deck, data)
    return Panel(panel.template, {**panel.context, "back": "builder"}) if panel else None


def public_decks(request: HttpRequest, public: QuerySet[Deck]) -> dict[str, Any]:
    """For a signed-in visitor, each public deck with the copies their collection lacks, and
    the filters by it."""
    if not request.user.is_authenticated:
        return {}
    filters = PublicDeckFilters(request.GET or None)
    return {"public": public_decks_for(request.user, public, filters), "filters": filters}
