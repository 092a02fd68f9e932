"""The filters of the edit queue's page (/edits/) that need more than a field's equality."""

from __future__ import annotations

from django.db.models import Q

from cards.models import Card
from edits.models import Edit


def edits_of_cards_named(text: str) -> Q:
    """The edits the queue's card filter names: those of the card with this id, of any card
    whose name holds every word of it (any case), and the new cards proposed under such a
    name. A reviewer knows a card by its name, rarely by its id."""
    words = text.split()
    if not words:
        return Q()
    named, proposed = Q(), Q()
    for word in words:
        named &= Q(name__icontains=word)
        proposed &= Q(changes__name__icontains=word)
    return (Q(card_slug=text.strip().lower())
            | Q(card_slug__in=Card.objects.filter(named).values("id"))
            | (Q(kind=Edit.NEW_CARD) & proposed))
