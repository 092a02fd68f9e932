"""Collection API serializers: the collection as it is, the writes, the CSV import, and a
deck's ownership figures."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from collection.csv_format import MAX_COPIES, MAX_FILE_BYTES


def _count(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=MAX_COPIES, required=False,
                                    help_text=help_text)


class CollectionCardSerializer(serializers.Serializer[Any]):
    """Copies of one card. In a PUT an omitted count is 0; in a PATCH it keeps its value.
    A card whose counts are all 0 is removed."""

    id = serializers.CharField(help_text="card id")
    name = serializers.CharField(read_only=True)
    owned = _count("copies owned")
    want = _count("copies wanted")
    trade = _count("copies offered for trade")


class CollectionTotalsSerializer(serializers.Serializer[Any]):
    cards = serializers.IntegerField(help_text="cards with at least one owned copy")
    copies = serializers.IntegerField(help_text="owned copies")
    want = serializers.IntegerField()
    trade = serializers.IntegerField()


class SetTotalSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    name = serializers.CharField()
    cards = serializers.IntegerField(help_text="cards of the set in the catalogue")
    owned = serializers.IntegerField(help_text="of those, cards with an owned copy")
    copies = serializers.IntegerField(help_text="owned copies of the set's cards")
    playsets = serializers.IntegerField(help_text="cards with at least two owned copies")


class CollectionSerializer(serializers.Serializer[Any]):
    """A collection. `version` goes up by one on every change."""

    owner = serializers.CharField()
    version = serializers.IntegerField()
    page = serializers.CharField(help_text="the collection page (your own) or the shared page")
    shared_url = serializers.CharField(allow_null=True,
                                       help_text="the read-only link, or null when private")
    totals = CollectionTotalsSerializer()
    sets = SetTotalSerializer(many=True, help_text="totals per set")
    cards = CollectionCardSerializer(many=True)


class CollectionWriteSerializer(serializers.Serializer[Any]):
    """PUT: the whole collection (every card not listed is removed). PATCH: only the cards
    listed change. Either names the version it is based on (or sends If-Match)."""

    version = serializers.IntegerField(required=False, min_value=1,
                                       help_text="the version this edit is based on")
    cards = CollectionCardSerializer(many=True)


class CollectionImportSerializer(serializers.Serializer[Any]):
    """A collection CSV (`id,name,owned,want,trade`), pasted as `text` or uploaded as
    `file`. `mode`: `set` changes only the cards in the file, `replace` also removes every
    other card. A `version` (or If-Match) is checked if given."""

    text = serializers.CharField(required=False, max_length=MAX_FILE_BYTES, trim_whitespace=False)
    file = serializers.FileField(required=False)
    mode = serializers.ChoiceField(choices=["set", "replace"], default="set")
    version = serializers.IntegerField(required=False, min_value=1)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == ("file" in attrs):
            raise serializers.ValidationError("Give exactly one of `text` or `file`.")
        return attrs


# The import's JSON body, as the schema offers it; the view reads both with the above.
class CollectionImportTextSerializer(CollectionImportSerializer):
    """A collection CSV (`id,name,owned,want,trade`) sent as JSON: pasted `text` (a `file` is
    uploaded as multipart/form-data). `mode` and `version` as in the upload."""

    text = serializers.CharField(max_length=1_000_000, trim_whitespace=False)
    file = None  # type: ignore[assignment]


class ShareSerializer(serializers.Serializer[Any]):
    shared_url = serializers.CharField()


class OwnershipCardSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    needed = serializers.IntegerField(help_text="copies in the deck, all parts together")
    owned = serializers.IntegerField(help_text="copies in your collection")
    in_sleeved_decks = serializers.IntegerField(
        help_text="of those, copies held by your other sleeved decks")
    have = serializers.IntegerField(help_text="copies this deck can use")
    missing = serializers.IntegerField()


class DeckOwnershipSerializer(serializers.Serializer[Any]):
    """A deck against your collection: can you build it now, and what is missing."""

    deck = serializers.IntegerField()
    buildable = serializers.BooleanField()
    needed = serializers.IntegerField()
    have = serializers.IntegerField()
    missing = serializers.IntegerField()
    sleeved = serializers.BooleanField(
        help_text="the deck is one of your sleeved decks: it counts the copies allocated to it")
    cards = OwnershipCardSerializer(many=True)
