"""Everything under /api/: one router for every app's viewsets, the schema and its docs UI."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter
from rest_framework.urlpatterns import format_suffix_patterns

from accounts.api import TokenView
from api.health import HealthView
from api.problems import UnknownEndpointView
from cards.api.bulk import BulkCardsView, BulkIndexView
from cards.api.views import AbilityViewSet, CardSetViewSet, CardViewSet
from collection.api.views import (
    CollectionExportView,
    CollectionImportView,
    CollectionShareView,
    CollectionView,
    DeckMissingView,
    DeckOwnershipView,
    SharedCollectionView,
)
from decks.api.draws import DrawView, OddsView
from decks.api.views import DeckViewSet
from playtest.api import PlaytestViewSet
from simulations.api import (
    GoldfishCancelView,
    GoldfishRunsView,
    GoldfishRunView,
    MatchupCancelView,
    MatchupRunsView,
    MatchupRunView,
)
from tables.api import TableViewSet

router = DefaultRouter()
router.register("cards", CardViewSet, basename="card")
router.register("sets", CardSetViewSet, basename="set")
router.register("abilities", AbilityViewSet, basename="ability")
router.register("decks", DeckViewSet, basename="deck")
router.register("playtest", PlaytestViewSet, basename="playtest")
router.register("tables", TableViewSet, basename="table")

app_name = "api"
urlpatterns = [
    # The collection's views of a deck, under the deck API's paths and, like the router's,
    # with format suffixes (decks knows nothing of collections).
    *format_suffix_patterns([
        re_path(r"^decks/(?P<pk>[0-9]+)/ownership/$", DeckOwnershipView.as_view(),
                name="deck-ownership"),
        re_path(r"^decks/(?P<pk>[0-9]+)/missing/$", DeckMissingView.as_view(),
                name="deck-missing"),
    ]),
    path("", include(router.urls)),
    path("health/", HealthView.as_view(), name="health"),
    path("bulk/", BulkIndexView.as_view(), name="bulk"),
    path("bulk/cards.json.gz", BulkCardsView.as_view(), name="bulk-cards"),
    path("collection/", CollectionView.as_view(), name="collection"),
    path("collection/export/", CollectionExportView.as_view(), name="collection-export"),
    path("collection/import/", CollectionImportView.as_view(), name="collection-import"),
    path("collection/share/", CollectionShareView.as_view(), name="collection-share"),
    path("collection/shared/<str:token>/", SharedCollectionView.as_view(),
         name="collection-shared"),
    path("draws/", DrawView.as_view(), name="draws"),
    path("odds/", OddsView.as_view(), name="odds"),
    path("goldfish/", GoldfishRunsView.as_view(), name="goldfish"),
    path("goldfish/<str:run_id>/", GoldfishRunView.as_view(), name="goldfish-detail"),
    path("goldfish/<str:run_id>/cancel/", GoldfishCancelView.as_view(), name="goldfish-cancel"),
    path("matchups/", MatchupRunsView.as_view(), name="matchups"),
    path("matchups/<str:run_id>/", MatchupRunView.as_view(), name="matchup-detail"),
    path("matchups/<str:run_id>/cancel/", MatchupCancelView.as_view(), name="matchup-cancel"),
    path("", include("edits.api.urls")),  # /api/edits/, /api/cards/{id}/history/
    path("auth/token/", TokenView.as_view(), name="token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    # Last: whatever matched nothing above is a 404 problem, not an HTML page ([\s\S]: a path
    # may hold an encoded line break, which "." alone would not match).
    re_path(r"^[\s\S]*$", UnknownEndpointView.as_view(), name="unknown"),
]
