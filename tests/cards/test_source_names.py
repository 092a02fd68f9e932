"""A card's public sources are shown by their site's name and their address, never as a bare
URL nor a repository path; a source that is not an address is shown as written."""

from __future__ import annotations

import pytest
from django.test import Client

from cards.source_names import SourceView, source_view


@pytest.mark.parametrize(("source", "shown"), [
    ("http://cardguide.wikia.com/wiki/War_of_Factions",
     SourceView("Card Guide wiki (Fandom)", "cardguide.wikia.com/wiki/War_of_Factions",
                "http://cardguide.wikia.com/wiki/War_of_Factions")),
    ("https://www.liquisearch.com/allegiance_-_war_of_factions/card_types",
     SourceView("LiquiSearch", "www.liquisearch.com/allegiance_-_war_of_factions/card_types",
                "https://www.liquisearch.com/allegiance_-_war_of_factions/card_types")),
    ("https://www.example.org/cards/?set=wof",
     SourceView("example.org", "www.example.org/cards?set=wof",
                "https://www.example.org/cards/?set=wof")),
    ("my own copy of the card", SourceView("my own copy of the card", "", "")),
    ("ftp://example.org/list.txt", SourceView("ftp://example.org/list.txt", "", "")),
    ("  https://boardgamegeek.com/  ",
     SourceView("BoardGameGeek", "boardgamegeek.com", "https://boardgamegeek.com/")),
])
def test_a_source_reads_as_its_sites_name_and_its_address(source: str,
                                                          shown: SourceView) -> None:
    assert source_view(source) == shown


@pytest.mark.django_db
def test_a_real_cards_page_names_its_public_source(client: Client) -> None:
    page = client.get("/cards/wof-acormis-winters/").content.decode()
    sources = page[page.index('<ul class="sources">'):]
    sources = sources[:sources.index("</ul>")]
    assert ('<a href="http://cardguide.wikia.com/wiki/War_of_Factions" rel="noopener nofollow">'
            'Card Guide wiki (Fandom)</a> <span class="source-address">'
            'cardguide.wikia.com/wiki/War_of_Factions</span>') in sources
    assert ".tsv" not in page and "shared/data" not in page
