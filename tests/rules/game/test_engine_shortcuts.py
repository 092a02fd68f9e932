"""The engine's and the table's shortcuts answer exactly what the long way answers."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from rules.game import combat, engine, policies, reactions, rivalry, rulings, seats
from rules.game.actions import Action
from rules.game.config import GameConfig
from rules.game.multiplayer_policy import SeatPolicy
from rules.game.runner import game_seed
from rules.game.state import ZONES, GameState
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


# --- the goldfish game's shortcuts (issue 21, item 3) ---------------------------------------

ZONE_ATTRIBUTES = [z for z in ZONES if z != "wanderers"]  # (the table replaces that one)


def keywords_the_long_way(state: GameState, instance: int) -> frozenset[str]:
    """rulings.keywords as it was written first, without its cache or its shortcut."""
    card = state.card(instance)
    found = set(card.keywords)
    for keyword, needed in card.keyword_thresholds.items():
        if sum(1 for i in rulings.personalities_in_play(state)
               if state.card(i).faction == card.faction) >= needed:
            found.add(keyword)
    for item in rulings.items_used(state, instance):
        found |= state.card(item).keywords
    if state.combat is not None:
        found.update(state.combat.granted.get(instance, ()))
    if any(e.kind == "no_fleetfoot" for item in rulings.items_used(state, instance)
           for e in state.card(item).statics):
        found.discard("fleetfoot")
    return frozenset(found)


def engaged_the_long_way(state: GameState) -> dict[int, list[int]]:
    assert state.combat is not None
    engaged: dict[int, list[int]] = {}
    for group in state.combat.groups:
        for member in group[2:]:
            engaged.setdefault(member, []).append(group[1])
    return engaged


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_remembered_keywords_factions_and_engaged_cards_are_the_long_way_s(
        deck: str) -> None:
    checked = 0
    for state in every_state(deck, 6, "greedy"):
        people = rulings.personalities_in_play(state)
        members: dict[str, int] = {}
        for i in people:
            faction = state.card(i).faction
            if faction:
                members[faction] = members.get(faction, 0) + 1
        assert rulings.faction_counts(state) == (
            members, sum(state.card(i).influence for i in people))
        for faction in (*members, "nobody"):
            assert rulings.faction_members(state, faction) == members.get(faction, 0)
        assert rulings.influence_total(state) == sum(state.card(i).influence for i in people) \
            + sum(state.personal[rulings.PRIMARY[f]] for f, n in members.items()
                  if n >= 5 and f in rulings.PRIMARY)
        # (On a copy with nothing remembered: a keyword cache may keep a card's keywords
        # from before a "used-fervor" mark, which nothing reads as a keyword, as before.)
        twin = state.clone()
        for instance in range(len(twin.cards)):
            assert rulings.keywords(twin, instance) == keywords_the_long_way(twin, instance)
            checked += 1
        if state.combat is not None:
            assert combat.engaged(state) == engaged_the_long_way(state)
    assert checked > 1000


@pytest.mark.parametrize("deck", SAMPLES[:2])
def test_the_zone_attributes_are_the_zones_lists(deck: str) -> None:
    checked = 0
    for state in every_state(deck, 4, "random"):
        for copy in (state, state.clone(), GameState.from_dict(state.to_dict(), state.table)):
            for zone in ZONE_ATTRIBUTES:
                assert getattr(copy, zone) is copy.zones[zone], zone
        checked += 1
    assert checked > 100
    assert not set(ZONE_ATTRIBUTES) & set(state.to_dict())  # (the zones are saved once)


@pytest.mark.parametrize("decks", TABLES[:1])
def test_the_zone_attributes_are_the_zones_lists_at_a_table(decks: tuple[str, ...]) -> None:
    checked = 0
    for table in every_table(decks, 3):
        for state in table.seats:
            for zone in ZONE_ATTRIBUTES:
                assert getattr(state, zone) is state.zones[zone], zone
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("favour", [-1, 0, 1, 2])
def test_spending_takes_the_kinds_max_would_take(favour: int) -> None:
    state = engine.new_game(sample(SAMPLES[0]), catalogue(), 1)
    state.favour = favour
    for held in itertools.product(range(4), repeat=3):
        for count in range(5):
            state.personal, state.city = list(held), [0, 0, 0]
            expected = list(held)
            for _ in range(count):  # the long way: max() with the rule as its key
                kind = max(range(3), key=lambda k: (k != favour, expected[k], -k))
                if expected[kind] == 0:
                    break
                expected[kind] -= 1
            rulings.spend(state, count)
            assert state.personal == expected
            assert rulings.held(state) == sum(expected)


def test_a_profile_s_kind_attributes_are_its_type_and_subtype() -> None:
    for deck in SAMPLES:
        for card in engine.prepare(sample(deck), catalogue()).table.values():
            assert card.is_troop == (card.type == "personality" and card.subtype == "troop")
            assert card.is_citizen == (card.type == "personality"
                                       and card.subtype == "citizen")
            assert card.is_structure == (card.type == "structure")
            assert rulings.tokens(card.cost) == sum(card.cost)


@pytest.mark.parametrize("deck", SAMPLES)
def test_greedy_s_lone_options_are_what_its_rules_would_choose(deck: str) -> None:
    checked = 0
    for state in every_state(deck, 6, "greedy"):
        actions = engine.legal_actions(state)
        if len(actions) != 1:
            continue
        assert greedy_the_long_way(state, actions) is actions[0]
        checked += 1
    assert checked > 20


def greedy_the_long_way(state: GameState, actions: list[Action]) -> Action:
    """GreedyPolicy.__call__ without its shortcut for a lone option."""
    if state.bounty_due:
        return policies._bounty_choice(state, actions)
    if state.combat is not None:
        return policies._combat_choice(state.clone(), actions)
    rules = {"draw": policies._draw_choice, "act": policies._act_choice,
             "fine": policies._fine_choice, "discard": policies._discard_choice}
    if state.step in rules:
        return rules[state.step](state, actions)
    if state.step == "military":
        return policies._find(actions, "hunt" if policies._worth_hunting(state) else "pass")
    return policies._find(actions, "done")


@pytest.mark.parametrize("decks", TABLES)
def test_the_rival_options_read_from_the_bearers_are_the_full_reading_s(
        decks: tuple[str, ...]) -> None:
    checked = 0
    for table in every_table(decks, 6):
        for seat in table.active():
            others = [s for s in table.active() if s != seat]
            for used in ((), table.rival_bearers[seat][:1]):
                assert rivalry.options(table.seats, seat, others, used,
                                       table.rival_bearers[seat]) \
                    == rivalry.options(table.seats, seat, others, used)
                checked += 1
    assert checked > 100
