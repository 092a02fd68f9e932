from django.urls import path

from decks import goldfish_views

app_name = "goldfish"
urlpatterns = [
    path("compare/", goldfish_views.goldfish_compare, name="compare"),
    path("<uuid:run_id>/", goldfish_views.goldfish_report, name="report"),
    path("<uuid:run_id>/cancel/", goldfish_views.goldfish_cancel, name="cancel"),
    path("<uuid:run_id>/games/<int:number>/", goldfish_views.goldfish_game, name="game"),
]
