"""What goldfish adds to the deck page (decks.panels): the newest report of the deck as it is
now, a run of it going, or why the engine cannot play it."""

from __future__ import annotations

from django.http import HttpRequest

from decks.formats.model import Deck as DeckData
from decks.models import Deck
from decks.panels import Panel
from goldfish.runs import deck_goldfish_headline


def headline_panel(request: HttpRequest, deck: Deck, data: DeckData) -> Panel:
    return Panel("goldfish/_headline.html", {"goldfish": deck_goldfish_headline(data)})
