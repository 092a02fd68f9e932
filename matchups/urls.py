from django.urls import path

from matchups import views

app_name = "matchups"
urlpatterns = [
    path("matchups/<uuid:run_id>/", views.matchup_report, name="report"),
    path("matchups/<uuid:run_id>/cancel/", views.matchup_cancel, name="cancel"),
    path("matchups/<uuid:run_id>/games/<int:pairing>/<int:number>/", views.matchup_game,
         name="game"),
    path("decks/<int:deck_id>/matchups/", views.deck_matchups, name="deck"),
]
