"""Every card in a photo, read: the reading behind ``POST /api/scans/`` (design §13), the edit
form's queue of cards and the scans bench.

Pure Python (no Django). :func:`read_photo` checks the uploaded bytes
(:func:`cards.images.scan.check_scan`: raises :class:`~cards.images.scan.ScanError`), finds
the cards in the photo (:mod:`cards.images.locate`), straightens and reads each one
(:mod:`cards.images.ocr`), and returns them in reading order with their corners, the fields
read (:mod:`cards.images.card_fields`) and the doubtful keys. Nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from cards.images.card_fields import NO_HINTS, CatalogueHints, reading_fields
from cards.images.locate import Quad, locate_cards
from cards.images.ocr import CardReading, OcrUnavailable, read_card
from cards.images.scan import check_scan


@dataclass(frozen=True)
class CardFound:
    """One card found in a photo."""

    corners: Quad  # in the photo's pixels, clockwise from the card's top left
    image: Image.Image  # the card straightened, 745 x 1040
    fields: dict[str, object] = field(default_factory=dict)  # §4 keys the type prints
    doubtful: list[str] = field(default_factory=list)
    reading: CardReading | None = None
    doubtful_outline: str = ""  # why the corners may not be the card's, or ""


@dataclass(frozen=True)
class PhotoReading:
    """The cards of one photo, in reading order, and what the person should know."""

    size: tuple[int, int]  # the photo's width and height, upright
    cards: list[CardFound]
    warnings: list[str]


def read_photo(data: bytes, *, read_text: bool = True,
               hints: CatalogueHints = NO_HINTS) -> PhotoReading:
    """Check ``data`` and read every card in it (see the module's docstring); what is read
    is checked against what the catalogue knows, ``hints``
    (:func:`cards.images.card_fields.reading_fields`)."""
    photo = check_scan(data).image
    return read_image(photo, read_text=read_text, hints=hints)


def read_image(photo: Image.Image, *, read_text: bool = True,
               hints: CatalogueHints = NO_HINTS) -> PhotoReading:
    """:func:`read_photo` on an image already checked and decoded."""
    located = locate_cards(photo)
    warnings = list(located.warnings)
    cards: list[CardFound] = []
    unavailable = ""
    for card in located.cards:
        if not read_text or unavailable:
            cards.append(CardFound(card.corners, card.image, doubtful_outline=card.doubtful))
            continue
        try:
            reading = read_card(card.image)
        except OcrUnavailable as exc:
            unavailable = str(exc)
            cards.append(CardFound(card.corners, card.image, doubtful_outline=card.doubtful))
            continue
        fields, doubtful = reading_fields(reading, hints)
        cards.append(CardFound(card.corners, card.image, fields, doubtful, reading,
                               card.doubtful))
    if unavailable:
        warnings.append(f"the text could not be read: {unavailable}")
    return PhotoReading(photo.size, cards, warnings)
