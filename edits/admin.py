"""Card edits in the admin: read-mostly. Edits change only through edits.services (votes, the
staff actions of the API), so the admin lists and shows them and changes nothing by hand; its
one action, voiding votes, calls the service.

Each edit's page shows what staff weigh when it looks stuffed (edits.documents.trust_of): the
editor's and every voter's account age and applied edits, why a vote does not count, and who
shares a client address or network with the editor or another voter. The address itself is never
stored; the "network tag" is the first characters of the network's keyed fingerprint, to search
the votes and edits from one network (the search box takes it as a prefix).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from edits.documents import edit_documents, edits_for_documents
from edits.errors import EditError
from edits.models import Edit, EditScan, Vote
from edits.services import edit_vote_void

TAG = 8  # hex digits of a fingerprint shown as a tag


class ReadOnlyAdmin[M: Any](admin.ModelAdmin[M]):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def network_tag(fingerprint: str) -> str:
    return fingerprint[:TAG] if fingerprint else "—"


class VoteInline(admin.TabularInline[Vote, Edit]):
    model = Vote
    extra = 0
    fields = ["voter", "vote", "note", "created_at", "voided_at", "void_note"]
    readonly_fields = ["voter", "vote", "note", "created_at", "voided_at", "void_note"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Edit)
class EditAdmin(ReadOnlyAdmin[Edit]):
    list_display = ["id", "card_slug", "kind", "status", "editor", "created_at", "decided_at"]
    list_filter = ["status", "kind", "set_code"]
    search_fields = ["card_slug", "editor__username", "source", "note", "^network_hash",
                     "^address_hash"]
    date_hierarchy = "created_at"
    exclude = ["address_hash", "network_hash"]
    readonly_fields = ["trust"]
    inlines = [VoteInline]

    @admin.display(description="Voters and where they voted from (staff only)")
    def trust(self, edit: Edit) -> SafeString:
        fresh = edits_for_documents(Edit.objects.filter(pk=edit.pk)).get()
        document = edit_documents([fresh], for_staff=True)[0]
        return trust_table(document["trust"], editor_tag=network_tag(edit.network_hash))


def trust_table(trust: dict[str, Any], *, editor_tag: str) -> SafeString:
    """The staff-only ``trust`` of an edit document as an HTML table."""
    editor = trust["editor"]
    head = format_html(
        "<p>Address check: <b>{}</b>. Editor: {}, {} days old, {} applied edits{}, network tag "
        "<code>{}</code>.</p>",
        trust["address_check"], editor["user"] if editor else "(deleted)",
        editor["account_age_days"] if editor else "?",
        editor["applied_edits"] if editor else "?",
        " (staff)" if editor and editor["staff"] else "", editor_tag)
    if not trust["voters"]:
        return format_html("{}<p>No votes.</p>", head)
    rows = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                            "<td>{}</td><td>{}</td><td>{}</td></tr>", (
        (v["voter"] + (" (staff)" if v["staff"] else ""), v["vote"], v["account_age_days"],
         v["applied_edits"], "yes" if v["counts"] else "no: " + ", ".join(v["reasons"]),
         _with_editor(v), ", ".join(sorted(set(v["same_address_as"]) | set(
             v["same_network_as"]))) or "—",
         "" if v["voided"] is None else f"voided by {v['voided']['by']}: {v['voided']['note']}")
        for v in trust["voters"]))
    return format_html(
        "{}<table><thead><tr><th>voter</th><th>vote</th><th>account age (days)</th>"
        "<th>applied edits</th><th>counts</th><th>shares with the editor</th>"
        "<th>shares with voters</th><th>voided</th></tr></thead><tbody>{}</tbody></table>",
        head, rows)


def _with_editor(voter: dict[str, Any]) -> str:
    if voter["same_address_as_editor"]:
        return "address"
    if voter["same_network_as_editor"]:
        return "network"
    return "no" if voter["address_recorded"] else "unknown"


class VoidForm(ActionForm):
    note = forms.CharField(required=False, label="Why (to void)",
                           widget=forms.TextInput(attrs={"size": 40}))


@admin.action(description="Void the selected votes (give the reason beside)")
def void_votes(modeladmin: VoteAdmin, request: HttpRequest, queryset: QuerySet[Vote]) -> None:
    note = str(request.POST.get("note", "")).strip()
    if not note:
        modeladmin.message_user(request, "Nothing voided: say why in the box beside the action.",
                                messages.ERROR)
        return
    done, refused = [], []
    for vote in queryset.select_related("edit", "voter"):
        try:
            edit_vote_void(vote=vote, user=request.user, note=note, now=timezone.now())
        except EditError as error:
            refused.append(f"{vote}: {error.detail}")
        else:
            done.append(str(vote))
    if done:
        modeladmin.message_user(request, f"Voided: {'; '.join(done)}.", messages.SUCCESS)
    for line in refused:
        modeladmin.message_user(request, line, messages.WARNING)


@admin.register(Vote)
class VoteAdmin(ReadOnlyAdmin[Vote]):
    list_display = ["edit", "voter", "vote", "created_at", "network", "is_voided"]
    list_filter = ["vote", ("voided_at", admin.EmptyFieldListFilter)]
    search_fields = ["voter__username", "^network_hash", "^address_hash"]
    exclude = ["address_hash", "network_hash"]
    readonly_fields = ["network"]
    actions = [void_votes]
    action_form = VoidForm

    @admin.display(description="network tag")
    def network(self, vote: Vote) -> str:
        return network_tag(vote.network_hash)

    @admin.display(boolean=True, description="voided")
    def is_voided(self, vote: Vote) -> bool:
        return vote.voided


@admin.register(EditScan)
class EditScanAdmin(ReadOnlyAdmin[EditScan]):
    list_display = ["edit", "uploaded_by", "width", "height", "created_at"]
