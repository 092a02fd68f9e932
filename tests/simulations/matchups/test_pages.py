"""The matchup pages: the deck page's Matchups panel, starting a run from it, the report page
following the run with htmx and showing each deck's wins with intervals, cancelling."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from decks.models import Deck
from decks.services import deck_data, deck_save
from simulations.models import SimulationRun
from simulations.tasks import simulation_run_work
from tests.simulations.matchups.helpers import played_matchup

pytestmark = pytest.mark.django_db


def sample(name: str) -> Deck:
    return Deck.objects.get(owner__username="samples", name=name)


def test_the_deck_page_has_a_matchups_panel_with_the_opponents_to_pick(ada: Client) -> None:
    faithful = sample("Kalim Faithful")
    user = ada.get("/accounts/").wsgi_request.user
    mine = deck_save(owner=user, data=deck_data(sample("Mosfin Blades")),
                     visibility=Deck.PRIVATE)
    html = ada.get(f"/decks/{faithful.pk}/").content.decode()
    assert 'id="matchups-title">Matchups</h2>' in html
    assert f'action="/decks/{faithful.pk}/matchups/"' in html
    assert "<legend>Sample decks</legend>" in html and "<legend>My decks</legend>" in html
    assert f'name="opponents" value="{sample("Mosfin Blades").pk}"' in html
    assert f'name="opponents" value="{mine.pk}"' in html
    # The deck itself always sits at the table: it is not offered as an opponent.
    assert f'name="opponents" value="{faithful.pk}"' not in html


def test_starting_from_the_panel_goes_to_the_report_which_polls_until_done(
        client: Client) -> None:
    faithful, blades, senate = (sample(n) for n in ("Kalim Faithful", "Mosfin Blades",
                                                    "Mosfin Senate"))
    response = client.post(f"/decks/{faithful.pk}/matchups/",
                           {"opponents": [blades.pk, senate.pk], "games": 9, "seed": 2,
                            "target": 25})
    assert response.status_code == 302
    run = SimulationRun.objects.get()
    assert response["Location"] == f"/matchups/{run.pk}/"
    assert (run.deck_names, run.games, run.deck_id) == (
        ["Kalim Faithful", "Mosfin Blades", "Mosfin Senate"], 9, faithful.pk)
    going = client.get(f"/matchups/{run.pk}/").content.decode()
    assert 'data-hx-trigger="every 1s"' in going and "0 of 9 games" in going
    assert "Cancel this run" in going
    simulation_run_work(run_id=run.pk, worker="w")
    body = client.get(f"/matchups/{run.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert "data-hx-get" not in body  # done: the page stops polling
    run.refresh_from_db()
    report = run.report
    assert report is not None
    for deck in report["decks"]:
        assert f'<th scope="row">{deck["name"]}</th>' in body
        low, high = (round(100 * x, 1) for x in deck["ci95"])
        assert f"{low}\u2013{high}%" in body  # an en dash between the bounds


def test_no_opponent_or_too_many_is_refused_on_the_form(client: Client) -> None:
    faithful = sample("Kalim Faithful")
    others = list(Deck.objects.filter(owner__username="samples").exclude(pk=faithful.pk)
                  .values_list("pk", flat=True))
    assert client.post(f"/decks/{faithful.pk}/matchups/", {"games": 9, "seed": 1,
                                                           "target": 25}).status_code == 400
    if len(others) > 5:
        too_many = client.post(f"/decks/{faithful.pk}/matchups/",
                               {"opponents": others, "games": 9, "seed": 1, "target": 25})
        assert too_many.status_code == 400
    assert not SimulationRun.objects.exists()


def test_a_private_deck_of_someone_else_cannot_be_picked(client: Client,
                                                          django_user_model: Any) -> None:
    owner = django_user_model.objects.create_user("owner")
    private = deck_save(owner=owner, data=deck_data(sample("Mosfin Blades")),
                        visibility=Deck.PRIVATE)
    faithful = sample("Kalim Faithful")
    response = client.post(f"/decks/{faithful.pk}/matchups/",
                           {"opponents": [private.pk], "games": 9, "seed": 1, "target": 25})
    assert response.status_code == 400
    assert not SimulationRun.objects.exists()


def test_the_starter_cancels_from_the_report(client: Client) -> None:
    faithful, blades = sample("Kalim Faithful"), sample("Mosfin Blades")
    client.post(f"/decks/{faithful.pk}/matchups/",
                {"opponents": [blades.pk], "games": 9, "seed": 1, "target": 25})
    run = SimulationRun.objects.get()
    assert client.post(f"/matchups/{run.pk}/cancel/").status_code == 302
    run.refresh_from_db()
    assert run.status == "cancelled"
    assert "This run was cancelled" in client.get(f"/matchups/{run.pk}/").content.decode()


def test_a_finished_run_is_listed_in_the_deck_s_panel(ada: Client) -> None:
    user = ada.get("/accounts/").wsgi_request.user
    faithful, blades = sample("Kalim Faithful"), sample("Mosfin Blades")
    run = played_matchup(user, faithful, blades)
    html = ada.get(f"/decks/{faithful.pk}/").content.decode()
    assert f'href="/matchups/{run.pk}/">Kalim Faithful v Mosfin Blades</a>' in html
