"""What a person does on the site, in a real browser: find a card, sign up, build a legal deck
and fix a problem with one click, import a list, export it, deal hands. The keyboard-only
journeys use nothing but Tab, Enter, Space and typing. No page may break the CSP on the way."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from decks.models import Deck
from tests.browser.conftest import LIVE_DATABASE
from tests.conftest import FIXTURES, PASSWORD

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

# A legal Kalim deck from nothing: (search query, [(card id, copies), ...]), the holdings first.
LEGAL_DECK = [
    ("t:structure set:demo", [
        ("addh-demo-emberhold-keep", 1),
        *[(f"add-demo-{slug}", 2) for slug in (
            "almshouse-of-the-ember", "chapel-of-the-seventh-flame", "cobblers-lane",
            "lantern-row-houses", "pilgrims-hostel", "riverside-tenement", "counting-house")],
        ("add-demo-ragpickers-hovel", 1),
    ]),
    ("t:personality f:kalim set:demo", [
        *[(f"add-demo-{slug}", 2) for slug in (
            "acolyte-of-the-ember-rite", "lamplighter-deacon", "chantry-almoner",
            "reliquary-keeper", "pilgrim-archer", "ashgate-spearman-kalim", "cathedral-warden")],
        ("add-demo-tithe-reeve", 1),
    ]),
    ("t:wanderer set:demo", [
        *[(f"add-demo-{slug}", 2) for slug in (
            "sewer-rat-swarm", "goblin-slinger", "goblin-skulkers", "marsh-gloomhound")],
        *[(f"add-demo-{slug}", 1) for slug in (
            "carrion-crow-flock", "ashfen-bandit", "tomb-ghoul", "bog-hag")],
    ]),
]


def sign_up(page: Page, site: str, username: str) -> None:
    page.goto(f"{site}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("navigation", name="Account")).to_contain_text(username)


def deck_version(page: Page) -> int:
    text = page.locator(".deck-meta").inner_text()
    found = re.search(r"version (\d+)", text)
    assert found, text
    return int(found.group(1))


def press_and_wait_for_save(page: Page, button_id: str) -> None:
    """Click a builder button and wait until htmx has swapped in the saved version."""
    before = deck_version(page)
    page.locator(f"#{button_id}").click()
    expect(page.locator(".deck-meta")).to_contain_text(f"version {before + 1}")


def search_in_builder(page: Page, query: str) -> None:
    page.locator("#builder-q").fill(query)
    expect(page.locator("#search-results .explained")).to_contain_text("card")


def tab_to(page: Page, selector: str, most: int = 120) -> None:
    """Press Tab until the element matching ``selector`` has the focus."""
    for _ in range(most):
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} never got the focus in {most} Tabs")


def test_a_visitor_searches_and_opens_a_card(page: Page, site: str,
                                             csp_violations: list[str]) -> None:
    page.goto(f"{site}/cards/")
    page.get_by_label("Search query").fill("bog hag")
    page.locator("#search-body").get_by_role("link", name="Bog Hag").first.click()
    expect(page).to_have_url(f"{site}/cards/demo-bog-hag/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Bog Hag")


def test_with_the_keyboard_only_a_visitor_searches_and_opens_a_card(
        page: Page, site: str, csp_violations: list[str]) -> None:
    page.goto(f"{site}/cards/")
    assert page.evaluate("document.activeElement.id") == "q"  # the search box has the focus
    page.keyboard.type("bog hag")
    expect(page.locator("#search-body")).to_contain_text("Bog Hag")
    tab_to(page, '#search-body a[href="/cards/demo-bog-hag/"]')
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{site}/cards/demo-bog-hag/")


def test_a_new_user_builds_a_legal_deck_and_fixes_a_problem_with_one_click(
        page: Page, site: str, csp_violations: list[str]) -> None:
    sign_up(page, site, "ada")
    page.goto(f"{site}/decks/new/")
    page.get_by_role("button", name="Create an empty deck").click()
    expect(page.locator("#validation-title")).to_contain_text("Not legal")
    for query, additions in LEGAL_DECK:
        search_in_builder(page, query)
        for button_id, copies in additions:
            for _ in range(copies):
                press_and_wait_for_save(page, button_id)
    expect(page.locator("#validation-title")).to_contain_text("Legal for")

    press_and_wait_for_save(page, "add-demo-sewer-rat-swarm")  # a third copy
    expect(page.locator("#validation-title")).to_contain_text("Not legal")
    problem = page.locator(".problem", has_text="Sewer Rat Swarm")
    expect(problem).to_contain_text("too_many_copies")
    press_and_wait_for_save(page, problem.locator(".fix-button").get_attribute("id") or "")
    expect(page.locator("#validation-title")).to_contain_text("Legal for")
    deck = Deck.objects.get(owner__username="ada")
    assert deck.entries.get(card_id="demo-sewer-rat-swarm").count == 2


def test_with_the_keyboard_only_a_new_user_signs_up_and_adds_a_card(
        page: Page, site: str, csp_violations: list[str]) -> None:
    page.goto(f"{site}/accounts/signup/")
    tab_to(page, "#id_username")
    page.keyboard.type("bob")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    tab_to(page, "#id_password2")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{site}/decks/")
    tab_to(page, "main button.button")  # New deck
    page.keyboard.press("Space")
    expect(page.locator("#validation-title")).to_contain_text("Not legal")
    tab_to(page, "#builder-q")
    page.keyboard.type("bog hag")
    expect(page.locator("#add-demo-bog-hag")).to_be_visible()
    tab_to(page, "#add-demo-bog-hag")
    page.keyboard.press("Space")
    expect(page.locator(".deck-meta")).to_contain_text("version 2")
    deck = Deck.objects.get(owner__username="bob")
    assert deck.entries.get(card_id="demo-bog-hag").section == "wanderers"


def test_a_user_imports_a_sample_list_and_exports_text_and_pdf(
        page: Page, site: str, csp_violations: list[str]) -> None:
    sign_up(page, site, "ada")
    page.goto(f"{site}/decks/import/")
    text = (FIXTURES / "decklists" / "kalim-faithful.txt").read_text(encoding="utf-8")
    page.get_by_label("Decklist").fill(text)
    page.locator("#import-form").get_by_role("button", name="Import").last.click()
    expect(page.locator("main")).to_contain_text("Imported “Kalim Faithful”")
    expect(page.locator("#validation-title")).to_contain_text("Legal for")
    deck = Deck.objects.get(owner__username="ada")

    page.goto(f"{site}/decks/{deck.pk}/")
    menu = page.locator("#export-menu")
    with page.expect_download() as text_download:
        menu.get_by_role("link", name="Text list").click()
    assert text_download.value.suggested_filename == "kalim-faithful.txt"
    exported = text_download.value.path().read_text(encoding="utf-8")
    assert exported.startswith("# Kalim Faithful") and "1 Emberhold Keep" in exported
    with page.expect_download() as pdf_download:
        menu.get_by_role("link", name="Decklist PDF A4").click()
    assert pdf_download.value.suggested_filename == "kalim-faithful.pdf"
    assert pdf_download.value.path().read_bytes().startswith(b"%PDF")


def test_a_visitor_deals_an_opening_hand_card_by_card(page: Page, site: str,
                                                      csp_violations: list[str]) -> None:
    deck = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    page.goto(f"{site}/decks/{deck.pk}/draw/?seed=7")
    page.get_by_role("link", name="Draw card by card").click()
    hand = page.locator(".hand-card:not(.slot)")
    expect(hand).to_have_count(0)
    for number in range(1, 8):
        pile = "Structure Pile" if number % 2 else "Personality Pile"
        page.get_by_role("button", name=re.compile(f"^Draw from {pile}")).click()
        expect(hand).to_have_count(number)
    expect(page.get_by_role("button", name=re.compile("^Draw from"))).to_have_count(2)
    page.get_by_role("button", name="Deal 100 hands").click()
    expect(page.locator("#hands-strip")).not_to_be_empty()
    assert "picks=spspsps" in page.url



def test_the_api_docs_and_the_admin_work_under_the_content_security_policy(
        page: Page, site: str, csp_violations: list[str]) -> None:
    page.goto(f"{site}/api/docs/")
    expect(page.locator("#swagger-ui")).to_contain_text("/api/cards/")
    page.goto(f"{site}/admin/login/")
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
