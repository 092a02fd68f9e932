from django.urls import path

from playtest import views

app_name = "playtest"
urlpatterns = [
    path("playtest/", views.playtest_list, name="list"),
    path("playtest/new/", views.playtest_new, name="new"),
    path("playtest/<int:game_id>/", views.playtest_game, name="game"),
    path("playtest/<int:game_id>/act/", views.playtest_act, name="act"),
    path("playtest/<int:game_id>/undo/", views.playtest_undo_view, name="undo"),
    path("playtest/<int:game_id>/surrender/", views.playtest_surrender_view, name="surrender"),
    path("playtest/<int:game_id>/auto/", views.playtest_auto_view, name="auto"),
    path("playtest/<int:game_id>/share/", views.playtest_share_view, name="share"),
    path("playtest/shared/<str:token>/", views.playtest_shared, name="shared"),
]
