from django.urls import path

from goldfish import views

app_name = "goldfish"
urlpatterns = [
    path("goldfish/compare/", views.goldfish_compare, name="compare"),
    path("goldfish/<uuid:run_id>/", views.goldfish_report, name="report"),
    path("goldfish/<uuid:run_id>/cancel/", views.goldfish_cancel, name="cancel"),
    path("goldfish/<uuid:run_id>/games/<int:number>/", views.goldfish_game, name="game"),
    path("decks/<int:deck_id>/goldfish/", views.deck_goldfish, name="deck"),
]
