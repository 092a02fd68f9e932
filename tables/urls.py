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
    path("tables/invite/<str:token>/", views.table_invite, name="invite"),
]
