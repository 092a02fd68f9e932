"""The battle on a table's view and page (tables/battle.py): every seat sees who attacks
whom, each side's cards with their numbers and the assignments so far, named for him, and
never a card the rest of his view does not show."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from bench.load.table_figures import card_ids
from tables.battle import battle
from tables.models import Table
from tables.seat_view import NAMED_ZONES
from tables.services import played_table
from tests.tables.calls import SAMPLES, person, post, sample, started, view

pytestmark = pytest.mark.django_db

View = dict[str, Any]
# A table of ada (seat 1), bob (seat 2) and an AI seat whose seed brings, within its first
# 80 decisions, ada's attack on bob, her hunt of another seat's row and her wanderers'
# raid on bob (each person taking such a move when offered, as the tester did).
SEED = 3


def in_view(seen: View) -> set[str]:
    """The cards a view names outside its battle: in play, discarded, in the own hand."""
    return set(card_ids({key: value for key, value in seen.items() if key != "combat"}))


def play_until(kinds: tuple[str, ...], found: Callable[[View], bool]
               ) -> tuple[dict[int, Client], Client, int, list[View]]:
    """ada, bob and the AI play table ``SEED`` (each person preferring the moves of
    ``kinds``, else the policy's) until a view of ada's is ``found``; every view on the way
    checked to name in its battle no card it does not name elsewhere. (The people, a
    spectator, the table's id, ada's and bob's views then.)"""
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob], ai=[{"seat": 2, "deck": sample(SAMPLES[2])}], seed=SEED,
                    target=25)["id"]
    people, spectator = {0: ada, 1: bob}, Client()
    for _ in range(120):
        views = [view(client, table) for client in (ada, bob, spectator)]
        for seen in views:
            if seen["combat"]:
                assert set(card_ids(seen["combat"])) <= in_view(seen), seen["combat"]
        if found(views[0]):
            return people, spectator, table, views[:2]
        mover = next(seen for seen in views[:2] if seen["you"] in seen["to_move"])
        moves = mover["legal_actions"]
        move = next((m for kind in kinds for m in moves if m["kind"] == kind),
                    next(m for m in moves if m["policy"]))
        answer = post(people[mover["you"]], f"/api/tables/{table}/actions/",
                      {"index": move["index"], "decision": mover["decision"]})
        assert answer.status_code == 200, answer.content
    raise AssertionError("the battle looked for never came")


def side(seen: View, role: str) -> View:
    return next(s for s in seen["combat"]["sides"] if s["role"] == role)


def in_play(seen: View, seat: int) -> set[str]:
    return {card["id"] for card in seen["seats"][seat]["in_play"]}


def test_each_seat_sees_an_attack_named_for_him_with_each_sides_cards() -> None:
    people, spectator, table, (ada, bob) = play_until(
        ("attack",), lambda seen: bool(seen["combat"]) and seen["combat"]["kind"] == "attack"
        and seen["combat"]["step"] == "assign" and 0 in seen["to_move"])
    spectators = view(spectator, table)
    assert [seen["combat"]["title"] for seen in (ada, bob, spectators)] == [
        "You attack Seat 2 (bob)", "Seat 1 (ada) attacks you", "Seat 1 (ada) attacks Seat 2 (bob)"]
    assert (bob["combat"]["attacker"], bob["combat"]["defender"]) == (0, 1)
    assert bob["combat"]["step_title"].startswith("Assignments")
    attack, defense = side(bob, "attack"), side(bob, "defense")
    assert attack["title"] == "Seat 1 (ada)'s troops" and defense["title"] == "Your defenders"
    assert attack["cards"] and {c["id"] for c in attack["cards"]} <= in_play(bob, 0)
    fighters = defense["cards"] + ([defense["wall"]] if defense["wall"] else [])
    assert fighters and {c["id"] for c in fighters} <= in_play(bob, 1)
    assert all(isinstance(c["offense"], int) and isinstance(c["defense"], int)
               and c["wounds"] >= 0 for c in attack["cards"] + fighters)
    assert bob["combat"]["assignments"] == []
    # ada assigns: bob sees the assignment she made.
    move = next(m for m in ada["legal_actions"] if m["kind"] == "separate")
    post(people[0], f"/api/tables/{table}/actions/",
         {"index": move["index"], "decision": ada["decision"]})
    made = view(people[1], table)["combat"]["assignments"]
    assert [(made[0]["side"], made[0]["attackers"][0]["name"])] == [
        ("attack", move["text"].split(" attacks ")[0])]
    assert move["text"].endswith(f"'s {made[0]['target']['name']}")
    page = people[1].get(f"/tables/{table}/").content.decode()
    shown = page.split('class="tb-battle"', 1)[1].split("</section>", 1)[0]
    card = attack["cards"][0]
    assert "Seat 1 (ada) attacks you" in shown and "Assignments" in shown
    assert f"{card['name']}</a> <span class=\"tb-stats\">{card['offense']} off · " \
           f"{card['defense']} def" in shown


def test_a_hunt_of_another_seats_row_names_the_hunter_and_the_row() -> None:
    _, spectator, table, (ada, bob) = play_until(
        ("hunt_row",), lambda seen: bool(seen["combat"]) and seen["combat"]["kind"] == "hunt"
        and seen["combat"]["step"] == "assign")
    row = ada["combat"]["defender"]
    assert ada["combat"]["attacker"] == 0 and row != 0
    assert ada["combat"]["title"] == f"You hunt the wanderer row of Seat {row + 1} " \
                                     f"({ada['seats'][row]['name']})"
    assert bob["combat"]["title"].startswith("Seat 1 (ada) hunts the wanderer row of ")
    wanderers = side(bob, "defense")["cards"]
    assert wanderers and {c["id"] for c in wanderers} <= in_play(bob, row)
    assert side(bob, "attack")["cards"]
    assert view(spectator, table)["combat"]["title"].startswith("Seat 1 (ada) hunts")


def test_wanderers_raiding_another_seat_name_whose_they_are() -> None:
    _, _, _, (ada, bob) = play_until(
        ("hunt_row", "attack"), lambda seen: bool(seen["combat"])
        and seen["combat"]["kind"] == "raid" and seen["combat"]["attacker"] == 0)
    assert ada["combat"]["defender"] == 1
    assert ada["combat"]["title"] == "Your wanderers attack Seat 2 (bob)"
    assert bob["combat"]["title"] == "Seat 1 (ada)'s wanderers attack you"
    assert side(bob, "attack")["title"] == "Seat 1 (ada)'s wanderers"
    assert {c["id"] for c in side(ada, "attack")["cards"]} <= in_play(ada, 0)


def test_an_attack_being_declared_shows_the_troops_sent_so_far() -> None:
    people, _, table, (ada, _) = play_until(
        ("attack",), lambda seen: any(m["kind"] == "attack" and "choosing" in m["text"]
                                      for m in seen.get("legal_actions", [])))
    move = next(m for m in ada["legal_actions"]
                if m["kind"] == "attack" and "choosing" in m["text"])
    post(people[0], f"/api/tables/{table}/actions/",
         {"index": move["index"], "decision": ada["decision"]})
    declaring = view(people[0], table)
    target = declaring["combat"]["defender"]
    assert declaring["combat"]["step"] == "declare" and side(declaring, "attack")["cards"] == []
    send = next(m for m in declaring["legal_actions"] if m["text"].startswith("Send "))
    post(people[0], f"/api/tables/{table}/actions/",
         {"index": send["index"], "decision": declaring["decision"]})
    other = view(people[target], table) if target in people else view(people[1], table)
    sent = side(other, "attack")["cards"]
    assert [c["name"] for c in sent] == [send["text"].removeprefix("Send ")
                                         .removesuffix(" to the battlefield")]


def test_a_card_gone_from_the_named_zones_is_left_out_of_the_battle() -> None:
    _, _, table, _ = play_until(
        ("attack",), lambda seen: bool(seen["combat"]) and seen["combat"]["step"] == "assign")
    played = played_table(Table.objects.get(pk=table))  # not put back: it is changed below
    state = played.table.state
    assert state.combat is not None
    troop = state.combat.wild[0]
    names = ["ada", "bob", "AI"]
    before = battle(played.table, names, 1, NAMED_ZONES)
    assert before is not None and state.card(troop).id in card_ids(before["sides"])
    state.where[troop] = "hand"  # (as if sent back to a hand: hidden from the others)
    after = battle(played.table, names, 1, NAMED_ZONES)
    assert after is not None
    assert state.card(troop).id not in card_ids(after["sides"])


def test_no_battle_is_shown_outside_a_combat() -> None:
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob], seed=SEED)["id"]
    assert view(ada, table)["combat"] is None
    assert 'class="tb-battle"' not in ada.get(f"/tables/{table}/").content.decode()
