from django.urls import path

from decks import collection_views

app_name = "collection"
urlpatterns = [
    path("", collection_views.collection_page, name="page"),
    path("cards/<slug:card_id>/owned/", collection_views.owned_change, name="owned"),
    path("add-set/", collection_views.add_set, name="add_set"),
    path("share/", collection_views.share, name="share"),
    path("export.csv", collection_views.export_csv, name="export"),
    path("import/", collection_views.import_csv, name="import"),
    path("allocation/", collection_views.allocation, name="allocation"),
    path("shared/<str:token>/", collection_views.shared, name="shared"),
]
