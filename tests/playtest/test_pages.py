"""The playtest pages: start, the table, numbered moves, the no-JS and htmx flows, privacy,
and the shared replay viewer."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.models import Deck
from playtest.models import PlaytestGame
from playtest.services import playtest_auto, playtest_share
from tests.conftest import FIXTURES, ILLEGAL_HOLDINGS, with_holdings

pytestmark = pytest.mark.django_db
TEXT = (FIXTURES / "decklists" / "kalim-crusaders.txt").read_text(encoding="utf-8")
HTMX = {"HX-Request": "true"}


def html(response: Any) -> str:
    return str(response.content.decode())


def sample_deck() -> Deck:
    return Deck.objects.get(name="Kalim Faithful")


def started(client: Client, **data: Any) -> tuple[PlaytestGame, str]:
    response = client.post("/playtest/new/", {"deck": sample_deck().pk, "seed": 7, **data})
    assert response.status_code == 302, html(response)
    game = PlaytestGame.objects.latest("id")
    assert response["Location"] == f"/playtest/{game.pk}/"
    return game, response["Location"]


def numbers(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-number="(\d+)"', page)]


def test_the_deck_page_and_the_builder_offer_a_playtest(ada: Client) -> None:
    deck = sample_deck()
    page = html(ada.get(f"/decks/{deck.pk}/"))
    assert 'action="/playtest/new/"' in page and f'name="deck" value="{deck.pk}"' in page
    mine = Deck.objects.create(owner=User.objects.get(username="ada"), name="Mine")
    assert f"/playtest/new/?deck={mine.pk}" in html(ada.get(f"/decks/{mine.pk}/edit/"))


def test_play_a_deck_lists_my_own_unlisted_and_private_decks_but_not_another_s_unlisted(
        ada: Client) -> None:
    owner = User.objects.get(username="ada")
    bob = User.objects.create_user("bob-unlisted")
    mine = [Deck.objects.create(owner=owner, name=f"Mine {v}", visibility=v)
            for v in (Deck.UNLISTED, Deck.PRIVATE)]
    theirs = Deck.objects.create(owner=bob, name="Bob's link-only", visibility=Deck.UNLISTED)
    page = html(ada.get("/playtest/new/"))
    choices = page[page.index('class="pt-choices"'):page.index("…or paste a list")]
    for deck in mine:
        assert f'href="?deck={deck.pk}">{deck.name}</a> <span class="tag">yours</span>' in choices
    assert f"?deck={theirs.pk}" not in choices and "Kalim Faithful" in choices
    assert choices.index("Mine ") < choices.index("Kalim Faithful")  # mine first


@pytest.mark.parametrize(
    ("query", "shows"),
    [("", 'name="text"'), ("?deck={deck}", "Playtest Kalim Faithful")],
    ids=["paste", "saved-deck"],
)
def test_the_start_page(client: Client, query: str, shows: str) -> None:
    response = client.get("/playtest/new/" + query.format(deck=sample_deck().pk))
    assert response.status_code == 200 and shows in html(response)


def test_a_pasted_list_starts_a_game_with_the_chosen_target(client: Client) -> None:
    response = client.post("/playtest/new/", {"text": TEXT, "seed": 3, "target": 15})
    game = PlaytestGame.objects.get()
    assert response.status_code == 302 and game.config["target"] == 15 and game.seed == 3


@pytest.mark.parametrize(
    ("data", "message"),
    [({"text": ""}, "Paste a decklist"),
     ({"text": "2 Nothing Of The Sort"}, "Nothing Of The Sort"),
     ({"text": "Initial Holdings\n1 Bowman (kalim)"}, "cannot play this deck"),
     ({"text": TEXT, "seed": -1}, "greater than or equal to 0"),
     ({"text": with_holdings(ILLEGAL_HOLDINGS["unique_structure_in_holdings"])},
      "only the stronghold may be a unique structure in the Initial Holdings")],
    ids=["empty", "unknown-card", "not-playable", "bad-seed", "illegal-holdings"],
)
def test_a_bad_start_says_why(client: Client, data: dict[str, Any], message: str) -> None:
    response = client.post("/playtest/new/", data)
    assert response.status_code == 400 and message in html(response)
    assert not PlaytestGame.objects.exists()


def test_a_private_deck_of_someone_else_is_not_found(client: Client, bob: Client) -> None:
    deck = Deck.objects.create(owner=User.objects.create_user("carol"), name="Hidden")
    assert bob.get(f"/playtest/new/?deck={deck.pk}").status_code == 404
    assert bob.post("/playtest/new/", {"deck": deck.pk}).status_code == 404


def test_the_page_shows_the_table_by_the_game_layout_and_numbered_moves(client: Client) -> None:
    game, url = started(client)
    playtest_auto(game=game, until="phase")  # the draws: now in the action phase
    response = client.get(url)
    assert response.status_code == 200
    page = html(response)
    for zone in ("Wanderer row", "Defensive holdings", "Private holdings", "Hand",
                 "Structure Pile", "Personality Pile", "Wanderer Pile", "Personal pool",
                 "City's pool", "Round 1", "Action and Development Phase"):
        assert zone in page, zone
    assert numbers(page) == list(range(1, len(numbers(page)) + 1)) and len(numbers(page)) > 3
    assert "★ policy" in page and 'name="decision" value="7"' in page
    assert 'role="log"' in page and 'aria-live="polite"' in page
    assert "Emberhold Keep" in page and "/image/small.webp" in page


def test_a_move_without_javascript_posts_and_comes_back(client: Client) -> None:
    _, url = started(client)
    response = client.post(url + "act/", {"index": 1, "decision": 0})
    assert response.status_code == 302 and response["Location"] == url
    page = html(client.get(url))
    assert "You: Draw from the Personality Pile." in page
    assert PlaytestGame.objects.get().decisions == 1


def test_a_stale_move_is_409_with_the_game_as_it_is(client: Client) -> None:
    _, url = started(client)
    client.post(url + "act/", {"index": 0, "decision": 0})
    response = client.post(url + "act/", {"index": 0, "decision": 0})
    assert response.status_code == 409
    assert "Not applied" in html(response) and "at decision 1" in html(response)
    assert PlaytestGame.objects.get().decisions == 1


@pytest.mark.parametrize(
    ("path", "data", "status"),
    [("act/", {"index": 50, "decision": 0}, 400), ("act/", {"decision": 0}, 400),
     ("undo/", {"decision": 9}, 400), ("auto/", {"until": "forever"}, 400)],
    ids=["no-such-move", "no-index", "undo-too-far", "bad-until"],
)
def test_bad_posts_are_refused_and_change_nothing(client: Client, path: str,
                                                  data: dict[str, Any], status: int) -> None:
    _, url = started(client)
    response = client.post(url + path, data)
    assert response.status_code == status and 'role="alert"' in html(response)
    assert PlaytestGame.objects.get().decisions == 0


def test_htmx_swaps_the_body_and_announces_the_move(client: Client) -> None:
    _, url = started(client)
    response = client.post(url + "act/", {"index": 0, "decision": 0}, headers=HTMX)
    page = html(response)
    assert response.status_code == 200 and page.lstrip().startswith("<div id=\"pt-body\"")
    assert 'hx-swap-oob="innerHTML"' in page and "You: Draw from the Structure Pile." in page
    assert "<html" not in page
    stale = client.post(url + "act/", {"index": 0, "decision": 0}, headers=HTMX)
    assert stale.status_code == 409 and 'id="pt-body"' in html(stale)


def test_the_policy_undo_and_hints_from_the_page(client: Client) -> None:
    _, url = started(client)
    assert client.post(url + "auto/", {"until": "phase", "decision": 0}).status_code == 302
    assert PlaytestGame.objects.get().decisions == 7
    assert client.post(url + "undo/", {"decision": 2}).status_code == 302
    assert PlaytestGame.objects.get().decisions == 2
    page = html(client.get(url + "?hints=1"))
    assert "Chances of victory" in page and 'class="pt-chance' in page


def test_focusing_a_card_without_javascript(client: Client) -> None:
    game, url = started(client)
    playtest_auto(game=game, until="phase")
    state = PlaytestGame.objects.get().state
    card = state["seats"][0]["zones"]["hand"][0]
    page = html(client.get(f"{url}?focus={card}"))
    assert "has-focus" in page and "Show all moves" in page


def test_games_are_private(client: Client, bob: Client) -> None:
    game, url = started(client)
    for path in ("", "act/", "undo/", "auto/", "share/"):
        method = bob.get if path == "" else bob.post
        assert method(url + path).status_code == 404, path
    assert Client().get(url).status_code == 404
    assert client.get(url).status_code == 200
    assert game.pk in [g.pk for g in PlaytestGame.objects.all()]


def test_my_games_are_listed(client: Client) -> None:
    started(client)
    page = html(client.get("/playtest/"))
    assert "Kalim Faithful" in page and "in progress" in page


def test_a_shared_game_is_replayed_decision_by_decision(client: Client) -> None:
    game, url = started(client)
    game, _ = playtest_auto(game=game, until="game")
    assert client.post(url + "share/", {"shared": "1"}).status_code == 302
    game = PlaytestGame.objects.get()
    assert game.share_token and f"/playtest/shared/{game.share_token}/" in html(client.get(url))
    shared = f"/playtest/shared/{game.share_token}/"
    viewer = Client()
    start = html(viewer.get(shared))
    assert "Decision <strong>0</strong>" in start and "Next move:" in start
    assert "<form" not in start.split('id="pt-moves"')[1].split("</section>")[0]
    middle = html(viewer.get(shared + "?decision=10"))
    assert "Decision <strong>10</strong>" in middle and "is-chosen" in middle
    end = html(viewer.get(shared + f"?decision={game.decisions + 50}"))
    assert f"Decision <strong>{game.decisions}</strong>" in end
    playtest_share(game=game, shared=False)
    assert viewer.get(shared).status_code == 404


def test_the_log_links_the_cards_it_names_to_show_their_images(client: Client) -> None:
    _, url = started(client)
    page = html(client.get(url))
    assert '<ol id="pt-log" class="pt-log" data-card-previews' in page
    assert ('Initial Holdings: <a href="/cards/demo-emberhold-keep/" class="card-ref">'
            "Emberhold Keep</a>") in page


def test_a_game_that_no_longer_replays_says_why_on_its_pages_and_in_the_api(
        client: Client) -> None:
    # A game stored by another version of the rules engine: its actions no longer replay
    # (here an action no engine would take at decision 1).
    game, url = started(client)
    game, _ = playtest_auto(game=game, until="action")
    PlaytestGame.objects.filter(pk=game.pk).update(
        actions=[{"kind": "play", "card": 999, "target": -1, "option": ""}],
        config={**game.config, "rules_version": "allegiance-v0.80/engine-1"}, share_token="t0k")
    page = client.get(url)
    assert page.status_code == 409
    assert "played with the rules engine allegiance-v0.80/engine-1" in html(page)
    assert "New game of this deck" in html(page)
    shared = Client().get("/playtest/shared/t0k/?decision=1")
    assert shared.status_code == 409 and "can no longer be replayed" in html(shared)
    api = client.get(f"/api/playtest/{game.pk}/")
    assert api.status_code == 409 and api.json()["code"] == "not_replayable"
    move = client.post(url + "act/", {"decision": 1, "index": 0})
    assert move.status_code == 409 and "can no longer be replayed" in html(move)
