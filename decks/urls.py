from django.urls import path

from decks import draw_views, link_views, views

app_name = "decks"
urlpatterns = [
    path("", views.deck_list, name="list"),
    path("new/", views.deck_new, name="new"),
    path("public/", views.deck_search, name="search"),
    path("import/", views.deck_import, name="import"),
    path("compare/", views.deck_compare, name="compare"),
    path("export-all.zip", link_views.deck_export_all, name="export_all"),
    path("<int:deck_id>/", views.deck_detail, name="detail"),
    path("<int:deck_id>/export.txt", views.deck_export_text, name="export_text"),
    path("<int:deck_id>/print/", link_views.deck_print, name="print"),
    path("<int:deck_id>/clone/", views.deck_clone_view, name="clone"),
    path("<int:deck_id>/sleeved/", views.deck_sleeved, name="sleeved"),
    path("<int:deck_id>/edit/", views.deck_builder, name="builder"),
    path("<int:deck_id>/edit/<slug:action>/", views.deck_edit, name="edit"),
    path("<int:deck_id>/history/", views.deck_history, name="history"),
    path("<int:deck_id>/draw/", draw_views.draw_page, name="draw"),
    path("<int:deck_id>/draw/odds/", draw_views.draw_odds, name="draw_odds"),
    path("<int:deck_id>/draw/hands/", draw_views.draw_hands, name="draw_hands"),
    path("<int:deck_id>/v/<int:number>/", views.deck_version, name="version"),
    path("<int:deck_id>/v/<int:number>/restore/", views.deck_restore, name="restore"),
]
