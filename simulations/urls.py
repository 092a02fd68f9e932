"""The run pages, under the two namespaces their templates name them by: ``goldfish:`` (one
deck solo) and ``matchups:`` (decks against decks). config/urls.py includes both."""

from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, path

from simulations.models import SimulationRun
from simulations.views import goldfish as goldfish_views
from simulations.views import matchups as matchup_views
from simulations.views.runs import run_cancel


def run_pages(prefix: str, kinds: tuple[str, ...], what: str, report: Callable[..., Any],
              game: str, replay: Callable[..., Any], deck: Callable[..., Any]
              ) -> list[URLPattern]:
    """A kind's pages: a run's report, its cancel, a game replayed; a deck's options page."""
    return [
        path(f"{prefix}/<uuid:run_id>/", report, name="report"),
        path(f"{prefix}/<uuid:run_id>/cancel/", run_cancel, {"kinds": kinds, "what": what},
             name="cancel"),
        path(f"{prefix}/<uuid:run_id>/games/{game}/", replay, name="game"),
        path(f"decks/<int:deck_id>/{prefix}/", deck, name="deck"),
    ]


goldfish_patterns = ([
    path("goldfish/compare/", goldfish_views.goldfish_compare, name="compare"),
    *run_pages("goldfish", (SimulationRun.GOLDFISH,), "goldfish", goldfish_views.goldfish_report,
               "<int:number>", goldfish_views.goldfish_game, goldfish_views.deck_goldfish),
], "goldfish")

matchup_patterns = (run_pages(
    "matchups", SimulationRun.TABLE_KINDS, "matchup", matchup_views.matchup_report,
    "<int:pairing>/<int:number>", matchup_views.matchup_game, matchup_views.deck_matchups,
), "matchups")
