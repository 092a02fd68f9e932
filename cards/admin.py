"""Staff editing of the catalogue. Every save records who changed what (CardRevision)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest

from cards.image_services import card_set_scan
from cards.images.scan import MAX_BYTES, ScanError, make_renditions
from cards.models import Card, CardImage, CardRevision, CardSet
from cards.services import card_record_edit


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin[CardSet]):
    list_display = ["code", "name", "official", "released", "size"]


class CardAdminForm(forms.ModelForm[Card]):
    scan = forms.FileField(
        required=False,
        help_text=f"JPEG, PNG or WebP, at most {MAX_BYTES // (1024 * 1024)} MB and 25 megapixels; "
        "re-encoded to WebP renditions.",
    )

    class Meta:
        model = Card
        fields = "__all__"  # noqa: DJ007 - staff edit every field of a card
        help_texts = {
            "abilities": "Leave blank when unknown; enter a single - when the card has none.",
            "quotation": "Leave blank when unknown; enter a single - when the card has none.",
        }

    def _known_or_none(self, key: str) -> str | None:
        # Blank means "not yet transcribed"; "-" records that the card has no such text.
        value = (self.cleaned_data.get(key) or "").strip()
        if not value:
            return None
        return "" if value == "-" else value

    def clean_abilities(self) -> str | None:
        return self._known_or_none("abilities")

    def clean_quotation(self) -> str | None:
        return self._known_or_none("quotation")

    def clean_scan(self) -> bytes | None:
        upload = self.cleaned_data.get("scan")
        if not upload:
            return None
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                f"The scan is {upload.size / 1024 / 1024:.1f} MB; the limit is 10 MB."
            )
        data: bytes = upload.read()
        try:
            make_renditions(data)
        except ScanError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return data


class RevisionInline(admin.TabularInline[CardRevision, Card]):
    model = CardRevision
    extra = 0
    can_delete = False
    readonly_fields = ("created_at", "user", "source", "changes")
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Card)
class CardAdmin(admin.ModelAdmin[Card]):
    form = CardAdminForm
    list_display = ["name", "id", "set", "type", "subtype", "faction", "rarity", "official"]
    list_filter = ["set", "type", "faction", "rarity", "official"]
    search_fields = ["name", "id", "abilities"]
    readonly_fields = ["unknown_fields", "total_cost", "updated_at"]
    inlines = [RevisionInline]
    fieldsets = [
        (None, {"fields": ["id", "name", "set", "number", "rarity", "official", "sources"]}),
        ("Type", {"fields": ["type", "subtype", "faction", "unique"]}),
        ("Text", {"fields": ["abilities", "quotation", "race", "gender", "profession"]}),
        ("Combat", {"fields": ["offense", "defense", "vitality"]}),
        ("Costs", {"fields": ["cost_economic", "cost_religious", "cost_political",
                              "cost_generic", "total_cost"]}),
        ("Strengths and influence", {"fields": [
            "strength_economic", "strength_religious", "strength_political", "faction_influence",
        ]}),
        ("Structures and wanderers", {"fields": ["residencies", "aggression", "bounty"]}),
        ("Image", {"fields": ["scan", "image", "artist"]}),
        ("Derived", {"fields": ["unknown_fields", "updated_at"]}),
    ]

    def save_model(self, request: HttpRequest, obj: Card, form: Any, change: bool) -> None:
        old = Card.objects.get(pk=obj.pk).as_data() if change else {}
        super().save_model(request, obj, form, change)
        scan = form.cleaned_data.get("scan")
        if scan:
            card_set_scan(obj, scan, user=request.user)
            messages.info(request, "The scan was checked and re-encoded to WebP renditions.")
        card_record_edit(card=obj, old=old, user=request.user, source="admin")


@admin.register(CardRevision)
class CardRevisionAdmin(admin.ModelAdmin[CardRevision]):
    list_display = ["card", "user", "source", "created_at"]
    list_filter = ["source"]
    readonly_fields = ["card", "user", "source", "changes", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(CardImage)
class CardImageAdmin(admin.ModelAdmin[CardImage]):
    list_display = ["card", "status", "updated_at"]
    list_filter = ["status"]
    readonly_fields = ["card", "status", "source_hash", "small", "normal", "large"]
