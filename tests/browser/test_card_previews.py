"""A card's image over its name in lists: on hover with the mouse, on keyboard focus, and on a
first tap on a phone (the second tap opens the card's page)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from decks.models import Deck
from tests.browser.conftest import LIVE_DATABASE

pytestmark = [pytest.mark.browser, LIVE_DATABASE]


def sample() -> Deck:
    return Deck.objects.get(owner__username="samples", name="Kalim Faithful")


def test_hovering_or_focusing_a_card_name_shows_its_image(page: Page, site: str,
                                                          csp_violations: list[str]) -> None:
    page.goto(f"{site}/decks/{sample().pk}/")
    preview = page.locator(".card-preview")
    name = page.locator(".parts").get_by_role("link", name="Emberhold Keep")
    name.hover()
    expect(preview).to_be_visible()
    expect(preview.locator("img")).to_have_attribute(
        "src", "/cards/demo-emberhold-keep/image/normal.webp")
    page.mouse.move(5, 5)
    expect(preview).to_be_hidden()
    name.focus()
    page.keyboard.press("Tab")  # focus by keyboard: the next name shows its image
    expect(preview).to_be_visible()
    expect(preview.locator("img")).not_to_have_attribute(
        "src", "/cards/demo-emberhold-keep/image/normal.webp")
    page.keyboard.press("Escape")
    expect(preview).to_be_hidden()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    touch = context.new_page()
    touch.route("**/image/*.webp*", lambda route: route.abort())
    yield touch
    context.close()


def test_on_a_phone_a_tap_shows_the_image_and_a_second_tap_opens_the_card(
        phone: Page, site: str) -> None:
    phone.goto(f"{site}/decks/{sample().pk}/")
    name = phone.locator(".parts").get_by_role("link", name="Emberhold Keep")
    name.tap()
    preview = phone.locator(".card-preview")
    expect(preview).to_be_visible()
    expect(phone).to_have_url(f"{site}/decks/{sample().pk}/")
    phone.locator("h1").tap()  # elsewhere: the image goes
    expect(preview).to_be_hidden()
    name.tap()
    expect(preview).to_be_visible()
    name.tap()
    expect(phone).to_have_url(f"{site}/cards/demo-emberhold-keep/")
