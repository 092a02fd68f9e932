"""What matchups add to the deck page (decks.panels): pick opponents and start a run."""

from __future__ import annotations

from django.http import HttpRequest

from decks.formats.model import Deck as DeckData
from decks.models import Deck
from decks.panels import Panel
from matchups.views import panel_context


def matchups_panel(request: HttpRequest, deck: Deck, data: DeckData) -> Panel:
    return Panel("matchups/_panel.html", panel_context(request, deck))
