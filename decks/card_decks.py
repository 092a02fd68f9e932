"""The decks that use a card, for the card's page (registered as a section of it in
DecksConfig.ready): the public ones and the visitor's own, most recently changed first."""

from __future__ import annotations

from typing import Any, Final

from django.db.models import Q, Sum

from cards.extensions import CardSection
from cards.models import Card
from decks.models import Deck

SHOWN: Final = 12


def decks_using(request: Any, card: Card) -> dict[str, Any] | None:
    """What the section shows: up to SHOWN decks with the copies of the card each holds, and
    how many there are in all; None when no deck the visitor may list uses it (another's
    unlisted deck is reached by its link only, so it is never listed)."""
    user = request.user
    listed = Q(visibility=Deck.PUBLIC) | Q(owner=user) if user.is_authenticated \
        else Q(visibility=Deck.PUBLIC)
    decks = (Deck.objects.filter(listed, entries__card_id=card.id)
             .annotate(copies=Sum("entries__count", filter=Q(entries__card_id=card.id)))
             .select_related("owner").order_by("-updated_at", "-id"))
    total = decks.count()
    if not total:
        return None
    return {"decks": list(decks[:SHOWN]), "total": total, "card": card}


SECTION: Final = CardSection("decks/_card_decks.html", decks_using)
