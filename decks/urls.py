from django.urls import path

from decks import views

app_name = "decks"
urlpatterns = [
    path("", views.deck_list, name="list"),
    path("<int:deck_id>/", views.deck_detail, name="detail"),
]
