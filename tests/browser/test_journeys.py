"""What a person does on the site, in a real browser: find a card, sign up, build a legal deck
and fix a problem with one click, import a list, export it, deal hands, read the API docs and
log in to the admin. Every journey runs twice (the ``person`` fixture): with the mouse, and with
the keyboard alone (Tab, Shift+Tab, Enter, Space, typing), the focus showing at every step. No
page may break the CSP on the way."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from decks.models import Deck
from tests.browser.conftest import LIVE_DATABASE
from tests.browser.person import Person
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


def sign_up(person: Person, page: Page, site: str, username: str) -> None:
    page.goto(f"{site}/accounts/signup/")
    person.fill(page.get_by_label("Username"), username)
    person.fill(page.get_by_label("E-mail address"), f"{username}@example.org")
    person.fill(page.locator("#id_password1"), PASSWORD)
    person.fill(page.locator("#id_password2"), PASSWORD)
    person.press(page.get_by_role("button", name="Create my account"))
    expect(page.get_by_role("navigation", name="Account")).to_contain_text(username)


def deck_version(page: Page) -> int:
    text = page.locator(".deck-meta").inner_text()
    found = re.search(r"version (\d+)", text)
    assert found, text
    return int(found.group(1))


def press_and_wait_for_save(person: Person, page: Page, button_id: str) -> None:
    """Press a builder button and wait until htmx has swapped in the saved version."""
    before = deck_version(page)
    person.press(page.locator(f"#{button_id}"))
    expect(page.locator(".deck-meta")).to_contain_text(f"version {before + 1}")


def search_in_builder(person: Person, page: Page, query: str) -> None:
    person.fill(page.locator("#builder-q"), query)
    expect(page.locator("#search-results .explained")).to_contain_text("card")


def test_a_visitor_searches_and_opens_a_card(person: Person, page: Page, site: str,
                                             csp_violations: list[str]) -> None:
    page.goto(f"{site}/cards/")
    assert page.evaluate("document.activeElement.id") == "q"  # the search box has the focus
    person.fill(page.get_by_label("Search query"), "bog hag")
    person.press(page.locator("#search-body").get_by_role("link", name="Bog Hag"))
    expect(page).to_have_url(f"{site}/cards/demo-bog-hag/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Bog Hag")


def test_a_new_user_builds_a_legal_deck_and_fixes_a_problem_with_one_click(
        person: Person, page: Page, site: str, csp_violations: list[str]) -> None:
    sign_up(person, page, site, "ada")
    expect(page).to_have_url(f"{site}/decks/")
    person.press(page.locator("main").get_by_role("button", name="New deck"))
    expect(page.locator("#validation-title")).to_contain_text("Not legal")
    for query, additions in LEGAL_DECK:
        search_in_builder(person, page, query)
        for button_id, copies in additions:
            for _ in range(copies):
                press_and_wait_for_save(person, page, button_id)
    expect(page.locator("#validation-title")).to_contain_text("Legal for")

    press_and_wait_for_save(person, page, "add-demo-sewer-rat-swarm")  # a third copy
    expect(page.locator("#validation-title")).to_contain_text("Not legal")
    problem = page.locator(".problem", has_text="Sewer Rat Swarm")
    expect(problem).to_contain_text("too_many_copies")
    press_and_wait_for_save(person, page,
                            problem.locator(".fix-button").get_attribute("id") or "")
    expect(page.locator("#validation-title")).to_contain_text("Legal for")
    deck = Deck.objects.get(owner__username="ada")
    assert deck.entries.get(card_id="demo-sewer-rat-swarm").count == 2
    assert deck.entries.get(card_id="demo-bog-hag").section == "wanderers"
    # One sitting, one version of the history, whatever the number of presses.
    assert deck.versions.count() == 1 and deck.versions.get().number == deck.version > 40


def test_a_user_imports_a_sample_list_and_exports_text_and_pdf(
        person: Person, page: Page, site: str, csp_violations: list[str]) -> None:
    sign_up(person, page, site, "ada")
    person.press(page.locator("main").get_by_role("link", name="Import a decklist"))
    text = (FIXTURES / "decklists" / "kalim-faithful.txt").read_text(encoding="utf-8")
    person.fill(page.get_by_label("Decklist"), text)
    person.press(page.locator("#import-form").get_by_role("button", name="Import").last)
    expect(page.locator("main")).to_contain_text("Imported “Kalim Faithful”")
    expect(page.locator("#validation-title")).to_contain_text("Legal for")
    deck = Deck.objects.get(owner__username="ada")

    page.goto(f"{site}/decks/{deck.pk}/")
    menu = page.locator("#export-menu")
    with page.expect_download() as text_download:
        person.press(menu.get_by_role("link", name="Text list"))
    assert text_download.value.suggested_filename == "kalim-faithful.txt"
    exported = text_download.value.path().read_text(encoding="utf-8")
    assert exported.startswith("# Kalim Faithful") and "1 Emberhold Keep" in exported
    with page.expect_download() as pdf_download:
        person.press(menu.get_by_role("link", name="Decklist PDF A4"))
    assert pdf_download.value.suggested_filename == "kalim-faithful.decklist.pdf"
    assert pdf_download.value.path().read_bytes().startswith(b"%PDF")


def test_a_visitor_deals_an_opening_hand_card_by_card(person: Person, page: Page, site: str,
                                                      csp_violations: list[str]) -> None:
    deck = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    page.goto(f"{site}/decks/{deck.pk}/draw/?seed=7")
    person.press(page.get_by_role("link", name="Draw card by card"))
    hand = page.locator(".hand-card:not(.slot)")
    expect(hand).to_have_count(0)
    for number in range(1, 8):
        pile = "Structure Pile" if number % 2 else "Personality Pile"
        person.press(page.get_by_role("button", name=re.compile(f"^Draw from {pile}")))
        expect(hand).to_have_count(number)
    expect(page.get_by_role("button", name=re.compile("^Draw from"))).to_have_count(2)
    person.press(page.get_by_role("button", name="Deal 100 hands"))
    expect(page.locator("#hands-strip")).not_to_be_empty()
    assert "picks=spspsps" in page.url


def test_a_developer_reads_the_api_docs_and_staff_log_in_to_the_admin(
        person: Person, page: Page, site: str, csp_violations: list[str]) -> None:
    User.objects.create_superuser("root", password=PASSWORD)
    page.goto(f"{site}/api/docs/")
    operation = page.locator("#operations-cards-cards_list")
    person.press(operation.locator("button.opblock-summary-control"))
    expect(operation.get_by_text("Parameters", exact=True)).to_be_visible()
    page.goto(f"{site}/admin/login/")
    person.fill(page.get_by_label("Username"), "root")
    person.fill(page.get_by_label("Password"), PASSWORD)
    person.press(page.get_by_role("button", name="Log in"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("administration")


def test_a_user_edits_a_deck_as_text_and_fixes_a_line_with_a_suggestion(
        person: Person, page: Page, site: str, csp_violations: list[str]) -> None:
    sign_up(person, page, site, "ada")
    person.press(page.locator("main").get_by_role("link", name="Import a decklist"))
    text = (FIXTURES / "decklists" / "kalim-faithful.txt").read_text(encoding="utf-8")
    person.fill(page.get_by_label("Decklist"), text)
    person.press(page.locator("#import-form").get_by_role("button", name="Import").last)
    expect(page.locator("#validation-title")).to_contain_text("Legal for")
    before = deck_version(page)
    person.press(page.locator("summary", has_text="Edit as text"))
    box = page.get_by_label("The deck as a decklist")
    person.fill(box, box.input_value().replace("Wanderer Pile\n",
                                               "Wanderer Pile\n1 Cathedral Guard\n"))
    person.press(page.get_by_role("button", name="Save the list"))
    errors = page.locator(".text-edit .import-errors")
    expect(errors).to_contain_text("1 line needs fixing")
    person.press(errors.get_by_role("button", name=re.compile("with 1 Cathedral Warden$")))
    expect(page.locator("#builder-message")).to_contain_text("Every line reads now")
    person.press(page.get_by_role("button", name="Save the list"))
    expect(page.locator("#builder-message")).to_contain_text(
        "Saved the list as one version of the history")
    assert deck_version(page) == before + 1
    deck = Deck.objects.get(owner__username="ada")
    assert deck.entries.get(card_id="demo-cathedral-warden", section="wanderers").count == 1


def test_a_visitor_finds_a_public_deck_by_card_and_sees_it_as_images(
        person: Person, page: Page, site: str, csp_violations: list[str]) -> None:
    page.goto(f"{site}/decks/")
    person.press(page.locator("main").get_by_role("link", name="Search public decks"))
    person.fill(page.get_by_label("Card", exact=True), "cathedral warden")
    person.press(page.get_by_role("button", name="Search", exact=True).last)
    expect(page.locator(".result-count")).to_contain_text("2 public decks with Cathedral Warden")
    person.press(page.get_by_role("link", name="Kalim Faithful"))
    person.press(page.get_by_role("link", name="Images"))
    expect(page.locator(".deck-images img").first).to_be_visible()
    person.press(page.get_by_role("link", name="By type"))
    expect(page.locator("#type-wanderer-title")).to_contain_text("Wanderers")
