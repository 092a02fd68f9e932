"""The card edit API's addresses, included in config.api_urls (the ``api`` namespace)."""

from django.urls import URLPattern, URLResolver, re_path
from rest_framework.routers import SimpleRouter

from edits.api.views import CardHistoryView, EditViewSet, ScanReadView

router = SimpleRouter()
router.register("edits", EditViewSet, basename="edit")

urlpatterns: list[URLPattern | URLResolver] = [
    re_path(r"^cards/(?P<card_id>[a-z0-9-]+)/history/$", CardHistoryView.as_view(),
            name="card-history"),
    re_path(r"^scans/$", ScanReadView.as_view(), name="scans"),
    *router.urls,
]
