"""Goldfish pages: the button and headline on the deck page, the live report (polling until
done), the card table's sort, a sample game round by round, and two runs compared."""

from __future__ import annotations

import html
import json
import re
import uuid
from typing import Any

import pytest
from django.test import Client

from decks.models import Deck
from decks.services import deck_save
from decks.validation import deck_validate
from simulations.games import replay_rounds
from simulations.layout import log_entries, table_layout
from simulations.models import SimulationRun
from simulations.plays import solo_spec, stored_decks
from simulations.runs import RunOptions
from tests.conftest import ILLEGAL_HOLDINGS, with_holdings
from tests.simulations.goldfish.helpers import OTHER_TEXT, sample_deck, start, work

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
POLLING = 'hx-trigger="every 1s"'


@pytest.fixture(autouse=True)
def small_chunks(settings: Any) -> None:
    settings.GOLDFISH_CHUNK_GAMES = 10


def sample() -> Deck:
    return Deck.objects.get(name="Kalim Faithful")


def run_of(response: Any) -> SimulationRun:
    match = re.fullmatch(r"/goldfish/([0-9a-f-]{36})/", response["Location"])
    assert match, response["Location"]
    return SimulationRun.objects.get(pk=uuid.UUID(match[1]))


def test_the_deck_page_has_a_goldfish_button_then_the_latest_report_s_headline(
    client: Client,
) -> None:
    deck = sample()
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "Goldfish 1,000 games" in page and "No report yet" in page
    run = work(start(RunOptions(games=30, seed=1))[0])
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    report = run.report or {}
    assert f'href="/goldfish/{run.pk}/"' in page
    assert f"{report['victory_rate'] * 100:.1f}%" in page
    assert f"{report['victory_round']['mean']:.2f}" in page


def test_a_deck_the_engine_cannot_play_says_so_instead(client: Client, ada: Client) -> None:
    text = "# Real\nInitial Holdings\n1 Acormis Winters\n"
    from django.contrib.auth.models import User

    deck = deck_save(owner=User.objects.get(username="ada"), data=sample_deck(text))
    page = ada.get(f"/decks/{deck.pk}/").content.decode()
    assert "cannot play this deck yet" in page and "Goldfish 1,000 games" not in page


def test_the_button_starts_a_run_and_the_report_polls_until_it_is_done(client: Client) -> None:
    deck = sample()
    response = client.post(f"/decks/{deck.pk}/goldfish/", {"games": "1000", "seed": "1"})
    assert response.status_code == 302
    run = run_of(response)
    assert (run.games, run.seed, run.deck_id, run.deck_version) == (1000, 1, deck.pk, 1)
    page = client.get(response["Location"]).content.decode()
    assert POLLING in page and "<progress" in page and "Cancel this run" in page
    partial = client.get(response["Location"], headers=HTMX).content.decode()
    assert partial.lstrip().startswith("<div id=\"run-body\"") and POLLING in partial
    run.games = run.chunks_total = 3  # play a short run: the page does not care
    run.save()
    run.chunks.filter(index__gte=3).delete()
    work(run)
    partial = client.get(response["Location"], headers=HTMX).content.decode()
    assert POLLING not in partial and "hx-get" not in partial
    assert "Victory rate" in partial and "<svg" in partial and "Sample games" in partial


def test_the_options_form_runs_more_games_and_lists_the_deck_s_runs(client: Client) -> None:
    deck = sample()
    form = client.get(f"/decks/{deck.pk}/goldfish/").content.decode()
    assert 'name="games"' in form and "Up to 2,000 games" in form
    response = client.post(f"/decks/{deck.pk}/goldfish/", {
        "games": "40", "seed": "7", "policy": "random", "target": "20", "players": "2"})
    run = run_of(response)
    assert (run.games, run.seed, run.policy, run.target, run.players) == (40, 7, "random", 20, 2)
    assert f"/goldfish/{run.pk}/" in client.get(f"/decks/{deck.pk}/goldfish/").content.decode()


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [({"games": "5000"}, 400, "at most 2,000 games"), ({"games": "0"}, 400, "greater than"),
     ({"policy": "clever"}, 400, "Select a valid choice")],
)
def test_the_options_form_explains_what_it_refuses(client: Client, data: dict[str, str],
                                                   status: int, message: str) -> None:
    response = client.post(f"/decks/{sample().pk}/goldfish/", data)
    assert response.status_code == status and message in response.content.decode()


def test_the_card_table_is_sorted_by_the_column_asked_for(client: Client) -> None:
    run = work(start(RunOptions(games=30, seed=2))[0])
    names = [c["name"] for c in (run.report or {})["cards"].values()]

    def order(query: str) -> list[str]:
        page = client.get(f"/goldfish/{run.pk}/?{query}").content.decode()
        table = page[page.index('id="cards"'):]
        return [html.unescape(n) for n in re.findall(r'loading="lazy"> ([^<]+)</a>', table)]

    by_name = order("sort=name&order=asc")
    assert by_name == sorted(names, key=str.casefold)
    assert order("sort=name&order=desc") == by_name[::-1]
    played = {c["name"]: c["played"] for c in (run.report or {})["cards"].values()}
    shown = [played[n] for n in order("sort=played")]
    assert shown == sorted(shown, reverse=True)
    page = client.get(f"/goldfish/{run.pk}/?sort=played").content.decode()
    assert 'aria-sort="descending"' in page and "sort=played&amp;order=asc" in page


def test_a_sample_game_is_replayed_round_by_round(client: Client) -> None:
    run = work(start(RunOptions(games=30, seed=2))[0])
    number = (run.report or {})["sample_games"]["fastest"]
    game = replay_rounds(stored_decks(run)[0], solo_spec(run), number)
    url = f"/goldfish/{run.pk}/games/{number}/"
    first = client.get(url).content.decode()
    assert "The table with the opening hand" in first and 'rel="next"' in first
    assert f"of the run with seed 2 (its own seed, {game.seed}," in first
    # round 1 starts with the opening hand
    assert len(game.states[1]["seats"][0]["zones"]["hand"]) == 7
    assert "Setup: seed" in first and 'rel="prev"' not in first
    last = client.get(f"{url}?round={game.final_round}").content.decode()
    assert "VICTORY" in last and 'rel="next"' not in last
    clamped = client.get(f"{url}?round=999").content.decode()
    assert f"<h1>Game {number}: round {game.final_round}</h1>" in clamped
    assert client.get(f"/goldfish/{run.pk}/games/31/").status_code == 404
    first = client.get(url).content.decode()  # its log names cards as links, with images
    assert '<ol class="log-lines" data-card-previews>' in first
    assert re.search(r'<a href="/cards/demo-[a-z-]+/" class="card-ref">', first)
    exhausted = [r for r, state in game.states.items() if state["exhausted"]]
    if exhausted:
        page = client.get(f"{url}?round={exhausted[0]}").content.decode()
        assert "is-exhausted" in page


def test_the_table_layout_places_every_card_in_play_once() -> None:
    run = work(start(RunOptions(games=10, seed=3))[0])
    game = replay_rounds(stored_decks(run)[0], solo_spec(run), 4)

    def instances(card: Any) -> list[int]:
        return [card.instance, *(i for a in card.attached for i in instances(a))]

    for state in game.states.values():
        table = table_layout(state)
        on_table = [*(c for h in table.private for c in (h.structure, *h.residents, *h.guards)),
                    *table.defensive, *table.wanderers, *table.hand]
        shown = [i for card in on_table for i in instances(card)]
        zones = state["seats"][0]["zones"]
        expected = [i for z in ("private", "residents", "guards", "defensive", "wanderers",
                                "attached", "hand") for i in zones[z]]
        assert sorted(shown) == sorted(expected)
        assert table.piles["structures"] == len(zones["structure_pile"])
        assert (table.personal.economic, table.city.political) == (state["seats"][0]["personal"][0],
                                                                   state["city"][2])


def test_log_lines_are_told_as_phases_actions_and_events() -> None:
    entries = log_entries(["-- Military Phase", " > Hunt.", "   Drew Bell Tower."])
    assert [(e.kind, e.text) for e in entries] == [
        ("phase", "Military Phase"), ("action", "Hunt."), ("event", "Drew Bell Tower.")]


def test_only_the_starter_can_cancel_from_the_page(client: Client, bob: Client) -> None:
    response = client.post(f"/decks/{sample().pk}/goldfish/", {"games": "30"})
    run = run_of(response)
    assert bob.post(f"/goldfish/{run.pk}/cancel/").status_code == 403
    assert client.post(f"/goldfish/{run.pk}/cancel/").status_code == 302
    run.refresh_from_db()
    assert run.status == "cancelled"
    assert "was cancelled" in client.get(f"/goldfish/{run.pk}/").content.decode()


def test_an_unknown_run_is_404(client: Client) -> None:
    assert client.get(f"/goldfish/{uuid.uuid4()}/").status_code == 404


def test_two_decks_are_compared_on_the_same_seed(client: Client) -> None:
    a = sample()
    b = Deck.objects.get(name="Guild Veterans")
    response = client.post("/goldfish/compare/", {"a": str(a.pk), "b": str(b.pk),
                                                  "games": "30", "seed": "3"})
    assert response.status_code == 302
    location = response["Location"]
    page = client.get(location).content.decode()
    assert POLLING in page
    for run in SimulationRun.objects.all():
        work(run)
    partial = client.get(location, headers=HTMX).content.decode()
    assert POLLING not in partial and "Victory rate" in partial
    assert "B \u2212 A (95% interval)" in partial and "noise" in partial


def test_the_history_page_offers_to_goldfish_against_the_previous_version(
    ada: Client,
) -> None:
    from django.contrib.auth.models import User

    owner = User.objects.get(username="ada")
    deck = deck_save(owner=owner, data=sample_deck())
    deck = deck_save(owner=owner, data=sample_deck(OTHER_TEXT.replace("Guild Veterans",
                                                                      "Kalim Faithful")),
                     deck=deck)
    history = ada.get(f"/decks/{deck.pk}/history/").content.decode()
    assert f'value="{deck.pk}:1"' in history and f'value="{deck.pk}:2"' in history
    response = ada.post("/goldfish/compare/", {"a": f"{deck.pk}:1", "b": f"{deck.pk}:2",
                                               "games": "1000", "seed": "1"})
    assert response.status_code == 302
    versions = SimulationRun.objects.order_by("deck_version").values_list("deck_version", flat=True)
    assert list(versions) == [1, 2]
    again = ada.post("/goldfish/compare/", {"a": f"{deck.pk}:1", "b": f"{deck.pk}:2",
                                            "games": "1000", "seed": "1"})
    assert again["Location"] == response["Location"]  # the stored runs
    assert SimulationRun.objects.count() == 2


@pytest.mark.parametrize(("a", "b", "status"), [("x", "1", 400), ("99999", "1", 404)])
def test_the_compare_form_refuses_decks_it_cannot_read(client: Client, a: str, b: str,
                                                       status: int) -> None:
    response = client.post("/goldfish/compare/", {"a": a, "b": b, "games": "10"})
    assert response.status_code == status


def test_a_deck_whose_initial_holdings_break_the_rules_says_why_on_its_page(
        client: Client, ada: Client) -> None:
    from django.contrib.auth.models import User

    code = "too_many_strongholds"
    data = sample_deck(with_holdings(ILLEGAL_HOLDINGS[code]))
    deck = deck_save(owner=User.objects.get(username="ada"), data=data)
    message = next(p.message for p in deck_validate(data, players=1).problems if p.code == code)
    page = html.unescape(ada.get(f"/decks/{deck.pk}/").content.decode())
    assert message in page and "Goldfish 1,000 games" not in page
    response = ada.post(f"/decks/{deck.pk}/goldfish/", {"games": "100", "seed": "1"})
    assert response.status_code == 400 and message in html.unescape(response.content.decode())
    assert not SimulationRun.objects.exists()


def test_the_run_form_explains_its_policies_and_the_wanderer_limit_in_words(
        client: Client) -> None:
    deck = Deck.objects.get(owner__username="samples", name="Kalim Faithful")
    page = client.get(f"/decks/{deck.pk}/goldfish/").content.decode()
    assert "3 x players" not in page
    assert "more than 3 wanderers per player are in play" in page
    for words in ("Greedy: the best move now", "lookahead: plays each choice out",
                  "reference: the same, its playouts mixing in random moves",
                  "random: any legal move", '<option value="greedy" selected>Greedy (default)',
                  '<option value="reference">Reference'):
        assert words in page, words


def test_the_api_docs_explain_the_policies_and_the_wanderer_limit_in_words(
        client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    body = schema["components"]["schemas"]["GoldfishRequest"]["properties"]
    assert "3 x players" not in body["players"]["description"]
    assert "more than 3 wanderers per player are in play" in body["players"]["description"]
    for words in ("greedy (the default) takes the best move now",
                  "lookahead plays each choice out", "reference (reference:N) does the same",
                  "random takes any legal move"):
        assert words in body["policy"]["description"]


def test_a_card_drawn_and_never_played_says_why(
        client: Client) -> None:
    run = work(start(RunOptions(games=30, seed=2))[0])
    report = run.report or {}
    cards = report["cards"]
    # Whatever these 30 games did, one card is made a drawn card never played for no use,
    # one never offered, and one an interrupt; a stored report from before the reason has
    # none (no sentence).
    unused, unoffered, interrupt, older = list(cards)[:4]
    cards[unused].update(played=0.0, drawn=0.5, never_played="no_use")
    cards[unoffered].update(played=0.0, drawn=0.5, offered=0.0, never_played="never_offered")
    cards[interrupt].update(played=0.0, drawn=0.5, never_played="interrupt")
    cards[older].update(played=0.0, drawn=0.5)
    cards[older].pop("never_played", None)
    for other in list(cards)[4:]:
        cards[other]["never_played"] = None
    run.report_json = json.dumps(report)
    run.save(update_fields=["report_json"])
    page = client.get(f"/goldfish/{run.pk}/").content.decode()
    table = page[page.index('id="cards"'):]
    rows = {html.unescape(m[0]): m[1] for m in re.findall(
        r'loading="lazy"> ([^<]+)</a>(.*?)</th>', table)}
    assert "always chose otherwise" in rows[cards[unused]["name"]]
    assert "never offered it a play" in rows[cards[unoffered]["name"]]
    assert "solo there is none" in rows[cards[interrupt]["name"]]
    assert rows[cards[older]["name"]] == ""
    assert table.count("never-played") == 3
