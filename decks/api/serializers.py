"""Deck API serializers: one for output, one for writes."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from decks.deck_input import MAX_COPIES, MAX_DECKLIST_BYTES, MAX_PART_ENTRIES
from decks.models import Deck
from rules.decklist import MAX_PLAYERS, MIN_PLAYERS, SECTIONS


def decklist_text(**kwargs: Any) -> serializers.CharField:
    """A decklist text field, refused over the decklist's size before anything reads it (the
    line limit is checked where it is read: decks.deck_input.check_decklist_size)."""
    return serializers.CharField(
        max_length=MAX_DECKLIST_BYTES,
        error_messages={"max_length": f"A decklist may be at most {MAX_DECKLIST_BYTES:,} "
                        f"characters ({MAX_DECKLIST_BYTES // 1024} kB)."},
        **kwargs)


class EntrySerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="card id", max_length=100)
    count = serializers.IntegerField(min_value=1, max_value=MAX_COPIES)
    name = serializers.CharField(read_only=True)


def entries(**kwargs: Any) -> Any:
    """One part of a deck as a list of {id, count}: its length is checked before any entry."""
    return EntrySerializer(  # type: ignore[call-arg]  # many=True passes max_length on
        many=True, max_length=MAX_PART_ENTRIES,
        error_messages={"max_length": f"A part of a deck may list at most "
                        f"{MAX_PART_ENTRIES:,} entries."},
        **kwargs)


class DeckSerializer(serializers.ModelSerializer[Deck]):
    """A deck with its four parts. `version` goes up by one on every save."""

    owner = serializers.CharField(source="owner.username", read_only=True)
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()
    counts = serializers.SerializerMethodField()
    holdings = serializers.SerializerMethodField()
    structures = serializers.SerializerMethodField()
    personalities = serializers.SerializerMethodField()
    wanderers = serializers.SerializerMethodField()

    class Meta:
        model = Deck
        fields = [
            "id", "url", "page", "name", "description", "players", "visibility", "sleeved",
            "version", "owner", "created_at", "updated_at", "counts", *SECTIONS,
        ]

    def _entries(self, deck: Deck, section: str) -> list[dict[str, Any]]:
        return [
            {"id": e.card_id, "count": e.count, "name": e.card.name}
            for e in deck.entries.all()
            if e.section == section
        ]

    def get_url(self, deck: Deck) -> str:
        return reverse("api:deck-detail", args=[deck.pk])

    def get_page(self, deck: Deck) -> str:
        return deck.get_absolute_url()

    def get_counts(self, deck: Deck) -> dict[str, int]:
        counts: dict[str, int] = dict.fromkeys(SECTIONS, 0)
        for e in deck.entries.all():
            counts[e.section] += e.count
        return {**counts, "total": sum(counts.values())}

    def get_holdings(self, deck: Deck) -> list[dict[str, Any]]:
        return self._entries(deck, "holdings")

    def get_structures(self, deck: Deck) -> list[dict[str, Any]]:
        return self._entries(deck, "structures")

    def get_personalities(self, deck: Deck) -> list[dict[str, Any]]:
        return self._entries(deck, "personalities")

    def get_wanderers(self, deck: Deck) -> list[dict[str, Any]]:
        return self._entries(deck, "wanderers")


class DeckJsonSerializer(serializers.Serializer[Any]):
    """The JSON decklist (docs/design.md §5): name, players and the four parts as {id, count}."""

    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    players = serializers.IntegerField(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS,
                                       required=False)
    holdings = entries(required=False)
    structures = entries(required=False)
    personalities = entries(required=False)
    wanderers = entries(required=False)


class DeckValidateSerializer(serializers.Serializer[Any]):
    """A decklist to check without saving: `text` (text or JSON format) or `deck` (JSON)."""

    text = decklist_text(required=False)
    deck = DeckJsonSerializer(required=False)
    players = serializers.IntegerField(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS,
                                       required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == ("deck" in attrs):
            raise serializers.ValidationError("Give exactly one of `text` or `deck`.")
        return attrs


class DeckImportSerializer(serializers.Serializer[Any]):
    """A decklist to save: pasted `text` or an uploaded `file`, in any supported format."""

    text = decklist_text(required=False)
    file = serializers.FileField(required=False)
    name = serializers.CharField(max_length=200, required=False,
                                 help_text="instead of the list's own name (a deck code "
                                 "carries none: its name travels beside it)")
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000,
                                        help_text="instead of the list's own description")
    players = serializers.IntegerField(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS,
                                       required=False)
    visibility = serializers.ChoiceField(choices=Deck.VISIBILITY_CHOICES,
                                         required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == ("file" in attrs):
            raise serializers.ValidationError("Give exactly one of `text` or `file`.")
        return attrs


# The import's JSON body, as the schema offers it; the view reads both with the above.
class DeckImportTextSerializer(DeckImportSerializer):
    """A decklist to save, sent as JSON: pasted `text` in any supported format (a `file` is
    uploaded as multipart/form-data)."""

    text = serializers.CharField(max_length=1_000_000)
    file = None  # type: ignore[assignment]


class DeckWriteSerializer(serializers.Serializer[Any]):
    """Create or replace a deck: either a decklist `text` (docs/design.md §5) or the four parts as
    lists of {id, count}. For updates, the deck's current `version` (or an If-Match header)."""

    name = serializers.CharField(max_length=200, required=False,
                                 help_text='a deck without one is "Untitled deck"')
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    players = serializers.IntegerField(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS,
                                       required=False)
    visibility = serializers.ChoiceField(choices=Deck.VISIBILITY_CHOICES,
                                         required=False)
    sleeved = serializers.BooleanField(
        required=False, help_text="built from your cards: its copies are taken out of your "
        "collection for every other deck (see /api/decks/{id}/ownership/)")
    version = serializers.IntegerField(required=False, min_value=1,
                                       help_text="the version this edit is based on")
    text = decklist_text(required=False, help_text="a decklist in the text format")
    holdings = entries(required=False)
    structures = entries(required=False)
    personalities = entries(required=False)
    wanderers = entries(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "text" in attrs and any(s in attrs for s in SECTIONS):
            raise serializers.ValidationError("Give either `text` or the parts, not both.")
        return attrs


class DeckVersionSerializer(serializers.Serializer[Any]):
    """One saved version of a deck and what changed from the version before."""

    number = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    summary = serializers.CharField()
    author = serializers.CharField(source="author.username", allow_null=True,
                                   help_text="null when the author's account is gone")
    diff = serializers.JSONField(help_text="the changes from the version before")
