"""The playtest pages against AI opponents: the start form's opponents, each opponent's side,
the log naming the seats, moves and undo without JavaScript and with htmx, the shared replay."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from decks.models import Deck
from playtest.models import PlaytestGame
from playtest.services import (
    playtest_apply,
    playtest_auto,
    playtest_share,
    table_done,
    table_game,
)
from playtest.table import COMBAT_STEPS
from playtest.table_play import PLAYER, seat_name
from rules.game import seats
from rules.game.actions import Action
from rules.game.seats import Table
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


# --- another seat's attack on the player, and the opponents' panels ------------------------


def veterans_at_a_table(client: Client, seed: int) -> PlaytestGame:
    """Guild Veterans against Mosfin Blades (seat 2) and Kalim Crusaders (seat 3), as the
    tester played them."""
    return started(client, deck=deck("Guild Veterans").pk, seed=seed, target=25,
                   opponent=[deck("Mosfin Blades").pk, deck("Kalim Crusaders").pk])


def played_until(game: PlaytestGame, there: Callable[[Table], bool],
                 choose: Callable[[list[Action]], int | None] = lambda legal: None,
                 limit: int = 300) -> tuple[PlaytestGame, Table]:
    """The game stored move by move (``choose``'s index, else the policy's) until ``there``
    holds at one of the player's decisions; with its table at that point."""
    for _ in range(limit):
        played = table_game(game)
        table, legal = played.table, played.legal()
        table_done(game, played)
        if seats.to_move(table) == PLAYER and there(table):
            return game, table
        assert legal, "the game ended first"
        index = choose(legal)
        if index is None:
            game, _ = playtest_auto(game=game, until="action")
        else:
            game, _ = playtest_apply(game=game, decision=game.decisions, index=index)
    raise AssertionError("the game never got there")


def attacked(table: Table) -> bool:
    hosting = table.hosting
    return hosting is not None and hosting.kind == "attack" and hosting.host == PLAYER \
        and table.state.combat is not None


def test_another_seats_attack_on_the_player_names_him_not_the_wanderers(
        client: Client) -> None:
    # "Seat 3 (Kalim Crusaders): attacks you with Ember Templar, Ashgate Spearman" was shown
    # as "The wanderers attack", his troops under "Wanderers", and on a phone the cut-off
    # announcement was the only place naming him.
    game, table = played_until(veterans_at_a_table(client, 7), attacked)
    hosting = table.hosting
    assert hosting is not None and table.state.combat is not None
    names = game.seat_names()
    him = seat_name(hosting.origin, names)
    page = html(client.get(f"/playtest/{game.pk}/"))
    step = COMBAT_STEPS[table.state.combat.step]
    assert f'<span class="pt-step">{him} attacks you: {step}</span>' in page
    assert f'<h3 id="pt-combat-title">{him} attacks you <span' in page
    assert f'<h4 id="pt-side-wild">{him}</h4>' in page
    assert "The wanderers attack" not in page and ">Wanderers</h4>" not in page
    # His troops on the battlefield are the ones away from his defensive holdings.
    side = page.split(f'id="pt-seat-{hosting.origin + 1}"', 1)[1].split("</li>", 1)[0]
    defense = side.split("<dt>Defense</dt>", 1)[1].split("</dd>", 1)[0]
    visitors = [table.state.card(i).name for i in hosting.visitors]
    assert defense.count(' is-away"') == defense.count('<span class="pt-away">attacking</span>') \
        == len(visitors)
    for name in visitors:
        assert f'title="{name}, attacking you' in defense


def test_the_attack_list_gives_the_attacking_seats_troops_to_him(client: Client) -> None:
    game, table = played_until(
        veterans_at_a_table(client, 7),
        lambda table: attacked(table) and table.state.combat is not None
        and any(group[0] != 0 for group in table.state.combat.groups))
    hosting = table.hosting
    assert hosting is not None
    him = seat_name(hosting.origin, game.seat_names())
    page = html(client.get(f"/playtest/{game.pk}/"))
    his = escape(f"{him}'s")
    assert f'<span class="pt-group-side">{his}</span>' in page
    assert f"<li>{his} attack: " in page  # the table as text
    assert escape("Wanderers'") not in page


def test_a_wanderers_raid_on_the_player_is_still_the_wanderers(client: Client) -> None:
    # His own wanderers turning aggressive, controlled by the player on his left.
    game, _ = played_until(
        veterans_at_a_table(client, 7),
        lambda table: table.hosting is None and table.state.player == PLAYER
        and table.state.combat is not None and table.state.combat.kind != "hunt")
    page = html(client.get(f"/playtest/{game.pk}/"))
    assert '<h3 id="pt-combat-title">The wanderers attack <span' in page
    assert '<h4 id="pt-side-wild">Wanderers</h4>' in page and " attacks you: " not in page


def test_an_opponent_left_with_his_stronghold_alone_has_no_holdings(client: Client) -> None:
    # The row listed the stronghold's residents and the other structures, and said nothing
    # when only the stronghold was left (it has its own row).
    def bare(table: Table) -> bool:
        return any(only_stronghold(table, seat) for seat in range(1, table.players))

    def attack_seat_2(legal: list[Action]) -> int | None:
        return next((i for i, a in enumerate(legal)
                     if a.kind == "attack" and a.target == 1 and a.option == "all"), None)
    game, table = played_until(veterans_at_a_table(client, 1), bare, attack_seat_2)
    page = html(client.get(f"/playtest/{game.pk}/"))
    for seat in range(1, table.players):
        side = page.split(f'id="pt-seat-{seat + 1}"', 1)[1].split("</li>", 1)[0]
        holdings = side.split("<dt>Holdings</dt><dd>", 1)[1].split("</dd>", 1)[0]
        assert (holdings == '<span class="muted">none</span>') == only_stronghold(table, seat)


def only_stronghold(table: Table, seat: int) -> bool:
    state, zones = table.state, table.seat(seat).zones
    return all(state.card(i).subtype == "stronghold" for i in zones["private"]) \
        and not zones["residents"] and not zones["guards"]
