"""The review pages: the edits waiting for votes (``/edits/``), one edit (``/edits/<n>/``) with
its diff, source, scan, votes, competitors and conflicts, and what its reader may do to it
(vote, cancel, and for staff apply or reject; revert once applied), my edits, a card's history
of edits, and the contributor's guide.

Thin views: each action calls one service of edits.services; a refusal (edits.errors) comes
back on the edit's page, with its status, beside the form that caused it.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import escape
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from markdown_it import MarkdownIt

from accounts.fingerprints import client_fingerprint
from cards.anatomy_display import FIELD_LABELS, FIELD_NUMBERS, show_value
from cards.images.scan import CARD_HEIGHT_MM, CARD_WIDTH_MM
from cards.models import Card, CardSet
from cards.services import card_provenance
from edits.card_form import scan_part
from edits.documents import edit_documents, edits_for_documents
from edits.errors import EditError
from edits.models import Edit, Vote
from edits.permissions import contribution_refusal
from edits.queue_filters import edits_of_cards_named
from edits.review import applied_edit_count, is_established, review_rules
from edits.services import (
    edit_apply,
    edit_cancel,
    edit_competitors,
    edit_reject,
    edit_revert,
    edit_vote,
    edits_revert_by_editor,
)
from sitewide.throttling import throttle_wait

PAGE_SIZE = 30
STATUSES = [("open", "Open"), ("applied", "Applied"), ("rejected", "Rejected"),
            ("cancelled", "Cancelled"), ("expired", "Expired"), ("all", "Any status")]
GUIDE = Path(settings.BASE_DIR) / "docs" / "contributing-card-data.md"


# Lists.

@require_GET
def edit_list(request: HttpRequest) -> HttpResponse:
    """Edits, newest first, filtered by set, card, editor and status (open by default)."""
    wanted = {
        "status": request.GET.get("status", "open"),
        "set": request.GET.get("set", "").strip(),
        "card": request.GET.get("card", "").strip(),
        "editor": request.GET.get("editor", "").strip(),
    }
    edits = _filtered(Edit.objects.all(), wanted)
    return _list_page(request, edits, wanted, title="Card edits", mine=False)


@require_GET
def my_edits(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    wanted = {"status": request.GET.get("status", "all"), "set": "", "card": "",
              "editor": request.user.get_username()}
    edits = _filtered(Edit.objects.filter(editor=request.user), wanted)
    return _list_page(request, edits, wanted, title="My edits", mine=True)


def _filtered(edits: QuerySet[Edit], wanted: dict[str, str]) -> QuerySet[Edit]:
    if wanted["status"] in dict(Edit.STATUS_CHOICES):
        edits = edits.filter(status=wanted["status"])
    else:
        wanted["status"] = "all"
    if wanted["set"]:
        edits = edits.filter(set_code__iexact=wanted["set"])
    if wanted["card"]:
        edits = edits.filter(edits_of_cards_named(wanted["card"]))
    if wanted["editor"]:
        edits = edits.filter(editor__username=wanted["editor"])
    return edits


def _list_page(request: HttpRequest, edits: QuerySet[Edit], wanted: dict[str, str], *,
               title: str, mine: bool, status: int = 200,
               problem: dict[str, Any] | None = None) -> HttpResponse:
    page = Paginator(edits_for_documents(edits.order_by("-created_at", "-id")),
                     PAGE_SIZE).get_page(request.GET.get("page"))
    documents = edit_documents(list(page), for_staff=request.user.is_staff)
    names = _card_names(page)
    rows = [{"edit": edit, "doc": doc, "card_name": names.get(edit.card_slug, edit.card_slug),
             "fields": [FIELD_LABELS.get(k, k) for k in edit.changes if k != "sources"]}
            for edit, doc in zip(page, documents, strict=True)]
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "edits/list.html", {
        "title": title, "mine": mine, "rows": rows, "page": page, "wanted": wanted,
        "statuses": STATUSES, "sets": CardSet.objects.order_by("-official", "code"),
        "query": query.urlencode(),
        # Staff filtering by one editor may undo all of that editor's work (a vandal's).
        "undo_editor": (wanted["editor"] if request.user.is_staff and not mine
                        and User.objects.filter(username=wanted["editor"]).exists() else ""),
        "problem": problem or {},
    }, status=status)


def _card_names(edits: Any) -> dict[str, str]:
    names = {e.card_slug: str(e.changes.get("name") or e.card_slug) for e in edits}
    for card_id, name in Card.objects.filter(id__in=list(names)).values_list("id", "name"):
        names[card_id] = name
    return names


# One edit.

@require_GET
def edit_detail(request: HttpRequest, edit_id: int) -> HttpResponse:
    return _detail_page(request, _edit(edit_id))


def _edit(edit_id: int) -> Edit:
    return get_object_or_404(edits_for_documents(Edit.objects.all()), pk=edit_id)


def _detail_page(request: HttpRequest, edit: Edit, *, status: int = 200,
                 problem: dict[str, Any] | None = None) -> HttpResponse:
    document = edit_documents([edit], for_staff=request.user.is_staff)[0]
    card = edit.card or Card.objects.select_related("set").filter(id=edit.card_slug).first()
    now = card.as_data() if card is not None else {}
    conflicted = {c["field"] for c in document["conflicts"]}
    diff = [
        {"key": key, "label": FIELD_LABELS.get(key, key), "number": FIELD_NUMBERS.get(key),
         "before": show_value(key, edit.before.get(key)) if edit.kind == Edit.CHANGE else None,
         "after": show_value(key, value), "after_unknown": value is None,
         "now": show_value(key, now.get(key)) if key in conflicted else None}
        for key, value in edit.changes.items()
    ]
    user = request.user
    competitors = edit_competitors(edit) if edit.is_open else []
    context: dict[str, Any] = {
        "edit": edit, "doc": document, "card": card, "diff": diff,
        "scan_parts": _scan_parts(edit, diff, now),
        "ballots": [{**b, "created": parse_datetime(b["created"])} for b in document["ballots"]],
        "competing": _side_by_side(edit, competitors, now),
        "refusal": contribution_refusal(user),
        "is_editor": user.is_authenticated and edit.editor_id == user.pk,
        "my_vote": Vote.objects.filter(edit=edit, voter=user).first()
        if user.is_authenticated else None,
        "my_vote_counts": _vote_counts(user),
        "min_age": review_rules().voter_min_age.days,
        "revertible": edit.status == Edit.APPLIED and edit.kind == Edit.CHANGE
        and not edit.reverted_by.filter(status__in=[Edit.APPLIED, Edit.OPEN]).exists(),
        "reverted_by": list(edit.reverted_by.order_by("created_at")),
        "problem": problem or {},
    }
    response = render(request, "edits/detail.html", context, status=status)
    if problem and "wait" in problem:
        response["Retry-After"] = str(problem["wait"])
    return response


CARD_ASPECT = CARD_HEIGHT_MM / CARD_WIDTH_MM
# One editor's open edits, approved together.

BATCH_SIZE = 30


@require_http_methods(["GET", "POST"])
def editor_batch(request: HttpRequest, username: str) -> HttpResponse:
    """``/edits/by/<username>/``: the open edits of one editor on one page, each value under
    its part of the scan; a reviewer approves the ones ticked with one button."""
    editor = get_object_or_404(User, username=username)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.path)
        wait = throttle_wait(request, "votes")
        if wait is not None:
            return _batch_page(request, editor, status=429, problem={"wait": wait})
        chosen = {int(v) for v in request.POST.getlist("edit") if v.isdigit() and len(v) < 19}
        edits = _batch_edits(editor).filter(pk__in=chosen)
        if not chosen:
            return _batch_page(request, editor, status=400, problem={
                "detail": "Tick the edits you checked against their scans, then approve."})
        approved, refused = [], []
        for edit in edits:
            try:
                edit_vote(edit=edit, voter=request.user, vote=Vote.APPROVE,
                          note=request.POST.get("note", ""), client=client_fingerprint(request))
            except EditError as error:
                refused.append(f"#{edit.pk}: {error.detail}")
            else:
                approved.append(edit.pk)
        if approved:
            messages.success(request, f"You approved {len(approved)} edit"
                             f"{'' if len(approved) == 1 else 's'} by {editor.username}.")
        if refused:
            return _batch_page(request, editor, status=403 if not approved else 200,
                               problem={"detail": "; ".join(refused)})
        return redirect("edits:editor_batch", editor.username)
    return _batch_page(request, editor)


def _batch_edits(editor: Any) -> QuerySet[Edit]:
    return edits_for_documents(Edit.objects.filter(editor=editor, status=Edit.OPEN)
                               .order_by("created_at", "id"))


def _batch_page(request: HttpRequest, editor: Any, *, status: int = 200,
                problem: dict[str, Any] | None = None) -> HttpResponse:
    edits = list(_batch_edits(editor)[:BATCH_SIZE])
    documents = edit_documents(edits, for_staff=False)
    names = _card_names(edits)
    cards = {c.id: c.as_data() for c in Card.objects.filter(id__in=[e.card_slug for e in edits])}
    voted = set(Vote.objects.filter(edit__in=edits, voter_id=request.user.pk)
                .values_list("edit_id", flat=True)) if request.user.is_authenticated else set()
    rows = []
    for edit, doc in zip(edits, documents, strict=True):
        now = cards.get(edit.card_slug, {})
        diff = [{"key": key, "label": FIELD_LABELS.get(key, key),
                 "number": FIELD_NUMBERS.get(key),
                 "before": show_value(key, edit.before.get(key))
                 if edit.kind == Edit.CHANGE else None,
                 "after": show_value(key, value), "now": None}
                for key, value in edit.changes.items() if key != "sources"]
        rows.append({"edit": edit, "doc": doc, "diff": diff,
                     "scan_parts": _scan_parts(edit, diff, now),
                     "card_name": names.get(edit.card_slug, edit.card_slug),
                     "voted": edit.pk in voted})
    response = render(request, "edits/batch.html", {
        "editor": editor, "rows": rows, "problem": problem or {},
        "is_editor": request.user.is_authenticated and request.user.pk == editor.pk,
        "refusal": contribution_refusal(request.user),
        "more": _batch_edits(editor).count() - len(edits),
    }, status=status)
    if problem and "wait" in problem:
        response["Retry-After"] = str(problem["wait"])
    return response


PART_TITLES = {"name": "Name bar", "type": "Type line", "text": "Text box",
               "stats": "Stat boxes", "collector": "Collector line"}


def _scan_parts(edit: Edit, diff: list[dict[str, Any]], now: dict[str, Any]
                ) -> list[dict[str, Any]] | None:
    """The rows of ``diff`` by the part of the card they are printed in, each part with its
    part of the scan beside it, when the edit's scan is a card (straightened, the card's
    shape); None otherwise (a photo kept as taken, or no scan)."""
    scan = getattr(edit, "scan", None)
    if scan is None or not scan.width or abs(scan.height / scan.width - CARD_ASPECT) > 0.04:
        return None
    card_type = edit.changes.get("type", edit.before.get("type", now.get("type")))
    parts: dict[str, list[dict[str, Any]]] = {}
    for row in diff:
        part = scan_part(row["key"], card_type if isinstance(card_type, str) else None)
        parts.setdefault(part or "", []).append(row)
    order = [*PART_TITLES, ""]
    return [{"part": part, "title": PART_TITLES.get(part, "Other"), "rows": parts[part]}
            for part in order if part in parts]


def _vote_counts(user: Any) -> bool | None:
    if not user.is_authenticated:
        return None
    return is_established(user, applied_edit_count(user), timezone.now(), review_rules())


def _side_by_side(edit: Edit, others: list[Edit], now: dict[str, Any]) -> dict[str, Any] | None:
    """The open edits that change the same fields, as columns beside this one."""
    if not others:
        return None
    keys = [k for k in edit.changes if any(k in o.changes for o in others)] \
        if edit.kind == Edit.CHANGE else list(edit.changes)
    columns = [edit, *others]
    rows = [
        {"label": FIELD_LABELS.get(k, k), "now": show_value(k, now.get(k)) if now else "—",
         "values": [show_value(k, c.changes[k]) if k in c.changes else "—" for c in columns]}
        for k in keys
    ]
    return {"columns": columns, "rows": rows}


# What a reader does to an edit.

def _act(request: HttpRequest, edit_id: int, scope: str | None, action: Any,
         done: str, form: str) -> HttpResponse:
    """Run one service on the edit; back to its page, with the refusal beside ``form``."""
    edit = _edit(edit_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.path.rsplit("/", 2)[0] + "/")
    if scope is not None:
        wait = throttle_wait(request, scope)
        if wait is not None:
            return _detail_page(request, edit, status=429, problem={"form": form, "wait": wait})
    try:
        result = action(edit)
    except EditError as error:
        return _detail_page(request, _edit(edit_id), status=error.status, problem={
            "form": form, "detail": error.detail, "errors": error.extra.get("errors", {}),
            "note": request.POST.get("note", ""), "code": error.code,
        })
    messages.success(request, done)
    target = result.edit if hasattr(result, "edit") else edit
    return redirect("edits:detail", target.pk)


@require_POST
def vote(request: HttpRequest, edit_id: int) -> HttpResponse:
    choice = request.POST.get("vote", "")
    said = "approved" if choice == Vote.APPROVE else "rejected"
    return _act(request, edit_id, "votes", lambda edit: edit_vote(
        edit=edit, voter=request.user, vote=choice, note=request.POST.get("note", ""),
        client=client_fingerprint(request)),
        f"You {said} this edit.", "vote")


@require_POST
def cancel(request: HttpRequest, edit_id: int) -> HttpResponse:
    return _act(request, edit_id, None, lambda edit: edit_cancel(edit=edit, user=request.user),
                "You cancelled your edit.", "cancel")


@require_POST
def apply(request: HttpRequest, edit_id: int) -> HttpResponse:
    return _act(request, edit_id, None, lambda edit: edit_apply(
        edit=edit, user=request.user, note=request.POST.get("note", "")),
        "The edit is applied.", "staff")


@require_POST
def reject(request: HttpRequest, edit_id: int) -> HttpResponse:
    return _act(request, edit_id, None, lambda edit: edit_reject(
        edit=edit, user=request.user, note=request.POST.get("note", "")),
        "The edit is rejected.", "staff")


@require_POST
def revert(request: HttpRequest, edit_id: int) -> HttpResponse:
    return _act(request, edit_id, "edits", lambda edit: edit_revert(
        edit=edit, user=request.user, source=request.POST.get("source", ""),
        note=request.POST.get("note", ""), client=client_fingerprint(request)),
        "The revert is proposed as an edit of its own (this page).", "revert")


@require_POST
def revert_editor(request: HttpRequest) -> HttpResponse:
    """Staff undo one editor's work: their applied edits reverted, their open ones rejected
    (edits.services.edits_revert_by_editor); a refusal comes back on the list, note kept."""
    name = request.POST.get("editor", "").strip()
    if not request.user.is_authenticated:
        return redirect_to_login(f"/edits/?editor={name}")
    editor = get_object_or_404(User, username=name)
    note = request.POST.get("note", "")
    try:
        report = edits_revert_by_editor(editor=editor, user=request.user, note=note)
    except EditError as error:
        wanted = {"status": "all", "set": "", "card": "", "editor": name}
        return _list_page(request, _filtered(Edit.objects.all(), wanted), wanted,
                          title="Card edits", mine=False, status=error.status,
                          problem={"detail": error.detail, "note": note,
                                   "errors": error.extra.get("errors", {})})
    skipped = "; ".join(f"#{s.edit} {FIELD_LABELS.get(s.field, s.field)}: {s.reason}"
                        for s in report.skipped)
    messages.success(request, (
        f"{name}'s work is undone: {len(report.reverted)} applied edit"
        f"{'s' if len(report.reverted) != 1 else ''} reverted, {len(report.rejected)} open "
        f"edit{'s' if len(report.rejected) != 1 else ''} rejected."
        + (f" Left alone: {skipped}." if skipped else "")))
    return redirect(f"/edits/?editor={name}&status=all")


# A card's history.

@require_GET
def card_history(request: HttpRequest, card_id: str) -> HttpResponse:
    card = get_object_or_404(Card.objects.select_related("set"), id=card_id)
    edits = edits_for_documents(Edit.objects.filter(card_slug=card.id))
    applied = list(edits.filter(status=Edit.APPLIED).order_by("-decided_at", "-id"))
    still_open = list(edits.filter(status=Edit.OPEN).order_by("created_at", "id"))
    data = card.as_data()
    provenance = [
        {**entry, "label": FIELD_LABELS.get(key, key), "value": show_value(key, data.get(key)),
         "date": parse_datetime(entry["date"]) if entry.get("date") else None}
        for key, entry in card_provenance(card).items()
    ]
    return render(request, "edits/card_history.html", {
        "card": card, "provenance": provenance,
        "applied": [{"edit": e, "fields": [FIELD_LABELS.get(k, k) for k in e.changes]}
                    for e in applied],
        "open": [{"edit": e, "fields": [FIELD_LABELS.get(k, k) for k in e.changes]}
                 for e in still_open],
    })


# The contributor's guide: docs/contributing-card-data.md, the one text for both.

@require_GET
def guide(request: HttpRequest) -> HttpResponse:
    return render(request, "edits/guide.html", {"guide": _guide_html(GUIDE.stat().st_mtime)})


@functools.lru_cache(maxsize=2)
def _guide_html(mtime: float) -> str:
    # The file is the project's own; markdown-it escapes any HTML in it all the same.
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    markdown.add_render_rule("heading_open", _heading_with_id)
    markdown.add_render_rule("link_open", _link_open)
    markdown.add_render_rule("link_close", _link_close)
    html: str = markdown.render(GUIDE.read_text(encoding="utf-8"), {"plain_links": []})
    return html


def _heading_with_id(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    # Headings get ids, so that a page can link to a part ("#how-to-scan-a-card-well").
    tokens[idx].attrSet("id", slugify(tokens[idx + 1].content))
    result: str = renderer.renderToken(tokens, idx, options, env)
    return result


def _link_open(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    # The other docs are files of the project, not pages of the site: named, not linked.
    href = tokens[idx].attrGet("href") or ""
    plain = not href.startswith(("http://", "https://", "#", "/"))
    env["plain_links"].append(plain)
    if plain:
        return f'<span class="doc-file" title="docs/{escape(href.split("#")[0])} in the project">'
    result: str = renderer.renderToken(tokens, idx, options, env)
    return result


def _link_close(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    if env["plain_links"].pop():
        return "</span>"
    result: str = renderer.renderToken(tokens, idx, options, env)
    return result
