"""What the simulations add to the deck page (decks.panels): goldfish's headline (the newest
report of the deck as it is now, a run of it going, or why the engine cannot play it) and the
Matchups panel (pick opponents and start a run)."""

from __future__ import annotations

from django.http import HttpRequest

from decks.models import Deck
from decks.panels import Panel
from rules.decklist import Decklist
from simulations.runs import deck_goldfish_headline
from simulations.views.matchups import panel_context


def headline_panel(request: HttpRequest, deck: Deck, data: Decklist) -> Panel:
    return Panel("simulations/goldfish/_headline.html",
                 {"goldfish": deck_goldfish_headline(data)})


def matchups_panel(request: HttpRequest, deck: Deck, data: Decklist) -> Panel:
    return Panel("simulations/matchups/_panel.html", panel_context(request, deck))
