"""Every page on a 390 px phone: nothing scrolls sideways (a wide table scrolls inside its own
box, which says so), and every button, field, menu and navigation link is a touch target of 44
px or more."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from collection.services import collection_add_set
from decks.builder_services import deck_create_empty
from decks.models import Deck
from decks.services import deck_data, deck_save
from decks.views.links import short_slug
from playtest.game_display import game_context, game_view
from playtest.services import playtest_auto, playtest_start_from
from simulations.runs import RunOptions, goldfish_run_start
from simulations.tasks import simulation_run_work
from tests.browser.conftest import LIVE_DATABASE, sign_in
from tests.edits.makers import edit_pages
from tests.playtest.makers import playtest_pages
from tests.simulations.matchups.helpers import matchup_pages, played_matchup

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

PHONE: ViewportSize = {"width": 390, "height": 844}
DESK: ViewportSize = {"width": 1400, "height": 900}

# The page's width against the viewport's, and the elements that stick out furthest (those a
# scrolling box of their own does not clip), to say what to fix.
OVERFLOW = """() => {
  const width = innerWidth;
  const out = [];
  for (const element of document.querySelectorAll("body *")) {
    const box = element.getBoundingClientRect();
    if (box.right <= width + 0.5 || !box.width) continue;
    let parent = element.parentElement, clipped = false;
    while (parent && parent !== document.body) {
      if (getComputedStyle(parent).overflowX !== "visible") { clipped = true; break; }
      parent = parent.parentElement;
    }
    if (!clipped) out.push([Math.round(box.right), element.tagName.toLowerCase()
      + (typeof element.className === "string" && element.className.trim()
         ? "." + element.className.trim().split(/\\s+/).join(".") : "")]);
  }
  out.sort((a, b) => b[0] - a[0]);
  // A box that scrolls sideways hides part of what it holds: it must say so (site.js marks it
  // "is-scrollable" and puts a visible "Swipe sideways for more" line above it).
  const hidden = [];
  for (const element of document.querySelectorAll("body *")) {
    if (!["auto", "scroll"].includes(getComputedStyle(element).overflowX)) continue;
    if (element.scrollWidth <= element.clientWidth + 1) continue;
    if (!element.getClientRects().length) continue;
    const cue = element.previousElementSibling;
    const said = element.classList.contains("is-scrollable") && cue
      && cue.classList.contains("scroll-cue") && cue.getClientRects().length > 0;
    if (!said) hidden.push([element.scrollWidth, element.tagName.toLowerCase() + "."
      + element.className.trim().split(/\\s+/).join(".")]);
  }
  return {page: document.documentElement.scrollWidth, width, widest: out.slice(0, 5), hidden};
}"""

# What a finger presses: buttons, fields, menus (<summary>) and navigation links (not the
# links inside a sentence, nor the breadcrumbs: WCAG's inline exception).
TARGETS = """() => {
  const found = {};
  const selector = "button, .button, select, summary, nav:not(.crumbs) a, .facets a, "
    + "input:not([type=hidden]):not([type=checkbox]):not([type=radio])";
  for (const element of document.querySelectorAll(selector)) {
    const box = element.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // hidden, or for screen readers only
    if (getComputedStyle(element).visibility === "hidden") continue;
    if (box.width < 43.5 || box.height < 43.5) {
      const name = element.tagName.toLowerCase() + (typeof element.className === "string"
        && element.className.trim() ? "." + element.className.trim().split(/\\s+/).join(".") : "")
        + " \\"" + (element.textContent || element.value || "").trim().slice(0, 20) + "\\"";
      found[name] = `${Math.round(box.width)} x ${Math.round(box.height)}`;
    }
  }
  return found;
}"""


def every_page(ada: Any) -> list[str]:
    """Every kind of page, with ada's deck, two goldfish runs of it, a playtest game under way,
    a finished one and a shared replay."""
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    deck = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.PRIVATE)
    first = deck_data(deck)
    deck = deck_save(owner=ada, data=dataclasses.replace(first, name="Leaner"), deck=deck)
    runs = []
    for data, version in ((first, 1), (deck_data(deck), 2)):
        run, _ = goldfish_run_start(deck=data, options=RunOptions(games=10, seed=1), user=ada,
                                    requester=f"user:{ada.pk}", source=deck,
                                    source_version=version)
        simulation_run_work(run_id=run.pk, worker="test")
        runs.append(run)
    blades = Deck.objects.get(owner__username="samples", name="Mosfin Blades")
    matchup = played_matchup(ada, deck, blades)
    empty = deck_create_empty(ada)  # every problem, with its ready searches
    collection_add_set(owner=ada, set_code="WOF", copies=1)  # "My cards" has rows
    return [f"/decks/{empty.pk}/edit/", f"/decks/{empty.pk}/",
            f"/decks/{deck.pk}/edit/?q=set%3Ademo&page=2", f"/s/{short_slug(sample.pk)}",
        "/", "/cards/?q=t%3Atroop", "/cards/?q=t%3Atroop&view=list",
        "/cards/?q=t%3Atroop&view=text", "/cards/?q=f%3A", "/cards/demo-bog-hag/",
        "/cards/wof-acormis-winters/", "/cards/demo-cathedral-warden/", "/sets/", "/sets/wof/",
        "/sets/demo/", "/search/help/",
        "/abilities/", "/abilities/fleetfoot/", "/decks/", f"/decks/{sample.pk}/",
        f"/decks/{sample.pk}/?view=type", f"/decks/{sample.pk}/?view=images",
        "/decks/public/?faction=kalim&card=cathedral+warden", "/decks/public/?card=a",
        f"/decks/{sample.pk}/draw/?seed=7", f"/decks/{sample.pk}/draw/?seed=7&picks=spsp",
        "/decks/import/", "/decks/new/", f"/decks/{deck.pk}/", f"/decks/{deck.pk}/edit/",
        f"/decks/{deck.pk}/edit/?q=t%3Awanderer", f"/decks/{deck.pk}/history/",
        f"/decks/{deck.pk}/v/1/", f"/decks/compare/?a={deck.pk}:1&b={deck.pk}",
        "/decks/compare/", f"/decks/{deck.pk}/print/", f"/decks/{deck.pk}/goldfish/",
        f"/goldfish/{runs[0].pk}/", f"/goldfish/{runs[0].pk}/games/1/?round=2",
        f"/goldfish/compare/?a={runs[0].pk}&b={runs[1].pk}", "/goldfish/compare/",
        f"/decks/{deck.pk}/matchups/", f"/matchups/{matchup.pk}/",
        *playtest_pages(ada, deck), "/collection/",
        "/collection/allocation/", "/collection/import/", "/accounts/", "/no-such-page/",
        *edit_pages(ada), *matchup_pages(ada),
    ]


SIGNED_OUT = ["/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"]


def test_every_page_fits_a_390_px_phone_with_44_px_touch_targets(page: Page, site: str) -> None:
    page.set_viewport_size(PHONE)
    overflowing: dict[str, Any] = {}
    small: dict[str, Any] = {}

    def check(url: str) -> None:
        page.goto(f"{site}{url}")
        measured = page.evaluate(OVERFLOW)
        if measured["page"] > measured["width"] or measured["hidden"]:
            overflowing[url] = measured
        targets = page.evaluate(TARGETS)
        if targets:
            small[url] = targets

    for url in SIGNED_OUT:
        check(url)
    ada = sign_in(page, site, "ada")
    for url in every_page(ada):
        check(url)
    assert overflowing == {}, ("pages wider than 390 px, or with a box scrolling sideways with "
                               "no cue:\n" + json.dumps(overflowing, indent=1))
    assert small == {}, "touch targets under 44 px:\n" + json.dumps(small, indent=1)


def test_the_card_list_on_a_phone_shows_two_cards_a_row_and_folds_its_filters(
        page: Page, site: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{site}/cards/?q=t%3Atroop")
    expect(page.locator("details.facets-panel")).not_to_have_attribute("open", "")  # site.js
    expect(page.get_by_role("complementary", name="Filters")).to_be_hidden()
    tops = page.locator(".grid .tile").evaluate_all(
        "tiles => tiles.slice(0, 4).map(t => Math.round(t.getBoundingClientRect().top))")
    assert tops[0] == tops[1] and tops[2] == tops[3] and tops[2] > tops[0], tops
    # Typing swaps the results (and the filters with them): still folded; opened, they stay so.
    filters = page.get_by_role("complementary", name="Filters")
    page.locator("summary.facets-toggle").click()
    expect(filters).to_be_visible()
    page.get_by_label("Search query").fill("t:troop f:kalim")
    expect(page.locator(".explained")).to_contain_text("Kalim")
    expect(filters).to_be_visible()
    page.locator("summary.facets-toggle").click()
    page.get_by_label("Search query").fill("t:troop")
    expect(page.locator(".explained")).not_to_contain_text("Kalim")
    expect(filters).to_be_hidden()
    # On a wide screen the filters are always there, with no button to fold them.
    page.set_viewport_size(DESK)
    expect(filters).to_be_visible()
    expect(page.locator("summary.facets-toggle")).to_be_hidden()


def test_the_phone_builder_keeps_its_verdict_and_counts_in_view_while_adding(
        page: Page, site: str) -> None:
    page.set_viewport_size(PHONE)
    ada = sign_in(page, site, "ada")
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    deck = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.PRIVATE)
    page.goto(f"{site}/decks/{deck.pk}/edit/?q=t%3Atroop")
    add = page.locator(".result-rows .add-button").nth(5)
    add.scroll_into_view_if_needed()
    add.click()
    message = page.locator("#builder-message")
    expect(message).to_contain_text("Added 1")
    summary = page.locator("#builder-summary")
    box = summary.bounding_box()
    assert box is not None and box["y"] >= -0.5 and box["y"] + box["height"] <= 844
    expect(summary.locator(".summary-verdict")).to_have_text(re.compile(r"(Legal|Not legal)"))
    expect(summary.locator(".summary-part")).to_have_count(4)
    # The message is inside the bar: nothing at the foot of the screen is covered.
    assert page.evaluate("""() => {
      const m = document.getElementById('builder-message').getBoundingClientRect();
      const s = document.getElementById('builder-summary').getBoundingClientRect();
      return m.top >= s.top && m.bottom <= s.bottom + 0.5;
    }""")


def test_a_run_waiting_for_a_worker_shows_an_empty_bar_and_no_developer_words(
        page: Page, site: str) -> None:
    ada = sign_in(page, site, "ada")
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    run, _ = goldfish_run_start(deck=deck_data(sample), options=RunOptions(games=1000, seed=1),
                                user=ada, requester=f"user:{ada.pk}", source=sample,
                                source_version=sample.version)
    page.goto(f"{site}/goldfish/{run.pk}/")
    expect(page.locator(".run-progress")).to_contain_text("0 of 1,000 games")
    expect(page.locator(".run-progress")).not_to_contain_text("make run")
    # Drawn by the page: a light track and no value bar (Chromium's own is a full dark track).
    # The bar is redrawn by each poll, so the check retries rather than read a detached node.
    track = page.locator(".run-progress progress")
    expect(track).to_have_css("appearance", "none")
    expect(track).to_have_css("background-color", "rgb(239, 233, 222)")


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
def test_the_card_list_s_filters_come_folded_from_the_server_and_nothing_shifts(
        browser: Any, site: str, javascript: bool) -> None:
    for size, shown in ((PHONE, False), (DESK, True)):
        context = browser.new_context(viewport=size, java_script_enabled=javascript)
        if not javascript:
            # Without scripts chromium loads every lazy image at once, and each card image is
            # drawn on its first request (the test catalogue has none): a minute's work on a
            # busy machine before "load", for a check of the filters alone.
            context.route("**/image/*.webp*", lambda route: route.abort())
        page = context.new_page()
        page.goto(f"{site}/cards/?q=t%3Atroop")
        filters = page.get_by_role("complementary", name="Filters")
        (expect(filters).to_be_visible if shown else expect(filters).to_be_hidden)()
        if javascript:  # the page settles where it was drawn (Lighthouse: 0.577 before)
            shift = page.evaluate("""() => new Promise(done => {
              let sum = 0;
              new PerformanceObserver(list => list.getEntries().forEach(e => sum += e.value))
                .observe({type: "layout-shift", buffered: true});
              setTimeout(() => done(sum), 800);
            })""")
            assert shift < 0.01, (size, shift)
        context.close()


def test_htmx_updates_apply_no_inline_style(page: Page, site: str,
                                            csp_violations: list[str]) -> None:
    ada = sign_in(page, site, "ada")
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    deck = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.PRIVATE)
    page.goto(f"{site}/decks/{deck.pk}/edit/")
    assert page.evaluate("() => htmx.config.includeIndicatorStyles") is False
    page.get_by_label("Search query").fill("t:troop")
    expect(page.locator("#search-results")).to_contain_text("troop")
    page.locator(".result-rows .add-button").first.click()
    expect(page.locator("#builder-message")).to_contain_text("Added 1")
    page.goto(f"{site}/cards/?q=t%3Atroop")
    page.get_by_label("Search query").fill("t:troop f:kalim")
    expect(page.locator(".explained")).to_contain_text("Kalim")


def test_htmx_keeps_no_style_of_a_resized_field_across_a_swap(page: Page, site: str,
                                                             csp_violations: list[str]) -> None:
    # Resizing a textarea by its corner gives it a style attribute; htmx settled "style" by
    # default, writing it onto the swapped-in field, which style-src refuses in the console.
    ada = sign_in(page, site, "ada")
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    deck = deck_save(owner=ada, data=deck_data(sample), visibility=Deck.PRIVATE)
    page.goto(f"{site}/decks/{deck.pk}/edit/?q=t%3Atroop")
    page.locator("#deck-text").evaluate("t => { t.style.height = '300px'; }")
    page.locator("#settings-name").evaluate("f => { f.style.color = 'red'; f.style.color = ''; }")
    page.locator(".result-rows .add-button").first.click()
    expect(page.locator("#builder-message")).to_contain_text("Added 1")
    assert page.locator("#deck-text").get_attribute("style") is None


def test_the_card_anatomy_gives_a_value_the_phone_s_width(page: Page, site: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{site}/cards/demo-cathedral-warden/")
    quotation = page.locator(".anatomy tr", has_text="Quotation").locator("td").nth(1)
    box = quotation.bounding_box()
    assert box is not None and box["width"] > 280, box  # not a word a line


def test_the_dealt_hand_comes_before_the_ways_to_draw_on_a_phone(page: Page, site: str) -> None:
    sample = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    page.set_viewport_size(PHONE)
    page.goto(f"{site}/decks/{sample.pk}/draw/?seed=7")
    expect(page.get_by_role("button", name="Deal", exact=True).first).to_be_hidden()  # folded
    hand = page.get_by_role("heading", name="Opening hand", exact=True).bounding_box()
    assert hand is not None and hand["y"] < 700, hand  # in the first screen (was 1,100 px)
    page.get_by_text("Change how the hand is drawn").click()
    expect(page.get_by_role("button", name="Deal", exact=True).first).to_be_visible()
    page.set_viewport_size(DESK)
    page.goto(f"{site}/decks/{sample.pk}/draw/?seed=7")
    expect(page.get_by_role("button", name="Deal", exact=True).first).to_be_visible()
    expect(page.get_by_text("Change how the hand is drawn")).to_be_hidden()


@pytest.mark.parametrize("opponents", [0, 1], ids=["solo", "at-a-table"])
def test_a_phone_playtest_shows_the_moves_on_the_first_screen_and_no_key_hints(
        browser: Any, site: str, opponents: int) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    sign_in(page, site, "ada")
    deck = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    blades = Deck.objects.get(owner__username="samples", name="Mosfin Blades")
    page.goto(f"{site}/playtest/new/?deck={deck.pk}"
              + (f"&opponent={blades.pk}" if opponents else ""))
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#pt-moves-title")).to_contain_text("Your move")
    tops = page.evaluate("""() => Object.fromEntries(
      ['#pt-moves button.pt-action', '.pt-table', '.pt-opponents'].map(s => {
        const e = document.querySelector(s);
        return [s, e ? e.getBoundingClientRect().top + scrollY : null]; }))""")
    first_move, board = tops["#pt-moves button.pt-action"], tops[".pt-table"]
    assert first_move < PHONE["height"] - 44 and first_move < board, tops
    if opponents:
        assert first_move < tops[".pt-opponents"], tops
    hints = page.locator(".pt-keys, .pt-panel kbd").evaluate_all(
        "found => found.filter(e => e.getClientRects().length).length")
    assert hints == 0  # a touch screen has no keys to press
    assert refused == []
    context.close()


# A move button's parts: where the text and the ★ badge sit in it, and whether the badge shows
# all of its words.
MOVE_PARTS = """button => {
  const box = e => e.getBoundingClientRect();
  const text = box(button.querySelector('.pt-action-text'));
  const badge = button.querySelector('.pt-mark-policy');
  const b = box(button), style = getComputedStyle(button);
  const inner = {top: b.top + parseFloat(style.paddingTop) + parseFloat(style.borderTopWidth),
                 bottom: b.bottom - parseFloat(style.paddingBottom)
                         - parseFloat(style.borderBottomWidth)};
  return {above: text.top - inner.top, below: inner.bottom - text.bottom,
          textRight: text.right, textLines: Math.round(text.height / parseFloat(style.lineHeight)),
          badge: badge && {left: box(badge).left, right: box(badge).right,
                           clipped: badge.scrollWidth > badge.clientWidth + 1,
                           text: badge.textContent},
          right: b.right};
}"""


def test_a_phone_playtest_keeps_the_whole_policy_badge_beside_a_wrapped_move(
        browser: Any, site: str) -> None:
    # On touch the key caps go: the badge fell into the squeezed middle column of the move's
    # grid (a clipped ★ on the border), and a one-line move sat at the top of its 44 px
    # button over an empty second line.
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    ada = sign_in(page, site, "ada")
    veterans, blades, crusaders = (Deck.objects.get(owner__username="samples", name=name)
                                   for name in ("Guild Veterans", "Mosfin Blades",
                                                "Kalim Crusaders"))
    game = playtest_start_from(user=ada, session_token="", deck_id=veterans.pk, seed=1,
                               target=25, opponents=[(deck_data(d), d) for d in (blades,
                                                                                crusaders)])
    for _ in range(60):  # to a long move of the policy's beside a short one
        rows = game_context(game_view(game))["menu"]["actions"]
        if any(row["policy"] and len(row["text"]) > 60 for row in rows) \
                and any(len(row["text"]) < 10 for row in rows):
            break
        game, _ = playtest_auto(game=game, until="action")
    else:
        pytest.fail("no long move of the policy's beside a short one")
    page.goto(f"{site}/playtest/{game.pk}/")
    policy = page.locator("#pt-moves button.pt-action.is-policy").evaluate(MOVE_PARTS)
    assert policy["textLines"] >= 2, policy  # the text wraps, the badge beside it
    badge = policy["badge"]
    assert badge["text"] == "★ policy" and not badge["clipped"], policy
    assert policy["textRight"] <= badge["left"] <= badge["right"] <= policy["right"], policy
    short = page.locator("#pt-moves button.pt-action").filter(has=page.locator(
        ".pt-action-text", has_text=re.compile(r"^(Pass|Done)$"))).first.evaluate(MOVE_PARTS)
    assert short["textLines"] == 1 and abs(short["above"] - short["below"]) <= 2, short
    context.close()
