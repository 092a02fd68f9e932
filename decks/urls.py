from django.urls import path

from decks.views import decks, draws, links

app_name = "decks"
urlpatterns = [
    path("", decks.deck_list, name="list"),
    path("new/", decks.deck_new, name="new"),
    path("public/", decks.deck_search, name="search"),
    path("import/", decks.deck_import, name="import"),
    path("compare/", decks.deck_compare, name="compare"),
    path("export-all.zip", links.deck_export_all, name="export_all"),
    path("<int:deck_id>/", decks.deck_detail, name="detail"),
    path("<int:deck_id>/export.txt", decks.deck_export_text, name="export_text"),
    path("<int:deck_id>/print/", links.deck_print, name="print"),
    path("<int:deck_id>/clone/", decks.deck_clone_view, name="clone"),
    path("<int:deck_id>/sleeved/", decks.deck_sleeved, name="sleeved"),
    path("<int:deck_id>/edit/", decks.deck_builder, name="builder"),
    path("<int:deck_id>/edit/<slug:action>/", decks.deck_edit, name="edit"),
    path("<int:deck_id>/history/", decks.deck_history, name="history"),
    path("<int:deck_id>/draw/", draws.draw_page, name="draw"),
    path("<int:deck_id>/draw/odds/", draws.draw_odds, name="draw_odds"),
    path("<int:deck_id>/draw/hands/", draws.draw_hands, name="draw_hands"),
    path("<int:deck_id>/v/<int:number>/", decks.deck_version, name="version"),
    path("<int:deck_id>/v/<int:number>/restore/", decks.deck_restore, name="restore"),
]
