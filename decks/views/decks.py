"""Deck pages: the list, the public page, the builder and its edits, import, history, compare.

Private decks are invisible (404) to anyone but their owner; a visible deck can be read by
anyone but changed only by its owner (403). Every edit is a POST naming the version it is
based on; the logic lives in decks.deck_edits (the edits), decks.forms, decks.builder_services
(saving them with the version check) and decks.deck_display (what the pages show); these views
only route requests to it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import QuerySet, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from decks import (
    builder_search,
    builder_services,
    deck_display,
    deck_edits,
    deck_layouts,
    forms,
    history,
    import_lines,
    panels,
    public_search,
    text_edit,
)
from decks.formats.text import render_text
from decks.models import Deck, DeckVersion
from decks.pickers import deck_choices
from decks.services import catalogue_cards, deck_clone, deck_data, deck_set_sleeved
from decks.share_links import links_held
from decks.validation import catalogue_facts


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def visible_decks(request: HttpRequest) -> QuerySet[Deck]:
    """Decks this visitor may open: public ones, their own, and the unlisted ones whose link
    they have followed in this session (decks.share_links)."""
    return Deck.visible_to(request.user, links_held(getattr(request, "session", None)))


class NotOwner(Exception):
    def __init__(self, deck: Deck) -> None:
        self.deck = deck


def visible_deck(request: HttpRequest, deck_id: int) -> Deck:
    return get_object_or_404(visible_decks(request).select_related("owner"), pk=deck_id)


def _owned(request: HttpRequest, deck_id: int) -> Deck:
    deck = visible_deck(request, deck_id)
    if deck.owner_id != request.user.pk:
        raise NotOwner(deck)
    return deck


def _forbidden(request: HttpRequest, deck: Deck) -> HttpResponse:
    return render(request, "decks/forbidden.html", {"deck": deck}, status=403)


@require_GET
def deck_list(request: HttpRequest) -> HttpResponse:
    decks = Deck.objects.select_related("owner").annotate(card_count=Sum("entries__count"))
    mine = (decks.filter(owner=request.user).order_by("-updated_at", "id")
            if request.user.is_authenticated else Deck.objects.none())
    public = decks.filter(visibility=Deck.PUBLIC).order_by("name", "id")
    return render(request, "decks/deck_list.html",
                  {"mine": mine, **panels.public_context(request, public)})


@require_GET
def deck_search(request: HttpRequest) -> HttpResponse:
    """Public decks by name, faction and card, a page at a time."""
    context: dict[str, Any] = {"factions": public_search.FACTIONS, "wanted": {
        key: request.GET.get(key, "").strip() for key in ("name", "faction", "card")}}
    try:
        search = public_search.deck_search_from(request.GET)
        result = public_search.public_decks(search)
    except public_search.DeckSearchError as error:
        context["error"] = error
        return render(request, "decks/deck_search.html", context, status=400)
    page = Paginator(result.decks, public_search.PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    factions = public_search.deck_factions(page)
    context.update(result=result, page=page, query=query.urlencode(),
                   rows=[(deck, factions.get(deck.pk, [])) for deck in page])
    return render(request, "decks/deck_search.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def deck_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        deck = builder_services.deck_create_empty(request.user)
        return redirect("decks:builder", deck.pk)
    return render(request, "decks/deck_new.html")


@login_required
@require_http_methods(["GET", "POST"])
def deck_import(request: HttpRequest) -> HttpResponse:
    """Paste or upload a decklist. Nothing is saved until every line reads; each line in
    error offers its suggested names as buttons that rewrite that line."""
    if request.method != "POST":
        return render(request, "decks/deck_import.html",
                      {"form": forms.DeckImportForm(), "result": builder_services.ImportResult()})
    data = request.POST.copy()
    replacing = "replace" in data or "replace_all" in data or "drop" in data
    if "replace_all" in data:  # every line's first suggestion at once
        data["text"] = import_lines.apply_all_suggestions(data.get("text", ""),
                                                          data.getlist("first"))
    elif "drop" in data:
        data["text"] = import_lines.drop_line(data.get("text", ""), data.get("drop", ""))
    elif replacing:
        data["text"] = import_lines.apply_suggestion(data.get("text", ""), data.get("replace", ""))
    form = forms.DeckImportForm(data, None if replacing else request.FILES)
    if not form.is_valid():
        return render(request, "decks/deck_import.html",
                      {"form": form, "result": builder_services.ImportResult()}, status=400)
    result = builder_services.deck_import(owner=request.user, form=form, save=not replacing)
    if result.deck is not None:
        read_as = " ".join(f"Line {n.line}: {n.message}" for n in result.notes)
        messages.success(request, f"Imported “{result.deck.name}”." + (
            f" Some names were not quite a card's: {read_as}" if read_as else ""))
        return redirect("decks:builder", result.deck.pk)
    # Show the list as read (an uploaded file's too), so that its lines can be fixed here.
    data["text"] = result.text
    shown = forms.DeckImportForm(data)
    shown.is_valid()
    return render(request, "decks/deck_import.html", {"form": shown, "result": result},
                  status=400 if result.failed else 200)


@require_GET
def deck_detail(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    data = deck_data(deck)
    view = deck_display.deck_view(data)
    layout = deck_layouts.layout_from(request.GET.get("view"))
    return render(request, "decks/deck_detail.html", {
        "deck": deck, "view": view, "layout": layout, "layouts": deck_layouts.LAYOUTS,
        "type_groups": (deck_layouts.by_type(view, catalogue_facts())
                        if layout == "type" else ()),
        "image_parts": deck_layouts.image_parts(view) if layout == "images" else (),
        **panels.panels_context("detail", request, deck, data),
    })


@require_GET
def deck_export_text(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    text = render_text(deck_data(deck), {card.id: card for card in catalogue_cards()})
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    filename = slugify(deck.name) or f"deck-{deck.pk}"
    response["Content-Disposition"] = f'attachment; filename="{filename}.txt"'
    return response


@login_required
@require_POST
def deck_clone_view(request: HttpRequest, deck_id: int) -> HttpResponse:
    copy = deck_clone(deck=visible_deck(request, deck_id), owner=request.user)
    messages.success(request, f"This is your own copy of “{copy.name}”: edit it freely.")
    return redirect("decks:builder", copy.pk)


# --- the builder ----------------------------------------------------------------------------


def _search_params(request: HttpRequest) -> tuple[str, str]:
    source = request.POST if request.method == "POST" else request.GET
    return source.get("q", ""), source.get("scope", "catalogue")


def _search_page(request: HttpRequest) -> int:
    source = request.POST if request.method == "POST" else request.GET
    try:
        return int(source.get("page", "1"))
    except ValueError:
        return 1


def _builder_page(request: HtmxHttpRequest, deck: Deck, *, status: int = 200, message: str = "",
                  settings: forms.DeckSettingsForm | None = None,
                  settings_open: bool = False,
                  text: text_edit.TextEditView | None = None) -> HttpResponse:
    """The builder, whole or (for htmx) the body plus the search results out of band."""
    query, scope = _search_params(request)
    data = deck_data(deck)
    view, advice = deck_display.deck_view(data), deck_display.advice_view(data)
    context: dict[str, Any] = {
        "deck": deck,
        "view": view,
        "advice": advice,
        "focus": deck_display.focus_fallback(request.htmx.trigger if request.htmx else None,
                                             view, advice),
        "search": builder_search.search_view(query, scope, data, user=request.user,
                                             page=_search_page(request)),
        "settings": settings or forms.settings_form(deck),
        # The version this sitting's edits go to (open) or the one just saved.
        "sitting": deck.versions.filter(number=deck.version).only(
            "number", "open", "edits", "note", "summary").first(),
        **panels.panels_context("builder", request, deck, data),
        "settings_open": settings_open or settings is not None,
        # The "Edit as text" box: the text sent back with its errors, or the deck's own.
        "text_edit": text or text_edit.TextEditView(text_edit.deck_text(deck)),
        "text_open": text is not None,
        "message": message,
        "message_kind": "ok" if status == 200 else "problem",
    }
    if request.htmx and not request.htmx.history_restore_request:
        response = render(request, "decks/_builder_swap.html", context, status=status)
    else:
        response = render(request, "decks/builder.html", context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


@login_required
@require_GET
def deck_builder(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    try:
        deck = _owned(request, deck_id)
    except NotOwner as refused:
        return _forbidden(request, refused.deck)
    if request.htmx and not request.htmx.history_restore_request:
        # Search as you type: only the results change.
        query, scope = _search_params(request)
        response = render(request, "decks/_builder_results.html", {
            "deck": deck,
            "search": builder_search.search_view(query, scope, deck_data(deck), user=request.user,
                                                 page=_search_page(request)),
        })
        patch_vary_headers(response, ("HX-Request",))
        return response
    return _builder_page(request, deck)


@login_required
@require_POST
def deck_edit(request: HtmxHttpRequest, deck_id: int, action: str) -> HttpResponse:
    if action not in (*forms.EDIT_ACTIONS, "save", "text"):
        raise Http404("No such edit.")
    try:
        deck = _owned(request, deck_id)
    except NotOwner as refused:
        return _forbidden(request, refused.deck)
    if action == "save":  # the sitting's edits become a version of the history, with a note
        result = builder_services.deck_session_save(deck=deck, user=request.user,
                                                    note=request.POST.get("note", ""),
                                                    version=request.POST.get("version"))
        return _after_edit(request, result, action)
    if action == "text":  # the whole deck as text: one version, or the lines to fix
        outcome = text_edit.deck_text_edit(deck=deck, user=request.user, data=request.POST)
        if outcome.view is None:
            return _after_edit(request, outcome.result, action)
        return _builder_page(request, outcome.result.deck, status=outcome.result.status,
                             message=outcome.result.message, text=outcome.view)
    try:
        change = forms.parse_change(action, request.POST)
    except forms.BadEdit as bad:
        return _builder_page(request, deck, status=400, message=bad.message,
                             settings=bad.settings_form)
    result = builder_services.deck_edit(deck=deck, user=request.user, change=change,
                                        version=request.POST.get("version"),
                                        if_match=request.headers.get("If-Match"), session=True)
    return _after_edit(request, result, action)


def _after_edit(request: HtmxHttpRequest, result: builder_services.EditResult,
                action: str) -> HttpResponse:
    deck = result.deck
    if result.saved and not request.htmx:
        messages.success(request, result.message)
        query, scope = _search_params(request)
        page = _search_page(request)
        params = urlencode({"q": query, "scope": scope, **({"page": page} if page > 1 else {})}
                           ) if query else ""
        url = reverse("decks:builder", args=[deck.pk])
        return redirect(f"{url}?{params}" if params else url)
    return _builder_page(request, result.deck, status=result.status, message=result.message,
                         settings_open=action == "settings")


# --- history, versions, compare -------------------------------------------------------------


@require_GET
def deck_history(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    versions = history.history_views(deck.versions.select_related("author"))
    return render(request, "decks/history.html", {"deck": deck, "versions": versions})


@require_GET
def deck_version(request: HttpRequest, deck_id: int, number: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    version = get_object_or_404(deck.versions.select_related("author"), number=number)
    view = deck_display.deck_view(history.version_data(version))
    return render(request, "decks/version.html",
                  {"deck": deck, "version": version, "view": view})


@login_required
@require_POST
def deck_restore(request: HttpRequest, deck_id: int, number: int) -> HttpResponse:
    try:
        deck = _owned(request, deck_id)
    except NotOwner as refused:
        return _forbidden(request, refused.deck)
    version = get_object_or_404(DeckVersion, deck=deck, number=number)
    change = deck_edits.RestoreVersion(number, version.snapshot)
    result = builder_services.deck_edit(deck=deck, user=request.user, change=change,
                                        version=request.POST.get("version"),
                                        if_match=request.headers.get("If-Match"))
    if not result.saved:
        view = deck_display.deck_view(history.version_data(version))
        return render(request, "decks/version.html", {
            "deck": result.deck, "version": version, "view": view, "message": result.message,
        }, status=result.status)
    messages.success(request, result.message)
    return redirect("decks:builder", deck.pk)


@require_GET
def deck_compare(request: HttpRequest) -> HttpResponse:
    tokens = {side: request.GET.get(side, "").strip() for side in ("a", "b")}
    only_differences = request.GET.get("only") == "differences"
    context: dict[str, Any] = {
        "tokens": tokens,
        "only_differences": only_differences,
        # The two pickers: my decks and their versions, the public decks.
        "groups": deck_choices(request.user, tokens.values(), visible_decks(request)),
    }
    if not all(tokens.values()):
        return render(request, "decks/compare.html", context)
    sides = []
    for side in ("a", "b"):
        try:
            deck_id, number = history.parse_side(tokens[side])
        except ValueError:
            context["error"] = (f"“{tokens[side]}” is not a deck: write a deck number, "
                                "optionally with a version, as 12 or 12:3.")
            return render(request, "decks/compare.html", context, status=400)
        deck = visible_deck(request, deck_id)
        try:
            sides.append(history.compare_side(deck, number))
        except DeckVersion.DoesNotExist:
            raise Http404(f"Deck {deck_id} has no version {number}.") from None
    a, b = sides
    context.update(a=a, b=b, parts=history.compare_parts(a.data, b.data, only_differences))
    return render(request, "decks/compare.html", context)


@login_required
@require_POST
def deck_sleeved(request: HttpRequest, deck_id: int) -> HttpResponse:
    try:
        deck = _owned(request, deck_id)
    except NotOwner as refused:
        return _forbidden(request, refused.deck)
    sleeved = request.POST.get("sleeved") == "1"
    deck_set_sleeved(deck=deck, sleeved=sleeved)
    messages.success(request, f"“{deck.name}” is sleeved: its cards are taken out of your "
                     "collection for every other deck." if sleeved else
                     f"“{deck.name}” is no longer sleeved: its cards are free again.")
    back = "decks:builder" if request.POST.get("back") == "builder" else "decks:detail"
    return redirect(back, deck.pk)
