"""Which decklist format a paste or a file is in, from its content alone."""

from __future__ import annotations

from typing import Literal

from decks.formats.csv_format import HEADER
from decks.formats.deck_code import looks_like_deck_code

Format = Literal["json", "csv", "code", "text"]


def detect_format(text: str) -> Format:
    stripped = text.lstrip("\ufeff").strip()
    if stripped.startswith("{"):
        return "json"
    first_line = stripped.split("\n", 1)[0].strip().casefold().replace(" ", "")
    if first_line == ",".join(HEADER):
        return "csv"
    # A deck code is one token with no spaces; a one-word decklist is one card name, and
    # card names hold spaces or are in the catalogue, so the code is tried first.
    if "\n" not in stripped and looks_like_deck_code(stripped) and any(
        c.isdigit() or c in "-_" for c in stripped
    ):
        return "code"
    return "text"
