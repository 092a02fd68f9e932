"""The test-draw page /decks/<id>/draw/: the same hand as the API and the command for the same
deck, seed and strategy or picks; interactive picks, next rounds, 100 hands and odds partials."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.html import escape

from decks.draws import deal_document, deck_setup, read_strategy
from decks.models import Deck
from decks.services import deck_clone, deck_data
from rules.draws import deal_setup, next_round

pytestmark = pytest.mark.django_db
ADAPTIVE = "structures until 2 structures with residencies, then personalities"
HTMX_HEADERS = {"HX-Request": "true"}


def sample() -> Deck:
    return Deck.objects.get(name="Guild Veterans")


def page(client: Client, deck: Deck, query: str, htmx: bool = False) -> Any:
    return client.get(f"/decks/{deck.pk}/draw/?{query}", headers=HTMX_HEADERS if htmx else {})


def hand_ids(response: Any) -> list[str]:
    return [d["id"] for d in response.context["hand"]]


@pytest.mark.parametrize(
    ("query", "options", "api"),
    [("structures=2", {"structures": 2}, {"structures": 2}),
     (f"strategy={ADAPTIVE}", {"strategy": ADAPTIVE}, {"strategy": ADAPTIVE}),
     ("picks=spp", {"picks": ["s", "p", "p"]}, {"picks": ["s", "p", "personalities"]}),
     ("", {}, {})],
    ids=["split", "adaptive", "picks", "default"],
)
def test_the_page_deals_the_api_s_and_the_command_s_hand(
    client: Client, query: str, options: dict[str, Any], api: dict[str, Any]
) -> None:
    deck = sample()
    response = page(client, deck, f"seed=77&{query}")
    assert response.status_code == 200
    expected = deal_document(deck_data(deck), 77, read_strategy(**options))
    assert hand_ids(response) == [card["card"] for card in expected["hand"]]
    text = client.get(f"/decks/{deck.pk}/export.txt").content.decode()
    document = client.post("/api/draws/", {"text": text, "seed": 77, **api},
                           content_type="application/json").json()
    assert hand_ids(response) == [card["card"] for card in document["hand"]]
    for card in expected["hand"]:
        assert f'alt="{escape(card["name"])}"' in response.content.decode()


def test_without_a_seed_the_server_picks_one_and_redirects_to_it(client: Client) -> None:
    deck = sample()
    response = page(client, deck, "structures=4")
    assert response.status_code == 302
    assert re.search(r"\?seed=\d+&structures=4$", response["Location"])
    htmx = page(client, deck, "structures=4", htmx=True)
    assert htmx.status_code == 200 and "seed=" in htmx["HX-Push-Url"]


def test_interactive_picks_replay_and_each_click_reveals_one_more_card(client: Client) -> None:
    deck = sample()
    first = page(client, deck, "seed=5&picks=sp")
    again = page(client, deck, "seed=5&picks=sp")
    assert hand_ids(first) == hand_ids(again) and len(hand_ids(first)) == 2
    assert "Draw from Structure Pile" in first.content.decode()
    step = page(client, deck, "seed=5&picks=spp", htmx=True)
    assert step.status_code == 200
    assert next(t.name for t in step.templates) == "decks/_draw_body.html"
    assert hand_ids(step)[:2] == hand_ids(first) and len(hand_ids(step)) == 3
    assert step.context["hand"][2]["pile"] == "personalities"
    assert step["HX-Push-Url"].endswith("seed=5&picks=spp")


def test_a_pick_from_an_empty_pile_or_a_full_hand_is_refused(client: Client) -> None:
    deck = sample()
    setup = deck_setup(deck_data(deck))
    # Play the whole hand every round and keep picking structures until the pile runs out.
    too_many = "s" * (len(setup.structures) + 1)
    rounds = "".join(f"&played={','.join(str(7 * r + n) for n in range(1, 8))}"
                     for r in range((len(too_many) - 1) // 7))
    response = page(client, deck, f"seed=5&picks={too_many}{rounds}", htmx=True)
    assert response.status_code == 400
    assert "Structure Pile is empty" in response.context["refused"]
    assert response.context["state"].picks == too_many[:-1]
    full = page(client, deck, "seed=5&picks=sppsppsp", htmx=True)
    assert full.status_code == 400 and "already holds seven" in full.context["refused"]
    buttons = page(client, deck, "seed=5&picks=sppsppp").context["pick_buttons"]
    assert all(b["disabled"] for b in buttons)


def test_next_round_replays_from_the_played_draw_numbers(client: Client) -> None:
    deck = sample()
    response = page(client, deck, "seed=9&structures=3&played=1,4")
    assert response.status_code == 200
    dealt = deal_setup(deck_setup(deck_data(deck)), 9, read_strategy(3))
    played = [dealt.hand[0].card, dealt.hand[3].card]
    expected = next_round(dealt, played)
    assert sorted(hand_ids(response)) == sorted(expected.hand_ids)
    assert response.context["deal"].round == 1
    form = page(client, deck, "seed=9&structures=3&next=1&play=1&play=4")
    assert form.status_code == 302 and form["Location"].endswith("played=1%2C4")
    bad = page(client, deck, "seed=9&structures=3&played=99")
    assert bad.status_code == 400 and "not" in bad.context["problem"].message


def test_the_100_hands_strip_is_deterministic(client: Client) -> None:
    deck = sample()
    url = f"/decks/{deck.pk}/draw/hands/?seed=11&strategy={ADAPTIVE}"
    first, second = client.get(url, headers=HTMX_HEADERS), client.get(url, headers=HTMX_HEADERS)
    assert first.status_code == 200
    assert len(first.context["hands"]) == 100
    assert first.context["hands"][0]["seed"] == 11 and first.context["hands"][99]["seed"] == 110
    assert first.content == second.content
    assert "on average" in first.content.decode()


def test_the_odds_sentence_names_the_cards_without_a_sort_order(client: Client) -> None:
    deck = sample()
    page = client.get(f"/decks/{deck.pk}/draw/odds/?seed=1&structures=3&kind=query&q=t:troop"
                      "&n=1", headers=HTMX_HEADERS).content.decode()
    assert "matching: cards where the card is a troop." in page and "sorted by" not in page


def test_odds_partials(client: Client) -> None:
    deck = sample()
    base = f"/decks/{deck.pk}/draw/odds/?seed=1&structures=3"
    query = client.get(f"{base}&kind=query&q=t:troop&n=2", headers=HTMX_HEADERS)
    assert query.status_code == 200
    assert re.fullmatch(r"\d+/\d+|[01]", query.context["result"]["exact"])
    assert f'title="{query.context["result"]["exact"]}"' in query.content.decode()
    goal = client.get(f"{base}&kind=goal&goal=>%3D 1 citizen", headers=HTMX_HEADERS)
    assert goal.status_code == 200
    advice = goal.context["advice"]
    assert len(advice) == 8 and sum(row["best"] for row in advice) == 1
    assert 'class="is-best"' in goal.content.decode()
    bad_query = client.get(f"{base}&kind=query&q=f:nosuch", headers=HTMX_HEADERS)
    assert bad_query.status_code == 400 and bad_query.context["error"].position == 2
    assert "<mark>nosuch</mark>" in bad_query.content.decode()
    bad_goal = client.get(f"{base}&kind=goal&goal=>%3D 1 citizne", headers=HTMX_HEADERS)
    assert bad_goal.status_code == 400 and "could not be read" in bad_goal.content.decode()


def test_a_bad_strategy_is_shown_under_its_input_with_the_position(client: Client) -> None:
    deck = sample()
    response = page(client, deck, "seed=1&strategy=structures untl 2")
    assert response.status_code == 400
    problem = response.context["problem"]
    assert problem.field == "strategy" and problem.error.position == 11
    assert 'id="rule-error"' in response.content.decode()
    odds = client.get(f"/decks/{deck.pk}/draw/odds/?seed=1&strategy=xx&kind=query&q=t:troop")
    assert odds.status_code == 400 and "Fix the strategy" in odds.content.decode()


def test_private_decks_of_others_are_404(client: Client) -> None:
    owner = get_user_model().objects.create_user("alice", password="pw-alice-123")
    deck = deck_clone(deck=sample(), owner=owner)
    deck.visibility = Deck.PRIVATE
    deck.save()
    assert page(client, deck, "seed=1").status_code == 404
    assert client.get(f"/decks/{deck.pk}/draw/hands/?seed=1").status_code == 404
    client.force_login(owner)
    assert page(client, deck, "seed=1").status_code == 200


def test_the_deck_page_links_to_the_test_draw(client: Client) -> None:
    deck = sample()
    assert f'href="/decks/{deck.pk}/draw/"' in client.get(f"/decks/{deck.pk}/").content.decode()
