"""The playtest pages against AI opponents: the start form's opponents, each opponent's side,
the log naming the seats, moves and undo without JavaScript and with htmx, the shared replay."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from decks.models import Deck
from playtest.models import PlaytestGame
from playtest.services import playtest_auto, playtest_share, table_game
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
BLADES = (FIXTURES / "decklists" / "mosfin-blades.txt").read_text(encoding="utf-8")
HTMX = {"HX-Request": "true"}


def html(response: Any) -> str:
    return str(response.content.decode())


def deck(name: str) -> Deck:
    return Deck.objects.get(name=name)


def started(client: Client, **data: Any) -> PlaytestGame:
    response = client.post("/playtest/new/", {"deck": deck("Kalim Faithful").pk, "seed": 5,
                                              "target": 15, **data})
    assert response.status_code == 302, html(response)
    game = PlaytestGame.objects.latest("id")
    assert response["Location"] == f"/playtest/{game.pk}/"
    return game


def test_the_start_form_offers_every_readable_deck_for_each_seat(client: Client) -> None:
    page = html(client.get(f"/playtest/new/?deck={deck('Kalim Faithful').pk}"))
    assert page.count('<select name="opponent">') == 5
    assert '<optgroup label="Sample decks">' in page and "Mosfin Blades" in page
    assert 'name="opponent_text"' in page


@pytest.mark.parametrize(
    ("data", "names"),
    [({"opponent": ["{blades}", "", "{merchants}"]}, ["Mosfin Blades", "Guild Merchants"]),
     ({"opponent_text": BLADES}, ["Mosfin Blades"]),
     ({"opponent": ["{merchants}"], "opponent_text": BLADES},
      ["Guild Merchants", "Mosfin Blades"])],
    ids=["two-saved", "pasted", "saved-then-pasted"],
)
def test_starting_against_opponents(client: Client, data: dict[str, Any],
                                    names: list[str]) -> None:
    ids = {"blades": deck("Mosfin Blades").pk, "merchants": deck("Guild Merchants").pk}
    if "opponent" in data:
        data = {**data, "opponent": [v.format(**ids) for v in data["opponent"]]}
    game = started(client, **data)
    assert [o["name"] for o in game.opponents] == names
    page = html(client.get(f"/playtest/{game.pk}/"))
    assert f"against {len(names)} AI opponent" in page
    for seat, name in enumerate(names, start=2):
        assert f'<span class="pt-seat-number">Seat {seat}</span> {name}' in page
    assert "Victory chances" not in page  # solo games only
    # The rematch button carries the opponents.
    rematch = page.split('<form method="post" action="/playtest/new/">', 1)[1].split("</form>")[0]
    assert rematch.count('type="hidden" name="opponent') == len(names)


@pytest.mark.parametrize(
    ("data", "problem"),
    [({"opponent": ["x"]}, "Choose the opponents among the decks offered."),
     ({"opponent": ["999999"]}, "not one you can read"),
     ({"opponent_text": "3 Nothing Like This"}, "Opponent 1:"),
     ({"opponent": ["1"] * 6}, "5 opponents at most")],
    ids=["not-a-number", "no-such-deck", "unreadable-text", "six"],
)
def test_bad_opponents_are_refused_with_the_form_again(client: Client, data: dict[str, Any],
                                                       problem: str) -> None:
    response = client.post("/playtest/new/", {"deck": deck("Kalim Faithful").pk, **data})
    assert response.status_code == 400 and problem in html(response)
    assert not PlaytestGame.objects.exists()


def test_a_move_without_javascript_and_with_htmx_lets_the_opponents_reply(
        client: Client) -> None:
    game = started(client, opponent=[deck("Mosfin Blades").pk])
    playtest_auto(game=game, until="phase")
    game.refresh_from_db()
    response = client.post(f"/playtest/{game.pk}/act/", {"index": 0,
                                                         "decision": game.decisions})
    assert response.status_code == 302
    game.refresh_from_db()
    response = client.post(f"/playtest/{game.pk}/act/",
                           {"index": 0, "decision": game.decisions}, headers=HTMX)
    page = html(response)
    assert response.status_code == 200 and 'id="pt-body"' in page
    assert f'data-decision="{game.decisions + 1}"' in page
    assert "Seat 2 (Mosfin Blades): " in page and "You: " in page
    announced = page.split('id="pt-announce"', 1)[1]
    title = announced.split("<strong>", 1)[1].split("</strong>", 1)[0]
    assert title.startswith("You: ")  # said once: the move's own line is not repeated
    assert announced.count(title.removeprefix("You: ").removesuffix(".")) == 1
    response = client.post(f"/playtest/{game.pk}/undo/", {"decision": game.decisions},
                           headers=HTMX)
    assert f'data-decision="{game.decisions}"' in html(response)


def test_the_shared_replay_of_a_table_steps_through_the_players_decisions(
        client: Client) -> None:
    game = started(client, opponent=[deck("Mosfin Blades").pk])
    playtest_auto(game=game, until="phase")
    token = playtest_share(game=PlaytestGame.objects.get(pk=game.pk), shared=True).share_token
    page = html(Client().get(f"/playtest/shared/{token}/?decision=1"))
    assert "Decision <strong>1</strong>" in page and "Seat 2" in page
    assert "is-chosen" in page  # the move played next, among the legal ones


def test_the_list_marks_games_against_opponents(client: Client) -> None:
    started(client, opponent=[deck("Mosfin Blades").pk, deck("Guild Merchants").pk])
    page = html(client.get("/playtest/"))
    assert '<span class="tag">vs 2 AI</span>' in page


def test_a_game_links_to_the_start_form_with_its_deck_and_opponents(client: Client) -> None:
    faithful, blades = deck("Kalim Faithful"), deck("Mosfin Blades")
    game = started(client, opponent=[blades.pk])
    page = html(client.get(f"/playtest/{game.pk}/"))
    change = page.split('<form method="get" action="/playtest/new/">', 1)[1].split("</form>")[0]
    assert f'name="deck" value="{faithful.pk}"' in change
    assert f'name="opponent" value="{blades.pk}"' in change and "Change the opponents" in change
    form = html(client.get(f"/playtest/new/?deck={faithful.pk}&opponent={blades.pk}"))
    assert f'<option value="{blades.pk}" selected>Mosfin Blades</option>' in form


def test_the_status_says_the_tables_phase_not_the_seats_waiting_step(client: Client) -> None:
    game = started(client, opponent=[deck("Mosfin Blades").pk])
    for _ in range(40):  # to the player's first choice of the Military Phase
        page = html(client.get(f"/playtest/{game.pk}/"))
        if "Military Phase" in page:
            break
        game, _ = playtest_auto(game=PlaytestGame.objects.get(pk=game.pk), until="action")
    assert '<span class="pt-phase">Military Phase</span>' in page
    assert "attack another player, or pass" in page and '"pt-step">wait<' not in page


def test_a_reaction_window_says_what_the_other_seat_is_about_to_do(client: Client) -> None:
    """"A player may ... use an ability marked as a reaction to interrupt another player's
    action": when the table asks the player, the page says which action the answers stop."""
    response = client.post("/playtest/new/", {
        "deck": deck("Mosfin Senate").pk, "seed": 1, "target": 25,  # Debate and Persuade
        "opponent": [deck("Mosfin Blades").pk, deck("Guild Merchants").pk]})
    assert response.status_code == 302, html(response)
    game = PlaytestGame.objects.latest("id")
    for _ in range(400):
        played = table_game(game)
        window = played.table.window
        if window is not None and window.seat != 0 and played.legal():
            break
        game, _move = playtest_auto(game=game, until="action")
    else:
        pytest.fail("no reaction window asked the player")
    page = html(client.get(f"/playtest/{game.pk}/"))
    held = page.split('id="pt-held">', 1)[1].split("</p>", 1)[0]
    assert held.startswith(f"Seat {window.seat + 1} (") and " is about to: " in held
    assert "Let it be (no answer)" in page and "Answer with " in page


def test_a_player_surrenders_from_the_page_and_undo_takes_it_back(client: Client) -> None:
    # "A player may surrender at any time": a button under the tools, behind a fold.
    game = started(client, opponent=[deck("Mosfin Blades").pk])
    page = html(client.get(f"/playtest/{game.pk}/"))
    assert "Surrender this game" in page
    response = client.post(f"/playtest/{game.pk}/surrender/", {"decision": game.decisions},
                           headers=HTMX)
    page = html(response)
    assert response.status_code == 200
    assert "Defeat: you surrendered; Seat 2 (Mosfin Blades) wins in round 1." in page
    assert "Surrender this game" not in page
    game = PlaytestGame.objects.get(pk=game.pk)
    assert game.actions[-1]["kind"] == "surrender"
    response = client.post(f"/playtest/{game.pk}/undo/", {"decision": game.decisions - 1},
                           headers=HTMX)
    assert "Surrender this game" in html(response)


def test_a_solo_game_has_no_surrender(client: Client) -> None:
    game = started(client)
    assert "Surrender this game" not in html(client.get(f"/playtest/{game.pk}/"))
    response = client.post(f"/playtest/{game.pk}/surrender/", {"decision": 0}, headers=HTMX)
    assert "Surrender is for a game at a table" in html(response)
