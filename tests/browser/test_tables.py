"""The table pages in a real browser: they fit a 390 px phone (44 px touch targets) and a
desk, and two people in two browsers at one table with an AI seat see each other's moves
without reloading (polling: the live test server has no WebSocket, so the page falls back to
what it does when its socket is down)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from tables.models import Table
from tables.services import table_create, table_start
from tests.browser.conftest import LIVE_DATABASE, sign_in
from tests.browser.test_phone import DESK, OVERFLOW, PHONE, TARGETS
from tests.tables.makers import moves, sample_deck, table_pages

pytestmark = [pytest.mark.browser, LIVE_DATABASE]


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["phone", "desk"])
def test_the_table_pages_fit_a_phone_and_a_desk(page: Page, site: str, viewport: Any,
                                                 tmp_path: Path,
                                                 csp_violations: list[str]) -> None:
    page.set_viewport_size(viewport)
    ada = sign_in(page, site, "ada")
    overflowing, small = {}, {}
    for url in table_pages(ada):
        page.goto(f"{site}{url}")
        measured = page.evaluate(OVERFLOW)
        if measured["page"] > measured["width"] or measured["hidden"]:
            overflowing[url] = measured
        if viewport == PHONE and (targets := page.evaluate(TARGETS)):
            small[url] = targets
        name = re.sub(r"\W+", "-", url).strip("-") or "lobby"
        page.screenshot(path=str(tmp_path / f"{name}-{viewport['width']}.png"), full_page=True)
    assert overflowing == {}, json.dumps(overflowing, indent=1)
    assert small == {}, json.dumps(small, indent=1)
    assert csp_violations == []


def test_two_people_and_an_ai_seat_see_each_others_moves(browser: Browser, site: str,
                                                         csp_violations: list[str]) -> None:
    contexts = [browser.new_context(viewport=size) for size in (DESK, PHONE)]
    ada_page, bob_page = (context.new_page() for context in contexts)
    ada = sign_in(ada_page, site, "ada")
    sign_in(bob_page, site, "bob")
    table = table_create(host=ada, deck=sample_deck("Kalim Faithful"), size=3, seed=5,
                         target=15, ai=[(2, sample_deck("Mosfin Blades"))])
    ada_page.goto(f"{site}/tables/{table.pk}/")
    invite = ada_page.get_by_label("Invite link").input_value()
    bob_page.goto(invite)
    bob_page.get_by_label("Your deck").select_option(label="Guild Veterans (samples)")
    bob_page.get_by_role("button", name="Take a seat").click()
    expect(bob_page.locator(".tb-seat-row")).to_have_count(3)
    ada_page.reload()
    ada_page.get_by_role("button", name="Start the game").click()
    pages = {0: ada_page, 1: bob_page}
    for _ in range(6):  # six moves, each seen by the other without a reload
        table.refresh_from_db()
        decision = table.decision
        for page in pages.values():
            expect(page.locator(".tb-moves h2")).to_contain_text(f"decision {decision}",
                                                                  timeout=20_000)
        mover = next(p for p in pages.values()
                     if p.locator("button.tb-action").count())
        other = next(p for p in pages.values() if p is not mover)
        mover.locator("button.tb-action").first.click()
        expect(other.locator(".tb-moves h2")).to_contain_text(f"decision {decision + 1}",
                                                              timeout=20_000)
        assert Table.objects.get(pk=table.pk).decision == decision + 1
    for context in contexts:
        context.close()


# Where the newest log line is: inside the log's scroll box, which holds more than it shows.
NEWEST_LOG_LINE = """() => {
  const box = document.querySelector('.tb-log .tb-scroll');
  const last = box.querySelector('li:last-child').getBoundingClientRect();
  const shown = box.getBoundingClientRect();
  return {scrolls: box.scrollHeight > box.clientHeight + 20,
          inView: last.top >= shown.top - 1 && last.bottom <= shown.bottom + 1};
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["phone", "desk"])
def test_the_log_shows_its_newest_line_on_load_and_after_a_live_update(
        page: Page, site: str, viewport: Any) -> None:
    page.set_viewport_size(viewport)
    ada = sign_in(page, site, "ada")
    table = table_create(host=ada, deck=sample_deck("Kalim Faithful"), size=2, seed=5,
                         target=15, ai=[(1, sample_deck("Mosfin Blades"))])
    table = moves(table_start(table=table, user=ada), ada, 12)
    page.goto(f"{site}/tables/{table.pk}/")
    assert page.evaluate(NEWEST_LOG_LINE) == {"scrolls": True, "inView": True}
    # A move made on the page: its answer is the new body, swapped in (as a live update is).
    page.evaluate("window.beforeSwap = true")
    page.locator("button.tb-action").first.click()
    expect(page.locator(".tb-moves h2")).to_contain_text(f"decision {table.decision + 1}")
    assert page.evaluate("window.beforeSwap") is True  # (swapped, not a new page)
    assert page.evaluate(NEWEST_LOG_LINE) == {"scrolls": True, "inView": True}


def test_without_javascript_the_page_claims_no_live_updates_nor_keys(browser: Browser,
                                                                      site: str) -> None:
    pages = {}
    for script in (False, True):
        context = browser.new_context(viewport=DESK, java_script_enabled=script)
        pages[script] = context.new_page()
    ada = sign_in(pages[True], site, "ada")
    table = table_create(host=ada, deck=sample_deck("Kalim Faithful"), size=2, seed=5,
                         target=15, ai=[(1, sample_deck("Mosfin Blades"))])
    table = moves(table_start(table=table, user=ada), ada, 1)
    signed = Client()
    signed.force_login(ada)
    pages[False].context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site,
                                       "value": signed.cookies[settings.SESSION_COOKIE_NAME]
                                       .value}])
    for script, page in pages.items():
        page.goto(f"{site}/tables/{table.pk}/")
        assert page.locator("button.tb-action").count() > 0
        live, keys = page.locator("[data-live]"), page.locator(".tb-keys")
        if script:
            expect(live).to_contain_text("Live")
            expect(keys).to_be_visible()
        else:
            expect(live).to_have_text("Reload the page to see the others' moves.")
            expect(keys).to_be_hidden()
