"""The site's keyboard shortcut: "/" puts the focus in the page's search box, or in the
header's card search on pages without one; typed in a field, it is just a slash."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from decks.models import Deck
from tests.browser.conftest import LIVE_DATABASE

pytestmark = [pytest.mark.browser, LIVE_DATABASE]


def test_slash_focuses_the_search_of_the_page_or_of_the_header(page: Page, site: str,
                                                                 csp_violations: list[str]) -> None:
    deck = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    for url, search in [("/", page.get_by_role("searchbox", name="Search the cards")),
                        ("/cards/?q=bog", page.get_by_label("Search query")),
                        (f"/decks/{deck.pk}/", page.get_by_role("searchbox",
                                                                name="Search the cards"))]:
        page.goto(f"{site}{url}")
        page.locator("body").press("/")
        expect(search).to_be_focused()
        expect(search).to_have_value("bog" if "bog" in url else "")
    # In the header's search, on a deck page, "/" types itself, and Enter searches the cards.
    page.keyboard.type("o:/exhaust/")
    expect(page.get_by_role("searchbox", name="Search the cards")).to_have_value("o:/exhaust/")
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{site}/cards/?q=o%3A%2Fexhaust%2F")
    expect(page.locator(".explained")).to_contain_text("exhaust")


def test_two_versions_are_compared_by_choosing_them_from_lists(page: Page, site: str) -> None:
    page.goto(f"{site}/decks/compare/")
    page.get_by_label("Deck A").select_option(label="Kalim Faithful (by samples)")
    page.get_by_label("Deck B").select_option(label="Kalim Crusaders (by samples)")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator(".compare-heads")).to_contain_text("Kalim Faithful")
    expect(page.locator(".compare-heads")).to_contain_text("Kalim Crusaders")
    expect(page.get_by_label("Deck A")).to_have_value(
        str(Deck.objects.get(owner__username="samples", name="Kalim Faithful").pk))
