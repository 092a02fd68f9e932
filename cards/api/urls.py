from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from cards.api.views import AbilityViewSet, CardSetViewSet, CardViewSet

router = DefaultRouter()
router.register("cards", CardViewSet, basename="card")
router.register("sets", CardSetViewSet, basename="set")
router.register("abilities", AbilityViewSet, basename="ability")

app_name = "api"
urlpatterns = [
    path("", include(router.urls)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]
