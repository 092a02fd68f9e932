"""An owner's scan or photo of a card, taken in: checked, the card found and straightened,
its renditions made and its text read.

Pure Python (no Django): the web layer hands over the uploaded bytes and gets back everything
it stores or shows. The steps are those of :mod:`cards.images.scan` (refusals raise
:class:`~cards.images.scan.ScanError`), :mod:`cards.images.locate` and
:mod:`cards.images.ocr`; reading is skipped, with a message saying why, when Tesseract is not
installed or no card could be found in the photo.
"""

from __future__ import annotations

from dataclasses import dataclass

from cards.images.locate import Location, locate_card
from cards.images.ocr import CardReading, OcrUnavailable, read_card
from cards.images.scan import check_scan, renditions_from_image


@dataclass(frozen=True)
class ScanReading:
    """What became of an uploaded scan."""

    renditions: dict[str, bytes]  # WebP renditions (as the admin's scans) of the card found
    location: Location  # where the card was, and what was done to it
    reading: CardReading | None  # the text read, or None (see ``message``)
    message: str  # what was done, in words for the uploader


def read_scan(data: bytes, *, read_text: bool = True) -> ScanReading:
    """Check ``data``, straighten the card in it, make its renditions and read it.

    Raises :class:`~cards.images.scan.ScanError` if the file is refused. Never raises for a
    missing Tesseract: the answer then has no reading and says so.
    """
    checked = check_scan(data)
    location = locate_card(checked.image)
    renditions = renditions_from_image(location.image)
    if not location.is_card:
        return ScanReading(renditions, location, None,
                           f"{location.message}; nothing was read from it")
    if not read_text:
        return ScanReading(renditions, location, None, location.message)
    try:
        reading = read_card(location.image)
    except OcrUnavailable as exc:
        return ScanReading(renditions, location, None,
                           f"{location.message}; the text could not be read: {exc}")
    return ScanReading(renditions, location, reading,
                       f"{location.message}; the text was read: check each value")
