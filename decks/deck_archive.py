"""Every deck of a user in one zip: a text decklist per deck and all of them as JSON.

Pure apart from slugify: it takes the decks (already read into the deck dataclass) and the
catalogue cards the text format needs, and returns the bytes of the zip, built in memory.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable, Sequence

from django.utils.text import slugify

from decks.formats.card_refs import CardRef
from decks.formats.json_format import deck_to_dict
from decks.formats.text import render_text
from rules.decklist import Decklist

JSON_NAME = "decks.json"


def archive_names(names: Iterable[str]) -> list[str]:
    """A safe, unique ``.txt`` file name for each deck name, in order: the name slugified
    (ASCII letters, digits and dashes; "deck" if nothing is left), then -2, -3... on clashes."""
    used = {JSON_NAME}
    out: list[str] = []
    for name in names:
        stem = (slugify(name) or "deck")[:80].strip("-") or "deck"
        candidate, n = f"{stem}.txt", 1
        while candidate in used:
            n += 1
            candidate = f"{stem}-{n}.txt"
        used.add(candidate)
        out.append(candidate)
    return out


def decks_archive(decks: Sequence[Decklist], cards: Iterable[CardRef]) -> bytes:
    """The zip: ``<name>.txt`` per deck (the canonical text format) and ``decks.json``,
    a list of the JSON decklists in the same order."""
    by_id = {card.id: card for card in cards}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for filename, deck in zip(archive_names(d.name for d in decks), decks, strict=True):
            archive.writestr(filename, render_text(deck, by_id))
        listing = [deck_to_dict(deck) for deck in decks]
        archive.writestr(JSON_NAME, json.dumps(listing, indent=2, ensure_ascii=False) + "\n")
    return buffer.getvalue()
