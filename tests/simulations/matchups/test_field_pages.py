"""The gauntlet and the matrix on the web: chosen on the deck's Matchups panel, the report's
heat map (one numbered cell per pair that met), the per-card figures, and sample games
replayed round by round with every seat's table."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from decks.models import Deck
from decks.services import deck_data, deck_save
from rules.game.matchup import MatchupSpec, play_matchup_game
from simulations.models import SimulationRun
from simulations.plays import run_config, stored_decks
from simulations.replay import by_round, replay_step
from simulations.tasks import simulation_run_work
from tests.simulations.matchups.helpers import played_field

pytestmark = pytest.mark.django_db


def samples(*names: str) -> list[Deck]:
    return [Deck.objects.get(owner__username="samples", name=name) for name in names]


THREE = ("Kalim Faithful", "Mosfin Blades", "Guild Veterans")


def test_the_panel_offers_a_matchup_a_gauntlet_and_a_matrix(client: Client) -> None:
    faithful, = samples("Kalim Faithful")
    html = client.get(f"/decks/{faithful.pk}/matchups/").content.decode()
    for mode in ("matchup", "gauntlet", "matrix"):
        assert f'name="mode" value="{mode}"' in html
    assert 'value="matchup" checked' in html


@pytest.mark.parametrize(("mode", "cells", "blank"), [("gauntlet", 2, 0), ("matrix", 6, 3)])
def test_a_field_started_from_the_panel_shows_its_heat_map(client: Client, mode: str,
                                                          cells: int, blank: int) -> None:
    faithful, blades, veterans = samples(*THREE)
    response = client.post(f"/decks/{faithful.pk}/matchups/",
                           {"opponents": [blades.pk, veterans.pk], "mode": mode, "games": 2,
                            "seed": 1, "target": 25})
    assert response.status_code == 302
    run = SimulationRun.objects.get()
    pairings = 3 if mode == "matrix" else 2
    assert (run.mode, run.deck_names, run.total_games) == (mode, list(THREE), 2 * pairings)
    going = client.get(f"/matchups/{run.pk}/").content.decode()
    assert f"0 of {run.total_games} games" in going
    assert simulation_run_work(run_id=run.pk, worker="w") == "done"
    run.refresh_from_db()
    html = client.get(f"/matchups/{run.pk}/").content.decode()
    svg = re.search(r'<svg class="heatmap".*?</svg>', html, re.S)
    assert svg is not None
    assert 'role="img"' in svg.group()
    assert "<title id=" in svg.group() and "<desc id=" in svg.group()
    assert svg.group().count('<g class="cell">') == cells
    assert svg.group().count('class="cell-self"') == blank
    assert "Row&#x27;s win rate" in svg.group() or "Row's win rate" in svg.group()  # the legend
    report = run.report
    assert report is not None
    first = report["matrix"][0][1]
    assert f">{100 * first['win_rate']:.0f}%</text>" in svg.group()  # the number in the cell
    assert "Each deck over its pairings" in html and "The pairings" in html
    # The cards' figures per deck.
    assert html.count('<details class="matchup-cards"') == 3
    assert "Win rate when played" in html
    # Each card's name is a link to its page, as in goldfish (with its image on hover).
    some_id, some = next(iter(report["decks"][0]["cards"].items()))
    assert f'<a href="/cards/{some_id}/">{some["name"]}</a>' in html.replace("&#x27;", "'")
    # Games 1 and 2 of each pairing (up to 3 a pairing).
    assert html.count(f'href="/matchups/{run.pk}/games/') == 2 * len(report["pairings"])


def test_a_matrix_of_the_six_sample_decks_has_thirty_cells(ada: Client) -> None:
    user = ada.get("/accounts/").wsgi_request.user
    six = list(Deck.objects.filter(owner__username="samples").order_by("name"))
    assert len(six) == 6
    run = played_field(user, six, "matrix", games=1)
    html = ada.get(f"/matchups/{run.pk}/").content.decode()
    assert html.count('<g class="cell">') == 30 and "15 pairings of 1 game" in html


def test_a_matchup_s_report_has_its_cards_and_sample_games(client: Client) -> None:
    faithful, blades, veterans = samples(*THREE)
    client.post(f"/decks/{faithful.pk}/matchups/",
                {"opponents": [blades.pk, veterans.pk], "games": 2, "seed": 1, "target": 25})
    run = SimulationRun.objects.get()
    simulation_run_work(run_id=run.pk, worker="w")
    html = client.get(f"/matchups/{run.pk}/").content.decode()
    assert 'class="heatmap"' not in html
    assert html.count('<details class="matchup-cards"') == 3
    for number in (1, 2):
        assert f'href="/matchups/{run.pk}/games/1/{number}/"' in html
    game = client.get(f"/matchups/{run.pk}/games/1/2/").content.decode()
    assert game.count('class="matchup-seat"') == 3  # every player's table


def test_a_sample_game_steps_round_by_round_to_its_end(ada: Client) -> None:
    user = ada.get("/accounts/").wsgi_request.user
    run = played_field(user, samples(*THREE), "matrix")
    base = f"/matchups/{run.pk}/games/2/1/"
    first = ada.get(base)
    assert first.status_code == 200
    html = first.content.decode()
    assert "Game 1: round 1" in html and 'aria-current="step">1<' in html
    assert html.count('class="matchup-seat"') == 2
    assert "Seat 1: " in html and "Seat 2: " in html
    assert 'id="seat-1-pt-hand-title"' in html and 'id="seat-2-pt-hand-title"' in html
    assert f'href="{base}?round=2" rel="next"' in html
    second = ada.get(f"{base}?round=2").content.decode()
    assert "Game 1: round 2" in second and f'href="{base}?round=1" rel="prev"' in second
    assert "Round 2: the lead player is seat" in second  # the log of that round
    end = ada.get(f"{base}?round=end").content.decode()
    assert "Game 1: the end" in end and 'rel="next"' not in end
    assert "Game over in round" in end
    # A round past the end shows the end.
    assert "Game 1: the end" in ada.get(f"{base}?round=99").content.decode()


@pytest.mark.parametrize("path", ["games/4/1/", "games/1/3/", "games/0/1/"])
def test_a_game_or_pairing_the_run_has_not_is_404(ada: Client, path: str) -> None:
    user = ada.get("/accounts/").wsgi_request.user
    run = played_field(user, samples(*THREE), "matrix")
    assert ada.get(f"/matchups/{run.pk}/{path}").status_code == 404


def test_the_replayed_game_is_the_game_the_run_played(ada: Client) -> None:
    user = ada.get("/accounts/").wsgi_request.user
    run = played_field(user, samples(*THREE), "gauntlet")
    decks = stored_decks(run)
    pair = [decks[0], decks[2]]
    played = play_matchup_game(pair, MatchupSpec(run.games, run.seed), 2, run_config(run))
    replayed = replay_step(run, 1, 2, "end")
    assert (replayed.outcome, replayed.final_round) == (played.outcome, played.final_round)
    assert replayed.winner == (replayed.seat_names[played.winner] if played.winner >= 0
                               else None)


def test_too_many_opponents_for_one_table_but_not_for_a_gauntlet(ada: Client) -> None:
    user = ada.get("/accounts/").wsgi_request.user
    six = list(Deck.objects.filter(owner__username="samples").order_by("name"))
    mine = deck_save(owner=user, data=deck_data(six[1]), visibility=Deck.PRIVATE)
    deck, others = six[0], [d.pk for d in six[1:]] + [mine.pk]
    body = {"games": 1, "seed": 1, "target": 25, "opponents": others}
    # Six opponents: one table seats six, so a matchup refuses; a gauntlet takes them.
    refused = ada.post(f"/decks/{deck.pk}/matchups/", {**body, "mode": "matchup"})
    assert refused.status_code == 400
    assert "Pick at most 5 opponents for one matchup" in refused.content.decode()
    assert ada.post(f"/decks/{deck.pk}/matchups/",
                    {**body, "mode": "gauntlet"}).status_code == 302
    assert SimulationRun.objects.get().total_games == 6


def test_a_round_s_story_starts_with_its_lead_player_and_holds_its_own_discards() -> None:
    story = [(1, -1, "Round 1: the lead player is seat 1."), (1, 0, "Drew a card."),
             (2, 0, "Done."),  # seat 1's last discard, told once the table is in round 2
             (2, -1, "Round 2: the lead player is seat 2."), (2, 1, "Pass."),
             (3, -1, "Game over in round 3: VICTORY (seat 2 wins).")]
    assert by_round(story) == {
        1: [(-1, "Round 1: the lead player is seat 1."), (0, "Drew a card."), (0, "Done.")],
        2: [(-1, "Round 2: the lead player is seat 2."), (1, "Pass."),
            (-1, "Game over in round 3: VICTORY (seat 2 wins).")],
    }


@pytest.mark.parametrize(("mode", "name"), [("gauntlet", "Gauntlet"), ("matrix", "Matrix")])
def test_a_field_run_is_named_by_its_kind_on_its_pages_and_the_panel(
        client: Client, django_user_model: Any, mode: str, name: str) -> None:
    user = django_user_model.objects.create_user("kinds", password="x")
    run = played_field(user, samples(*THREE), mode, games=1)
    report = client.get(f"/matchups/{run.pk}/").content.decode()
    assert f"<title>{name}: " in report and f"\u203a {name}</nav>" in report
    game = client.get(f"/matchups/{run.pk}/games/1/1/").content.decode()
    assert f">{name}</a> \u203a Game 1</nav>" in game
    panel = client.get(f"/decks/{run.deck_id}/matchups/").content.decode()
    assert f">{name}: Kalim Faithful v " in panel


def test_a_matchup_s_card_drawn_and_never_played_says_why(client: Client) -> None:
    faithful, blades = samples(*THREE[:2])
    client.post(f"/decks/{faithful.pk}/matchups/",
                {"opponents": [blades.pk], "games": 2, "seed": 1, "target": 25})
    run = SimulationRun.objects.get()
    simulation_run_work(run_id=run.pk, worker="w")
    run.refresh_from_db()
    report = run.report or {}
    cards = report["decks"][0]["cards"]
    assert all("never_played" in card and "offered" in card for card in cards.values())
    # Whatever these games did, one card is made declined, one never offered; the others
    # were played.
    declined, unoffered = list(cards)[:2]
    cards[declined].update(played=0.0, drawn=0.5, offered=0.5, never_played="no_use")
    cards[unoffered].update(played=0.0, drawn=0.5, offered=0.0, never_played="never_offered")
    for other in list(cards)[2:]:
        cards[other]["never_played"] = None
    for deck in report["decks"][1:]:
        for card in deck["cards"].values():
            card["never_played"] = None
    run.report_json = json.dumps(report)
    run.save(update_fields=["report_json"])
    html = client.get(f"/matchups/{run.pk}/").content.decode()
    assert html.count("never-played") == 2
    assert "Offered a play in 50% of the games, never played: the AI player always chose " \
        "otherwise" in html
    assert "the rules never offered it a play in these games (no bearer, target, tokens or " \
        "action to answer while it was in hand)" in html
