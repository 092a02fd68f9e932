from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from decks.link_views import deck_link

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/", include("config.api_urls")),
    path("decks/", include("decks.urls")),
    path("collection/", include("decks.collection_urls")),
    path("goldfish/", include("decks.goldfish_urls")),
    path("playtest/", include("decks.playtest_urls")),
    path("d/<str:code>", deck_link, name="deck_link"),  # a deck link: the deck in its code
    path("", include("cards.urls")),
]
