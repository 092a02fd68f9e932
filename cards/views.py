"""Catalogue pages: home, card list, card page, the ability index and card images."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET
from django_htmx.middleware import HtmxDetails

from cards.anatomy_view import anatomy_rows
from cards.image_services import cards_ensure_images
from cards.images_urls import SIZES
from cards.models import Card, CardImage, CardSet
from rules import card_facts
from rules.abilities import BY_SLUG, CATEGORY_NAMES, COMMON_ABILITIES

PAGE_SIZE = 60


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    sets = CardSet.objects.annotate(
        card_count=Count("cards"),
        complete=Count("cards", filter=Q(cards__unknown_fields=[])),
    ).order_by("-official", "code")
    return render(request, "cards/home.html", {"sets": sets})


@require_GET
def card_list(request: HtmxHttpRequest) -> HttpResponse:
    filters = {
        "set": request.GET.get("set", ""),
        "type": request.GET.get("type", ""),
        "faction": request.GET.get("faction", ""),
    }
    cards = Card.objects.select_related("set", "picture").order_by("name", "id")
    if filters["set"]:
        cards = cards.filter(set__code__iexact=filters["set"])
    if filters["type"]:
        cards = cards.filter(type=filters["type"])
    if filters["faction"]:
        cards = cards.filter(faction=filters["faction"])
    page = Paginator(cards, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "page": page,
        "filters": filters,
        "query": query.urlencode(),
        "sets": CardSet.objects.order_by("-official", "code"),
        "types": card_facts.CARD_TYPES,
        "factions": card_facts.FACTIONS,
    }
    template = "cards/_card_grid.html" if request.htmx else "cards/card_list.html"
    return render(request, template, context)


@require_GET
def card_detail(request: HttpRequest, card_id: str) -> HttpResponse:
    card = get_object_or_404(Card.objects.select_related("set", "picture"), id=card_id)
    clauses = [
        {
            "clause": clause,
            "category_name": CATEGORY_NAMES.get(clause.category or "", ""),
        }
        for clause in card.ability_clauses
    ]
    same_name = Card.objects.filter(name=card.name).exclude(id=card.id).select_related("set")
    context: dict[str, Any] = {
        "card": card,
        "rows": anatomy_rows(card),
        "clauses": clauses,
        "same_name": same_name,
        "revisions": card.revisions.select_related("user")[:10],
    }
    return render(request, "cards/card_detail.html", context)


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
    if size not in SIZES:
        raise Http404("unknown image size")
    card = get_object_or_404(Card.objects.select_related("set"), id=card_id)
    # If another request drew the same face at the same moment, use theirs.
    with suppress(IntegrityError), transaction.atomic():
        cards_ensure_images([card])
    picture = CardImage.objects.get(card=card)
    response = FileResponse(getattr(picture, size).open("rb"), content_type="image/webp")
    response["Cache-Control"] = (
        "public, max-age=31536000, immutable" if "v" in request.GET else "public, max-age=300"
    )
    return response
