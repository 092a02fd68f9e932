"""Turn the public facts about the real cards (shared/data TSV) into a card data document.

Only what a row states is kept; every other field stays null ("not yet transcribed").
Decisions, documented in docs/catalogue.md:
- "Structure" in the source's type column is the set's own category next to "Stronghold"
  and "Wall" (its breakdown lists 40 Structures, 6 Strongholds, 3 Walls), so it maps to
  type structure, subtype general; Stronghold and Wall map to their subtypes.
- Personality subtype (citizen or troop) is not stated anywhere, so it stays null.
- "-" in the faction column means the card has no faction: null, as for unknown.
- A name shared by cards of different factions gets the faction in its id
  (wof-bowman-kalim); other ids are wof-<name>.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from typing import Any, Final

from cards.card_data import CARD_KEYS

SET_DOCUMENT: Final = {
    "code": "WOF",
    "name": "War of Factions",
    "official": True,
    "released": None,  # 2004, but no source gives the day
    "size": 220,  # the set's own count (shared/data/README.md): its checklist's slots
}
_RARITY: Final = {
    "Common": "common",
    "Common Starter": "common_starter",
    "Uncommon": "uncommon",
    "Rare": "rare",
    "Promo": "promo",
}
_TYPE: Final = {
    "Structure": ("structure", "general"),
    "Stronghold": ("structure", "stronghold"),
    "Wall": ("structure", "wall"),
    "Personality": ("personality", None),
    "Item": ("item", None),
    "Invocation": ("invocation", None),
    "Event": ("event", None),
    "Wanderer": ("wanderer", None),
}
_FACTION: Final = {
    "The Glory of Kalim": "kalim",
    "Glory of Kalim": "kalim",
    "House Mosfin": "mosfin",
    "Veteran's Guild": "guild",
    "The Veteran's Guild": "guild",
}
UNKNOWN: Final = "?"


class PublicDataError(ValueError):
    pass


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


def public_catalogue(tsv_text: str) -> dict[str, Any]:
    rows = list(csv.DictReader(io.StringIO(tsv_text), delimiter="\t"))
    names = Counter(row["name"] for row in rows)
    cards = [_card(row, line, shared_name=names[row["name"]] > 1)
             for line, row in enumerate(rows, start=2)]
    return {"set": dict(SET_DOCUMENT), "cards": cards}


def _card(row: dict[str, str], line: int, *, shared_name: bool) -> dict[str, Any]:
    def known(column: str, mapping: dict[str, Any]) -> Any:
        value = row[column].strip()
        if value in (UNKNOWN, "-", ""):
            return None
        if value not in mapping:
            raise PublicDataError(f"line {line}: unexpected {column} {value!r}")
        return mapping[value]

    card: dict[str, Any] = dict.fromkeys(CARD_KEYS)
    card_type, subtype = known("type", _TYPE) or (None, None)
    faction = known("faction", _FACTION)
    name = row["name"].strip()
    card_id = f"wof-{slug(name)}"
    if shared_name:
        card_id += f"-{faction or 'unknown'}"
    card.update(
        id=card_id,
        name=name,
        set="WOF",
        rarity=known("rarity", _RARITY),
        type=card_type,
        subtype=subtype,
        faction=faction,
        official=True,
        sources=[row["source_url"].strip()],  # where the row was read: a public address
    )
    return card
