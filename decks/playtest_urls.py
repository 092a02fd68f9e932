from django.urls import path

from decks import playtest_views

app_name = "playtest"
urlpatterns = [
    path("", playtest_views.playtest_list, name="list"),
    path("new/", playtest_views.playtest_new, name="new"),
    path("<int:game_id>/", playtest_views.playtest_game, name="game"),
    path("<int:game_id>/act/", playtest_views.playtest_act, name="act"),
    path("<int:game_id>/undo/", playtest_views.playtest_undo_view, name="undo"),
    path("<int:game_id>/auto/", playtest_views.playtest_auto_view, name="auto"),
    path("<int:game_id>/share/", playtest_views.playtest_share_view, name="share"),
    path("shared/<str:token>/", playtest_views.playtest_shared, name="shared"),
]
