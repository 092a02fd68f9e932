from django.urls import path

from cards import views

app_name = "cards"
urlpatterns = [
    path("", views.home, name="home"),
    path("cards/", views.card_list, name="list"),
    path("cards/random/", views.card_random, name="random"),  # before the card's own path
    path("cards/<slug:card_id>/", views.card_detail, name="detail"),
    path("cards/<slug:card_id>/image/<str:size>.webp", views.card_image, name="image"),
    path("sets/", views.set_list, name="sets"),
    path("sets/<str:code>/", views.set_detail, name="set"),
    path("search/help/", views.search_help, name="search_help"),
    path("abilities/", views.ability_index, name="abilities"),
    path("abilities/<slug:slug>/", views.ability_detail, name="ability"),
]
