"""The CSV decklist: a header ``section,count,id,name`` and one row per card entry.

``section`` is a section key (holdings, structures, personalities, wanderers) or its title
("Structure Pile"); ``name`` is for people and ignored when ``id`` is given; a row without an
id is resolved by its name. Two comment-like rows carry the deck's facts: a row whose section
is ``#name``, ``#players`` or ``#description`` holds that value in the ``name`` column.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping

from decks.formats.card_refs import CardRef, Unresolved
from decks.formats.csv_cells import cell_in, cell_out
from decks.formats.json_format import MAX_COUNT
from decks.formats.text import Resolver
from rules.decklist import MAX_PLAYERS, MIN_PLAYERS, SECTION_TITLES, SECTIONS, DeckEntry, Decklist

HEADER = ["section", "count", "id", "name"]
_SECTION_BY_NAME: dict[str, str] = {
    **{s: s for s in SECTIONS},
    **{title.casefold(): key for key, title in SECTION_TITLES.items()},
}


class DeckCsvError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(problems))


def render_csv(deck: Decklist, cards: Mapping[str, CardRef]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    rows: list[list[object]] = [["#name", "", "", deck.name],
                                ["#players", "", "", str(deck.players)]]
    if deck.description:
        rows.append(["#description", "", "", deck.description])
    for section, entry in deck.all_entries():
        card = cards.get(entry.card_id)
        rows.append([section, entry.count, entry.card_id, card.name if card else ""])
    writer.writerows([cell_out(cell) for cell in row] for row in rows)
    return buffer.getvalue()


def parse_csv(text: str, resolve: Resolver) -> Decklist:
    rows = [[cell_in(cell) for cell in row]
            for row in csv.reader(io.StringIO(text.lstrip("\ufeff")))]
    if not rows or [c.strip().casefold() for c in rows[0]] != HEADER:
        raise DeckCsvError([f"line 1: the header must be {','.join(HEADER)}"])
    problems: list[str] = []
    facts = {"name": "", "players": "4", "description": ""}
    parts: dict[str, list[DeckEntry]] = {s: [] for s in SECTIONS}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != 4:
            problems.append(f"line {line}: expected 4 columns, found {len(row)}")
            continue
        section, count, card_id, name = (cell.strip() for cell in row)
        if section.startswith("#") and section[1:] in facts:
            facts[section[1:]] = row[3]
            continue
        key = _SECTION_BY_NAME.get(section.casefold())
        if key is None:
            problems.append(f"line {line}: unknown section {section!r}")
            continue
        if not count.isdigit() or not 1 <= int(count) <= MAX_COUNT:
            problems.append(f"line {line}: the count must be a whole number from 1 to {MAX_COUNT}")
            continue
        found = resolve(name, None, card_id or None)
        if isinstance(found, Unresolved):
            close = ", ".join(c.name for c in found.candidates[:3])
            hint = f" (did you mean {close}?)" if close else ""
            problems.append(f"line {line}: {found.reason} card {card_id or name!r}{hint}")
            continue
        parts[key].append(DeckEntry(found.id, int(count)))
    players = facts["players"]
    if not players.isdigit() or not MIN_PLAYERS <= int(players) <= MAX_PLAYERS:
        problems.append(f"#players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}")
    if problems:
        raise DeckCsvError(problems)
    return Decklist(
        name=facts["name"], players=int(players), description=facts["description"],
        **{s: tuple(e) for s, e in parts.items()},
    )
