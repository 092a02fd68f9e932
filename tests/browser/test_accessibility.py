"""axe-core (vendored, tests/browser/vendor) finds no serious or critical accessibility
violation on any main page, checked in chromium as a person would see it."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from decks.models import Deck
from decks.services import deck_data, deck_save
from simulations.runs import RunOptions, goldfish_run_start
from simulations.tasks import simulation_run_work
from tests.browser.conftest import AXE, LIVE_DATABASE, sign_in
from tests.conftest import PASSWORD
from tests.playtest.makers import playtest_pages

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

SERIOUS = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations
    .filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
}"""


def serious_violations(page: Page) -> list[dict[str, Any]]:
    # Evaluated through the DevTools protocol, so the site's CSP (rightly) has no say.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(SERIOUS)
    return found


def test_no_main_page_has_a_serious_accessibility_violation(page: Page, site: str,
                                                            csp_violations: list[str]) -> None:
    user = User.objects.create_user("ada", password=PASSWORD)
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    deck = deck_save(owner=user, data=deck_data(sample), visibility=Deck.PRIVATE)
    anonymous = ["/", "/cards/?q=t%3Atroop", "/cards/?q=t%3Atroop&view=list",
                 "/cards/demo-bog-hag/", "/sets/", "/sets/wof/", "/search/help/", "/abilities/",
                 "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/", "/decks/",
                 f"/decks/{sample.pk}/", f"/decks/{sample.pk}/draw/?seed=7",
                 f"/decks/{sample.pk}/draw/?seed=7&picks=spsp", f"/decks/{sample.pk}/?view=type",
                 f"/decks/{sample.pk}/?view=images", "/decks/public/?faction=kalim",
                 "/decks/public/?card=a"]
    signed_in = ["/accounts/", f"/decks/{deck.pk}/edit/", f"/decks/{deck.pk}/edit/?q=t%3Awanderer",
                 f"/decks/{deck.pk}/", "/decks/import/", "/decks/new/"]
    found = {}
    for url in anonymous:
        page.goto(f"{site}{url}")
        found[url] = serious_violations(page)
    page.goto(f"{site}/accounts/login/")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_role("navigation", name="Account")).to_contain_text("ada")
    for url in signed_in:
        page.goto(f"{site}{url}")
        found[url] = serious_violations(page)
    bad = {url: v for url, v in found.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)


def test_no_page_of_a_deck_s_history_goldfish_or_playtest_has_a_serious_violation(
        page: Page, site: str, csp_violations: list[str]) -> None:
    ada = sign_in(page, site, "ada")
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    deck = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.PRIVATE)
    first = deck_data(deck)
    changed = dataclasses.replace(first, name="Kalim Faithful, leaner")
    deck = deck_save(owner=ada, data=changed, deck=deck)
    runs = []
    for data, version in ((first, 1), (changed, 2)):
        run, _ = goldfish_run_start(deck=data, options=RunOptions(games=20, seed=1), user=ada,
                                    requester=f"user:{ada.pk}", source=deck,
                                    source_version=version)
        simulation_run_work(run_id=run.pk, worker="test")  # played here: the pages are the point
        runs.append(run)
    page.goto(f"{site}/goldfish/{runs[0].pk}/")
    replay = page.locator("ul.samples a").first.get_attribute("href")
    urls = [f"/decks/{deck.pk}/history/", f"/decks/compare/?a={deck.pk}:1&b={deck.pk}",
            f"/decks/{deck.pk}/goldfish/", f"/goldfish/{runs[0].pk}/",
            f"{replay}?round=2", f"/goldfish/compare/?a={runs[0].pk}&b={runs[1].pk}",
            "/goldfish/compare/", *playtest_pages(ada, deck)]
    found = {}
    for url in urls:
        page.goto(f"{site}{url}")
        found[url] = serious_violations(page)
    bad = {url: v for url, v in found.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)


def test_no_card_edit_page_has_a_serious_violation(page: Page, site: str, settings: Any,
                                                   tmp_path: Any,
                                                   csp_violations: list[str]) -> None:
    from cards.images.face import render_face
    from decks.formats.text import parse_text
    from decks.services import catalogue_resolver
    from edits.services import edit_propose, edit_vote

    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = False
    ada = sign_in(page, site, "ada")
    bob = User.objects.create_user("bob")
    staff = User.objects.create_user("staff", is_staff=True)
    # Made-up values: an open edit with a vote and a competitor, and an applied one.
    open_edit = edit_propose(editor=ada, source="my own copy of the card",
                             card="wof-amena-huur", changes={"offense": 2, "race": "Human"})
    edit_propose(editor=bob, source="https://example.org/amena", card="wof-amena-huur",
                 changes={"offense": 3})
    edit_vote(edit=open_edit, voter=bob, vote="reject", note="The offense reads 3.")
    applied = edit_propose(editor=staff, source="the printed checklist",
                           card="wof-acormis-winters", changes={"number": "5", "race": "Elf"})
    parsed = parse_text("# Trial\nPersonality Pile\n2 Acormis Winters\n", catalogue_resolver())
    assert parsed.deck is not None
    deck = deck_save(owner=ada, data=parsed.deck, visibility=Deck.PUBLIC)
    urls = ["/cards/wof-amena-huur/improve/", "/sets/wof/add/?number=3", "/edits/",
            "/edits/?status=all&set=WOF", "/edits/mine/", f"/edits/{open_edit.pk}/",
            f"/edits/{applied.pk}/", "/cards/wof-acormis-winters/history/", "/edits/guide/",
            "/cards/wof-acormis-winters/", "/sets/wof/", f"/decks/{deck.pk}/", "/",
            "/edits/by/bob/"]  # one editor's open edits, as another reviewer sees them
    found = {}
    for url in urls:
        page.goto(f"{site}{url}")
        found[url] = serious_violations(page)
    # The form with a scan read into it (values marked to check) and with errors.
    scan = tmp_path / "scan.png"
    render_face({"id": "wof-amena-huur", "name": "Amena Huur", "set": "WOF",
                 "type": "personality", "faction": "mosfin", "offense": 1, "defense": 2,
                 "abilities": "Fleetfoot.", "official": True}).save(scan)
    page.goto(f"{site}/cards/wof-amena-huur/improve/")
    page.locator("#scan-file").set_input_files(scan)
    expect(page.locator("#scan-status")).to_contain_text("Scan attached", timeout=30_000)
    found["improve, scan read"] = serious_violations(page)
    page.get_by_role("button", name="Propose this edit").click()
    expect(page.locator("#error-summary")).to_be_visible()
    found["improve, errors"] = serious_violations(page)
    bad = {url: v for url, v in found.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)
