from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("api/", include("cards.api.urls")),
    path("decks/", include("decks.urls")),
    path("", include("cards.urls")),
]
