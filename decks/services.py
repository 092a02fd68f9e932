"""Writes to decks, and the one adapter between deck models and the pure deck
dataclasses."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from cards.models import Card
from decks.diff import deck_diff
from decks.formats.card_refs import CardRef
from decks.formats.json_format import deck_from_dict, deck_to_dict
from decks.formats.text import NEAR_MATCH, CatalogueResolver
from decks.models import Deck, DeckCard, DeckVersion
from rules.decklist import SECTIONS, DeckEntry, Decklist

SAMPLE_OWNER = "samples"


def catalogue_cards() -> list[CardRef]:
    return [
        CardRef(id=i, name=n, type=t, faction=f)
        for i, n, t, f in Card.objects.order_by("id").values_list("id", "name", "type", "faction")
    ]


def catalogue_resolver(*, near: bool = False) -> CatalogueResolver:
    """Resolves decklist names against the whole catalogue (one query); ``near``: a name
    within a slip of the pen of one card's is read as it (the import page, which says so)."""
    return CatalogueResolver(catalogue_cards(), near=NEAR_MATCH if near else None)


def deck_data(deck: Deck) -> Decklist:
    """The model as the pure dataclass every format and rule works on."""
    entries = list(deck.entries.order_by("position"))
    parts: dict[str, Any] = {
        section: tuple(DeckEntry(e.card_id, e.count) for e in entries if e.section == section)
        for section in SECTIONS
    }
    return Decklist(
        name=deck.name, players=deck.players, description=deck.description, **parts
    )


# An editing session ends after this long without an edit (docs/decks.md "Versions").
SESSION_IDLE = timedelta(minutes=30)


@transaction.atomic
def deck_save(*, owner: Any, data: Decklist, deck: Deck | None = None,
              visibility: str = Deck.PRIVATE, author: Any = None, session: bool = False) -> Deck:
    """Create a deck, or replace an existing deck's content. The deck's ``version`` goes up on
    every save (the optimistic check of every edit reads it); a new version of its history,
    which keeps the whole deck and its diff from the version before, is made by every save but
    the builder's (``session``): those amend the open version of the sitting, if there is one
    (models.DeckVersion)."""
    author = author or owner
    before: Decklist | None = None
    sitting: DeckVersion | None = None
    if deck is None:
        deck = Deck(owner=owner, visibility=visibility, version=1)
    else:
        before = deck_data(deck)
        sitting = _open_session(deck, author) if session else None
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
    if sitting is not None:
        _amend(sitting, deck, data)
        return deck
    # Any other write closes the sitting before it: the open version is no longer the latest.
    DeckVersion.objects.filter(deck=deck, open=True).update(open=False)
    diff = deck_diff(before, data)
    DeckVersion.objects.create(
        deck=deck, number=deck.version, author=author, snapshot=deck_to_dict(data),
        diff=diff.to_dict(), summary=diff.summary()[:300], open=session,
    )
    return deck


def _open_session(deck: Deck, author: Any) -> DeckVersion | None:
    """The version this builder edit belongs to: the deck's latest, if it is still open, by
    the same author and edited less than SESSION_IDLE ago; None for a new one."""
    latest = DeckVersion.objects.filter(deck=deck, number=deck.version, open=True).first()
    if latest is None:
        return None
    if latest.author_id != author.pk or timezone.now() - latest.updated_at > SESSION_IDLE:
        latest.open = False
        latest.save(update_fields=["open"])
        return None
    return latest


def _amend(sitting: DeckVersion, deck: Deck, data: Decklist) -> None:
    """One more edit in the sitting: its version becomes the deck as it now is, renumbered to
    the deck's version, with the changes of the whole sitting (from the version before it)."""
    base = (DeckVersion.objects.filter(deck=deck, number__lt=sitting.number)
            .order_by("-number").values_list("snapshot", flat=True).first())
    diff = deck_diff(deck_from_dict(base) if base is not None else None, data)
    changes = diff.to_dict()
    visibility = (sitting.diff or {}).get("fields", {}).get("visibility")
    if visibility is not None:  # said by an earlier edit of the sitting (not in the snapshot)
        changes["fields"]["visibility"] = visibility
    sitting.number = deck.version
    sitting.snapshot = deck_to_dict(data)
    sitting.diff = changes
    sitting.summary = version_summary(changes, diff.summary())
    sitting.edits += 1
    sitting.updated_at = timezone.now()
    sitting.save()


def version_summary(changes: dict[str, Any], cards_summary: str) -> str:
    """The one-line summary of a version's changes (visibility is not a change of content, so
    deck_diff does not see it)."""
    parts = ["visibility changed"] if "visibility" in changes.get("fields", {}) else []
    if cards_summary != "no changes" or not parts:
        parts.append(cards_summary)
    return ", ".join(parts)[:300]


def deck_version_save(*, deck: Deck, note: str) -> DeckVersion | None:
    """Close the deck's open sitting as a version with ``note`` (the builder's Save); None
    when nothing is open. With nothing open, a note still goes to the latest version if that
    one has none yet."""
    latest = DeckVersion.objects.filter(deck=deck, number=deck.version).first()
    if latest is None or not (latest.open or (note and not latest.note)):
        return None
    latest.open = False
    latest.updated_at = timezone.now()
    if note:
        latest.note = note[:300]
    latest.save(update_fields=["open", "note", "updated_at"])
    return latest


def sample_owner() -> Any:
    user, created = get_user_model().objects.get_or_create(username=SAMPLE_OWNER)
    if created:
        user.set_unusable_password()
        user.save()
    return user


def sample_deck_load(data: Decklist) -> tuple[Deck, bool]:
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


def readable_decks(user: Any, links: Iterable[str] = ()) -> Any:
    """The saved decks ``user`` may read (and so run or play against): Deck.visible_to, the
    one visibility rule (an unlisted deck of another only through its link's token)."""
    return Deck.visible_to(user, links)
