"""The card catalogue: sets, cards, their parsed keywords, images and edit history."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from cards.card_data import CARD_KEYS
from cards.card_urls import card_tile_urls, card_url
from rules import card_anatomy
from rules.abilities import AbilityClause, parse_abilities


class CardSet(models.Model):
    code = models.CharField(max_length=16, unique=True)
    name = models.CharField(max_length=200)
    official = models.BooleanField(
        help_text="False for fictional sets such as the Demo set, labelled on every page."
    )
    released = models.DateField(null=True, blank=True)
    size = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="The declared number of cards (War of Factions: 220): the set's checklist "
        "shows every number from 1 to this. Empty when unknown.",
    )

    class Meta:
        ordering = ["-official", "code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


RARITY_CHOICES = list(card_anatomy.RARITIES.items())
TYPE_CHOICES = [(t, t.title()) for t in card_anatomy.CARD_TYPES]
FACTION_CHOICES = list(card_anatomy.FACTIONS.items())
SUBTYPE_CHOICES = sorted(
    {(s, s.title()) for subs in card_anatomy.SUBTYPES.values() for s in subs}
)


class Card(models.Model):
    """One printed card. Every anatomy field is nullable: null means "not yet transcribed"."""

    id = models.SlugField(primary_key=True, max_length=120)
    name = models.CharField(max_length=200, db_index=True)  # anatomy 1
    set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="cards")
    number = models.CharField(max_length=20, null=True, blank=True)
    rarity = models.CharField(
        max_length=20, null=True, blank=True, choices=RARITY_CHOICES
    )
    type = models.CharField(
        max_length=20, null=True, blank=True, choices=TYPE_CHOICES
    )
    subtype = models.CharField(max_length=20, null=True, blank=True, choices=SUBTYPE_CHOICES)
    faction = models.CharField(  # anatomy 8
        max_length=20, null=True, blank=True, choices=FACTION_CHOICES
    )
    abilities = models.TextField(null=True, blank=True)  # anatomy 2
    quotation = models.TextField(null=True, blank=True)  # anatomy 3
    race = models.CharField(max_length=100, null=True, blank=True)  # anatomy 4
    gender = models.CharField(max_length=50, null=True, blank=True)  # anatomy 4
    profession = models.CharField(max_length=100, null=True, blank=True)  # anatomy 5
    offense = models.SmallIntegerField(null=True, blank=True)  # 6
    defense = models.SmallIntegerField(null=True, blank=True)  # 7
    cost_economic = models.SmallIntegerField(null=True, blank=True)  # 9
    cost_religious = models.SmallIntegerField(null=True, blank=True)  # 10
    cost_political = models.SmallIntegerField(null=True, blank=True)  # 11
    faction_influence = models.SmallIntegerField(null=True, blank=True)  # 12
    vitality = models.SmallIntegerField(null=True, blank=True)  # 13
    strength_economic = models.SmallIntegerField(null=True, blank=True)  # 14
    strength_religious = models.SmallIntegerField(null=True, blank=True)  # 15
    strength_political = models.SmallIntegerField(null=True, blank=True)  # 16
    unique = models.BooleanField(null=True, blank=True)  # 17
    aggression = models.SmallIntegerField(null=True, blank=True)  # 18
    residencies = models.SmallIntegerField(null=True, blank=True)  # 19
    cost_generic = models.SmallIntegerField(null=True, blank=True)  # 20
    bounty = models.SmallIntegerField(null=True, blank=True)  # 21
    artist = models.CharField(max_length=200, null=True, blank=True)
    image = models.CharField(
        max_length=500, null=True, blank=True,
        help_text="Path of the scan as given in the data file (relative to that file).",
    )
    official = models.BooleanField(default=True)
    sources = models.JSONField(default=list, blank=True)
    # Derived on save, stored so that search can filter on them.
    unknown_fields = models.JSONField(default=list, blank=True, editable=False)
    total_cost = models.SmallIntegerField(null=True, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        indexes = [
            models.Index(fields=["type", "subtype"]),
            # A faction's cards in the default order: a page of a faction's search walks it
            # and stops after its rows, where the faction alone made it sort every one of
            # them; with the columns of the personality kind and offense, a faction's troops
            # (or citizens, or offense range) are found and counted from the index alone
            # (docs/search-speed.md).
            models.Index(fields=["faction", "name", "id", "offense", "defense", "type",
                                 "subtype"]),
            # The default order, walked in index order so a page stops after its rows.
            models.Index(fields=["name", "id"]),
            # A comparison of offense (a troop's first number) reads only the cards in its
            # range, and their kind (the personality kind's columns) and faction from the
            # index alone: a count of `(t:troop or t:wanderer) off>=4` read every card of
            # the search index of every compared column (docs/search-speed.md).
            models.Index(fields=["offense", "defense", "type", "subtype", "faction"]),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.refresh_derived()
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return card_url(self.id, "page")  # no reverse(): the card list links 60 cards at once

    @property
    def tile_urls(self) -> dict[str, str]:
        """The card list tile's image addresses, with the version that lets browsers cache
        them (a card without its picture row joined costs a query)."""
        picture = getattr(self, "picture", None)
        return card_tile_urls(self.id, picture.source_hash if picture else None)

    def refresh_derived(self) -> None:
        data = self.as_data()
        self.unknown_fields = card_anatomy.unknown_fields(data)
        self.total_cost = card_anatomy.total_cost(data)

    def as_data(self) -> dict[str, Any]:
        """The card as a data-file object (docs/design.md §4 keys, in export order)."""
        data = {key: getattr(self, key) for key in CARD_KEYS if key != "set"}
        data["set"] = self.set.code if self.set_id else None
        return {key: data[key] for key in CARD_KEYS}

    # Derived facts (rulebook "Card Types"), computed by rules.card_anatomy.
    @property
    def border(self) -> str | None:
        return card_anatomy.border(self.type)

    @property
    def pile(self) -> str | None:
        return card_anatomy.pile(self.type)

    @property
    def personality_kind(self) -> str | None:
        if self.type != "personality":
            return None
        return card_anatomy.personality_kind(self.subtype, self.offense, self.defense)

    @property
    def ability_clauses(self) -> tuple[AbilityClause, ...]:
        return parse_abilities(self.abilities)


class CardKeyword(models.Model):
    """A common ability parsed from a card's ability text, for search and the ability index."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="keywords")
    ability = models.SlugField(max_length=40)  # a SlugField is indexed by default
    position = models.PositiveSmallIntegerField()
    exhausts = models.BooleanField(default=False)
    faction_threshold = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["card", "position"]
        constraints = [
            models.UniqueConstraint(fields=["card", "position"], name="keyword_position_unique")
        ]
        # kw: searches run "EXISTS (... WHERE card_id = outer.id AND ability = ?)" per card;
        # (card, ability) answers that from the index, where an index on ability alone made
        # SQLite scan every card with the ability for every card (seconds on 10,000 cards).
        indexes = [models.Index(fields=["card", "ability"])]

    def __str__(self) -> str:
        return f"{self.card_id}: {self.ability}"


def rendition_path(instance: CardImage, filename: str) -> str:
    return f"cards/{instance.card_id}/{filename}"


class CardImage(models.Model):
    """Precomputed WebP renditions of a card: from a scan, or a face rendered from its data."""

    SCAN = "scan"
    RENDERED = "rendered"
    card = models.OneToOneField(Card, on_delete=models.CASCADE, related_name="picture")
    status = models.CharField(max_length=10, choices=[(SCAN, "Scan"), (RENDERED, "Rendered")])
    # Hash of what the renditions were made from (scan bytes, or card data + renderer
    # version), so re-imports only redo images whose source changed.
    source_hash = models.CharField(max_length=64)
    small = models.FileField(upload_to=rendition_path, max_length=300)
    normal = models.FileField(upload_to=rendition_path, max_length=300)
    large = models.FileField(upload_to=rendition_path, max_length=300)
    width = models.PositiveIntegerField(default=0)
    height = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.card_id} ({self.status})"


class CardRevision(models.Model):
    """Who changed what on a card: one row per save through the admin or an import."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="revisions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    source = models.CharField(max_length=200, help_text="admin, or the imported file")
    changes = models.JSONField(help_text="{key: [old, new]} for each changed key")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.card_id} by {self.user or self.source} at {self.created_at:%Y-%m-%d %H:%M}"


class CatalogueRevision(models.Model):
    """One row counting changes to the catalogue: the version behind ETags and the bulk file.

    Bumped by signals (cards.signals) on every save or delete of a card, set, keyword or image,
    so a request reads one row instead of aggregating the whole catalogue. Code that writes in
    bulk (bulk_create, update) must call ``cards.signals.catalogue_changed()`` itself.
    """

    number = models.PositiveBigIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"catalogue revision {self.number}"


class CardProvenance(models.Model):
    """Where the current value of one field of a card came from: the reviewed edit (or import,
    or staff edit) that set it, its editor, date and source. One row per card and field.

    ``edit`` is the number of the edit that set the value, a plain number and not a foreign
    key: the catalogue never depends on the feature apps that write to it (docs/design.md §2), and
    the number travels in card data files (export_cards / import_cards) to servers that have no
    such edit.
    """

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="provenance")
    field = models.CharField(max_length=40)
    source = models.TextField(help_text="where the fact comes from, as the editor gave it")
    editor = models.CharField(max_length=150, null=True, blank=True,
                              help_text="the editor's user name at the time")
    edit = models.PositiveBigIntegerField(null=True, blank=True,
                                          help_text="number of the card edit that set it")
    date = models.DateTimeField()

    class Meta:
        ordering = ["card", "field"]
        constraints = [
            models.UniqueConstraint(fields=["card", "field"], name="provenance_card_field_unique")
        ]
        verbose_name_plural = "card provenance"

    def __str__(self) -> str:
        return f"{self.card_id}.{self.field}: {self.source}"
