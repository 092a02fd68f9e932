"""The collection CSV: a header ``id,name,owned,want,trade`` and one row per card.

Pure Python, no Django. :func:`render_collection_csv` writes every card with a count, and
:func:`parse_collection_csv` reads that back exactly (a round trip), and is lenient about what
people write by hand:

* the header is the first line; its columns may come in any order and any case; ``owned`` and
  ``id`` or ``name`` are needed, ``want`` and ``trade`` may be left out (then 0);
* blank lines are skipped, a blank count is 0;
* ``id`` decides on its own (the name is then only for the reader); a blank ``id`` is
  resolved by ``name``, which must then name exactly one card (exactly, else ignoring case);
* a count is a whole number from 0 to :data:`MAX_COPIES`; a card whose counts are all 0 is
  removed from the collection.

Every line in error is reported at once, each with its number (from 1, the header is line 1),
a code, a message and, for an unknown card, the closest cards; a file with any error gives
nothing, so an import never half happens.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from decks.formats.card_refs import CardRef, Unresolved
from decks.formats.csv_cells import cell_in, cell_out
from decks.formats.text import MAX_SUGGESTED_NAMES, CatalogueResolver, NameIndex

HEADER: Final = ("id", "name", "owned", "want", "trade")
COUNT_COLUMNS: Final = ("owned", "want", "trade")
MAX_COPIES: Final = 9999
MISSING_HEADER: Final = ("id", "name", "missing")
MAX_SUGGESTIONS: Final = 3
# A collection file: one row per card, so larger than a decklist may be (docs/collection.md).
MAX_FILE_BYTES: Final = 1024 * 1024
MAX_FILE_LINES: Final = 5_000

type ErrorCode = Literal[
    "bad_header", "bad_row", "bad_count", "missing_card", "unknown_card", "ambiguous_card",
    "duplicate_card",
]


@dataclass(frozen=True)
class Counts:
    """Copies of one card: owned, wanted, and offered for trade."""

    owned: int = 0
    want: int = 0
    trade: int = 0

    @property
    def empty(self) -> bool:
        return not (self.owned or self.want or self.trade)


@dataclass(frozen=True)
class CsvLineError:
    line: int
    code: ErrorCode
    message: str
    text: str = ""  # the line as written
    suggestions: tuple[str, ...] = ()  # card ids, best first


class CollectionCsvError(ValueError):
    """The file cannot be imported; ``errors`` lists every line at fault."""

    def __init__(self, errors: Iterable[CsvLineError]) -> None:
        self.errors = tuple(errors)
        super().__init__(f"{len(self.errors)} line(s) of the file need fixing")


def render_collection_csv(rows: Iterable[tuple[CardRef, Counts]]) -> str:
    """One row per card, in the order given."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    for card, counts in rows:
        writer.writerow([cell_out(cell) for cell in
                         (card.id, card.name, counts.owned, counts.want, counts.trade)])
    return buffer.getvalue()


def render_missing_csv(rows: Iterable[tuple[CardRef, int]]) -> str:
    """The cards a deck lacks: ``id,name,missing``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(MISSING_HEADER)
    for card, missing in rows:
        writer.writerow([cell_out(cell) for cell in (card.id, card.name, missing)])
    return buffer.getvalue()


def parse_collection_csv(text: str, cards: Iterable[CardRef]) -> dict[str, Counts]:
    """The counts per card id the file gives; raises :class:`CollectionCsvError` with every
    problem. ``cards`` is the whole catalogue."""
    return _Reader(cards).read(text)


class _Reader:
    def __init__(self, cards: Iterable[CardRef]) -> None:
        catalogue = list(cards)
        self.by_id = {card.id: card for card in catalogue}
        self.resolve = CatalogueResolver(catalogue)
        self.errors: list[CsvLineError] = []
        self.id_index: NameIndex | None = None  # made at the first unknown id
        self.ids_suggested = 0

    def read(self, text: str) -> dict[str, Counts]:
        lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if len(lines) > MAX_FILE_LINES:
            self.error(MAX_FILE_LINES + 1, "", "bad_row",
                       f"The file has {len(lines):,} lines; a collection file may have at most "
                       f"{MAX_FILE_LINES:,}.")
            raise CollectionCsvError(self.errors)
        reader = csv.reader(io.StringIO("\n".join(lines)), strict=True)
        found: dict[str, Counts] = {}
        first_line: dict[str, int] = {}
        columns: dict[str, int] | None = None
        line = 0
        try:
            for written in reader:
                row = [cell_in(cell) for cell in written]
                start, line = line + 1, reader.line_num
                raw = "\n".join(lines[start - 1:line])
                if columns is None:
                    columns = self.header(row, raw)
                    if columns is None:
                        break
                    continue
                if not any(cell.strip() for cell in row):
                    continue
                entry = self.row(start, raw, row, columns)
                if entry is None:
                    continue
                card, counts = entry
                if card.id in first_line:
                    self.error(start, raw, "duplicate_card",
                               f"{card.name} ({card.id}) is already on line "
                               f"{first_line[card.id]}: list each card once.")
                    continue
                first_line[card.id] = start
                found[card.id] = counts
        except csv.Error as error:
            self.error(line + 1, "", "bad_row", f"The CSV cannot be read past here: {error}.")
        if columns is None and not self.errors:
            self.error(1, "", "bad_header",
                       f"The file is empty: the first line must be the header {','.join(HEADER)}.")
        if self.errors:
            raise CollectionCsvError(self.errors)
        return found

    def error(self, line: int, text: str, code: ErrorCode, message: str,
              suggestions: Iterable[str] = ()) -> None:
        self.errors.append(CsvLineError(line, code, message, text, tuple(suggestions)))

    def header(self, row: list[str], raw: str) -> dict[str, int] | None:
        names = [cell.strip().casefold() for cell in row]
        expected = f"the first line must be the header {','.join(HEADER)}"
        unknown = [name for name in names if name not in HEADER]
        repeated = sorted({name for name in names if names.count(name) > 1})
        problem = ""
        if len(unknown) == len(names):
            problem = "this line has none of those columns"
        elif unknown:
            problem = f"unknown column{'s' * (len(unknown) > 1)} {', '.join(map(repr, unknown))}"
        elif repeated:
            problem = f"the column{'s' * (len(repeated) > 1)} {', '.join(repeated)} " \
                      "appear more than once"
        elif "owned" not in names or not {"id", "name"} & set(names):
            problem = "it needs the columns owned, and id or name"
        if problem:
            self.error(1, raw, "bad_header", f"{expected[:1].upper()}{expected[1:]} (want and "
                       f"trade may be left out): {problem}.")
            return None
        return {name: index for index, name in enumerate(names)}

    def row(self, line: int, raw: str, row: list[str], columns: Mapping[str, int]
            ) -> tuple[CardRef, Counts] | None:
        if len(row) > len(columns):
            self.error(line, raw, "bad_row",
                       f"The line has {len(row)} values; the header has {len(columns)} columns.")
            return None

        def cell(name: str) -> str:
            index = columns.get(name)
            return row[index].strip() if index is not None and index < len(row) else ""

        counts: dict[str, int] = {}
        for name in COUNT_COLUMNS:
            value = cell(name)
            if value == "":
                counts[name] = 0
            elif value.isascii() and value.isdigit() and int(value) <= MAX_COPIES:
                counts[name] = int(value)
            else:
                self.error(line, raw, "bad_count", f"{name} must be a whole number from 0 to "
                           f"{MAX_COPIES:,}, not {value!r}.")
        card = self.card(line, raw, cell("id"), cell("name"))
        if card is None or len(counts) < len(COUNT_COLUMNS):
            return None
        return card, Counts(**counts)

    def card(self, line: int, raw: str, card_id: str, name: str) -> CardRef | None:
        if card_id:
            card = self.by_id.get(card_id) or self.by_id.get(card_id.lower())
            if card is None:
                close = self.closest(card_id, name)
                self.error(line, raw, "unknown_card",
                           f"No card has the id {card_id!r}.{_did_you_mean(close)}",
                           [c.id for c in close])
            return card
        if not name:
            self.error(line, raw, "missing_card", "The line names no card: give its id or name.")
            return None
        found = self.resolve(name, None, None)
        if not isinstance(found, Unresolved):
            return found
        if found.reason == "ambiguous":
            self.error(line, raw, "ambiguous_card",
                       f"{len(found.candidates)} cards are named {name!r}: give the id of the "
                       f"one you mean: {', '.join(c.id for c in found.candidates)}.",
                       [c.id for c in found.candidates])
        else:
            close = found.candidates[:MAX_SUGGESTIONS]
            self.error(line, raw, "unknown_card",
                       f"No card is named {name!r}.{_did_you_mean(close)}", [c.id for c in close])
        return None

    def closest(self, card_id: str, name: str) -> tuple[CardRef, ...]:
        """For an unknown id: the card its name names, else the cards with the closest ids."""
        if name:
            found = self.resolve(name, None, None)
            if not isinstance(found, Unresolved):
                return (found,)
            if found.reason == "ambiguous":
                return found.candidates[:MAX_SUGGESTIONS]
        # Bounded as the names' suggestions are: a file of thousands of unknown ids costs no
        # more than MAX_SUGGESTED_NAMES lookups, each in an index rather than every id.
        if self.ids_suggested >= MAX_SUGGESTED_NAMES:
            return ()
        self.ids_suggested += 1
        if self.id_index is None:
            self.id_index = NameIndex(self.by_id)
        close = self.id_index.closest(card_id.lower(), MAX_SUGGESTIONS, 0.6)
        return tuple(self.by_id[c] for c in close)


def _did_you_mean(cards: tuple[CardRef, ...]) -> str:
    if not cards:
        return ""
    return " Did you mean " + " or ".join(f"{c.name} ({c.id})" for c in cards) + "?"
