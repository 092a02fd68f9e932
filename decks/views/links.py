"""Decklists in and out: the print view, deck links (/d/<code>) and the zip of my decks.

A deck link carries the whole deck, so it works for anyone, needs no account and survives the
deck being edited or deleted: its cards in the deck code (``/d/<code>``), its name and
description beside it (``?name=&description=``; the code carries the cards only, to stay
short). A code that cannot be read answers 400 (Bad Request: the address itself is
malformed, not a missing page) with the decoder's reason in plain words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from cards.models import Card
from decks import deck_display
from decks.deck_archive import decks_archive
from decks.deck_input import MAX_NAME
from decks.exports import render_deck
from decks.formats.deck_code import DeckCodeError, decode_deck_code
from decks.formats.detect import detect_format
from decks.models import Deck
from decks.services import catalogue_cards, deck_data, deck_save
from decks.share_links import link_remember
from decks.views.decks import visible_deck
from rules.decklist import Decklist
from sitewide.throttling import throttled


@dataclass(frozen=True)
class DeckShare:
    """What the export menu, the print view and the deck page show to pass a deck on."""

    text: str  # the canonical text decklist
    code: str  # the deck code: the players and cards
    link: str  # the absolute /d/<code>?name=...&description=... address
    short: str = ""  # the absolute /s/<slug> address of a public or unlisted deck
    label: str = ""  # the QR code's alternative text

    @cached_property
    def qr(self) -> SafeString:
        """An inline SVG QR code of the short link, or else of the link. Drawn only when a
        page shows it (about 80 ms for a long deck code): the builder's export menu, which
        every edit renders again, does not."""
        return qr_svg(self.short or self.link, self.label)


def short_slug(deck_id: int) -> str:
    """A public deck's short, stable slug: its number in base 36 (``/s/ya`` is deck 1234)."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        deck_id, rest = divmod(deck_id, 36)
        out = digits[rest] + out
        if not deck_id:
            return out


def deck_short_slug(deck: Deck) -> str:
    """The slug of a deck's short link: a public deck's number in base 36 (short, for light
    QR codes), an unlisted deck's share token (numbers are sequential, so they would let anyone
    walk through every unlisted deck)."""
    return short_slug(deck.pk) if deck.visibility == Deck.PUBLIC else deck.share_token


#: A number in base 36, as short_slug writes it; share tokens are longer (16 characters).
NUMBER_SLUG = re.compile(r"[0-9a-z]{1,8}")


@require_GET
def deck_short(request: HttpRequest, slug: str) -> HttpResponse:
    """A short link (for QR codes that stay light): the deck page, if the visitor may see it.
    An unlisted deck's link lets this session open the deck by its number from then on."""
    deck = Deck.objects.filter(share_token=slug).first()
    if deck is not None and deck.visibility == Deck.UNLISTED:
        link_remember(request.session, slug)
        return redirect(deck)
    if deck is not None:
        return redirect(visible_deck(request, deck.pk))
    if not NUMBER_SLUG.fullmatch(slug):
        raise Http404("No such deck link.")
    return redirect(visible_deck(request, int(slug, 36)))


def deck_code_target(text: str) -> str | None:
    """A deck code pasted into the catalogue's search box opens the deck (registered as the
    search's redirect: cards.extensions)."""
    if detect_format(text) != "code":
        return None
    try:
        decode_deck_code(text, Card.objects.values_list("id", flat=True))
    except DeckCodeError:
        return None  # not a deck code after all: search for it
    return reverse("deck_link", args=[text])


def qr_svg(url: str, label: str) -> SafeString:
    """An inline SVG QR code of ``url``, titled ``label`` (read as its alternative text)."""
    svg = segno.make(url, error="m").svg_inline(
        scale=3, border=2, title=label, svgclass="qr-code", lineclass=None, omitsize=True,
    )
    labelled = f'<svg role="img" aria-label="{escape(label)}" '
    return mark_safe(svg.replace("<svg ", labelled, 1))  # segno escapes the title


def deck_share(request: HttpRequest, data: Decklist, deck: Deck | None = None) -> DeckShare:
    """``deck``: the saved deck, whose short link (public and unlisted decks only: a private
    deck's page is its owner's) the QR code then holds, a few characters instead of the whole
    deck in its code."""
    code = render_deck(data, "code").strip()
    link = request.build_absolute_uri(deck_link_path(code, data.name, data.description))
    short = ""
    if deck is not None and deck.visibility in (Deck.PUBLIC, Deck.UNLISTED):
        short = request.build_absolute_uri(reverse("deck_short", args=[deck_short_slug(deck)]))
    label = f"QR code of the link to the deck {data.name}"
    return DeckShare(text=render_deck(data, "txt"), code=code, link=link, short=short,
                     label=label)


#: A description longer than this stays out of a deck link (addresses past a few thousand
#: characters break in chat apps and proxies); the cards and the name still travel.
MAX_LINK_DESCRIPTION = 1000


def deck_link_path(code: str, name: str, description: str = "") -> str:
    """The deck link's path: the code, and beside it the name and description (the code
    carries neither), so that the link holds the whole deck."""
    path = reverse("deck_link", args=[code])
    if len(description) > MAX_LINK_DESCRIPTION:
        description = ""
    beside = {key: value for key, value in (("name", name), ("description", description))
              if value.strip()}
    return f"{path}?{urlencode(beside)}" if beside else path


def deck_link_words(request: HttpRequest) -> dict[str, str]:
    """The name and description a deck link carries beside its code; raises DeckCodeError
    when either is too long for a deck (a link pasted into itself, say)."""
    words = {key: request.GET.get(key, "").strip() for key in ("name", "description")}
    for key, limit in (("name", MAX_NAME), ("description", MAX_LINK_DESCRIPTION)):
        if len(words[key]) > limit:
            raise DeckCodeError(f"the deck {key} in this link is {len(words[key]):,} characters "
                                f"long; at most {limit:,} fit")
    return words


@require_GET
def deck_print(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    data = deck_data(deck)
    view = deck_display.deck_view(data)
    return render(request, "decks/deck_print.html", {
        "deck": deck, "view": view, "share": deck_share(request, data, deck),
        "total": sum(part.total for part in view.parts),
    })


@require_http_methods(["GET", "POST"])
def deck_link(request: HttpRequest, code: str) -> HttpResponse:
    """The deck in a deck code, read-only; POST saves a private copy (logged-in users)."""
    try:
        data = decode_deck_code(code, Card.objects.values_list("id", flat=True),
                                **deck_link_words(request))
    except DeckCodeError as bad:
        return render(request, "decks/deck_link.html", {"error": str(bad), "code": code},
                      status=400)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        name = data.name.strip()[:MAX_NAME] or "Untitled deck"
        try:
            copy = deck_save(owner=request.user, data=replace(data, name=name))
        except ValidationError as invalid:
            return render(request, "decks/deck_link.html", {
                "error": "; ".join(invalid.messages), "code": code}, status=400)
        messages.success(request, f"Saved “{copy.name}” as your own private deck.")
        return redirect("decks:builder", copy.pk)
    return render(request, "decks/deck_link.html", {
        "data": data, "view": deck_display.deck_view(data), "share": deck_share(request, data),
    })


@login_required
@require_GET
@throttled("exports")
def deck_export_all(request: HttpRequest) -> HttpResponse:
    decks = Deck.objects.filter(owner_id=request.user.pk).order_by("name", "id")
    archive = decks_archive([deck_data(d) for d in decks], catalogue_cards())
    response = HttpResponse(archive, content_type="application/zip")
    filename = f"{slugify(request.user.get_username()) or 'my'}-decks.zip"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
