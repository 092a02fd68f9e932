"""A card's public sources as people read them: the site's name and its address (without the
scheme), never a bare URL; a source that is not an address (a book, "my own copy") as it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

# The public sites the real cards' facts were read from (shared/data): their own names.
SITE_NAMES: Final = {
    "cardguide.wikia.com": "Card Guide wiki (Fandom)",
    "cardguide.fandom.com": "Card Guide wiki (Fandom)",
    "www.liquisearch.com": "LiquiSearch",
    "liquisearch.com": "LiquiSearch",
    "boardgamegeek.com": "BoardGameGeek",
    "www.boardgamegeek.com": "BoardGameGeek",
}


@dataclass(frozen=True)
class SourceView:
    name: str
    address: str  # "" for a source that is not a web address
    url: str  # "" likewise


def source_view(source: str) -> SourceView:
    """``http://cardguide.wikia.com/wiki/War_of_Factions`` is "Card Guide wiki (Fandom)" at
    ``cardguide.wikia.com/wiki/War_of_Factions``; an unknown site is named by its host."""
    text = source.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return SourceView(text, "", "")
    host = parts.hostname.lower()
    address = (parts.netloc + parts.path).rstrip("/") + (f"?{parts.query}" if parts.query
                                                          else "")
    return SourceView(SITE_NAMES.get(host, host.removeprefix("www.")), address, text)
