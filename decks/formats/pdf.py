"""Printable PDFs: a decklist sheet and 3x3 proxy sheets of cards at their real size.

Pure (reportlab and Pillow, no Django): the caller passes card names and image bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from PIL import Image
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from decks.formats.card_refs import CardRef
from rules.decklist import SECTION_TITLES, SECTIONS, Decklist

PageSize = Literal["a4", "letter"]
PAGE_SIZES: Final = {"a4": A4, "letter": LETTER}
CARD_WIDTH: Final = 63 * mm
CARD_HEIGHT: Final = 88 * mm
CROP_MARK: Final = 4 * mm


@dataclass(frozen=True)
class SheetFacts:
    """What the decklist sheet prints besides the cards."""

    verdict: str  # e.g. "Legal for 2-4 players" or "Not legal: 2 errors"
    code: str  # the deck code
    fictional: bool  # any card from a fictional set
    owner: str | None = None


def decklist_pdf(deck: Decklist, cards: Mapping[str, CardRef], facts: SheetFacts,
                 page: PageSize = "a4") -> bytes:
    """One or more pages: name, player count, the four parts with counts and names, totals,
    the validation verdict and the deck code."""
    width, height = PAGE_SIZES[page]
    buffer = io.BytesIO()
    pdf = Canvas(buffer, pagesize=(width, height), invariant=True)
    pdf.setTitle(deck.name or "Decklist")
    margin = 18 * mm
    y = height - margin

    def line(text: str, size: float = 10, font: str = "Helvetica", gap: float = 1.45) -> None:
        nonlocal y
        if y < margin + size * gap:
            pdf.showPage()
            y = height - margin
        pdf.setFont(font, size)
        pdf.drawString(margin, y - size, text)
        y -= size * gap

    line(deck.name or "Untitled deck", 18, "Helvetica-Bold")
    total = sum(e.count for _, e in deck.all_entries())
    owner = f"by {facts.owner}  ·  " if facts.owner else ""
    line(f"{owner}For {deck.players} players  ·  {total} cards  ·  {facts.verdict}", 10)
    if facts.fictional:
        line("Contains fictional Demo cards (not real Allegiance cards).", 9, "Helvetica-Oblique")
    for text in deck.description.splitlines():
        line(text, 9, "Helvetica-Oblique")
    for section in SECTIONS:
        entries = deck.section(section)
        count = sum(e.count for e in entries)
        y -= 4
        line(f"{SECTION_TITLES[section]} ({count})", 12, "Helvetica-Bold")
        for entry in entries:
            card = cards.get(entry.card_id)
            label = card.name if card else entry.card_id
            faction = f"  ({card.faction})" if card and card.faction else ""
            line(f"{entry.count:>3}  {label}{faction}", 10)
    y -= 6
    line("Deck code", 9, "Helvetica-Bold")
    for start in range(0, len(facts.code), 90):
        line(facts.code[start:start + 90], 7.5, "Courier")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def proxies_pdf(faces: Sequence[bytes], page: PageSize = "a4", *, low_ink: bool = False) -> bytes:
    """Card faces at 63 x 88 mm, 3 x 3 a page, centred, with crop marks at every card corner;
    one face per copy (the caller repeats a face for each copy). Each distinct face is
    embedded once, however many copies show it. ``low_ink``: faces in light grey at print
    resolution (a 60-card sheet well under 1 MB, and little toner)."""
    width, height = PAGE_SIZES[page]
    readers: dict[bytes, ImageReader] = {}
    left = (width - 3 * CARD_WIDTH) / 2
    bottom = (height - 3 * CARD_HEIGHT) / 2
    buffer = io.BytesIO()
    pdf = Canvas(buffer, pagesize=(width, height), invariant=True)
    pdf.setTitle("Proxy sheet")
    for start in range(0, max(len(faces), 1), 9):
        for slot, face in enumerate(faces[start:start + 9]):
            column, row = slot % 3, 2 - slot // 3
            x, y = left + column * CARD_WIDTH, bottom + row * CARD_HEIGHT
            if face not in readers:
                readers[face] = _low_ink(face) if low_ink else _reader(face)
            pdf.drawImage(readers[face], x, y, CARD_WIDTH, CARD_HEIGHT)
        _crop_marks(pdf, left, bottom)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _reader(face: bytes) -> ImageReader:
    # reportlab embeds JPEG as it is; faces are stored as WebP, so convert once in memory
    # (PNG would make a 60-card sheet some 18 MB; JPEG at quality 90 keeps it near 3 MB).
    with Image.open(io.BytesIO(face)) as image:
        jpeg = io.BytesIO()
        image.convert("RGB").save(jpeg, "JPEG", quality=90)
    jpeg.seek(0)
    return ImageReader(jpeg)


LOW_INK_WIDTH = 372  # pixels across 63 mm: 150 dpi, plenty for a proxy


def _low_ink(face: bytes) -> ImageReader:
    """The face in grey, lightened (dark areas become mid grey: the text stays readable, the
    art costs little toner), at 150 dpi, as a small JPEG."""
    with Image.open(io.BytesIO(face)) as image:
        grey = image.convert("L")
        if grey.width > LOW_INK_WIDTH:
            grey = grey.resize((LOW_INK_WIDTH, round(grey.height * LOW_INK_WIDTH / grey.width)),
                               Image.Resampling.LANCZOS)
        light = grey.point(lambda value: 110 + value * 145 // 255)
        jpeg = io.BytesIO()
        light.save(jpeg, "JPEG", quality=70, optimize=True)
    jpeg.seek(0)
    return ImageReader(jpeg)


def _crop_marks(pdf: Canvas, left: float, bottom: float) -> None:
    pdf.setLineWidth(0.3)
    xs = [left + i * CARD_WIDTH for i in range(4)]
    ys = [bottom + i * CARD_HEIGHT for i in range(4)]
    for x in xs:
        pdf.line(x, bottom - CROP_MARK - 1 * mm, x, bottom - 1 * mm)
        pdf.line(x, ys[-1] + 1 * mm, x, ys[-1] + CROP_MARK + 1 * mm)
    for y in ys:
        pdf.line(left - CROP_MARK - 1 * mm, y, left - 1 * mm, y)
        pdf.line(xs[-1] + 1 * mm, y, xs[-1] + CROP_MARK + 1 * mm, y)
