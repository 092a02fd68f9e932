"""The deck pages: list, new, import, builder edits, public page, history, compare, export."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from decks.formats.json_format import deck_to_dict
from decks.formats.text import parse_text
from decks.models import Deck
from decks.services import catalogue_resolver, deck_data, deck_save
from decks.validation import deck_validate
from rules.deck_rules import Fix, apply_fixes
from rules.decklist import Decklist
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
KALIM = (FIXTURES / "decklists" / "kalim-faithful.txt").read_text(encoding="utf-8")






def sample(name: str = "Kalim Faithful") -> Decklist:
    return deck_data(Deck.objects.get(owner__username="samples", name=name))


def ada_deck(data: Decklist | None = None, visibility: str = Deck.PRIVATE) -> Deck:
    owner = User.objects.get(username="ada")
    return deck_save(owner=owner, data=data or sample(), visibility=visibility)


def html(response: Any) -> str:
    return str(response.content.decode())


def edit(client: Client, deck: Deck, action: str, *, version: int | None = None,
         htmx: bool = True, **fields: Any) -> Any:
    data = {"version": deck.version if version is None else version, **fields}
    return client.post(f"/decks/{deck.pk}/edit/{action}/", data, headers=HTMX if htmx else {})


def current(deck: Deck) -> Decklist:
    return deck_data(Deck.objects.get(pk=deck.pk))


# --- list and new ---------------------------------------------------------------------------


def test_the_list_shows_public_decks_and_my_decks_with_their_visibility(ada: Client,
                                                                         bob: Client) -> None:
    ada_deck(visibility=Deck.UNLISTED)
    mine = html(ada.get("/decks/"))
    assert "My decks" in mine and "vis-unlisted" in mine and "Guild Merchants" in mine
    theirs = html(bob.get("/decks/"))
    assert theirs.count("Kalim Faithful") == 1  # the sample only: unlisted decks are unlisted
    assert 'action="/decks/new/"' in theirs and "Import a decklist" in theirs


def test_anonymous_visitors_are_sent_to_log_in_for_a_new_deck(client: Client) -> None:
    page = html(client.get("/decks/"))
    assert 'href="/accounts/login/?next=/decks/new/"' in page and "My decks" not in page
    response = client.post("/decks/new/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_new_deck_is_empty_private_for_four_players_and_opens_the_builder(ada: Client) -> None:
    response = ada.post("/decks/new/")
    deck = Deck.objects.get(owner__username="ada")
    assert response.status_code == 302 and response["Location"] == f"/decks/{deck.pk}/edit/"
    assert (deck.name, deck.players, deck.visibility, deck.version) == (
        "Untitled deck", 4, Deck.PRIVATE, 1)
    assert "Create an empty deck" in html(ada.get("/decks/new/"))


# --- import ---------------------------------------------------------------------------------


def test_importing_a_text_list_creates_the_deck(ada: Client) -> None:
    response = ada.post("/decks/import/", {"text": KALIM, "visibility": "unlisted"})
    deck = Deck.objects.get(owner__username="ada")
    assert response.status_code == 302 and response["Location"] == f"/decks/{deck.pk}/edit/"
    assert deck.name == "Kalim Faithful" and deck.visibility == Deck.UNLISTED
    assert deck_data(deck) == sample()


def test_importing_a_json_list_with_a_name_and_players(ada: Client) -> None:
    text = json.dumps({**deck_to_dict(sample()), "name": ""})
    ada.post("/decks/import/", {"text": text, "name": "From JSON", "players": "3",
                                "visibility": "private"})
    deck = Deck.objects.get(owner__username="ada")
    assert (deck.name, deck.players) == ("From JSON", 3)


def test_a_list_with_bad_lines_shows_every_line_and_saves_nothing(ada: Client) -> None:
    # ("Bel Towr", a slip of the pen, is read as Bell Tower: test_forgiving_import.py.)
    text = "Structure Pile\n2 Bl Twr\nPersonality Pile\nBowman x2\n3 Zzzzqqq\n"
    response = ada.post("/decks/import/", {"text": text, "visibility": "private"})
    page = html(response)
    assert response.status_code == 400 and not Deck.objects.filter(owner__username="ada")
    for number, line in ((2, "2 Bl Twr"), (5, "3 Zzzzqqq")):
        assert f"Line {number}</span> <code class=\"line-text\">{line}</code>" in page
    assert 'name="replace" value="2|Bell Tower"' in page and ">2 Bell Tower</button>" in page
    assert "There is no card named" in page or "no card" in page.lower()


def test_a_suggestion_rewrites_its_line_and_then_the_list_imports(ada: Client) -> None:
    text = "# Fixed\nStructure Pile\n2 Bel Towr\n"
    fixed = ada.post("/decks/import/", {"text": text, "visibility": "private",
                                        "replace": "3|Bell Tower"})
    page = html(fixed)
    assert fixed.status_code == 200 and "Every line reads now: 2 cards" in page
    assert "2 Bell Tower" in page and not Deck.objects.filter(owner__username="ada")
    ada.post("/decks/import/", {"text": "# Fixed\nStructure Pile\n2 Bell Tower\n",
                                "visibility": "private"})
    assert Deck.objects.get(owner__username="ada").name == "Fixed"


def test_a_file_can_be_uploaded(ada: Client) -> None:
    upload = SimpleUploadedFile("deck.txt", KALIM.encode("utf-8-sig"), "text/plain")
    response = ada.post("/decks/import/", {"file": upload, "visibility": "private"})
    assert response.status_code == 302
    assert deck_data(Deck.objects.get(owner__username="ada")) == sample()


@pytest.mark.parametrize(("content", "message"), [
    (b"1 Bell Tower\n" * 90_000, "at most 65,536 bytes"),
    ("1 Bell Tower\n".encode("utf-16"), "not UTF-8"),
])
def test_a_bad_upload_is_refused_with_a_clear_message(ada: Client, content: bytes,
                                                      message: str) -> None:
    upload = SimpleUploadedFile("deck.txt", content, "text/plain")
    response = ada.post("/decks/import/", {"file": upload, "visibility": "private"})
    assert response.status_code == 400 and message in html(response)
    assert not Deck.objects.filter(owner__username="ada")


def test_an_empty_import_asks_for_a_list(ada: Client) -> None:
    response = ada.post("/decks/import/", {"text": "  ", "visibility": "private"})
    assert response.status_code == 400 and "Paste a decklist or choose a file" in html(response)


# --- permissions ----------------------------------------------------------------------------


def test_only_the_owner_opens_the_builder(ada: Client, bob: Client) -> None:
    private = ada_deck()
    public = ada_deck(visibility=Deck.PUBLIC)
    assert ada.get(f"/decks/{private.pk}/edit/").status_code == 200
    assert bob.get(f"/decks/{private.pk}/edit/").status_code == 404
    refused = bob.get(f"/decks/{public.pk}/edit/")
    assert refused.status_code == 403 and "Clone this deck" in html(refused)
    assert edit(bob, public, "add", card="demo-bog-hag").status_code == 403
    assert edit(bob, private, "add", card="demo-bog-hag").status_code == 404
    anonymous = Client().get(f"/decks/{public.pk}/edit/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert current(public) == sample()


def test_private_decks_are_invisible_to_others_everywhere(ada: Client, bob: Client) -> None:
    deck = ada_deck()
    for url in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/history/", f"/decks/{deck.pk}/v/1/",
                f"/decks/{deck.pk}/export.txt", f"/decks/compare/?a={deck.pk}&b=1"):
        assert bob.get(url).status_code == 404, url
        assert ada.get(url).status_code == 200, url
    assert bob.post(f"/decks/{deck.pk}/clone/").status_code == 404


def test_an_unlisted_deck_is_readable_by_its_link_not_by_its_number(bob: Client,
                                                                     ada: Client) -> None:
    deck = ada_deck(visibility=Deck.UNLISTED)
    visitor = Client()
    assert visitor.get(f"/decks/{deck.pk}/").status_code == 404
    assert bob.get(f"/decks/{deck.pk}/").status_code == 404
    assert ada.get(f"/decks/{deck.pk}/").status_code == 200
    # The link opens the deck, and its pages by number for this session from then on.
    followed = visitor.get(f"/s/{deck.share_token}")
    assert followed.status_code == 302 and followed["Location"] == f"/decks/{deck.pk}/"
    for url in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/history/",
                f"/decks/{deck.pk}/print/", f"/decks/{deck.pk}/goldfish/"):
        assert visitor.get(url).status_code == 200, url
    assert bob.get(f"/decks/{deck.pk}/").status_code == 404  # bob has not followed it


# --- the builder and its edits --------------------------------------------------------------


def test_the_builder_shows_the_parts_validation_advisor_stats_and_search(ada: Client) -> None:
    deck = ada_deck()
    page = html(ada.get(f"/decks/{deck.pk}/edit/?q=t:wanderer"))
    for text in ("Initial Holdings", "Structure Pile", "Personality Pile", "Wanderer Pile",
                 "Legal for 2\u20134 players", "Initial Holdings advisor", "Cost curve",
                 'role="img"', 'id="deck-search"', "20 cards", 'id="add-demo-bog-hag"',
                 f'name="version" value="{deck.version}"', "css/builder.css"):
        assert text in page, text


def test_searching_as_you_type_returns_the_results_only(ada: Client) -> None:
    deck = ada_deck()
    response = ada.get(f"/decks/{deck.pk}/edit/", {"q": "t:structure toll", "scope": "catalogue"},
                       headers=HTMX)
    page = html(response)
    assert page.lstrip().startswith('<div id="search-results"')
    assert 'id="addh-demo-toll-shack"' in page  # structures can go to the holdings
    within = html(ada.get(f"/decks/{deck.pk}/edit/", {"q": "t:wanderer", "scope": "deck"},
                          headers=HTMX))
    assert "in this deck" in within and "Rabid Boar" not in within and "Bog Hag" in within
    bad = ada.get(f"/decks/{deck.pk}/edit/", {"q": "cost<<"}, headers=HTMX)
    assert "could not be read" in html(bad)


def test_adding_a_card_returns_the_body_and_fresh_results(ada: Client) -> None:
    deck = ada_deck()
    response = edit(ada, deck, "add", card="demo-rabid-boar", q="boar")
    page = html(response)
    assert response.status_code == 200 and current(deck).wanderers[-1].card_id == (
        "demo-rabid-boar")
    assert page.lstrip().startswith('<div id="builder-body"')
    assert 'id="row-wanderers-demo-rabid-boar"' in page
    assert 'hx-swap-oob="true"' in page and "1 in Wanderer Pile" in page
    assert 'name="version" value="2"' in page and "Added 1 Rabid Boar" in page


def test_the_builder_s_summary_bar_holds_the_verdict_the_piles_counts_and_the_message(
        ada: Client) -> None:
    deck = ada_deck()
    page = html(edit(ada, deck, "add", card="demo-rabid-boar", q="boar"))
    summary = page[page.index('id="builder-summary"'):page.index('class="builder-main"')]
    assert "Legal" in summary and "Not legal" not in summary
    counts = re.findall(r'href="#part-(\w+)".*?<b>([\d/]+)</b>', summary)
    data = current(deck)
    assert counts == [("holdings", str(data.total("holdings"))),
                      ("structures", f"{data.total('structures')}/15"),
                      ("personalities", f"{data.total('personalities')}/15"),
                      ("wanderers", f"{data.total('wanderers')}/12")]
    # The edit's message is inside the bar (on a phone it sits there, covering nothing).
    assert 'id="builder-message"' in summary and "Added 1 Rabid Boar" in summary


def test_adding_a_structure_to_the_holdings(ada: Client) -> None:
    deck = ada_deck()
    edit(ada, deck, "add", card="demo-toll-shack", section="holdings")
    assert ("demo-toll-shack", 1) in [(e.card_id, e.count) for e in current(deck).holdings]


def test_plus_and_minus(ada: Client) -> None:
    deck = ada_deck()
    edit(ada, deck, "count", card="demo-tithe-reeve", section="personalities", delta=1)
    deck.refresh_from_db()
    assert dict((e.card_id, e.count) for e in current(deck).personalities)[
        "demo-tithe-reeve"] == 2
    edit(ada, deck, "count", card="demo-tithe-reeve", section="personalities", delta=-1)
    deck.refresh_from_db()
    edit(ada, deck, "count", card="demo-tithe-reeve", section="personalities", delta=-1)
    assert "demo-tithe-reeve" not in [e.card_id for e in current(deck).personalities]


def test_moving_a_structure_into_the_holdings_and_back(ada: Client) -> None:
    deck = ada_deck()
    response = edit(ada, deck, "move", card="demo-cobblers-lane", section="structures",
                    to="holdings", count=1)
    assert ("Moved 1 Cobbler&#x27;s Lane from the Structure Pile to the Initial Holdings"
            in html(response))
    held = {e.card_id: e.count for e in current(deck).holdings}
    assert held["demo-cobblers-lane"] == 1


def test_removing_a_card_moves_keyboard_focus_to_its_part(ada: Client) -> None:
    deck = ada_deck()
    trigger = "remove-row-wanderers-demo-sewer-rat-swarm"
    response = ada.post(f"/decks/{deck.pk}/edit/remove/", {
        "version": 1, "card": "demo-sewer-rat-swarm", "section": "wanderers",
    }, headers={**HTMX, "HX-Trigger": trigger})
    assert "demo-sewer-rat-swarm" not in [e.card_id for e in current(deck).wanderers]
    # htmx refocuses the element with the pressed button's id: now the part's heading.
    assert f'<span id="{trigger}" tabindex="-1">Wanderer Pile</span>' in html(response)


def test_using_the_advised_holdings(ada: Client) -> None:
    deck = ada_deck(apply_fixes(sample(), [Fix("move", "demo-emberhold-keep", 1, "holdings",
                                               "structures")]))
    assert 'id="use-advice"' in html(ada.get(f"/decks/{deck.pk}/edit/"))
    page = html(edit(ada, deck, "holdings"))
    assert "already the advised ones" in page
    assert "no_stronghold" not in {p.code for p in deck_validate(current(deck)).problems}


def test_editing_the_settings_inline(ada: Client) -> None:
    deck = ada_deck()
    response = edit(ada, deck, "settings", name="Renamed", players="3", visibility="public",
                    description="New words")
    deck.refresh_from_db()
    assert response.status_code == 200 and "<h1>Renamed</h1>" in html(response)
    assert (deck.name, deck.players, deck.visibility, deck.description) == (
        "Renamed", 3, "public", "New words")
    bad = edit(ada, deck, "settings", name="", players="3", visibility="public")
    assert bad.status_code == 400 and "This field is required" in html(bad)
    deck.refresh_from_db()
    assert deck.name == "Renamed"


def test_a_stale_version_is_409_and_keeps_the_other_edit(ada: Client) -> None:
    deck = ada_deck()
    first = edit(ada, deck, "add", card="demo-rabid-boar", version=1)
    assert first.status_code == 200
    stale = edit(ada, deck, "add", card="demo-dire-wolf-pack", version=1)
    page = html(stale)
    assert stale.status_code == 409
    assert "This deck was changed in another tab or by another device" in page
    assert 'id="row-wanderers-demo-rabid-boar"' in page  # the current state is shown
    assert 'name="version" value="2"' in page
    wanderers = [e.card_id for e in current(deck).wanderers]
    assert "demo-rabid-boar" in wanderers and "demo-dire-wolf-pack" not in wanderers


def test_an_edit_without_a_version_is_refused(ada: Client) -> None:
    deck = ada_deck()
    response = ada.post(f"/decks/{deck.pk}/edit/add/", {"card": "demo-bog-hag"}, headers=HTMX)
    assert response.status_code == 428 and Deck.objects.get(pk=deck.pk).version == 1


def test_a_malformed_edit_is_400_with_the_builder(ada: Client) -> None:
    deck = ada_deck()
    response = edit(ada, deck, "add", card="nope")
    assert response.status_code == 400 and "There is no card with the id" in html(response)
    assert ada.post(f"/decks/{deck.pk}/edit/explode/", {"version": 1}).status_code == 404


def test_without_htmx_an_edit_redirects_back_to_the_builder(ada: Client) -> None:
    deck = ada_deck()
    response = edit(ada, deck, "add", card="demo-bog-hag", htmx=False, q="hag")
    assert response.status_code == 302
    assert response["Location"] == f"/decks/{deck.pk}/edit/?q=hag&scope=catalogue"
    page = html(ada.get(response["Location"]))
    assert "Added 1 Bog Hag to the Wanderer Pile" in page  # the message follows the redirect
    stale = edit(ada, deck, "add", card="demo-bog-hag", htmx=False, version=1)
    assert stale.status_code == 409 and "<!doctype html>" in html(stale)


# --- each docs/design.md §6 problem the Demo cards can provoke, and its fix button ----------------

Edit = Callable[[Decklist], Decklist]


def fixes(*plan: Fix) -> Edit:
    return lambda deck: apply_fixes(deck, plan)


def add(card: str, section: Any, count: int = 1) -> Fix:
    return Fix("add", card, count, section)


def remove(card: str, section: Any, count: int) -> Fix:
    return Fix("remove", card, count, section)


def only_items(deck: Decklist) -> Decklist:
    items = ("demo-siege-maul", "demo-wicker-buckler", "demo-ember-kite-shield",
             "demo-boiled-leather-jerkin", "demo-tallow-iron-hauberk",
             "demo-knotted-climbing-rope", "demo-ashwood-longbow", "demo-emberforged-mace")
    cleared = apply_fixes(deck, [remove(e.card_id, "personalities", e.count)
                                 for e in deck.personalities])
    return apply_fixes(cleared, [add(card, "personalities", 2) for card in items])


PROVOKED: dict[str, tuple[str, Edit]] = {
    "structure_pile_too_small": ("Kalim Faithful",
                                 fixes(remove("demo-riverside-tenement", "structures", 2),
                                       remove("demo-wayside-shrine", "structures", 2))),
    "personality_pile_too_small": ("Kalim Faithful", fixes(
        *(remove(c, "personalities", 2) for c in (
            "demo-acolyte-of-the-ember-rite", "demo-lamplighter-deacon",
            "demo-chantry-almoner", "demo-pilgrim-archer")))),
    "wanderer_pile_too_small": ("Kalim Faithful",
                                fixes(remove("demo-sewer-rat-swarm", "wanderers", 1))),
    "too_many_copies": ("Kalim Faithful", fixes(add("demo-lantern-row-houses", "structures"))),
    "no_stronghold": ("Kalim Faithful", fixes(remove("demo-emberhold-keep", "holdings", 1))),
    "too_many_strongholds": ("Kalim Faithful", fixes(add("demo-hillside-redoubt", "holdings"))),
    "too_many_zero_cost_structures": ("Kalim Faithful",
                                      fixes(add("demo-empty-market-stall", "holdings"))),
    "unique_structure_in_holdings": ("Kalim Faithful",
                                     fixes(add("demo-bell-of-judgement", "holdings"))),
    "holdings_over_budget": ("Kalim Faithful", fixes(add("demo-walled-manor", "holdings"),
                                                     add("demo-noble-townhouses", "holdings"))),
    "too_many_walls": ("Kalim Faithful", fixes(add("demo-timber-palisade", "holdings"),
                                               add("demo-fieldstone-wall", "holdings"))),
    "wrong_pile": ("Kalim Faithful", fixes(add("demo-rabid-boar", "personalities"))),
    "stronghold_in_pile": ("Kalim Faithful", fixes(add("demo-villa-delmont", "structures"))),
    "invocation_unusable": ("Guild Veterans",
                            fixes(add("demo-holy-immolation", "personalities"))),
    "battle_event_unusable": ("Kalim Faithful",
                              fixes(add("demo-rally-the-veterans", "personalities"))),
    "items_without_bearers": ("Kalim Faithful", only_items),
}


@pytest.mark.parametrize("code", PROVOKED)
def test_the_builder_shows_each_problem_and_its_fix_button_clears_it(ada: Client,
                                                                      code: str) -> None:
    name, provoke = PROVOKED[code]
    deck = ada_deck(provoke(sample(name)))
    page = html(ada.get(f"/decks/{deck.pk}/edit/"))
    assert f"<code>{code}</code>" in page
    keys = re.findall(r'name="problem" value="(' + code + r'\|[^"]*)"', page)
    assert keys, f"no fix button for {code}"
    problem = next(p for p in deck_validate(current(deck)).problems if p.code == code)
    for card in problem.cards:  # the cards at fault are highlighted and linked to the problem
        assert re.search(rf'<tr id="row-[a-z]+-{card}" class="fault fault-', page), card
    response = edit(ada, deck, "fix", problem=keys[0])
    assert response.status_code == 200 and "Fixed: " in html(response)
    left = {"|".join(p.key) for p in deck_validate(current(deck)).problems}
    assert keys[0] not in left


# --- public page, clone, export, history, versions, compare ---------------------------------


def test_the_public_page_shows_parts_validation_stats_and_the_right_actions(
        ada: Client, bob: Client) -> None:
    deck = ada_deck(visibility=Deck.PUBLIC)
    url = f"/decks/{deck.pk}/"
    owner = html(ada.get(url))
    for text in ("Wanderer Pile", "Legal for 2\u20134 players", "Faction influence",
                 f'href="/decks/{deck.pk}/edit/"', f'href="/decks/{deck.pk}/history/"',
                 f'href="/decks/{deck.pk}/export.txt"'):
        assert text in owner, text
    other = html(bob.get(url))
    assert f'href="/decks/{deck.pk}/edit/"' not in other and ">Clone</button>" in other
    assert "Log in to clone" in html(Client().get(url))


def test_cloning_makes_a_private_copy_and_opens_its_builder(ada: Client, bob: Client) -> None:
    deck = ada_deck(visibility=Deck.PUBLIC)
    response = bob.post(f"/decks/{deck.pk}/clone/")
    copy = Deck.objects.get(owner__username="bob")
    assert response["Location"] == f"/decks/{copy.pk}/edit/"
    assert copy.visibility == Deck.PRIVATE and deck_data(copy) == deck_data(deck)
    anonymous = Client().post(f"/decks/{deck.pk}/clone/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_the_text_export_round_trips(client: Client) -> None:
    deck = Deck.objects.get(owner__username="samples", name="Guild Merchants")
    response = client.get(f"/decks/{deck.pk}/export.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="guild-merchants.txt"'
    parsed = parse_text(html(response), catalogue_resolver())
    assert parsed.deck == deck_data(deck)


def test_history_lists_every_version_newest_first_with_its_diff(ada: Client) -> None:
    deck = ada_deck()
    edit(ada, deck, "add", card="demo-rabid-boar")
    deck.refresh_from_db()
    edit(ada, deck, "settings", name="Renamed", players="4", visibility="private",
         description=deck.description)
    page = html(ada.get(f"/decks/{deck.pk}/history/"))
    # The two edits of one sitting are one version (numbered as the deck's third write).
    assert page.index("Version 3") < page.index("Version 1") and "Version 2" not in page
    assert "2 changes" in page and "being edited" in page
    assert "Rabid Boar" in page and "<del>Kalim Faithful</del>" in page
    assert f'href="/decks/{deck.pk}/v/1/"' in page
    assert f'href="/decks/compare/?a={deck.pk}:1&amp;b={deck.pk}"' in page
    assert "by ada" in page


def test_a_past_version_is_read_only_and_the_owner_can_restore_it(ada: Client,
                                                                  bob: Client) -> None:
    deck = ada_deck(visibility=Deck.PUBLIC)
    edit(ada, deck, "remove", card="demo-sewer-rat-swarm", section="wanderers")
    old = html(ada.get(f"/decks/{deck.pk}/v/1/"))
    assert "Sewer Rat Swarm" in old and "Restore this version" in old
    assert "name=\"delta\"" not in old
    assert "Restore this version" not in html(bob.get(f"/decks/{deck.pk}/v/1/"))
    assert bob.post(f"/decks/{deck.pk}/v/1/restore/", {"version": 2}).status_code == 403
    stale = ada.post(f"/decks/{deck.pk}/v/1/restore/", {"version": 1})
    assert stale.status_code == 409 and Deck.objects.get(pk=deck.pk).version == 2
    response = ada.post(f"/decks/{deck.pk}/v/1/restore/", {"version": 2})
    assert response["Location"] == f"/decks/{deck.pk}/edit/"
    assert Deck.objects.get(pk=deck.pk).version == 3 and current(deck) == sample()
    assert ada.get(f"/decks/{deck.pk}/v/9/").status_code == 404


def test_compare_shows_two_decks_or_versions_side_by_side(ada: Client) -> None:
    deck = ada_deck()
    edit(ada, deck, "add", card="demo-rabid-boar")
    other = Deck.objects.get(owner__username="samples", name="Guild Veterans")
    page = html(ada.get(f"/decks/compare/?a={deck.pk}:1&b={deck.pk}"))
    assert "Kalim Faithful (v1)" in page and "Kalim Faithful (v2, current)" in page
    assert re.search(r'<tr class="cmp-only-b"><th scope="row"><a [^>]+>Rabid Boar', page)
    assert page.count("✓ Legal") == 2
    versus = html(ada.get(f"/decks/compare/?a={deck.pk}&b={other.pk}"))
    assert "cmp-only-a" in versus and "cmp-only-b" in versus and "Guild Veterans" in versus
    assert ada.get("/decks/compare/?a=x&b=1").status_code == 400
    assert ada.get(f"/decks/compare/?a={deck.pk}:7&b={deck.pk}").status_code == 404
    assert 'name="a"' in html(ada.get("/decks/compare/"))


def test_the_deck_page_s_action_row_and_the_builder_link_to_matchups(ada: Client) -> None:
    deck = ada_deck()
    page = html(ada.get(f"/decks/{deck.pk}/"))
    actions = page[page.index('class="deck-actions"'):page.index("</div>", page.index(
        'class="deck-actions"'))]
    assert f'href="/decks/{deck.pk}/matchups/">Matchups</a>' in actions
    assert f'href="/decks/{deck.pk}/matchups/">Matchups</a>' in html(
        ada.get(f"/decks/{deck.pk}/edit/"))


def test_no_page_speaks_of_developer_commands() -> None:
    from django.conf import settings

    found = [str(path.relative_to(settings.BASE_DIR)) for path in
             (settings.BASE_DIR / "templates").rglob("*.html")
             if "make run" in path.read_text(encoding="utf-8")]
    assert found == []
