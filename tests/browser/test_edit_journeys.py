"""A card owner completes a real card (issue 17, "done when"), in a real browser, once with the
mouse and once with the keyboard alone (the ``person`` fixture), the focus showing at every step.

A user who signed up a minute ago (and verified the address by the mailed link) opens a War of
Factions card, attaches a scan, checks and corrects what OCR read, fills the costs from the card
in hand, names the source and proposes; two other users, old enough for their votes to count,
approve; the card page shows the new facts with their source, the set's checklist counts the
card, and a deck that holds it validates without ``unverifiable`` warnings for it.

Every value below is made up for the test (the scan is a face drawn from them): nothing here is
a real card's stat, and nothing is written to fixtures/.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from accounts.models import EmailVerification
from cards.images.face import render_face
from cards.images.ocr import ocr_available
from decks.formats.text import parse_text
from decks.models import Deck
from decks.services import catalogue_resolver, deck_data, deck_save
from decks.validation import deck_validate
from edits.models import Edit
from tests.accounts.queued_mail import deliver_queued_mail
from tests.browser.conftest import LIVE_DATABASE
from tests.browser.person import Person
from tests.browser.test_account_journeys import link_in
from tests.browser.test_journeys import sign_up
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

CARD = "wof-acormis-winters"
# Made up for the test. What the scan shows, but its costs (the owner reads them off the card).
ON_THE_SCAN: dict[str, Any] = {
    "id": CARD, "name": "Acormis Winters", "set": "WOF", "type": "personality",
    "subtype": "troop", "faction": "kalim", "abilities": "Worship. Fleetfoot.",
    "quotation": "The light walks with those who walk with it.", "race": "Human",
    "gender": "Male", "profession": "Priest", "offense": 2, "defense": 3,
    "faction_influence": 1, "vitality": 4, "strength_economic": 1, "strength_religious": 3,
    "strength_political": 0, "unique": True, "official": True,
}
# What the owner types: the costs, the collector number, and a correction of the quotation.
TYPED = {"cost_economic": "1", "cost_religious": "3", "cost_political": "0", "number": "7"}
CORRECTED_QUOTATION = "The light walks with all who walk beside it."
# Without Tesseract nothing is read: the owner types these as well (the selects are chosen).
SELECTS = {"subtype": "Troop", "unique": "yes"}
TEXTS = {"abilities": "Worship. Fleetfoot.", "race": "Human", "gender": "Male",
         "profession": "Priest", "offense": "2", "defense": "3", "faction_influence": "1",
         "vitality": "4", "strength_economic": "1", "strength_religious": "3",
         "strength_political": "0"}
DECK = """# Kalim trial
Initial Holdings
1 Ariam's Temple
Personality Pile
2 Acormis Winters
2 Arch Bishop Lawrence
"""


def check(person: Person, box: Locator) -> None:
    """Tick a checkbox or choose a radio button. With the keyboard, Tab reaches a radio group
    at its chosen button (or its first), and the arrow keys move the choice."""
    box = box.first
    if not person.keyboard:
        box.check()
    elif box.get_attribute("type") == "radio":
        group = person.page.locator(f'input[name="{box.get_attribute("name")}"]')
        chosen = group.locator(":scope:checked")
        person.tab_to(chosen if chosen.count() else group.first)
        for _ in range(group.count()):
            if box.is_checked():
                break
            person.page.keyboard.press("ArrowDown")
        if not box.is_checked():
            person.page.keyboard.press("Space")
    else:
        person.tab_to(box)
        person.page.keyboard.press("Space")
    expect(box).to_be_checked()


def choose(person: Person, select: Locator, label: str) -> None:
    """Choose an option of a select: clicked, or with the arrow keys from the focused select."""
    if not person.keyboard:
        select.first.select_option(label=label)
        return
    person.tab_to(select)
    for _ in range(12):
        if select.first.evaluate("s => s.options[s.selectedIndex].text") == label:
            return
        person.page.keyboard.press("ArrowDown")
    raise AssertionError(f"no option {label!r} in {select}")


def log_in(person: Person, page: Page, site: str, username: str) -> None:
    page.goto(f"{site}/accounts/login/")
    person.fill(page.get_by_label("Username"), username)
    person.fill(page.get_by_label("Password"), PASSWORD)
    person.press(page.locator("main").get_by_role("button", name="Log in"))
    expect(page.get_by_role("navigation", name="Account")).to_contain_text(username)


def log_out(person: Person, page: Page) -> None:
    person.press(page.get_by_role("navigation", name="Account").get_by_role("button",
                                                                              name="Log out"))
    expect(page.get_by_role("navigation", name="Account")).to_contain_text("Log in")


def an_old_verified_user(name: str) -> User:
    user = User.objects.create_user(name, f"{name}@example.org", PASSWORD)
    user.date_joined = timezone.now() - dt.timedelta(days=60)
    user.save(update_fields=["date_joined"])
    EmailVerification.objects.create(user=user, email=user.email, verified_at=timezone.now())
    return user


def unverifiable_for(deck: Deck, card_id: str) -> list[str]:
    return [p.message for p in deck_validate(deck_data(deck)).problems
            if p.code == "unverifiable" and card_id in p.cards]


def test_a_new_card_owner_completes_a_real_card_and_two_others_approve_it(
        person: Person, page: Page, site: str, mailoutbox: list[Any], tmp_path: Path,
        csp_violations: list[str], settings: Any) -> None:
    # Three people in three places: the site sits behind one proxy that names each client, so
    # that the votes count (a vote from the editor's address would not: edits.review).
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    page.set_extra_http_headers({"X-Forwarded-For": "198.51.100.10"})
    scan = tmp_path / "acormis.png"
    render_face(ON_THE_SCAN).save(scan)
    owner = User.objects.create_user("keeper")
    parsed = parse_text(DECK, catalogue_resolver())
    assert parsed.deck is not None
    deck = deck_save(owner=owner, data=parsed.deck, visibility=Deck.PUBLIC)
    assert unverifiable_for(deck, CARD)  # before: the deck cannot be checked for this card

    # Signed up a minute ago, the address verified by the link in the mail.
    sign_up(person, page, site, "ada")
    deliver_queued_mail()  # as the background worker does
    page.goto(site + link_in(mailoutbox[-1], "/accounts/verify/"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Address verified")

    # The card, and its form.
    page.goto(f"{site}/sets/wof/")
    person.press(page.locator("#unnumbered ~ ul").get_by_role("link", name="Acormis Winters"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Improve Acormis Winters")
    expect(page.locator("#f-name")).to_have_value("Acormis Winters")

    # The scan: chosen in the system's file dialog (not part of the page), then read. First
    # the page's deferred scripts have run (they hide the button that reads without them):
    # reached by a click, the page may show its form before htmx listens for the choice.
    expect(page.get_by_role("button", name="Read the scan")).to_be_hidden()
    page.locator("#scan-file").set_input_files(scan)
    # Reading takes 3 to 6 s on two cores shared with other work: more than expect's 5 s.
    expect(page.locator("#scan-status")).to_contain_text("Scan attached", timeout=30_000)
    # Read in place on choosing the file: no button offers a second read, and the scan is
    # chosen as the source (the source was not swapped in with the fields).
    expect(page.get_by_role("button", name="Read the scan")).to_be_hidden()
    expect(page.locator("#source-kind-scan")).to_be_checked()
    reading = ocr_available() is None
    if reading:
        expect(page.locator("#scan-status")).to_contain_text("values read")
        expect(page.locator("#box-abilities")).to_contain_text("Read from the scan: check")
        expect(page.locator("#f-offense")).to_have_value("2")
        # Proposing before checking what was read is refused, naming the values.
        person.fill(page.locator("#f-cost_economic"), TYPED["cost_economic"])
        check(person, page.locator("#source-kind-scan"))
        person.press(page.get_by_role("button", name="Propose this edit"))
        expect(page.locator("#error-summary")).to_contain_text("read from the scan are not checked")
        assert not Edit.objects.exists()
    else:
        expect(page.locator("#ocr-unavailable")).to_contain_text("Reading scans is unavailable")
        for key, label in SELECTS.items():
            choose(person, page.locator(f"#f-{key}"), label)
        for key, value in TEXTS.items():
            person.fill(page.locator(f"#f-{key}"), value)

    # Correct what was misread, check the rest, fill the costs from the card in hand.
    person.fill(page.locator("#f-quotation"), CORRECTED_QUOTATION)
    for box in page.locator(".to-check .confirm input, .group-check input").all():
        check(person, box)  # a tick per part of the card, and one per hard-to-read value
    for key, value in TYPED.items():
        person.fill(page.locator(f"#f-{key}"), value)
    check(person, page.locator("#source-kind-scan"))
    person.fill(page.locator("#note"), "Read in daylight.")
    person.press(page.get_by_role("button", name="Propose this edit"))

    expect(page.locator(".flash")).to_contain_text("Your edit is proposed")
    edit = Edit.objects.get()
    assert edit.editor is not None and edit.editor.username == "ada"
    assert edit.source == "the scan attached to this edit" and hasattr(edit, "scan")
    assert edit.changes["quotation"] == CORRECTED_QUOTATION
    assert edit.changes["cost_religious"] == 3 and edit.changes["offense"] == 2
    expect(page.locator("table.diff")).to_contain_text(CORRECTED_QUOTATION)
    expect(page.locator(".edit-scan img")).to_be_visible()
    edit_url = page.url
    log_out(person, page)

    # Two other card owners approve it.
    for name, address in (("bob", "203.0.113.20"), ("cy", "192.0.2.30")):
        an_old_verified_user(name)
        page.set_extra_http_headers({"X-Forwarded-For": address})
        log_in(person, page, site, name)
        page.goto(edit_url)
        person.fill(page.get_by_label("Note (required to reject: say what is wrong)"),
                    "Matches the scan.")
        person.press(page.get_by_role("button", name="Approve"))
        expect(page.locator(".flash")).to_contain_text("You approved this edit")
        log_out(person, page)
    edit.refresh_from_db()
    assert edit.status == Edit.APPLIED
    page.goto(edit_url)
    expect(page.locator(".title-row .status")).to_have_text("Applied")

    # The card page shows the new facts with their source.
    person.press(page.locator("h1").get_by_role("link", name="Acormis Winters"))
    facts = page.locator("table.provenance")
    expect(facts).to_contain_text(CORRECTED_QUOTATION)
    expect(facts).to_contain_text("the scan attached to this edit")
    expect(facts.get_by_role("link", name=f"edit #{edit.pk}").first).to_be_visible()
    expect(page.locator(".notice")).not_to_be_visible()  # no field left to transcribe

    # The set's checklist counts it, at its number.
    page.goto(f"{site}/sets/wof/")
    expect(page.locator("#checklist-title + p")).to_contain_text("1 complete")
    expect(page.get_by_role("link", name="No. 7: Acormis Winters, complete")).to_be_visible()

    # The deck that holds it: no unverifiable warning names it, nor the cards to complete.
    page.goto(f"{site}/decks/{deck.pk}/")
    expect(page.locator(".validation")).to_be_visible()
    for problem in page.locator(".problem-warning").all():
        assert "Acormis Winters" not in problem.inner_text()
    expect(page.locator(".missing-facts")).not_to_contain_text("Acormis Winters")
    assert unverifiable_for(deck, CARD) == []
    assert re.search(r"/edits/\d+/$", edit_url)
