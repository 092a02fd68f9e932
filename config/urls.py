from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import URLPattern, URLResolver, include, path

from decks.views.links import deck_link, deck_short
from simulations import urls as simulation_urls

# Each feature app's urls name their whole paths (a feature may add pages under /decks/<id>/),
# so they are included at the root; the catalogue's last, as it ends in catch-all card paths.


def favicon(request: HttpRequest) -> HttpResponse:
    """Where browsers and feed readers look without asking the page (which names it too)."""
    response = redirect(static("icons/favicon.ico"), permanent=True)
    response["Cache-Control"] = "public, max-age=86400"
    return response


urlpatterns: list[URLPattern | URLResolver] = [
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/", include("config.api_urls")),
    path("decks/", include("decks.urls")),
    path("", include("collection.urls")),
    path("", include(simulation_urls.goldfish_patterns)),
    path("", include(simulation_urls.matchup_patterns)),
    path("", include("playtest.urls")),
    path("", include("edits.urls")),
    path("", include("tables.urls")),
    path("d/<str:code>", deck_link, name="deck_link"),  # a deck link: the deck in its code
    # a deck's short link: a public deck's number in base 36, an unlisted deck's share token
    path("s/<slug:slug>", deck_short, name="deck_short"),
    path("", include("cards.urls")),
]
