"""The deck code: a deck's cards in one short, URL-safe, checksummed string.

The code carries the player count and the cards; the deck's name and description travel
beside it (a deck link's ``name`` parameter, an import form's Name field), as a file's name
travels beside its contents. Round trip: ``decode_deck_code(encode_deck_code(deck, ids), ids,
name=deck.name, description=deck.description) == deck``.

Layout (version 2, written), before base64url without padding::

    version:u8  players:u8
    4 x section (holdings, structures, personalities, wanderers):
        varint n, then n entries: varint (count << 1 | literal)
            literal = 0: a 3-byte reference (the first 24 bits of SHA-256 of the card id)
            literal = 1: varint len + the card id (UTF-8), when the reference would be ambiguous
    checksum: the first 3 bytes of SHA-256 of everything before it

Version 1 (read, for the codes already given out) had the name and the description after the
player count, each as varint len + UTF-8; a version-1 code decodes with its own.

A card is named by a 3-byte reference rather than its id (which is 15-30 characters): the
decoder finds the card among the catalogue's ids by the same reference. The encoder writes
the id itself whenever two catalogue cards share a reference, so a code never decodes to the
wrong card. References stay valid as the catalogue grows because they derive from the id,
not from a position. The checksum makes a mistyped or truncated code fail with a clear
error (a random change slips through with probability 1 in 16.7 million).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterable
from typing import Final

from rules.decklist import SECTIONS, DeckEntry, Decklist

VERSION: Final = 2
#: Version 1 carried the name and description too; codes given out then still decode.
WITH_NAME: Final = 1
READS: Final = (WITH_NAME, VERSION)
CHECKSUM_BYTES: Final = 3
REFERENCE_BYTES: Final = 3
MAX_CODE_LENGTH: Final = 20_000


class DeckCodeError(ValueError):
    """The code cannot be read; the message says why in plain words."""


def reference(card_id: str) -> bytes:
    return hashlib.sha256(card_id.encode()).digest()[:REFERENCE_BYTES]


def _ambiguous(card_ids: Iterable[str]) -> set[bytes]:
    seen: dict[bytes, str] = {}
    shared: set[bytes] = set()
    for card_id in card_ids:
        ref = reference(card_id)
        if ref in seen and seen[ref] != card_id:
            shared.add(ref)
        seen[ref] = card_id
    return shared


def encode_deck_code(deck: Decklist, catalogue_ids: Iterable[str]) -> str:
    """The code of ``deck``'s players and cards (not its name or description: those travel
    beside the code); ``catalogue_ids`` are every card the decoder may know."""
    shared = _ambiguous(catalogue_ids)
    out = bytearray([VERSION, deck.players])
    for section in SECTIONS:
        entries = deck.section(section)
        _put_varint(out, len(entries))
        for entry in entries:
            ref = reference(entry.card_id)
            literal = ref in shared
            _put_varint(out, entry.count << 1 | literal)
            if literal:
                _put_text(out, entry.card_id)
            else:
                out += ref
    out += hashlib.sha256(out).digest()[:CHECKSUM_BYTES]
    return base64.urlsafe_b64encode(bytes(out)).rstrip(b"=").decode("ascii")


def decode_deck_code(code: str, catalogue_ids: Iterable[str], *, name: str = "",
                     description: str = "") -> Decklist:
    """The deck in ``code``, named ``name`` and described by ``description`` (what travels
    beside a version-2 code; a version-1 code carries its own). Raises DeckCodeError for a
    mistyped, cut or foreign code."""
    data = _unwrap(code)
    by_ref: dict[bytes, list[str]] = {}
    for card_id in catalogue_ids:
        by_ref.setdefault(reference(card_id), []).append(card_id)
    reader = _Reader(data)
    version = reader.byte()
    if version not in READS:
        raise DeckCodeError(
            f"this deck code was made by format version {version}; this site reads versions "
            f"{' and '.join(map(str, READS))}"
        )
    players = reader.byte()
    if version == WITH_NAME:
        name, description = reader.text(), reader.text()
    parts: dict[str, tuple[DeckEntry, ...]] = {}
    missing = 0
    for section in SECTIONS:
        entries: list[DeckEntry] = []
        for _ in range(reader.varint()):
            header = reader.varint()
            count, literal = header >> 1, header & 1
            if literal:
                card_id = reader.text()
            else:
                found = by_ref.get(reader.take(REFERENCE_BYTES), [])
                if len(found) != 1:
                    missing += 1
                    continue
                card_id = found[0]
            if count < 1:
                raise DeckCodeError("the deck code holds a card with no copies: it is damaged")
            entries.append(DeckEntry(card_id, count))
        parts[section] = tuple(entries)
    if not reader.done():
        raise DeckCodeError("the deck code has extra data after the deck: it is damaged")
    if missing:
        raise DeckCodeError(
            f"the deck code names {missing} card(s) this catalogue does not have; it may come "
            "from a site with more cards"
        )
    try:
        return Decklist(name=name, players=players, description=description, **parts)
    except ValueError as exc:
        raise DeckCodeError(f"the deck code holds an impossible deck: {exc}") from exc


def looks_like_deck_code(text: str) -> bool:
    """A cheap test for format detection: one token of the base64url alphabet."""
    stripped = text.strip()
    return 8 <= len(stripped) <= MAX_CODE_LENGTH and all(
        c.isascii() and (c.isalnum() or c in "-_") for c in stripped
    )


def _unwrap(code: str) -> bytes:
    text = "".join(code.split())
    if not text:
        raise DeckCodeError("the deck code is empty")
    if len(text) > MAX_CODE_LENGTH:
        raise DeckCodeError(f"the deck code is {len(text)} characters; the limit is "
                            f"{MAX_CODE_LENGTH}")
    bad = sorted({c for c in text if not (c.isascii() and (c.isalnum() or c in "-_"))})
    if bad:
        raise DeckCodeError(
            f"a deck code uses only letters, digits, - and _; it contains {' '.join(bad)!r}"
        )
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise DeckCodeError("the deck code is cut short or mistyped (bad length)") from exc
    body, checksum = data[:-CHECKSUM_BYTES], data[-CHECKSUM_BYTES:]
    if len(data) < 2 + CHECKSUM_BYTES or hashlib.sha256(body).digest()[:CHECKSUM_BYTES] != (
        checksum
    ):
        raise DeckCodeError(
            "the deck code's checksum does not match: it was mistyped or cut short"
        )
    return body


def _put_varint(out: bytearray, value: int) -> None:
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return


def _put_text(out: bytearray, text: str) -> None:
    raw = text.encode("utf-8")
    _put_varint(out, len(raw))
    out += raw


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise DeckCodeError("the deck code ends too early: it is damaged")
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def byte(self) -> int:
        return self.take(1)[0]

    def varint(self) -> int:
        value = shift = 0
        while True:
            part = self.byte()
            value |= (part & 0x7F) << shift
            if not part & 0x80:
                return value
            shift += 7
            if shift > 28:
                raise DeckCodeError("the deck code holds an impossible number: it is damaged")

    def text(self) -> str:
        try:
            return self.take(self.varint()).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DeckCodeError("the deck code holds broken text: it is damaged") from exc

    def done(self) -> bool:
        return self.at == len(self.data)
