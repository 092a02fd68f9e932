"""The JSON decklist (docs/design.md §5): ``{"name", "players", "description", "holdings": [{"id",
"count"}], "structures": [...], "personalities": [...], "wanderers": [...]}``."""

from __future__ import annotations

import json
from typing import Any

from rules.decklist import MAX_PLAYERS, MIN_PLAYERS, SECTIONS, DeckEntry, Decklist

# Copies of one card in one part; far above any deck (2 copies a card is the legal limit) but
# bounded, so that a typo such as 22222 is caught.
MAX_COUNT = 999


class DeckJsonError(ValueError):
    """The JSON cannot be a deck; ``problems`` lists every reason (with the JSON path)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(problems))


def deck_to_dict(deck: Decklist) -> dict[str, Any]:
    return {
        "name": deck.name,
        "players": deck.players,
        "description": deck.description,
        **{
            section: [{"id": e.card_id, "count": e.count} for e in deck.section(section)]
            for section in SECTIONS
        },
    }


def render_json(deck: Decklist) -> str:
    return json.dumps(deck_to_dict(deck), indent=2, ensure_ascii=False) + "\n"


def deck_from_dict(data: object) -> Decklist:
    """A deck from decoded JSON, checking every key; raises DeckJsonError listing problems."""
    if not isinstance(data, dict):
        raise DeckJsonError(["the JSON must be an object with name, players and the parts"])
    problems: list[str] = []
    unknown = sorted(set(data) - {"name", "players", "description", *SECTIONS})
    problems += [f"{key}: unknown key" for key in unknown]
    name = data.get("name", "")
    if not isinstance(name, str):
        problems.append("name: must be a string")
    description = data.get("description", "")
    if not isinstance(description, str):
        problems.append("description: must be a string")
    players = data.get("players", 4)
    if isinstance(players, bool) or not isinstance(players, int) or not (
        MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        problems.append(f"players: must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}")
    parts = {section: _entries(data.get(section, []), section, problems) for section in SECTIONS}
    if problems:
        raise DeckJsonError(problems)
    return Decklist(name=str(name), players=int(players), description=str(description), **parts)


def parse_json(text: str) -> Decklist:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeckJsonError(
            [f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"]
        ) from exc
    except RecursionError as exc:  # "[[[[..." deeper than the decoder's recursion limit
        raise DeckJsonError(["the JSON is nested too deeply to be a decklist"]) from exc
    return deck_from_dict(data)


def _entries(raw: object, section: str, problems: list[str]) -> tuple[DeckEntry, ...]:
    if not isinstance(raw, list):
        problems.append(f"{section}: must be a list of {{id, count}}")
        return ()
    entries: list[DeckEntry] = []
    for index, item in enumerate(raw):
        where = f"{section}[{index}]"
        if not isinstance(item, dict):
            problems.append(f"{where}: must be an object with id and count")
            continue
        card_id, count = item.get("id"), item.get("count", 1)
        if not isinstance(card_id, str) or not card_id:
            problems.append(f"{where}.id: must be a card id")
            continue
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            problems.append(f"{where}.count: must be a whole number from 1 to {MAX_COUNT}")
            continue
        entries.append(DeckEntry(card_id, count))
    return tuple(entries)
