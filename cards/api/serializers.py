"""Output serializers for the card API.

The declared fields document the schema (OpenAPI); ``to_representation`` builds the dict
directly from the model, which keeps the hot list path cheap.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.urls import reverse
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from cards.card_data import CARD_KEYS
from cards.card_urls import card_image_urls, card_url
from cards.models import Card, CardSet
from rules import card_anatomy


def _text(help_text: str = "") -> serializers.CharField:
    """A read-only string that is null when the fact is not yet transcribed."""
    return serializers.CharField(allow_null=True, read_only=True, help_text=help_text)


def _number(help_text: str = "") -> serializers.IntegerField:
    """A read-only number that is null when unknown (never 0 for unknown)."""
    return serializers.IntegerField(allow_null=True, read_only=True, help_text=help_text)


class KeywordSerializer(serializers.Serializer[Any]):
    ability = serializers.CharField(help_text="slug of a common ability, e.g. 'worship'")
    exhausts = serializers.BooleanField(help_text="printed with a leading E")
    faction_threshold = serializers.IntegerField(allow_null=True, help_text="the n of (F)n")


class ImagesSerializer(serializers.Serializer[Any]):
    small = serializers.CharField()
    normal = serializers.CharField()
    large = serializers.CharField()


class CardSerializer(serializers.Serializer[Card]):
    """A card with the keys of the card data format (null = unknown) plus derived facts."""

    id = serializers.SlugField(read_only=True)
    name = serializers.CharField(read_only=True)
    set = serializers.CharField(read_only=True, help_text="set code")
    number = _text()
    rarity = _text()
    type = _text()
    subtype = _text()
    faction = _text()
    abilities = _text()
    quotation = _text()
    race = _text()
    gender = _text()
    profession = _text()
    offense = _number()
    defense = _number()
    cost_economic = _number()
    cost_religious = _number()
    cost_political = _number()
    faction_influence = _number()
    vitality = _number()
    strength_economic = _number()
    strength_religious = _number()
    strength_political = _number()
    unique = serializers.BooleanField(allow_null=True, read_only=True)
    aggression = _number()
    residencies = _number()
    cost_generic = _number()
    bounty = _number()
    artist = _text()
    image = _text()
    official = serializers.BooleanField(read_only=True)
    sources = serializers.ListField(child=serializers.CharField(), read_only=True)
    # Derived facts.
    border = _text("stone, metallic or wood")
    pile = _text("structures, personalities or wanderers")
    personality_kind = _text("citizen or troop")
    total_cost = _number()
    unknown_fields = serializers.ListField(
        child=serializers.CharField(), read_only=True,
        help_text="keys that apply to this card but are not yet transcribed",
    )
    keywords = KeywordSerializer(many=True, read_only=True)
    image_status = serializers.ChoiceField(choices=["scan", "rendered"], read_only=True)
    images = ImagesSerializer(read_only=True)
    url = serializers.CharField(read_only=True, help_text="this card in the API")
    page = serializers.CharField(read_only=True, help_text="this card's web page")

    def _keywords(self, instance: Card) -> list[dict[str, Any]]:
        return [
            {"ability": k.ability, "exhausts": k.exhausts, "faction_threshold": k.faction_threshold}
            for k in instance.keywords.all()
        ]

    def to_representation(self, instance: Card) -> dict[str, Any]:
        # One rendering for the list (rows) and the detail (an instance): make the row.
        picture = getattr(instance, "picture", None)
        row = {
            **instance.as_data(),
            "set_code": instance.set.code,
            "total_cost": instance.total_cost,
            "unknown_fields": instance.unknown_fields,
            "picture_status": picture.status if picture else None,
            "picture_hash": picture.source_hash if picture else None,
        }
        return card_row_data(row, self._keywords(instance))


# The columns the card list reads with .values(): skipping model instances (a Card, its set and
# its picture per row) halves the cost of a page.
ROW_FIELDS = (
    *(k for k in CARD_KEYS if k != "set"),
    "total_cost",
    "unknown_fields",
)
ROW_EXPRESSIONS = {
    "set_code": F("set__code"),
    "picture_status": F("picture__status"),
    "picture_hash": F("picture__source_hash"),
}


def card_row_data(row: dict[str, Any], keywords: list[dict[str, Any]]) -> dict[str, Any]:
    """The same document as CardSerializer, from a .values() row."""
    data = {key: row[key] for key in CARD_KEYS if key != "set"}
    data["set"] = row["set_code"]
    data = {key: data[key] for key in CARD_KEYS}
    card_id, card_type = row["id"], row["type"]
    data.update(
        border=card_anatomy.border(card_type),
        pile=card_anatomy.pile(card_type),
        personality_kind=(
            card_anatomy.personality_kind(row["subtype"], row["offense"], row["defense"])
            if card_type == "personality" else None
        ),
        total_cost=row["total_cost"],
        unknown_fields=list(row["unknown_fields"]),
        keywords=keywords,
        image_status=row["picture_status"] or "rendered",
        images=card_image_urls(card_id, row["picture_hash"]),
        url=card_url(card_id, "api"),
        page=card_url(card_id, "page"),
    )
    return data


class CardSetSerializer(serializers.ModelSerializer[CardSet]):
    card_count = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = CardSet
        fields = ["code", "name", "official", "released", "card_count", "url"]

    def get_url(self, obj: CardSet) -> str:
        return reverse("api:card-list") + f"?set={obj.code}"


class AbilityCardSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    set = serializers.CharField()
    exhausts = serializers.BooleanField()
    faction_threshold = serializers.IntegerField(allow_null=True)


class AbilitySerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    category = serializers.ChoiceField(choices=["P", "R", "M", "G"])
    category_name = serializers.CharField()
    reaction = serializers.BooleanField()
    summary = serializers.CharField(help_text="the rule in our own words")
    card_count = serializers.IntegerField()
    cards = AbilityCardSerializer(many=True)


# The page itself, not one item of a paginated list (the list view's default in the schema).
@extend_schema_serializer(many=False)
class CardSearchPageSerializer(serializers.Serializer[Any]):
    """One page of search results, with the query explained."""

    query = serializers.CharField()
    explained = serializers.CharField(help_text="the query in plain English")
    warnings = serializers.ListField(child=serializers.CharField(),
                                     help_text="terms that were ignored, and hints")
    suggestions = serializers.ListField(child=serializers.CharField(),
                                        help_text="close card names when nothing matched")
    count = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = CardSerializer(many=True)
