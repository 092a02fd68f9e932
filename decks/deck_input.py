"""Turning what a user sends (a decklist text, or parts as ids and counts) into a Deck."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from cards.models import Card
from decks.formats.csv_format import DeckCsvError, parse_csv
from decks.formats.deck_code import DeckCodeError, decode_deck_code
from decks.formats.detect import detect_format
from decks.formats.json_format import DeckJsonError, parse_json
from decks.formats.model import SECTIONS, Deck, DeckEntry
from decks.formats.text import LineError, LineNote, parse_text
from decks.models import Deck as DeckModel
from decks.services import catalogue_resolver

NEW_DECK_NAME = "Untitled deck"
MAX_NAME = DeckModel._meta.get_field("name").max_length or 200


@dataclass(frozen=True)
class DeckInputError(Exception):
    """The input could not become a deck; nothing was saved."""

    detail: str
    lines: tuple[LineError, ...] = ()
    unknown_ids: tuple[str, ...] = ()

    def errors(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = [
            {"line": e.line, "text": e.text, "code": e.code, "message": e.message,
             "suggestions": list(e.suggestions)}
            for e in self.lines
        ]
        found.extend(
            {"code": "unknown_card", "card": card_id,
             "message": f"There is no card with id {card_id!r}."}
            for card_id in self.unknown_ids
        )
        return found


def deck_from_input(attrs: Mapping[str, Any], base: Deck | None = None) -> Deck:
    """A deck from validated API input; fields not given keep the base deck's values."""
    return _deck_and_notes(attrs, base)[0]


def deck_from_text_with_notes(text: str) -> tuple[Deck, tuple[LineNote, ...]]:
    """As deck_from_text, reading a name within a slip of the pen of one card's as that card
    (the text format only), and saying which lines were read so."""
    if detect_format(text) != "text":
        return deck_from_text(text), ()
    return _deck_and_notes({"text": text}, None, near=True)


def _deck_and_notes(attrs: Mapping[str, Any], base: Deck | None, *, near: bool = False
                    ) -> tuple[Deck, tuple[LineNote, ...]]:
    if "text" in attrs:
        result = parse_text(attrs["text"], catalogue_resolver(near=near))
        if result.deck is None:
            raise DeckInputError(
                f"{len(result.errors)} line(s) of the decklist need fixing; nothing was saved.",
                lines=result.errors,
            )
        deck = result.deck
        # A name or player count given beside the text wins over the text's header.
        overrides = {k: attrs[k] for k in ("name", "players", "description") if k in attrs}
        return (replace(deck, **overrides) if overrides else deck), result.notes
    parts: dict[str, tuple[DeckEntry, ...]] = {
        section: tuple(DeckEntry(e["id"], e["count"]) for e in attrs[section])
        if section in attrs else (base.section(section) if base else ())
        for section in SECTIONS
    }
    _check_ids([e.card_id for entries in parts.values() for e in entries])
    return Deck(
        name=attrs.get("name", base.name if base else ""),
        players=attrs.get("players", base.players if base else 4),
        description=attrs.get("description", base.description if base else ""),
        **parts,
    ), ()


def deck_from_text(text: str) -> Deck:
    """A decklist in any supported format, detected from its content (JSON, CSV, a deck code
    or the text format). Raises DeckInputError with every problem."""
    kind = detect_format(text)
    try:
        if kind == "json":
            deck = parse_json(text)
        elif kind == "csv":
            deck = parse_csv(text, catalogue_resolver())
        elif kind == "code":
            deck = decode_deck_code(text, Card.objects.values_list("id", flat=True))
        else:
            return deck_from_input({"text": text})
    except (DeckJsonError, DeckCsvError) as error:
        raise DeckInputError(f"the {kind.upper()} decklist cannot be read: "
                             + "; ".join(error.problems)) from error
    except DeckCodeError as error:
        raise DeckInputError(f"the deck code cannot be read: {error}") from error
    _check_ids([e.card_id for _, e in deck.all_entries()])
    return deck


def deck_to_save(deck: Deck) -> Deck:
    """The deck as it can be saved: a list that names no deck is "Untitled deck"; a name
    longer than a deck may have is refused (say, a text header pasted with a whole page)."""
    if not deck.name.strip():
        return replace(deck, name=NEW_DECK_NAME)
    if len(deck.name) > MAX_NAME:
        raise DeckInputError(
            f"the deck name is {len(deck.name):,} characters long; at most {MAX_NAME} fit")
    return deck


def deck_from_request(attrs: Mapping[str, Any]) -> Deck:
    """The deck of an API request that carries a decklist `text` or a JSON `deck` object."""
    if "text" in attrs:
        return deck_from_text(attrs["text"])
    return deck_from_input({"name": "", **attrs["deck"]})


MAX_UPLOAD_BYTES = 1024 * 1024
MAX_LINES = 5000


def read_upload(upload: Any, *, what: str = "decklist",
                expected: str = "a text, JSON or CSV file") -> str:
    """An uploaded decklist (or other ``what``) as text: at most 1 MB and 5,000 lines of
    UTF-8, refused whole otherwise (never half-read)."""
    if upload.size > MAX_UPLOAD_BYTES:
        raise DeckInputError(
            f"the file is {upload.size:,} bytes; a {what} may be at most {MAX_UPLOAD_BYTES:,}"
        )
    raw = upload.read(MAX_UPLOAD_BYTES + 1)
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DeckInputError("the file is not UTF-8 text (it is UTF-16); save it as UTF-8")
    if b"\0" in raw:
        raise DeckInputError(f"the file is binary, not a {what}: upload {expected}")
    try:
        text: str = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DeckInputError(
            f"the file is not UTF-8 text (byte {exc.start}); save it as UTF-8 and try again"
        ) from exc
    if text.count("\n") > MAX_LINES:
        raise DeckInputError(f"the file has more than {MAX_LINES:,} lines; is it a {what}?")
    return text


def _check_ids(card_ids: list[str]) -> None:
    known = set(Card.objects.filter(id__in=set(card_ids)).values_list("id", flat=True))
    unknown = tuple(sorted(set(card_ids) - known))
    if unknown:
        raise DeckInputError(
            f"{len(unknown)} card id(s) are not in the catalogue; nothing was saved.",
            unknown_ids=unknown,
        )
