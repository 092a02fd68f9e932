"""Card edits in the admin: read-mostly. Edits change only through edits.services (votes, the
staff actions of the API), so the admin lists and shows them and changes nothing."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from edits.models import Edit, EditScan, Vote


class ReadOnlyAdmin[M: Any](admin.ModelAdmin[M]):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class VoteInline(admin.TabularInline[Vote, Edit]):
    model = Vote
    extra = 0
    fields = ["voter", "vote", "note", "created_at"]
    readonly_fields = ["voter", "vote", "note", "created_at"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Edit)
class EditAdmin(ReadOnlyAdmin[Edit]):
    list_display = ["id", "card_slug", "kind", "status", "editor", "created_at", "decided_at"]
    list_filter = ["status", "kind", "set_code"]
    search_fields = ["card_slug", "editor__username", "source", "note"]
    date_hierarchy = "created_at"
    inlines = [VoteInline]


@admin.register(Vote)
class VoteAdmin(ReadOnlyAdmin[Vote]):
    list_display = ["edit", "voter", "vote", "created_at"]
    list_filter = ["vote"]
    search_fields = ["voter__username"]


@admin.register(EditScan)
class EditScanAdmin(ReadOnlyAdmin[EditScan]):
    list_display = ["edit", "uploaded_by", "width", "height", "created_at"]
