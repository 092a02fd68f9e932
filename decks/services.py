"""Writes to decks, and the one adapter between deck models and the pure deck
dataclasses."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from cards.models import Card
from decks.diff import deck_diff
from decks.formats.json_format import deck_to_dict
from decks.formats.model import SECTIONS, CardRef, DeckEntry
from decks.formats.model import Deck as DeckData
from decks.formats.text import CatalogueResolver
from decks.models import Deck, DeckCard, DeckVersion

SAMPLE_OWNER = "samples"


def catalogue_cards() -> list[CardRef]:
    return [
        CardRef(id=i, name=n, type=t, faction=f)
        for i, n, t, f in Card.objects.order_by("id").values_list("id", "name", "type", "faction")
    ]


def catalogue_resolver() -> CatalogueResolver:
    """Resolves decklist names against the whole catalogue (one query)."""
    return CatalogueResolver(catalogue_cards())


def deck_data(deck: Deck) -> DeckData:
    """The model as the pure dataclass every format and rule works on."""
    entries = list(deck.entries.order_by("position"))
    parts: dict[str, Any] = {
        section: tuple(DeckEntry(e.card_id, e.count) for e in entries if e.section == section)
        for section in SECTIONS
    }
    return DeckData(
        name=deck.name, players=deck.players, description=deck.description, **parts
    )


@transaction.atomic
def deck_save(*, owner: Any, data: DeckData, deck: Deck | None = None,
              visibility: str = Deck.PRIVATE, author: Any = None) -> Deck:
    """Create a deck, or replace an existing deck's content; every save is a new version
    that keeps the whole deck and its diff from the version before."""
    before: DeckData | None = None
    if deck is None:
        deck = Deck(owner=owner, visibility=visibility, version=1)
    else:
        before = deck_data(deck)
        deck.version += 1
        deck.entries.all().delete()
    deck.name = data.name
    deck.players = data.players
    deck.description = data.description
    deck.full_clean(exclude=["owner"])
    deck.save()
    DeckCard.objects.bulk_create(
        DeckCard(deck=deck, section=section, card_id=entry.card_id, count=entry.count,
                 position=position)
        for position, (section, entry) in enumerate(data.all_entries())
    )
    diff = deck_diff(before, data)
    DeckVersion.objects.create(
        deck=deck, number=deck.version, author=author or owner, snapshot=deck_to_dict(data),
        diff=diff.to_dict(), summary=diff.summary()[:300],
    )
    return deck


def sample_owner() -> Any:
    user, created = get_user_model().objects.get_or_create(username=SAMPLE_OWNER)
    if created:
        user.set_unusable_password()
        user.save()
    return user


def sample_deck_load(data: DeckData) -> tuple[Deck, bool]:
    """Create or refresh a public sample deck by name; True when something changed."""
    owner = sample_owner()
    existing = Deck.objects.filter(owner=owner, name=data.name).first()
    if existing is not None and deck_data(existing) == data:
        return existing, False
    return deck_save(owner=owner, data=data, deck=existing, visibility=Deck.PUBLIC), True


def deck_clone(*, deck: Deck, owner: Any) -> Deck:
    """A private copy of a deck for ``owner``, starting its own history."""
    data = deck_data(deck)
    copy_name = data.name if deck.owner_id != owner.pk else f"{data.name} (copy)"
    return deck_save(owner=owner, data=replace(data, name=copy_name))


def deck_set_sleeved(*, deck: Deck, sleeved: bool) -> Deck:
    """Mark a deck as built from real cards (or not). Not a change of the decklist, so no new
    version; the collection's allocation follows from it (collection.allocation)."""
    if deck.sleeved != sleeved:
        deck.sleeved = sleeved
        deck.save(update_fields=["sleeved"])
    return deck
