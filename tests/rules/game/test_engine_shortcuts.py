"""The engine's and the table's shortcuts answer exactly what the long way answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.game import combat, engine, policies, reactions, rivalry, rulings, seats
from rules.game.actions import Action
from rules.game.config import GameConfig
from rules.game.multiplayer_policy import SeatPolicy
from rules.game.runner import game_seed
from rules.game.state import GameState
from rules.rng import derive_seed
from tests.rules.game.engine_helpers import SAMPLES, catalogue, sample


def every_state(deck: str, games: int, policy: str) -> Iterator[GameState]:
    """The state before every decision of ``games`` solo games."""
    prepared = engine.prepare(sample(deck), catalogue())
    for number in range(1, games + 1):
        seed = game_seed(5, number)
        state = engine.new_game(prepared, None, seed)
        chooser = policies.POLICIES[policy](derive_seed(seed, "policy"))
        while not state.outcome:
            actions = engine.legal_actions(state)
            yield state
            engine.apply(state, chooser(state, actions))


@pytest.mark.parametrize("deck", SAMPLES)
def test_a_side_can_assign_exactly_when_it_has_assignment_options(deck: str) -> None:
    checked = 0  # (greedy: the random policy seldom fights)
    for state in every_state(deck, 12, "greedy"):
        if state.combat is None or state.combat.step != "assign":
            continue
        engaged = combat.engaged(state)
        for side in (combat.PLAYER, combat.WILD):
            assert combat._can_assign(state, side) == bool(combat._assign_options(state, side))
            for card in combat._unassigned(state, side, engaged):
                busy = engaged.get(card, [])
                assert combat._has_target(state, side, card, engaged, busy) == any(
                    t not in busy for t in combat._targets(state, side, card, engaged))
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("deck", SAMPLES)
def test_faction_members_counts_the_personalities_in_play(deck: str) -> None:
    checked = 0
    for state in every_state(deck, 8, "random"):
        people = rulings.personalities_in_play(state)
        factions = {state.card(i).faction for i in range(len(state.cards))} - {None}
        for faction in (*sorted(f for f in factions if f), "nobody"):
            assert rulings.faction_members(state, faction) == sum(
                1 for i in people if state.card(i).faction == faction)
        checked += len(people)
    assert rulings.faction_members(state, None) == 0
    assert checked > 100


@pytest.mark.parametrize("decks", [SAMPLES[:2], SAMPLES[2:5]])
def test_a_seat_s_uniques_in_play_are_found_from_its_unique_cards_and_guests(
        decks: tuple[str, ...]) -> None:
    config = GameConfig(players=len(decks))
    prepared = [engine.prepare(sample(d), catalogue(), config) for d in decks]
    checked = 0
    for number in range(1, 9):
        seed = derive_seed(2, "matchup", number)
        table = seats.new_table(prepared, seed, config)
        chooser = [SeatPolicy("greedy", derive_seed(seed, "policy", s))
                   for s in range(len(decks))]
        while not table.outcome:
            for seat, state in enumerate(table.seats):
                assert seats._uniques_in_play(state, table.unique_cards[seat],
                                              table.own_cards[seat]) == seats._uniques(state)
                checked += 1
            seat = seats.to_move(table)
            assert seats.apply(table, chooser[seat](table, seat,
                                                    seats.legal_actions(table))).ok
    assert checked > 100


def every_table(decks: tuple[str, ...], games: int) -> Iterator[seats.Table]:
    """The table before every decision of ``games`` greedy matchup games of ``decks``."""
    config = GameConfig(players=len(decks))
    prepared = [engine.prepare(sample(d), catalogue(), config) for d in decks]
    for number in range(1, games + 1):
        seed = derive_seed(3, "matchup", number)
        table = seats.new_table(prepared, seed, config)
        chooser = [SeatPolicy("greedy", derive_seed(seed, "policy", s))
                   for s in range(len(decks))]
        while not table.outcome:
            yield table
            seat = seats.to_move(table)
            assert seats.apply(table, chooser[seat](table, seat,
                                                    seats.legal_actions(table))).ok


TABLES = [SAMPLES[:2], SAMPLES[:4]]


@pytest.mark.parametrize("decks", TABLES)
def test_the_active_seats_kept_are_the_seats_worked_out_again(decks: tuple[str, ...]) -> None:
    checked = 0
    for table in every_table(decks, 6):
        assert table.active() == seats.active_seats(table.players, table.lead, table.out)
        checked += 1
    # A new lead player or a knock-out is seen at once.
    table.lead = (table.lead + 1) % table.players
    assert table.active() == seats.active_seats(table.players, table.lead, table.out)
    table.out[table.active()[0]] = (table.round, "attack")
    assert table.active() == seats.active_seats(table.players, table.lead, table.out)
    assert checked > 100


@pytest.mark.parametrize("decks", TABLES)
def test_the_uniques_that_were_in_play_are_found_from_where_the_cards_were(
        decks: tuple[str, ...]) -> None:
    checked = 0
    for table in every_table(decks, 6):
        for seat, state in enumerate(table.seats):
            unique, own = table.unique_cards[seat], table.own_cards[seat]
            was = [state.where[i] for i in unique]
            assert seats._uniques_were(state, unique, was, own, state.where[own:]) \
                == seats._uniques_in_play(state, unique, own)
            assert not seats._moved(state.where, unique, was)
            checked += len(unique)
    assert checked > 100


@pytest.mark.parametrize("decks", TABLES)
def test_a_seat_without_an_answering_card_at_hand_has_no_answer(
        decks: tuple[str, ...]) -> None:
    checked = 0
    for table in every_table(decks, 6):
        if table.window is not None:
            continue
        seat = seats.to_move(table)
        for action in seats.legal_actions(table):
            for other in range(table.players):
                if other == seat or reactions.holds_answer(table.seats[other],
                                                           table.answerers[other]):
                    continue
                assert reactions.answers(table.seats, seat, action, other,
                                         table.answerers[other]) == []
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("decks", TABLES)
def test_the_table_s_legal_actions_are_the_long_way_s(decks: tuple[str, ...]) -> None:
    """No rival option missed for a seat without a rival bearer, no blocked action kept."""
    checked = 0
    for table in every_table(decks, 6):
        seat = seats.to_move(table)
        found = seats.legal_actions(table)
        assert not any(seats._blocked(table, seat, a) for a in found)
        # (the seat policy looks for rival abilities in this stage only)
        assert table.stage == "action" or not any(a.kind == "use_on" for a in found)
        legal = engine.legal_actions(table.seats[seat])
        saved = table.negated
        for negated in (saved, saved | {(seat, a.card) for a in legal if a.kind == "use"}):
            table.negated = negated
            assert seats._unblocked(table, seat, legal) \
                == [a for a in legal if not seats._blocked(table, seat, a)]
        table.negated = saved
        if table.window is None and table.stage == "action" and table.hosting is None \
                and seats._at_act(table.seats[seat]):
            others = [s for s in table.active() if s != seat]
            every = rivalry.options(table.seats, seat, others)
            used = {b for s, b in table.rivals_used if s == seat}
            assert [a for a in found if a.kind == "use_on"] \
                == [a for a in every if a.card not in used]
            checked += 1
    assert checked > 50


def rival_options_the_long_way(table: seats.Table, seat: int) -> list[Action]:
    """rivalry.options as it was written first: every faction counted again at each bearer."""
    state, found = table.seats[seat], []
    others = [s for s in table.active() if s != seat]
    for zone in rulings.PERSONALITY_ZONES:
        for bearer in state.zones[zone]:
            card = state.card(bearer)
            for clause in card.no_solo_effect:
                parsed = rivalry.parse(clause)
                if parsed is None:
                    continue
                ability, exhausts, members = parsed
                if (exhausts and bearer in state.exhausted) or (
                        members and rivalry.faction_members(table.seats, card.faction) < members):
                    continue
                strength, kind, _ = rivalry.RIVAL_ABILITIES[ability]
                if card.strength[strength]:
                    found += [Action("use_on", bearer, other, ability) for other in others
                              if (table.seats[other].personal[kind] if kind >= 0
                                  else sum(table.seats[other].personal)) > 0]
    return found


@pytest.mark.parametrize("decks", TABLES)
def test_the_rival_options_are_the_long_way_s(decks: tuple[str, ...]) -> None:
    checked = 0
    for table in every_table(decks, 6):
        for seat in table.active():
            others = [s for s in table.active() if s != seat]
            assert rivalry.options(table.seats, seat, others) \
                == rival_options_the_long_way(table, seat)
            checked += 1
    assert checked > 100
