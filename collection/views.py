"""Collection pages: my collection (bulk edit, totals per set, set helpers, sharing), the
owned-copies control on the catalogue pages, CSV import and export, the allocation of copies
to sleeved decks, and the read-only page behind a share link.

A collection is private: only a share link (``/collection/shared/<token>/``) shows it to
anyone else, and a wrong or revoked token is a 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.models import Card, CardSet
from collection.collection_display import (
    SET_HELPERS,
    CollectionImportForm,
    collection_csv,
    collection_view,
    parse_bulk,
    read_collection_csv,
)
from collection.models import Collection
from collection.ownership import allocation_view, deck_ownership, missing_csv, missing_text
from collection.services import (
    collection_add_set,
    collection_change_owned,
    collection_lock,
    collection_of,
    collection_share,
    collection_update,
)
from decks.services import deck_data
from decks.validation import catalogue_facts
from decks.views.decks import visible_deck

STALE_COLLECTION = (
    "Your collection was changed in another tab or by another device; your changes were not "
    "saved — the table below is the current collection."
)


def _page(request: HttpRequest, collection: Collection, *, status: int = 200,
          problems: list[str] | None = None) -> HttpResponse:
    context = {
        "view": collection_view(collection),
        "helpers": SET_HELPERS,
        "problems": problems or [],
        "share_url": request.build_absolute_uri(
            reverse("collection:shared", args=[collection.share_token])
        ) if collection.share_token else "",
    }
    return render(request, "collection/page.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def collection_page(request: HttpRequest) -> HttpResponse:
    """The table of my cards; a POST saves every count of it at once, if the page showed the
    current version (else 409 and nothing is saved)."""
    if request.method != "POST":
        return _page(request, collection_of(request.user))
    counts, problems = parse_bulk(request.POST, catalogue_facts())
    with transaction.atomic():
        collection = collection_lock(request.user)
        if str(collection.version) != request.POST.get("version", ""):
            return _page(request, collection, status=409, problems=[STALE_COLLECTION])
        if problems:
            return _page(request, collection, status=400,
                         problems=["Nothing was saved: " + problems[0], *problems[1:]])
        collection_update(collection=collection, counts=counts)
    messages.success(request, "Saved your collection.")
    return redirect("collection:page")


def _back(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return fallback


@login_required
@require_POST
def owned_change(request: HttpRequest, card_id: str) -> HttpResponse:
    """The minus / plus owned buttons of the catalogue pages: one copy at a time; htmx gets the
    control back, a plain form post goes back to the page."""
    card = get_object_or_404(Card, id=card_id)
    delta = {"1": 1, "-1": -1}.get(request.POST.get("delta", ""))
    if delta is None:
        return HttpResponse("delta must be 1 or -1", status=400, content_type="text/plain")
    owned = collection_change_owned(owner=request.user, card_id=card.id, delta=delta)
    if request.headers.get("HX-Request"):
        return render(request, "collection/_owned_control.html", {
            "card": card, "owned": owned, "changed": True,
            "next": _back(request, card.get_absolute_url()),  # the page it sits on
        })
    return redirect(_back(request, card.get_absolute_url()))


@login_required
@require_POST
def add_set(request: HttpRequest) -> HttpResponse:
    """Add one copy, or a playset, of every card of a set (see SET_HELPERS)."""
    card_set = get_object_or_404(CardSet, code=request.POST.get("set", ""))
    copies = {str(n): n for n in SET_HELPERS}.get(request.POST.get("copies", ""))
    if copies is None:
        return HttpResponse("copies must be 1 or 2", status=400, content_type="text/plain")
    added = collection_add_set(owner=request.user, set_code=card_set.code, copies=copies)
    messages.success(request, f"Added {SET_HELPERS[copies]} of {card_set.name}: "
                              f"{added * copies} copies of {added} cards.")
    return redirect("collection:page")


@login_required
@require_POST
def share(request: HttpRequest) -> HttpResponse:
    shared = request.POST.get("shared") == "1"
    collection_share(collection=collection_of(request.user), shared=shared)
    messages.success(request, "Anyone with the link below can now see your collection."
                     if shared else "Your collection is private again; the old link is dead.")
    return redirect("collection:page")


@login_required
@require_GET
def export_csv(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(collection_csv(collection_of(request.user)),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="collection.csv"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def import_csv(request: HttpRequest) -> HttpResponse:
    """Paste or upload a collection CSV. A file with any error imports nothing: every line in
    error is listed."""
    if request.method != "POST":
        return render(request, "collection/import.html", {"form": CollectionImportForm()})
    form = CollectionImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "collection/import.html", {"form": form}, status=400)
    counts, errors = read_collection_csv(form.cleaned_data["csv"])
    if errors:
        return render(request, "collection/import.html",
                      {"form": form, "errors": errors}, status=400)
    replace = form.cleaned_data["mode"] == CollectionImportForm.REPLACE
    with transaction.atomic():
        collection_update(collection=collection_lock(request.user), counts=counts,
                          replace=replace)
    messages.success(request, f"Imported {len(counts)} card{'s' * (len(counts) != 1)}"
                              f"{' and removed every other card' if replace else ''}.")
    return redirect("collection:page")


@login_required
@require_GET
def allocation(request: HttpRequest) -> HttpResponse:
    return render(request, "collection/allocation.html",
                  {"view": allocation_view(request.user)})


@require_GET
def shared(request: HttpRequest, token: str) -> HttpResponse:
    collection = Collection.objects.select_related("owner").filter(share_token=token).first()
    if collection is None or not token:
        raise Http404("No collection is shared with this link.")
    return render(request, "collection/shared.html",
                  {"view": collection_view(collection), "owner": collection.owner})


# --- the deck against my collection ---------------------------------------------------------

MISSING_EXPORTS = {"txt": "text/plain; charset=utf-8", "csv": "text/csv; charset=utf-8"}


@login_required
@require_GET
def deck_missing(request: HttpRequest, deck_id: int, fmt: str) -> HttpResponse:
    """The copies my collection lacks for a deck: a decklist (text) or ``id,name,missing``."""
    if fmt not in MISSING_EXPORTS:
        raise Http404("No such format.")
    deck = visible_deck(request, deck_id)
    data = deck_data(deck)
    ownership = deck_ownership(request.user, deck, data).ownership
    body = missing_text(data, ownership) if fmt == "txt" else missing_csv(ownership)
    response = HttpResponse(body, content_type=MISSING_EXPORTS[fmt])
    filename = slugify(deck.name) or f"deck-{deck.pk}"
    response["Content-Disposition"] = f'attachment; filename="{filename}-missing.{fmt}"'
    return response
