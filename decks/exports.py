"""Rendering a deck in each export format, with what the catalogue knows about its cards."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Final

from cards.image_services import cards_ensure_images
from cards.models import Card, CardImage
from decks.formats.card_refs import CardRef
from decks.formats.csv_format import render_csv
from decks.formats.deck_code import encode_deck_code
from decks.formats.json_format import render_json
from decks.formats.pdf import PageSize, SheetFacts, decklist_pdf, proxies_pdf
from decks.formats.text import render_text
from decks.services import catalogue_cards
from decks.validation import deck_validate
from rules.decklist import Decklist

# format -> (media type, file extension)
EXPORTS: Final = {
    "txt": ("text/plain; charset=utf-8", "txt"),
    "json": ("application/json", "json"),
    "csv": ("text/csv; charset=utf-8", "csv"),
    "code": ("text/plain; charset=utf-8", "txt"),
    "pdf": ("application/pdf", "pdf"),
    "proxies": ("application/pdf", "pdf"),
}
BINARY: Final = ("pdf", "proxies")


def export_filename(name: str, fmt: str, *, low_ink: bool = False) -> str:
    """A file name that says the format, so that two downloads never share one (the text list
    and the deck code are both .txt, the decklist and the proxies both .pdf)."""
    kinds = {"code": "deck-code", "pdf": "decklist",
             "proxies": "proxies-low-ink" if low_ink else "proxies"}
    return f"{name}.{kinds[fmt]}.{EXPORTS[fmt][1]}" if fmt in kinds else f"{name}.{EXPORTS[fmt][1]}"


def _cards_for(deck: Decklist) -> dict[str, CardRef]:
    # The text and CSV renderers need every card sharing a name with a deck card, to write
    # "Name (faction)" where the name alone is ambiguous: the whole catalogue is simplest.
    return {card.id: card for card in catalogue_cards()}


def export_deck(
    deck: Decklist,
    fmt: str,
    page: PageSize = "a4",
    *,
    owner: str | None = None,
    only: Collection[str] | None = None,
    low_ink: bool = False,
) -> bytes:
    """The deck in any export format, as the bytes of the file. ``owner`` is printed on the
    decklist sheet; ``only`` limits a proxy sheet to those card ids; ``low_ink`` prints it in
    light grey, small (under 1 MB for 60 cards)."""
    if fmt == "pdf":
        return deck_sheet_pdf(deck, page, owner=owner)
    if fmt == "proxies":
        return deck_proxies_pdf(deck, page, only=only, low_ink=low_ink)
    return render_deck(deck, fmt).encode("utf-8")


def deck_sheet_pdf(deck: Decklist, page: PageSize = "a4", *, owner: str | None = None) -> bytes:
    validation = deck_validate(deck)
    if validation.legal and validation.legal_players:
        low, high = validation.legal_players
        verdict = f"Legal for {low}-{high} players"
    else:
        verdict = f"Not legal: {len(validation.errors)} error(s)"
    ids = {e.card_id for _, e in deck.all_entries()}
    fictional = Card.objects.filter(id__in=ids, official=False).exists()
    facts = SheetFacts(verdict=verdict, code=render_deck(deck, "code").strip(),
                       fictional=fictional, owner=owner)
    return decklist_pdf(deck, _cards_for(deck), facts, page)


def deck_proxies_pdf(
    deck: Decklist, page: PageSize = "a4", *, only: Collection[str] | None = None,
    low_ink: bool = False,
) -> bytes:
    """One face a copy, holdings included: the scan or the rendered face, at card size;
    ``only`` prints a selection of the deck's cards."""
    cards = Card.objects.select_related("set").in_bulk([e.card_id for _, e in deck.all_entries()])
    cards_ensure_images(list(cards.values()))
    pictures = {p.card_id: p for p in CardImage.objects.filter(card__in=list(cards))}
    faces: list[bytes] = []
    for _, entry in deck.all_entries():
        picture = pictures.get(entry.card_id)
        if picture is None or (only is not None and entry.card_id not in only):
            continue
        with picture.large.open("rb") as handle:
            face = handle.read()
        faces.extend([face] * entry.count)
    return proxies_pdf(faces, page, low_ink=low_ink)


def render_deck(deck: Decklist, fmt: str) -> str:
    renderers: dict[str, Callable[[Decklist], str]] = {
        "txt": lambda d: render_text(d, _cards_for(d)),
        "json": render_json,
        "csv": lambda d: render_csv(d, _cards_for(d)),
        "code": lambda d: encode_deck_code(d, Card.objects.values_list("id", flat=True)) + "\n",
    }
    if fmt not in renderers:  # the PDFs are bytes: export_deck() makes them
        raise ValueError(f"unknown export format {fmt!r}; use one of {', '.join(EXPORTS)}")
    return renderers[fmt](deck)
