"""Catalogue pages: home, card list, card page, the ability index and card images."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.dateparse import parse_datetime
from django.utils.http import urlencode
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET
from django_htmx.middleware import HtmxDetails

from cards import extensions
from cards.anatomy_display import FIELD_LABELS, FIELD_NUMBERS, anatomy_rows, show_value
from cards.card_search import SearchError, card_search
from cards.card_urls import SIZES
from cards.image_services import (
    DERIVED,
    cards_ensure_images,
    cards_restore_lost_image,
    derived_rendition,
)
from cards.models import Card, CardImage, CardSet
from cards.search.fields import help_sections
from cards.search_facets import VIEWS, facets
from cards.services import card_provenance
from cards.set_completeness import checklist, completeness
from rules.abilities import BY_SLUG, CATEGORY_NAMES, COMMON_ABILITIES

PAGE_SIZE = 60
# Cards of a set in collector-number order (unnumbered last, the same on every database).
SET_ORDER = (F("number").asc(nulls_last=True), "name", "id")


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _sets() -> list[tuple[CardSet, int]]:
    """Every set with its card count, complete cards and known share (cards/_sets.html)."""
    sets = list(CardSet.objects.annotate(
        card_count=Count("cards"),
        complete=Count("cards", filter=Q(cards__unknown_fields=[])),
    ).order_by("-official", "code"))
    # Each known card is a share of the declared size (a set may hold more than it says).
    return [(s, min(s.card_count, s.size or s.card_count)) for s in sets]


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "cards/home.html", {
        "sets": _sets(),
        "sections": extensions.home_sections(request),
        **extensions.home_context(request),
    })


@require_GET
def set_list(request: HttpRequest) -> HttpResponse:
    return render(request, "cards/set_list.html", {"sets": _sets()})


@require_GET
def card_random(request: HttpRequest) -> HttpResponse:
    """A card picked at random (by the database: no seed to keep), among a query's matches
    when ``q`` is given; never cached, so each visit picks again."""
    text = request.GET.get("q", "").strip()
    cards = Card.objects.all()
    if text:
        try:
            cards = card_search(text, user=request.user).apply(cards)
        except SearchError:
            return redirect(f"{reverse('cards:list')}?{urlencode({'q': text})}")
    card = cards.order_by("?").first()
    if card is None:
        return redirect(f"{reverse('cards:list')}?{urlencode({'q': text})}" if text
                        else reverse("cards:home"))
    response = redirect(card)
    add_never_cache_headers(response)
    return response


@require_GET
@gzip_page
def card_list(request: HtmxHttpRequest) -> HttpResponse:
    """Search as you type: the URL always holds the query, so a search can be shared."""
    text = request.GET.get("q", "").strip() or _legacy_query(request)
    target = extensions.search_redirect(text)
    if target:  # e.g. a deck code pasted into the search box opens the deck
        return redirect(target) if not request.htmx else _htmx_redirect(target)
    view = request.GET.get("view", "grid")
    if view not in VIEWS:
        view = "grid"
    context: dict[str, Any] = {
        "q": text,
        "view": view,
        "views": VIEWS,
        "facets": facets(text, view, list(CardSet.objects.values_list("code", "name")),
                         extensions.personal_facets() if request.user.is_authenticated else []),
        "card_controls": extensions.card_controls(request.user),
    }
    context["active_filters"] = sum(link.active for facet in context["facets"]
                                    for link in facet.links)
    try:
        search = card_search(text, user=request.user)
    except SearchError as error:
        context["error"] = error
        end = error.position + max(error.length, 1)
        context["pointer"] = {"before": text[: error.position],
                              "at": text[error.position: end], "after": text[end:]}
        # Each did-you-mean is a link to the query with that one word replaced.
        context["fixes"] = [
            (suggestion, text[: error.position] + suggestion + text[end:])
            for suggestion in error.suggestions
        ] if error.code in ("unknown_key", "bad_value") else []
        status = 400
    else:
        cards = search.apply(Card.objects.select_related("set", "picture"))
        cards = extensions.with_controls(cards, request.user)
        page = Paginator(cards, PAGE_SIZE).get_page(request.GET.get("page"))
        search = search.with_name_suggestions(found_any=page.paginator.count > 0)
        query = request.GET.copy()
        for param in ("page", "view", "set", "type", "faction"):
            query.pop(param, None)
        query["q"] = text
        context.update(search=search, page=page, query=query.urlencode())
        status = 200
    template = "cards/_results.html" if request.htmx else "cards/card_list.html"
    return render(request, template, context, status=status)


def _htmx_redirect(url: str) -> HttpResponse:
    response = HttpResponse(status=204)
    response["HX-Redirect"] = url
    return response


def _legacy_query(request: HttpRequest) -> str:
    """Old-style ?set=&type=&faction= links become the query terms they mean."""
    keys = {"set": "set", "type": "t", "faction": "f"}
    return " ".join(
        f"{key}:{request.GET[param]}" for param, key in keys.items() if request.GET.get(param)
    )


@require_GET
def card_detail(request: HttpRequest, card_id: str) -> HttpResponse:
    cards = extensions.with_controls(Card.objects.select_related("set", "picture"), request.user)
    card = get_object_or_404(cards, id=card_id)
    clauses = [
        {
            "clause": clause,
            "category_name": CATEGORY_NAMES.get(clause.category or "", ""),
        }
        for clause in card.ability_clauses
    ]
    same_name = Card.objects.filter(name=card.name).exclude(id=card.id).select_related("set")
    in_set = list(card.set.cards.order_by(*SET_ORDER).values_list("id", "name"))
    index = next(i for i, (card_id, _) in enumerate(in_set) if card_id == card.id)
    provenance = card_provenance(card)
    context: dict[str, Any] = {
        "card": card,
        "rows": anatomy_rows(card, provenance),
        "clauses": clauses,
        "same_name": same_name,
        "previous": in_set[index - 1] if index > 0 else None,
        "next": in_set[index + 1] if index + 1 < len(in_set) else None,
        "revisions": card.revisions.select_related("user")[:10],
        "provenance": _provenance_rows(card, provenance),
        "card_controls": extensions.card_controls(request.user),
        "sections": extensions.card_sections(request, card),
    }
    return render(request, "cards/card_detail.html", context)


def _provenance_rows(card: Card, provenance: dict[str, dict[str, Any]]
                     ) -> list[dict[str, Any]]:
    """Where each field's value came from, with the field's label, for the card page."""
    data = card.as_data()
    return [
        {**entry, "key": key, "label": FIELD_LABELS.get(key, key),
         "number": FIELD_NUMBERS.get(key), "value": show_value(key, data.get(key)),
         "date": parse_datetime(entry["date"]) if entry.get("date") else None}
        for key, entry in provenance.items()
    ]


@require_GET
def set_detail(request: HttpRequest, code: str) -> HttpResponse:
    card_set = get_object_or_404(CardSet, code__iexact=code)
    cards = list(card_set.cards.select_related("set").order_by(*SET_ORDER))
    complete = sum(1 for c in cards if not c.unknown_fields)
    data = [c.as_data() for c in cards]
    context = {
        "set": card_set,
        "cards": cards,
        "complete": complete,
        "fields": completeness(data),
        "checklist": checklist(data, card_set.size) if card_set.size else None,
    }
    return render(request, "cards/set_detail.html", context)


@require_GET
def search_help(request: HttpRequest) -> HttpResponse:
    """Generated from the key registry, so every key is documented with a working example."""
    return render(request, "cards/search_help.html", {"sections": help_sections()})


@require_GET
def ability_index(request: HttpRequest) -> HttpResponse:
    counts = dict(
        Card.objects.filter(keywords__isnull=False)
        .values_list("keywords__ability")
        .annotate(n=Count("id", distinct=True))
        .values_list("keywords__ability", "n")
    )
    abilities = [
        {"ability": a, "category_name": CATEGORY_NAMES[a.category], "count": counts.get(a.slug, 0)}
        for a in COMMON_ABILITIES
    ]
    return render(request, "cards/abilities.html", {"abilities": abilities})


@require_GET
def ability_detail(request: HttpRequest, slug: str) -> HttpResponse:
    ability = BY_SLUG.get(slug)
    if ability is None:
        raise Http404(f"No common ability {slug!r}")
    cards = (
        Card.objects.filter(keywords__ability=slug)
        .select_related("set", "picture")
        .distinct()
        .order_by("name", "id")
    )
    return render(
        request,
        "cards/ability_detail.html",
        {"ability": ability, "category_name": CATEGORY_NAMES[ability.category], "cards": cards},
    )


@require_GET
def card_image(request: HttpRequest, card_id: str, size: str) -> FileResponse:
    """Serve a WebP rendition, drawing the card's face first if it was never made."""
    if size not in SIZES and size not in DERIVED:
        raise Http404("unknown image size")
    card = get_object_or_404(Card.objects.select_related("set"), id=card_id)
    # If another request drew the same face at the same moment, use theirs.
    with suppress(IntegrityError), transaction.atomic():
        cards_ensure_images([card])
        cards_restore_lost_image(card)
    picture = CardImage.objects.get(card=card)
    if size in DERIVED:
        rendition = picture.large.storage.open(derived_rendition(picture, size), "rb")
    else:
        rendition = getattr(picture, size).open("rb")
    response = FileResponse(rendition, content_type="image/webp")
    response["Cache-Control"] = (
        "public, max-age=31536000, immutable" if "v" in request.GET else "public, max-age=300"
    )
    return response
