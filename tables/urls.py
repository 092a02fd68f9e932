from django.urls import path

from tables import views

app_name = "tables"
urlpatterns = [
    path("tables/", views.table_lobby, name="lobby"),
    path("tables/new/", views.table_new, name="new"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/view/", views.table_view_fragment, name="view"),
    path("tables/<int:table_id>/act/", views.table_act_view, name="act"),
    path("tables/<int:table_id>/start/", views.table_start_view, name="start"),
    path("tables/<int:table_id>/surrender/", views.table_surrender_view, name="surrender"),
    path("tables/<int:table_id>/chat/", views.table_chat_view, name="chat"),
    path("tables/<int:table_id>/rematch/", views.table_rematch_view, name="rematch"),
    path("tables/<int:table_id>/offers/", views.table_offer_view, name="offer"),
    path("tables/<int:table_id>/offers/<int:number>/<str:answer>/", views.table_answer_view,
         name="answer"),
    path("tables/<int:table_id>/seats/<int:seat>/hand-to-ai/", views.table_hand_to_ai_view,
         name="hand_to_ai"),
    path("tables/<int:table_id>/take-back/", views.table_take_back_view, name="take_back"),
    path("tables/<int:table_id>/undo/", views.table_undo_view, name="undo"),
    path("tables/<int:table_id>/undo/<str:answer>/", views.table_undo_view, name="undo_answer"),
    path("tables/<int:table_id>/replay/", views.table_replay, name="replay"),
    path("tables/invite/<str:token>/", views.table_invite, name="invite"),
]
