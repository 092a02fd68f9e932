from django.urls import path

from collection import views

app_name = "collection"
urlpatterns = [
    path("collection/", views.collection_page, name="page"),
    path("collection/cards/<slug:card_id>/owned/", views.owned_change, name="owned"),
    path("collection/add-set/", views.add_set, name="add_set"),
    path("collection/share/", views.share, name="share"),
    path("collection/export.csv", views.export_csv, name="export"),
    path("collection/import/", views.import_csv, name="import"),
    path("collection/allocation/", views.allocation, name="allocation"),
    path("collection/shared/<str:token>/", views.shared, name="shared"),
    path("decks/<int:deck_id>/missing.<str:fmt>", views.deck_missing, name="missing"),
]
