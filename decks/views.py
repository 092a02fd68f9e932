"""Deck pages. Private decks are invisible (404) to anyone but their owner."""

from __future__ import annotations

from django.db.models import Q, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from decks.formats.model import SECTION_TITLES
from decks.models import Deck


def visible_decks(request: HttpRequest) -> QuerySet[Deck]:
    """Decks this visitor may open: public and unlisted ones, and their own."""
    decks = Deck.objects.all()
    if request.user.is_authenticated:
        return decks.filter(Q(visibility__in=[Deck.PUBLIC, Deck.UNLISTED]) | Q(owner=request.user))
    return decks.filter(visibility__in=[Deck.PUBLIC, Deck.UNLISTED])


@require_GET
def deck_list(request: HttpRequest) -> HttpResponse:
    listed = Q(visibility=Deck.PUBLIC)
    if request.user.is_authenticated:
        listed |= Q(owner=request.user)
    decks = (
        Deck.objects.filter(listed)
        .select_related("owner")
        .annotate(card_count=Sum("entries__count"))
        .order_by("name", "id")
    )
    return render(request, "decks/deck_list.html", {"decks": decks})


@require_GET
def deck_detail(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = get_object_or_404(visible_decks(request).select_related("owner"), pk=deck_id)
    entries = deck.entries.select_related("card").order_by("position")
    parts = []
    for key, title in SECTION_TITLES.items():
        part_entries = [e for e in entries if e.section == key]
        parts.append({
            "key": key,
            "title": title,
            "entries": part_entries,
            "total": sum(e.count for e in part_entries),
        })
    return render(request, "decks/deck_detail.html", {"deck": deck, "parts": parts})
