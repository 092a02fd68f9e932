"""The greedy seat's Military Phase (rules/game/table_policy.py) on constructed tables:
whom it attacks, when it holds a defender back, which row it hunts, and the fight it foresees
(the troops, walls, guards and defenders the rules count)."""

from __future__ import annotations

import pytest

from rules.game import engine, rulings, seats
from rules.game.actions import Action
from rules.game.config import GameConfig
from rules.game.seats import Table
from rules.game.table_policy import (
    SeatPolicy,
    foresee,
    hit_chance,
    military_choice,
)
from tests.rules.game.engine_helpers import catalogue, sample

VETERANS = "guild-veterans.txt"


def military(players: int) -> tuple[Table, list[int]]:
    """A table of Guild Veterans at its first Military Phase, every seat's home emptied of
    troops, walls and wanderers: the seats in the order they act."""
    prepared = engine.prepare(sample(VETERANS), catalogue())
    t = seats.new_table([prepared] * players, 1, GameConfig(target=25))
    policy = [SeatPolicy("greedy", s) for s in range(players)]
    for _ in range(5_000):
        if t.stage == "military" and t.hosting is None and len(t.queue) == players:
            break
        seat = seats.to_move(t)
        assert seats.apply(t, policy[seat](t, seat, seats.legal_actions(t))).ok
    else:
        raise AssertionError("no Military Phase")
    state = t.state
    for seat in range(players):
        for i in [i for z in ("defensive", "guards") for i in t.seat(seat).zones[z]]:
            card = state.card(i)
            if card.is_troop or card.subtype == "wall":
                rulings.discard_from_play(state, i, "test")
        for i in list(t.seat(seat).zones["wanderers"]):
            state.move(i, "wanderer_discard")
    state.pending = None  # the legal actions worked out again from the cards as they are
    return t, list(t.queue)


def station(t: Table, seat: int, count: int, *, strongest: bool) -> list[int]:
    """Put ``count`` troops of ``seat``'s personality pile, ready, into his defensive
    holdings: the strongest (offense) or the weakest (defense) first."""
    state = t.state
    pile = [i for i in t.seat(seat).zones["personality_pile"] if state.card(i).is_troop]
    pile.sort(key=lambda i: (-state.card(i).offense, i) if strongest
              else (state.card(i).defense, i))
    for i in pile[:count]:
        state.move(i, "defensive")
        state.exhausted.discard(i)
    state.pending = None
    return pile[:count]


def influence(t: Table, seat: int, amount: int) -> None:
    """Residents of ``seat`` worth at least ``amount`` faction influence (no residence:
    nothing an attack could make homeless)."""
    state = t.state
    for i in [i for i in t.seat(seat).zones["personality_pile"]
              if state.card(i).type == "personality" and not state.card(i).is_troop]:
        if rulings.influence_total(state, seat) >= amount:
            return
        state.move(i, "residents")
    for i in [i for i in t.seat(seat).zones["personality_pile"] if state.card(i).influence]:
        if rulings.influence_total(state, seat) >= amount:
            return
        state.move(i, "residents")


def test_the_greedy_seat_attacks_the_leader_of_two_opponents_defended_alike() -> None:
    t, (me, first, second) = military(3)
    station(t, me, 4, strongest=True)
    for other in (first, second):
        station(t, other, 1, strongest=False)
    influence(t, second, 12)
    assert rulings.influence_total(t.state, second) > rulings.influence_total(t.state, first)
    choice = military_choice(t, me, seats.legal_actions(t))
    assert (choice.kind, choice.target) == ("attack", second)


def test_the_greedy_seat_attacks_the_player_about_to_win_to_keep_him_below_the_target() -> None:
    t, (me, leader, other) = military(3)
    station(t, me, 4, strongest=True)
    station(t, leader, 1, strongest=False)
    influence(t, leader, t.config.target - 3)  # within LEADER_GAP of the target
    station(t, other, 1, strongest=False)  # as weakly defended, further from it
    influence(t, other, 10)
    rich = t.state
    for i in t.seat(other).zones["wanderer_pile"][:3]:  # a rich row to hunt instead
        rich.move(i, "wanderers")
        rich.bounty_bonus[i] = 3
    choice = military_choice(t, me, seats.legal_actions(t))
    assert (choice.kind, choice.target) == ("attack", leader)


def test_the_greedy_seat_attacks_the_weaker_defended_of_two_opponents() -> None:
    t, (me, first, second) = military(3)
    station(t, me, 3, strongest=True)
    station(t, first, 3, strongest=True)  # a home it cannot break
    station(t, second, 1, strongest=False)
    for other in (first, second):
        influence(t, other, 10)
    choice = military_choice(t, me, seats.legal_actions(t))
    assert (choice.kind, choice.target) == ("attack", second)


def test_the_greedy_seat_does_not_attack_a_fight_it_would_lose() -> None:
    t, (me, first, second) = military(3)
    station(t, me, 1, strongest=False)
    for other in (first, second):
        station(t, other, 3, strongest=True)
        influence(t, other, 20)
    choice = military_choice(t, me, seats.legal_actions(t))
    assert choice.kind != "attack"


def test_the_greedy_seat_knocks_out_a_stronghold_one_wound_from_destruction() -> None:
    t, (me, leader, weak) = military(3)
    station(t, me, 3, strongest=True)
    station(t, leader, 1, strongest=False)
    influence(t, leader, 15)  # the leader, easier to reach than to knock out
    home = t.state
    keep = next(i for i in t.seat(weak).zones["private"]
            if home.card(i).subtype == "stronghold")
    for structure in [i for i in t.seat(weak).zones["private"] if i != keep]:
        rulings.discard_from_play(home, structure, "test")
    home.wounds[keep] = home.card(keep).vitality - 1
    assert foresee(t.state, seats.attackers(t.state, me, "all"), weak).knockout > 0.5
    choice = military_choice(t, me, seats.legal_actions(t))
    assert (choice.kind, choice.target) == ("attack", weak)


def test_the_greedy_seat_holds_its_best_defender_back_against_a_player_still_to_act() -> None:
    t, (me, threat, target) = military(3)
    station(t, me, 4, strongest=True)
    station(t, threat, 1, strongest=True)  # he would reach a structure of an empty home
    influence(t, threat, 8)
    station(t, target, 1, strongest=False)
    influence(t, target, 18)
    choice = military_choice(t, me, seats.legal_actions(t))
    assert (choice.kind, choice.option) == ("attack", "hold")


def test_the_greedy_seat_sends_every_troop_when_nobody_still_to_act_can_attack() -> None:
    t, (me, threat, target) = military(3)
    station(t, me, 4, strongest=True)
    station(t, threat, 5, strongest=True)
    station(t, target, 1, strongest=False)
    influence(t, target, 18)
    t.queue = [me]  # the others have taken their turn
    choice = military_choice(t, me, seats.legal_actions(t))
    assert (choice.kind, choice.option) == ("attack", "all")


def test_the_greedy_seat_hunts_another_row_only_when_the_hunt_pays() -> None:
    t, (me, _, second) = military(3)
    troops = station(t, me, 2, strongest=True)
    rich = t.state
    for i in t.seat(second).zones["wanderer_pile"][:3]:
        rich.move(i, "wanderers")
        rich.bounty_bonus[i] = 5
    actions = [a for a in seats.legal_actions(t) if a.kind != "hunt"]
    choice = military_choice(t, me, actions)
    assert (choice.kind, choice.target) == ("hunt_row", second)
    for troop in troops:  # exhausted: no wanderer is beaten, no bounty expected
        t.state.exhausted.add(troop)
    choice = military_choice(t, me, [a for a in seats.legal_actions(t) if a.kind != "hunt"])
    assert choice.kind == "pass"


def test_the_wall_holds_the_weakest_attackers_and_the_rest_reach_the_stronghold() -> None:
    t, (me, other, _) = military(3)
    sent = station(t, me, 4, strongest=True)
    home = t.state
    for structure in [i for i in t.seat(other).zones["private"]
                      if home.card(i).subtype != "stronghold"]:
        rulings.discard_from_play(home, structure, "test")
    # A wall of the deck not in play (in the pile, the hand or a discard, as the game went).
    wall = next(i for i in range(len(home.cards)) if home.owner[i] == other
                and home.card(i).subtype == "wall" and not home.in_play(i))
    home.move(wall, "defensive")
    slots = home.card(wall).residencies
    assert 0 < slots < len(sent)
    strongest = sorted(sent, key=lambda i: -t.state.card(i).offense)
    assert foresee(t.state, strongest[-slots:], other).breach == 0.0  # all on the wall
    past = foresee(t.state, strongest[:slots + 1], other)
    assert past.breach > 0.0  # one more than the wall holds gets past it


def test_each_ready_defender_holds_one_attacker_back_from_the_structures() -> None:
    t, (me, other, _) = military(3)
    sent = station(t, me, 3, strongest=True)
    station(t, other, 3, strongest=False)
    assert foresee(t.state, sent, other).breach == 0.0
    assert foresee(t.state, sent, other).cut > 0.0  # defenders may die


@pytest.mark.parametrize(("offense", "defense", "chance"), [
    (5, 1, 1.0), (3, 3, 2 / 6), (2, 3, 1 / 6), (1, 3, 0.0), (4, 3, 4 / 6)],
    ids=["far-stronger", "even", "one-short", "two-short", "one-up"])
def test_an_attack_wounds_by_the_die_table(offense: int, defense: int, chance: float) -> None:
    assert hit_chance(offense, defense) == pytest.approx(chance)



def test_the_greedy_seat_hunts_rather_than_attacks_when_the_city_may_be_overrun() -> None:
    t, (me, first, second) = military(3)
    station(t, me, 4, strongest=True)
    station(t, second, 1, strongest=False)
    influence(t, second, t.config.target - 2)  # about to win: else it would attack
    row = t.state
    for i in t.seat(first).zones["wanderer_pile"][:7]:
        row.move(i, "wanderers")
    # 7 wanderers and 3 to come: more than 3 times the players, every player would lose.
    assert 7 + 3 > t.config.overrun_limit
    choice = military_choice(t, me, [a for a in seats.legal_actions(t) if a.kind != "hunt"])
    assert (choice.kind, choice.target) == ("hunt_row", first)
    for i in t.seat(first).zones["wanderers"][4:]:
        row.move(i, "wanderer_discard")
    choice = military_choice(t, me, [a for a in seats.legal_actions(t) if a.kind != "hunt"])
    assert (choice.kind, choice.target) == ("attack", second)


def test_the_greedy_seat_hunts_its_own_row_before_a_poorer_one() -> None:
    t, (me, first, _) = military(3)
    station(t, me, 3, strongest=True)
    state = t.state
    for seat, bonus in ((me, 4), (first, 2)):
        for i in t.seat(seat).zones["wanderer_pile"][:2]:
            state.move(i, "wanderers")
            state.bounty_bonus[i] = bonus
    assert state.player == me  # the state's flow is his: its own hunt is offered at the
    state.phase = state.step = "military"  # military step (engine)
    assert Action("hunt") in seats.legal_actions(t)
    choice = military_choice(t, me, seats.legal_actions(t))
    assert choice.kind == "hunt"  # its own fines and raids end too
    # Swap the bounties: the other row is now far richer.
    for seat in (me, first):
        for i in t.seat(seat).zones["wanderers"]:
            state.bounty_bonus[i] = 0 if seat == me else 9
    choice = military_choice(t, me, seats.legal_actions(t))
    assert (choice.kind, choice.target) == ("hunt_row", first)
