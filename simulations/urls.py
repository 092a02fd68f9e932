"""The run pages, under the two namespaces their templates name them by: ``goldfish:`` (one
deck solo) and ``matchups:`` (decks against decks). config/urls.py includes both."""

from django.urls import path

from simulations.views import goldfish as goldfish_views
from simulations.views import matchups as matchup_views

goldfish_patterns = ([
    path("goldfish/compare/", goldfish_views.goldfish_compare, name="compare"),
    path("goldfish/<uuid:run_id>/", goldfish_views.goldfish_report, name="report"),
    path("goldfish/<uuid:run_id>/cancel/", goldfish_views.goldfish_cancel, name="cancel"),
    path("goldfish/<uuid:run_id>/games/<int:number>/", goldfish_views.goldfish_game,
         name="game"),
    path("decks/<int:deck_id>/goldfish/", goldfish_views.deck_goldfish, name="deck"),
], "goldfish")

matchup_patterns = ([
    path("matchups/<uuid:run_id>/", matchup_views.matchup_report, name="report"),
    path("matchups/<uuid:run_id>/cancel/", matchup_views.matchup_cancel, name="cancel"),
    path("matchups/<uuid:run_id>/games/<int:pairing>/<int:number>/", matchup_views.matchup_game,
         name="game"),
    path("decks/<int:deck_id>/matchups/", matchup_views.deck_matchups, name="deck"),
], "matchups")
