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
from decks.formats.text import LineError, LineNote, parse_text
from decks.models import Deck
from decks.services import catalogue_resolver
from rules.decklist import SECTIONS, DeckEntry, Decklist

NEW_DECK_NAME = "Untitled deck"
MAX_NAME = Deck._meta.get_field("name").max_length or 200

# What one decklist may be, on every route that reads one (docs/decks.md "Limits"): a real
# deck is under 200 lines and a few kB, so these are ten times that and more; they bound what
# one request costs, since every line is looked up in the catalogue.
MAX_DECKLIST_BYTES = 64 * 1024
MAX_DECKLIST_LINES = 1_000
MAX_DECK_ENTRIES = 1_000  # card entries of the four parts together
MAX_PART_ENTRIES = 500  # entries of one part given as a list of {id, count}
MAX_COPIES = 99  # copies of one card in one part, after repeated entries are added up


@dataclass(frozen=True)
class DeckInputError(Exception):
    """The input could not become a deck; nothing was saved."""

    detail: str
    lines: tuple[LineError, ...] = ()
    unknown_ids: tuple[str, ...] = ()
    code: str = "bad_decklist"

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


def deck_from_input(attrs: Mapping[str, Any], base: Decklist | None = None) -> Decklist:
    """A deck from validated API input; fields not given keep the base deck's values."""
    return _deck_and_notes(attrs, base)[0]


def deck_from_text_with_notes(text: str) -> tuple[Decklist, tuple[LineNote, ...]]:
    """As deck_from_text, reading a name within a slip of the pen of one card's as that card
    (the text format only), and saying which lines were read so."""
    if detect_format(text) != "text":
        return deck_from_text(text), ()
    return _deck_and_notes({"text": text}, None, near=True)


def _deck_and_notes(attrs: Mapping[str, Any], base: Decklist | None, *, near: bool = False
                    ) -> tuple[Decklist, tuple[LineNote, ...]]:
    if "text" in attrs:
        check_decklist_size(attrs["text"])
        result = parse_text(attrs["text"], catalogue_resolver(near=near))
        if result.deck is None:
            raise DeckInputError(
                f"{len(result.errors)} line(s) of the decklist need fixing; nothing was saved.",
                lines=result.errors,
            )
        deck = result.deck
        # A name or player count given beside the text wins over the text's header.
        overrides = {k: attrs[k] for k in ("name", "players", "description") if k in attrs}
        return _within_limits(replace(deck, **overrides) if overrides else deck), result.notes
    parts: dict[str, tuple[DeckEntry, ...]] = {
        section: tuple(DeckEntry(e["id"], e["count"]) for e in attrs[section])
        if section in attrs else (base.section(section) if base else ())
        for section in SECTIONS
    }
    _check_ids([e.card_id for entries in parts.values() for e in entries])
    return _within_limits(Decklist(
        name=attrs.get("name", base.name if base else ""),
        players=attrs.get("players", base.players if base else 4),
        description=attrs.get("description", base.description if base else ""),
        **parts,
    )), ()


def check_decklist_size(text: str) -> None:
    """Refuse a decklist text over the limits before any of it is read."""
    size = len(text.encode("utf-8"))
    if size > MAX_DECKLIST_BYTES:
        raise DeckInputError(
            f"the decklist is {size:,} bytes; a decklist may be at most "
            f"{MAX_DECKLIST_BYTES:,} bytes ({MAX_DECKLIST_BYTES // 1024} kB)",
            code="decklist_too_large")
    lines = text.count("\n") + text.count("\r") - text.count("\r\n") + 1
    if lines > MAX_DECKLIST_LINES:
        raise DeckInputError(
            f"the decklist has {lines:,} lines; a decklist may have at most "
            f"{MAX_DECKLIST_LINES:,}", code="decklist_too_large")


def _within_limits(deck: Decklist) -> Decklist:
    """The deck, once its entries (repeated cards added up) are within the limits."""
    entries = deck.all_entries()
    if len(entries) > MAX_DECK_ENTRIES:
        raise DeckInputError(
            f"the deck lists {len(entries):,} cards; a deck may list at most "
            f"{MAX_DECK_ENTRIES:,}", code="decklist_too_large")
    over = [(section, e) for section, e in entries if e.count > MAX_COPIES]
    if over:
        section, entry = over[0]
        raise DeckInputError(
            f"the deck has {entry.count:,} copies of {entry.card_id} in its {section} (repeated "
            f"entries added up); a part may hold at most {MAX_COPIES} copies of one card",
            code="copies_over_limit")
    return deck


def deck_from_text(text: str) -> Decklist:
    """A decklist in any supported format, detected from its content (JSON, CSV, a deck code
    or the text format). Raises DeckInputError with every problem."""
    check_decklist_size(text)
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
    _check_ids([e.card_id for _, e in _within_limits(deck).all_entries()])
    return deck


def deck_to_save(deck: Decklist) -> Decklist:
    """The deck as it can be saved: a list that names no deck is "Untitled deck"; a name
    longer than a deck may have is refused (say, a text header pasted with a whole page)."""
    if not deck.name.strip():
        return replace(deck, name=NEW_DECK_NAME)
    if len(deck.name) > MAX_NAME:
        raise DeckInputError(
            f"the deck name is {len(deck.name):,} characters long; at most {MAX_NAME} fit")
    return deck


def deck_from_request(attrs: Mapping[str, Any]) -> Decklist:
    """The deck of an API request that carries a decklist `text` or a JSON `deck` object."""
    if "text" in attrs:
        return deck_from_text(attrs["text"])
    return deck_from_input({"name": "", **attrs["deck"]})


def read_upload(upload: Any, *, what: str = "decklist",
                expected: str = "a text, JSON or CSV file",
                max_bytes: int = MAX_DECKLIST_BYTES, max_lines: int = MAX_DECKLIST_LINES) -> str:
    """An uploaded decklist (or other ``what``) as text: at most ``max_bytes`` and
    ``max_lines`` lines of UTF-8 (a decklist's limits by default), refused whole otherwise
    (never half-read)."""
    if upload.size > max_bytes:
        raise DeckInputError(
            f"the file is {upload.size:,} bytes; a {what} may be at most {max_bytes:,} bytes",
            code="decklist_too_large" if what == "decklist" else "file_too_large")
    raw = upload.read(max_bytes + 1)
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
    if text.count("\n") > max_lines:
        raise DeckInputError(f"the file has more than {max_lines:,} lines; a {what} may have "
                             f"at most {max_lines:,}",
                             code="decklist_too_large" if what == "decklist" else "file_too_large")
    return text


def _check_ids(card_ids: list[str]) -> None:
    known = set(Card.objects.filter(id__in=set(card_ids)).values_list("id", flat=True))
    unknown = tuple(sorted(set(card_ids) - known))
    if unknown:
        raise DeckInputError(
            f"{len(unknown)} card id(s) are not in the catalogue; nothing was saved.",
            unknown_ids=unknown,
        )
