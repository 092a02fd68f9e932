"""The engine's and the table's shortcuts answer exactly what the long way answers."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection, Iterator, Sequence

import pytest

from rules.game import combat, engine, policies, reactions, rivalry, rulings, seats
from rules.game import multiplayer_policy as mp
from rules.game.actions import Action, ActionBook
from rules.game.config import GameConfig
from rules.game.multiplayer_policy import SeatPolicy
from rules.game.profile import Ability
from rules.game.runner import game_seed
from rules.game.state import DISCARDS, DRAW_PILES, IN_PLAY, ZONES, GameState
from rules.rng import GameRng, SplitMix64, derive_seed
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
def test_a_seat_s_uniques_in_play_are_found_from_its_unique_cards(
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
                assert seats._uniques_in_play(state, table.unique_cards[seat]) \
                    == seats._uniques(state)
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
        # (rival abilities in the Action and Development cycle; Crusade also at a seat's turn
        # of a modification step)
        fight = seats.deciding_state(table, seat).combat
        assert table.stage == "action" or not any(a.kind == "use_on" for a in found) \
            or (fight is not None and fight.step == "modify")
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
    """rivalry.options as it was written first: every faction counted again at each bearer
    (and the exhausting ones: every card in play of the other seats looked at)."""
    state, found = table.seats[seat], []
    others = [s for s in table.active() if s != seat]
    for zone in (*rulings.PERSONALITY_ZONES, "private"):
        for bearer in state.mover().zones[zone]:
            card = state.card(bearer)
            for clause in card.no_solo_effect:
                parsed = rivalry.parse(clause)
                if parsed is None:
                    continue
                ability, exhausts, members = parsed
                if (exhausts and bearer in state.exhausted) or (
                        members and rivalry.faction_members(table.seats, card.faction) < members):
                    continue
                if ability in rivalry.EXHAUSTING:
                    what = rivalry.EXHAUSTING[ability][1]
                    for other in others:
                        victim = table.seats[other]
                        # (the order: a troop guarding, then defending; a structure in
                        # the private holdings, then the wall)
                        for where in ("residents", "guards", "private", "defensive"):
                            for target in victim.mover().zones[where]:
                                aimed = victim.card(target)
                                if target not in victim.exhausted and (
                                        (what == "troop" and aimed.subtype == "troop"
                                         and where in ("guards", "defensive"))
                                        or (what == "citizen" and where == "residents")
                                        or (what == "structure" and aimed.type == "structure")):
                                    found.append(Action("use_on", bearer, other,
                                                        f"{ability}:{target}"))
                    continue
                strength, kind, _ = rivalry.RIVAL_ABILITIES[ability]
                if card.strength[strength]:
                    found += [Action("use_on", bearer, other, ability) for other in others
                              if (table.seats[other].mover().personal[kind] if kind >= 0
                                  else sum(table.seats[other].mover().personal)) > 0]
    return found


@pytest.mark.parametrize("decks", [*TABLES, (SAMPLES[5], SAMPLES[2])])
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


def faction_counts_the_long_way(state: GameState) -> tuple[dict[str, int], int]:
    """Each faction's members in play and the influence total, counted from the zones."""
    people = rulings.personalities_in_play(state)
    members: dict[str, int] = {}
    for i in people:
        faction = state.card(i).faction
        if faction:
            members[faction] = members.get(faction, 0) + 1
    return members, sum(state.card(i).influence for i in people)


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_remembered_keywords_factions_and_engaged_cards_are_the_long_way_s(
        deck: str) -> None:
    checked = 0
    for state in every_state(deck, 6, "greedy"):
        members, influence = faction_counts_the_long_way(state)
        assert rulings.faction_counts(state) == (members, influence)
        for faction in (*members, "nobody"):
            assert rulings.faction_members(state, faction) == members.get(faction, 0)
        assert rulings.influence_total(state) == influence \
            + sum(state.mover().personal[rulings.PRIMARY[f]] for f, n in members.items()
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
            me = copy.mover()
            for zone in ZONE_ATTRIBUTES:
                assert getattr(me, zone) is me.zones[zone], zone
        checked += 1
    assert checked > 100
    # (the zones are saved once)
    assert not set(ZONE_ATTRIBUTES) & set(state.to_dict()["seats"][0])


@pytest.mark.parametrize("decks", TABLES[:1])
def test_the_zone_attributes_are_the_zones_lists_at_a_table(decks: tuple[str, ...]) -> None:
    checked = 0
    for table in every_table(decks, 3):
        for state in table.seats:
            for zone in ZONE_ATTRIBUTES:
                assert getattr(state.mover(), zone) is state.mover().zones[zone], zone
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("favour", [-1, 0, 1, 2])
def test_spending_takes_the_kinds_max_would_take(favour: int) -> None:
    state = engine.new_game(sample(SAMPLES[0]), catalogue(), 1)
    state.mover().favour = favour
    for held in itertools.product(range(4), repeat=3):
        for count in range(5):
            state.mover().personal, state.city = list(held), [0, 0, 0]
            expected = list(held)
            for _ in range(count):  # the long way: max() with the rule as its key
                kind = max(range(3),
                           key=lambda k: (expected[k] > 0, k != favour, expected[k], -k))
                if expected[kind] == 0:
                    break
                expected[kind] -= 1
            rulings.spend(state, count)
            assert state.mover().personal == expected
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
    if state.mover().homeless:
        return policies._rehouse_choice(state, actions)
    if state.mover().bounty_due:
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


# --- the greedy seat's Military Phase choice, the long way (as first written) ---------------


def kill_chance_the_long_way(state: GameState, troop: int, enemy_state: GameState,
                             enemy: int) -> float:
    enemy_card = enemy_state.card(enemy)
    wounds = 2 if "fierce" in rulings.keywords(state, troop) \
        and "armor" not in rulings.keywords(enemy_state, enemy) else 1
    if enemy_card.vitality - enemy_state.wounds.get(enemy, 0) > wounds:
        return 0.0
    if troop in state.exhausted:
        return 0.0
    return hit_chance_the_long_way(state.card(troop).offense, enemy_card.defense)


def hit_chance_the_long_way(offense: int, defense: int) -> float:
    margin = offense - defense
    return sum(1 for bonus in mp.DIE_BONUS if margin + bonus > 0) / 6


def foresee_the_long_way(attacker: GameState, sent: Sequence[int], defender: GameState,
                         away: Collection[int] = ()) -> tuple[float, ...]:
    """mp.foresee with key functions, as (cut, valor, lost, breach, knockout)."""
    free = lineup_the_long_way(attacker, sent, defender)
    home = [t for t in defender.mover().zones["defensive"] if defender.card(t).is_troop
            and t not in defender.exhausted and t not in away]
    pool = sum(defender.mover().personal)
    cut = valor = lost = 0.0
    left = list(home)
    rest = []
    for troop in free:
        if not left:
            rest.append(troop)
            continue
        power = attacker.card(troop).offense
        target = max(left, key=lambda d: (power - defender.card(d).defense, -d))
        left.remove(target)
        killed = kill_chance_the_long_way(attacker, troop, defender, target)
        cut += killed * defender.card(target).influence
        valor += killed * min(defender.card(target).influence, pool)
        back = kill_chance_the_long_way(defender, target, attacker, troop)
        lost += back * attacker.card(troop).influence * (1 + mp.TOKEN)
    if left and free:
        weakest = min(free, key=lambda t: (attacker.card(t).defense, t))
        power = sum(defender.card(d).offense for d in left)
        chance = hit_chance_the_long_way(power, attacker.card(weakest).defense)
        if attacker.card(weakest).vitality - attacker.wounds.get(weakest, 0) <= 1:
            lost += chance * attacker.card(weakest).influence * (1 + mp.TOKEN)
    breach = knockout = 0.0
    if rest:
        targets = [*defender.mover().zones["private"], *defender.mover().zones["guards"]]
        if targets:
            cut, valor, breach, knockout = past_the_defenders_the_long_way(
                attacker, rest, defender, targets, cut, valor, pool)
    return cut, valor, lost, breach, knockout


def past_the_defenders_the_long_way(attacker: GameState, rest: Sequence[int],
                                    defender: GameState, targets: list[int], cut: float,
                                    valor: float, pool: int) -> tuple[float, float, float, float]:
    power = sum(attacker.card(t).offense for t in rest)
    razes = sum(3 for t in rest if "raze" in rulings.keywords(attacker, t))

    def defense(target: int) -> int:
        card = defender.card(target)
        value = card.defense
        if card.is_structure:
            value += sum(defender.card(g).defense for g in defender.mover().zones["guards"]
                         if defender.host.get(g) == target)
        return value

    def key(target: int) -> tuple[int, int]:
        bonus = razes if defender.card(target).is_structure else 0
        stronghold = defender.card(target).subtype == "stronghold"
        return (power + bonus - defense(target), 0 if stronghold else 1)

    target = max(targets, key=key)
    card = defender.card(target)
    chance = hit_chance_the_long_way(power + (razes if card.is_structure else 0),
                                     defense(target))
    if card.subtype == "stronghold":
        doomed = card.vitality - defender.wounds.get(target, 0) <= 1
        return cut, valor, chance, chance if doomed else 0.0
    if card.is_structure:
        living: dict[int, int] = {}
        for resident in defender.mover().zones["residents"]:
            home = defender.host.get(resident, -1)
            living[home] = living.get(home, 0) + 1
        residents = [r for r in defender.mover().zones["residents"]
                     if defender.host.get(r) == target]
        homes = sum(max(0, defender.card(s).residencies - living.get(s, 0))
                    for s in defender.mover().zones["private"] if s != target)
        homeless = sorted(defender.card(r).influence for r in residents)[:max(
            0, len(residents) - homes)]
        return cut + chance * (sum(homeless) + mp.STRUCTURE_WORTH), valor, 0.0, 0.0
    if card.vitality - defender.wounds.get(target, 0) <= 1:
        return (cut + chance * card.influence, valor + chance * min(card.influence, pool),
                0.0, 0.0)
    return cut, valor, 0.0, 0.0


def climbs_the_long_way(state: GameState, troop: int) -> bool:
    return bool({"climb", "flight"} & rulings.keywords(state, troop))


def fight_of(fight: mp.Fight) -> tuple[float, ...]:
    return fight.cut, fight.valor, fight.lost, fight.breach, fight.knockout


def attack_worth_the_long_way(table: seats.Table, seat: int, target: int, sent: list[int],
                              leader: int) -> float:
    if not sent:
        return -math.inf
    me, them = table.seats[seat], table.seats[target]
    cut, valor, lost, breach, knockout = foresee_the_long_way(me, sent, them)
    weight = 1.0 if target == leader else mp.OTHERS
    worth = cut * weight + mp.TOKEN * valor - lost + mp.BREACH * breach
    if knockout >= mp.KNOCKOUT_CHANCE:
        worth += mp.URGENT
    total = rulings.influence_total(them)
    if total >= table.config.target - mp.LEADER_GAP and cut >= 1.0 \
            and total == rulings.influence_total(table.seats[leader]):
        worth += mp.URGENT
    return worth


def home_risk_the_long_way(table: seats.Table, seat: int, later: list[int],
                           sent: Collection[int]) -> float:
    me = table.seats[seat]
    worst = 0.0
    for other in later:
        state = table.seats[other]
        ready = seats.attackers(state, "all")
        if not ready:
            continue
        cut, valor, _, _, knockout = foresee_the_long_way(state, ready, me, away=sent)
        worst = max(worst, cut + mp.TOKEN * valor + mp.URGENT * knockout)
    return worst


def military_choice_the_long_way(table: seats.Table, seat: int,
                                 actions: Sequence[Action]) -> Action:
    """mp.military_choice as first written: the fights foreseen with key functions, the
    totals, the leader and the threats worked out again at every use, and the risk at home
    of keeping every troop at home worked out first."""
    me = table.seats[seat]
    later = [s for s in table.queue[1:] if s != seat and s not in table.out]
    exposed = home_risk_the_long_way(table, seat, later, ())
    others = [s for s in table.active() if s != seat]
    leader = max(others, key=lambda s: (rulings.influence_total(table.seats[s]), -s))
    best: tuple[float, Action] | None = None
    for action in actions:
        if action.kind != "attack":
            continue
        sent = seats.attackers(me, action.option)
        worth = attack_worth_the_long_way(table, seat, action.target, sent, leader)
        if worth == -math.inf:
            continue
        worth -= home_risk_the_long_way(table, seat, later, sent) - exposed
        if best is None or worth > best[0]:
            best = (worth, action)
    crowded = mp._crowded(table)
    if best is not None and best[0] >= mp.URGENT and not crowded:
        return best[1]
    hunt = next((a for a in actions if a.kind == "hunt"), None)
    hunting: tuple[float, Action] | None = None
    if hunt is not None and policies._worth_hunting(me):
        hunting = (mp.OWN_ROW + mp.TOKEN * mp.row_worth(me, me), hunt)
    for action in actions:
        if action.kind == "hunt_row":
            bounty = mp.row_worth(me, table.seats[action.target])
            worth = mp.TOKEN * bounty - mp._relief(table, leader, action.target)
            if (bounty >= mp.HUNT_WORTH or (crowded and bounty > 0)) \
                    and (hunting is None or worth > hunting[0]):
                hunting = (worth, action)
    if crowded and hunting is not None:
        return hunting[1]
    if best is not None and best[0] >= mp.ATTACK_WORTH \
            and (hunting is None or best[0] > hunting[0]):
        return best[1]
    if hunting is not None and hunting[0] > 0:
        return hunting[1]
    return next(a for a in actions if a.kind == "pass")


@pytest.mark.parametrize("decks", TABLES)
def test_the_fight_foreseen_by_loops_is_the_key_functions_fight(
        decks: tuple[str, ...]) -> None:
    checked = 0
    # Every 17th decision of 4 games: thousands of fights a table size, not a hundred thousand.
    for table in every_table(decks, 4):
        if table.decisions % 17:
            continue
        for seat in table.active():
            me = table.seats[seat]
            for other in table.active():
                if other == seat:
                    continue
                them = table.seats[other]
                for option in ("all", "hold"):
                    sent = seats.attackers(me, option)
                    if not sent:
                        continue
                    for away in ((), seats.attackers(them, "all"),
                                 seats.attackers(them, "hold")):
                        assert fight_of(mp.foresee(me, sent, them, away)) \
                            == foresee_the_long_way(me, sent, them, away)
                        checked += 1
    assert checked > 300


@pytest.mark.parametrize("decks", TABLES)
def test_the_greedy_military_choice_is_the_long_way_s(decks: tuple[str, ...]) -> None:
    checked = attacks = 0
    for table in every_table(decks, 10):
        if table.window is not None or table.stage != "military" or table.hosting is not None:
            continue
        seat = seats.to_move(table)
        state = table.seats[seat]
        if state.combat is not None or state.mover().choice_due() \
                or seats.deciding_state(table, seat) is not state:
            continue  # (a fight, or his turn in another's: not his Military choice)
        actions = seats.legal_actions(table)
        others = [s for s in table.active() if s != seat]
        totals = {s: rulings.influence_total(table.seats[s]) for s in table.active()}
        assert mp._leader(table, seat, totals) == mp._leader(table, seat) == max(
            others, key=lambda s: (rulings.influence_total(table.seats[s]), -s))
        later = [s for s in table.queue[1:] if s != seat and s not in table.out]
        threats = mp._threats(table, later)
        for action in actions:
            if action.kind == "attack":
                sent = seats.attackers(state, action.option)
                leader = mp._leader(table, seat)
                assert mp.attack_worth(table, seat, action.target, sent, leader, totals) \
                    == mp.attack_worth(table, seat, action.target, sent, leader) \
                    == attack_worth_the_long_way(table, seat, action.target, sent, leader)
                assert mp._home_risk(state, threats, sent) \
                    == mp.home_risk(table, seat, later, sent) \
                    == home_risk_the_long_way(table, seat, later, sent)
        choice = mp.military_choice(table, seat, actions)
        assert choice == military_choice_the_long_way(table, seat, actions)
        checked += 1
        attacks += choice.kind == "attack"
    assert checked > 50
    assert attacks > 5


# --- the goldfish game's fourth speed pass (docs/goldfish.md, Speed) -------------------------


@pytest.mark.parametrize(("items", "card"), [
    ([], 0), ([3], 3), ([3], 4), ([1, 2, 3], 3), ([1, 2, 3], 0), ([5, 5], 5), ([0], 0),
    ([300, 301, 1000], 1000), ([300, 301], 299)])
def test_listed_is_in(items: list[int], card: int) -> None:
    assert combat.listed(items, card) == (card in items)


def bounty_choice_the_long_way(state: GameState, actions: Sequence[Action]) -> Action:
    """Greedy's bounty token with max/min and their keys, as it was written before."""
    offered = [rulings.KIND_INDEX[a.option] for a in actions]
    personal = state.mover().personal
    best_short: tuple[int, int] | None = None
    for instance in state.mover().zones["hand"]:
        card = state.card(instance)
        if card.type == "event" and card.subtype != "general":
            continue
        short = [max(0, card.cost[k] - personal[k]) for k in range(3)]
        lacking = sum(short)
        if lacking and any(short[k] for k in offered):
            kind = max(offered, key=lambda k: (short[k], -k))
            if best_short is None or lacking < best_short[0]:
                best_short = (lacking, kind)
    if best_short is not None:
        chosen = best_short[1]
    else:
        counting = policies._bonus_kinds(state)
        favour = state.mover().favour
        chosen = min(offered, key=lambda k: (k not in counting, personal[k], k != favour, k))
    return actions[offered.index(chosen)]


def subsets(kinds: Sequence[str]) -> Iterator[tuple[str, ...]]:
    for size in range(1, len(kinds) + 1):
        yield from itertools.combinations(kinds, size)


@pytest.mark.parametrize("deck", SAMPLES)
def test_greedy_s_bounty_token_is_the_long_way_s(deck: str) -> None:
    """Every state of greedy games, with every set of kinds the bounty could offer and
    every kept kind (the tokens held as they are, then each kind short)."""
    checked = 0
    for state in every_state(deck, 6, "greedy"):
        if state.phase != "action" or state.step != "act":
            continue
        held, favour = list(state.mover().personal), state.mover().favour
        for personal in (held, [0, held[1], held[2]], [held[0], 0, held[2]], [9, 9, 0]):
            for keep in (-1, 0, 1, 2):
                state.mover().personal[:], state.mover().favour = personal, keep
                for kinds in subsets(list(rulings.KIND_INDEX)):
                    offered = [Action("bounty", option=k) for k in kinds]
                    assert policies._bounty_choice(state, offered) \
                        is bounty_choice_the_long_way(state, offered)
                    checked += 1
        state.mover().personal[:], state.mover().favour = held, favour
    assert checked > 1000


@pytest.mark.parametrize("deck", SAMPLES)
def test_greedy_s_counts_by_loops_are_the_sums(deck: str) -> None:
    checked = 0
    for state in every_state(deck, 6, "greedy"):
        if state.combat is not None:
            continue
        troops = sum(1 for t in state.mover().zones["defensive"] if state.card(t).is_troop)
        in_hand = sum(1 for t in state.mover().zones["hand"] if state.card(t).is_troop)
        rows = len(state.mover().zones["wanderers"])
        assert policies._defended(state) == (troops > rows)
        assert policies._defended(state, hand=True) == (
            troops + (in_hand if troops else 0) > rows)
        for pile in ("structure_pile", "personality_pile"):
            cards = state.mover().zones[pile]
            if cards:
                assert policies._income_share(state, pile) == sum(
                    1 for i in cards if state.card(i).income) / len(cards)
        context = policies._Context(state)
        assert context.troops == troops
        bonus = policies._counting_kinds(context.members)
        for instance in state.mover().zones["hand"]:
            card = state.card(instance)
            spare = sum(max(state.mover().personal[k] - card.cost[k], 0)
                        for k in range(3) if k not in bonus)
            assert context.bonus_cost(card) == ((
                sum(card.cost[k] for k in bonus) + max(card.generic - spare, 0))
                * policies.BONUS_TOKEN if bonus else 0.0)
        checked += 1
    assert checked > 100


def assignment_key(state: GameState, action: Action, numbered: bool) -> tuple[object, ...]:
    option: object = action.option
    if numbered:
        option = int(action.option) if action.option else -1
    return (state.cards[action.card], state.wounds.get(action.card, 0)
            + (100 if action.card in state.exhausted else 0), action.target, option)


@pytest.mark.parametrize("deck", SAMPLES)
def test_greedy_s_distinct_assignments_are_the_numbered_leads_ones(deck: str) -> None:
    """Assignments told apart by a joint attack's lead as written are told apart by its
    number: the same options weighed."""
    checked = 0
    for state in every_state(deck, 12, "greedy"):
        if state.combat is None or state.combat.step not in ("assign", "berserk"):
            continue
        choices = [a for a in engine.legal_actions(state)
                   if a.kind in ("separate", "joint", "berserk")]
        for a, b in itertools.product(choices, repeat=2):
            assert (assignment_key(state, a, False) == assignment_key(state, b, False)) == (
                assignment_key(state, a, True) == assignment_key(state, b, True))
            checked += 1
    assert checked > 50


def kill_chance_of_pairs(left: int, hits: list[tuple[float, int]]) -> float:
    """policies._kill_chance as it was, on (chance, wounds) pairs."""
    if left <= 0:
        return 1.0
    if left == 1 or all(wounds >= left for _, wounds in hits):
        missed = 1.0
        for chance, _ in hits:
            missed *= 1.0 - chance
        return 1.0 - missed
    spread = [1.0] + [0.0] * left
    for chance, wounds in hits:
        spread = policies._spread_hit(spread, left, chance, wounds)
    return spread[left]


@pytest.mark.parametrize("left", [0, 1, 2, 3])
@pytest.mark.parametrize("hits", [
    [], [(35 / 36, 1)], [(30 / 36, 2)], [(6 / 36, 1), (1 / 36, 2)],
    [(35 / 36, 1), (30 / 36, 1), (6 / 36, 2)], [(0.5, 1), (0.25, 1), (0.125, 1), (1.0, 1)]])
def test_the_kill_chance_of_hits_with_their_attack_is_the_pairs(
        left: int, hits: list[tuple[float, int]]) -> None:
    """The hits now carry their attack's index (one list kept in the target's Figures) and
    are objects with a native float, not tuples: neither changes anything (the same bits, and
    the same as the general spread for two wounds)."""
    with_index = [policies.Hit(c, w, i) for i, (c, w) in enumerate(hits)]
    assert policies._kill_chance(left, with_index) == kill_chance_of_pairs(left, hits)


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_fight_s_kept_hits_are_the_hits_of_its_value(deck: str) -> None:
    """Fight.figures' hits (kept from the value as it stands) hold every attack that may wound, step
    by step in the forecast's order, and the value worked out again without keeping anything is the
    same."""
    checked = 0
    for state in every_state(deck, 10, "greedy"):
        if state.combat is None or state.combat.step not in ("assign", "modify"):
            continue
        fight = policies.Fight(state)
        expected: dict[int, list[int]] = {}
        for step in (0, 1, 2):  # (resolved step by step, as the value weighs them)
            for index, margin in enumerate(fight.margins):
                if policies._wound_chance(margin) > 0 and fight.attacks[index].step == step:
                    expected.setdefault(fight.attacks[index].target, []).append(index)
        assert {t: [h.attack for h in f.hits] for t, f in fight.figures.items()} == expected
        for figures in fight.figures.values():
            assert [h.chance for h in figures.hits] == [
                fight.chances[h.attack] for h in figures.hits]
            assert [h.wounds for h in figures.hits] == [
                fight.attacks[h.attack].wounds for h in figures.hits]
        assert fight.value() == fight.base
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_pair_tables_are_the_offense_and_defense_worked_out(deck: str) -> None:
    """combat._pair_offense and _pair_defense (rows by instance, kept during the assignments)
    answer _offense and _defense against the one attacker, asked first or again."""
    checked = 0
    for state in every_state(deck, 10, "greedy"):
        c = state.combat
        if c is None or c.step != "assign":
            continue
        cards = [*c.player, *c.wild, *state.mover().private, *state.mover().guards]
        for _ in range(2):  # (the first time fills the rows, the second reads them)
            for card, other in itertools.product(cards, repeat=2):
                assert combat._pair_offense(state, card, other) == combat._offense(
                    state, card, other)
                assert combat._pair_defense(state, card, other) == combat._defense(
                    state, card, [other])
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_attacks_kept_while_assigning_are_the_forecast_worked_out_again(deck: str) -> None:
    """combat.forecast keeps each group's attack during the assignments (combat.Kept)
    and makes it again only for a new or grown group: at every assignment decision of greedy
    games (whose Fight asks for the forecast at each), the attacks are those worked out from
    scratch (on a copy, in the modification step: nothing kept, the pairs not remembered),
    and so are the player's cards' targets kept for the options."""
    checked = reused = 0
    for state in every_state(deck, 12, "greedy"):
        c = state.combat
        if c is None or c.step != "assign":
            continue
        kept = [] if c.assign_memo is None else list(combat._kept(c).attacks)
        found = combat.forecast(state)
        twin = state.clone()
        assert twin.combat is not None
        twin.combat.step = "modify"
        assert found == combat.forecast(twin)
        reused += sum(1 for attack in found if any(attack is k for k in kept))
        if c.assign_memo is not None:  # (the player's targets kept by _card_options)
            for card, targets in combat._kept(c).targets.items():
                assert targets == combat._targets(twin, combat.PLAYER, card)
        checked += 1
    assert checked > 30
    assert reused > 10  # (the shortcut was taken)


@pytest.mark.parametrize("number", [0, 1, 9, 10, 57, 511, 512, 4000])
def test_a_joint_attack_s_lead_is_written_and_read_as_str_and_int(number: int) -> None:
    assert combat.lead_text(number) == str(number)
    assert combat.lead_of(str(number)) == number
    assert combat.lead_of(f"0{number}") == int(f"0{number}")  # (not a kept text: parsed)


def distinct_by_set(state: GameState, choices: list[Action]) -> list[Action]:
    """policies._distinct_assignments the long way: a key per option, and a set of them."""
    distinct: list[Action] = []
    seen: set[tuple[str, int, int, str]] = set()
    for action in choices:
        same = (state.cards[action.card], state.wounds.get(action.card, 0)
                + (100 if action.card in state.exhausted else 0), action.target,
                action.option)
        if same not in seen:
            seen.add(same)
            distinct.append(action)
    return distinct


@pytest.mark.parametrize("deck", SAMPLES)
def test_greedy_s_distinct_assignments_by_loop_are_the_set_s(deck: str) -> None:
    checked = 0
    # (24 games: kalim-faithful's greedy games got shorter, and 12 of them fought too little;
    # 16 found 44 copies once generic costs were paid in full)
    for state in every_state(deck, 24, "greedy"):
        if state.combat is None or state.combat.step not in ("assign", "berserk"):
            continue
        choices = [a for a in engine.legal_actions(state)
                   if a.kind in ("separate", "joint", "berserk")]
        found = policies._distinct_assignments(state, choices)
        expected = distinct_by_set(state, choices)
        assert [id(a) for a in found] == [id(a) for a in expected]
        checked += len(choices) - len(found)
    assert checked > 50  # (copies were found)


def usable_the_long_way(state: GameState, combat_step: bool) -> list[tuple[int, object, int]]:
    """rulings.usable_abilities as it was: every ability of every card, filtered by its kind."""
    found: list[tuple[int, object, int]] = []
    me = state.mover()
    for zone in (me.private, me.residents, me.guards, me.defensive, me.attached):
        for instance in zone:
            card = state.card(instance)
            if not card.abilities:
                continue
            actor = rulings._actor(state, instance, card)
            if actor < 0:
                continue
            for ability in card.abilities:
                if ability.effect.combat != combat_step:
                    continue
                if ability.exhausts and actor in state.exhausted:
                    continue
                if ability.threshold and rulings.faction_members(
                        state, state.card(actor).faction) < ability.threshold:
                    continue
                if not rulings.affordable(state, ability.effect.pay):
                    continue
                found.append((instance, ability, actor))
    return found


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_usable_abilities_of_one_kind_are_the_filtered_abilities(deck: str) -> None:
    """Profile.plain_abilities and combat_abilities: the usable abilities read from the one
    kind are those of every ability filtered by its kind, in the same order."""
    found = 0
    for state in every_state(deck, 8, "greedy"):
        for combat_step in (False, True):
            usable = rulings.usable_abilities(state, combat_step=combat_step)
            assert usable == usable_the_long_way(state, combat_step)
            found += len(usable)
    assert found > 20


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_deal_laid_out_once_is_the_deal_card_by_card(deck: str) -> None:
    """engine.deal_layout (the deck's deal worked out at its first game, copied by the next):
    every game starts as the deal made instance by instance from the deck's sections, with the
    kind of the faction with most personalities favoured."""
    prepared = engine.prepare(sample(deck), catalogue())
    for seed in (1, 2):
        state = engine.new_game(prepared, None, seed)
        assert prepared.deal is not None
        cards: list[str] = []
        for section in ("holdings", "structures", "personalities", "wanderers"):
            for entry in prepared.deck.section(section):
                cards += [entry.card_id] * entry.count
        assert state.cards == cards
        assert len(state.where) == len(state.flags) == len(cards)
        counts: dict[str, int] = {}
        for card_id in cards:
            card = prepared.table[card_id]
            if card.type == "personality" and card.faction in rulings.PRIMARY:
                counts[card.faction] = counts.get(card.faction, 0) + 1
        assert state.mover().favour == (
            rulings.PRIMARY[max(sorted(counts), key=lambda f: counts[f])] if counts else -1)
        # (Every instance is where its zone's list has it: the deal's zones, then play.)
        for instance in range(len(cards)):
            assert instance in state.mover().zones[state.where[instance]]
        dealt = engine.new_game(engine.prepare(sample(deck), catalogue()), None, seed)
        assert dealt.to_dict() == state.to_dict()  # (the first game of a deck: laid out anew)


def _bearers_sorted(state: GameState, bearers: Sequence[int], used: Collection[int]) -> list[int]:
    """The bearers in play and unused, in the order of the personalities in play, the long
    way: sorted by zone and place (rivalry.options read them so before the zones were read
    in turn)."""
    where = state.where
    return [b for _, _, b in sorted(
        [(rulings.PERSONALITY_ZONES.index(where[b]), state.mover().zones[where[b]].index(b), b)
         for b in bearers if where[b] in rulings.PERSONALITY_ZONES and b not in used])]


@pytest.mark.parametrize("decks", TABLES)
def test_the_rival_bearers_read_zone_by_zone_are_in_the_sorted_order(
        decks: tuple[str, ...]) -> None:
    """rivalry.options reads a seat's bearers in play zone by zone: the options come in the
    order of the bearers sorted by zone and place (each bearer's options together)."""
    several = 0
    for table in every_table(decks, 6):
        for seat in table.active():
            state = table.seats[seat]
            others = [s for s in table.active() if s != seat]
            bearers = table.rival_bearers[seat]
            for used in ((), bearers[:1]):
                found = rivalry.options(table.seats, seat, others, used, bearers)
                order = _bearers_sorted(state, bearers, used)
                cards = [a.card for a in found]
                assert cards == sorted(cards, key=order.index)
                several += len(order) > 1 and len(set(cards)) > 1
    assert several > 20


@pytest.mark.parametrize("decks", TABLES)
def test_nothing_blocked_hands_back_the_engine_s_own_list(decks: tuple[str, ...]) -> None:
    """With none of the seat's unique cards in hand and nothing negated, _unblocked returns
    the engine's list itself (a solo policy gets it so), which is the long way's filtering."""
    kept = 0
    for table in every_table(decks, 4):
        seat = seats.to_move(table)
        if table.window is not None:
            continue
        legal = engine.legal_actions(table.seats[seat])
        found = seats._unblocked(table, seat, legal)
        assert found == [a for a in legal if not seats._blocked(table, seat, a)]
        kept += found is legal
    assert kept > 100


def test_moved_is_any_card_away_from_where_it_was() -> None:
    where = ["hand", "residents", "deck", "dead"]
    cards = [0, 1, 3]
    for was in itertools.product(("hand", "residents", "dead"), repeat=3):
        assert seats._moved(where, cards, list(was)) \
            == any(where[cards[k]] != was[k] for k in range(len(cards)))


@pytest.mark.parametrize("decks", TABLES)
def test_the_uniques_in_play_come_in_the_long_way_s_order(decks: tuple[str, ...]) -> None:
    """After a seat's unique card moved, the uniques now in play are found from its unique
    cards: the same set as _uniques, built in the same order (what _check_uniques reads them
    in)."""
    checked = 0
    for table in every_table(decks, 4):
        for seat in table.active():
            state = table.seats[seat]
            found = seats._uniques_in_play(state, table.unique_cards[seat])
            assert list(found) == list(seats._uniques(state))
            checked += bool(found)
    assert checked > 100


# --- the table's third pass (docs/matchups.md, Speed) ---------------------------------------


@pytest.mark.parametrize("decks", TABLES)
def test_greedy_offered_no_rival_options_chooses_as_offered_them(
        decks: tuple[str, ...]) -> None:
    """seats.play offers the greedy seat the actions without the rival abilities; it looks
    for them (seats.rival_options) only when it would pass: the same choice as offered the
    full list, and rival_options are the full list's."""
    checked = rivals = 0
    for table in every_table(decks, 8):
        seat = seats.to_move(table)
        full = seats.legal_actions(table)
        short = seats._legal_actions(table, seat, False)
        assert short == [a for a in full if a.kind != "use_on"]
        assert seats.rival_options(table, seat) == [a for a in full if a.kind == "use_on"]
        policy = SeatPolicy("greedy", 0)
        assert policy(table, seat, short) == policy(table, seat, full)
        checked += 1
        rivals += len(short) < len(full)
    assert checked > 300
    assert rivals > 20


@pytest.mark.parametrize("decks", TABLES)
def test_a_table_played_with_rivals_deferred_is_the_table_played_without(
        decks: tuple[str, ...]) -> None:
    config = GameConfig(players=len(decks))
    prepared = [engine.prepare(sample(d), catalogue(), config) for d in decks]
    for number in range(1, 7):
        seed = derive_seed(4, "matchup", number)
        played = []
        for defer in (True, False):
            table = seats.new_table(prepared, seed, config)
            chooser = [SeatPolicy("greedy", derive_seed(seed, "policy", s))
                       for s in range(len(decks))]
            for policy in chooser:
                policy.defers_rivals = defer
            seats.play(table, chooser)
            played.append((table.outcome, table.winner, table.final_round, table.decisions,
                           [s.to_dict() for s in table.seats], [p.attacks for p in chooser]))
        assert played[0] == played[1]


def wild_choice_the_long_way(state: GameState) -> Action | None:
    """combat._wild_choice as it was written first: key functions, every option weighed."""
    options = combat._assign_options(state, combat.WILD)
    if not options:
        return None
    c = state.combat
    assert c is not None
    if c.wall_left > 0:
        def wall_key(a: Action) -> tuple[int, int, int]:
            keys = rulings.keywords(state, a.card)
            return (0 if {"climb", "flight"} & keys else 1, state.card(a.card).offense, a.card)
        return min(options, key=wall_key)
    card = max({a.card for a in options}, key=lambda x: (state.card(x).offense, -x))
    best: tuple[int, int, int] | None = None
    chosen: Action | None = None
    for action in [a for a in options if a.card == card]:
        if action.kind == "separate":
            margin = combat._offense(state, card, action.target) \
                - combat._defense(state, action.target, [card])
        else:
            group = combat._group(state, combat.WILD, action.target, int(action.option))
            margin = sum(combat._offense(state, m, action.target) for m in [*group[2:], card]) \
                - combat._defense(state, action.target, [*group[2:], card])
        stronghold = state.card(action.target).subtype == "stronghold"
        key = (margin, 1 if action.kind == "separate" else 0, 1 if stronghold else 0)
        if best is None or key > best:
            best, chosen = key, action
    return chosen


def _wild_turn(state: GameState) -> bool:
    return state.combat is not None and state.combat.step == "assign" \
        and state.combat.turn == combat.WILD


@pytest.mark.parametrize("decks", TABLES)
def test_the_wild_side_s_choice_is_the_long_way_s_at_a_table(decks: tuple[str, ...]) -> None:
    """In the combats between seats the attackers are the side the engine does not ask
    (their choices are made between two decisions: each is checked on a copy of the host,
    its assignments carried out by the wild side's rule, both ways, until its turn ends)."""
    checked = several = 0
    for table in every_table(decks, 12):
        for state in table.seats:
            if state.combat is None or state.combat.step != "assign":
                continue
            probe = state.copy()
            assert probe.combat is not None
            probe.combat.turn = combat.WILD
            for _ in range(8):
                if not _wild_turn(probe):
                    break
                choice = combat._wild_choice(probe)
                assert choice == wild_choice_the_long_way(probe)
                checked += 1
                several += len(combat._assign_options(probe, combat.WILD)) > 1
                if choice is None:
                    break
                combat._assign(probe, combat.WILD, choice)
                combat._pass_turn(probe, combat.WILD)
    assert checked > 100
    assert several > 30


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_wild_side_s_choice_is_the_long_way_s_solo(deck: str) -> None:
    checked = 0
    for state in every_state(deck, 20, "greedy"):
        if state.combat is None or state.combat.step != "assign":
            continue
        probe = state.copy()
        assert probe.combat is not None
        probe.combat.turn = combat.WILD
        if _wild_turn(probe):
            assert combat._wild_choice(probe) == wild_choice_the_long_way(probe)
            checked += 1
    assert checked > 3


@pytest.mark.parametrize("margin", range(-9, 10))
def test_the_hit_chance_counted_from_the_margin_is_the_dice_s(margin: int) -> None:
    assert mp.hit_chance(margin + 4, 4) == sum(1 for b in mp.DIE_BONUS if margin + b > 0) / 6


@pytest.mark.parametrize("decks", TABLES)
def test_the_troop_held_back_and_the_victim_picked_by_loops_are_max_s(
        decks: tuple[str, ...]) -> None:
    checked = 0
    for table in every_table(decks, 6):
        for seat in table.active():
            state = table.seats[seat]
            ready = seats._ready_troops(state)
            if len(ready) > 1:
                keep = max(ready, key=lambda t: (state.card(t).defense, state.card(t).offense,
                                                 -t))
                assert seats.attackers(state, "hold") == [t for t in ready if t != keep]
                checked += 1
            others = [s for s in table.active() if s != seat]
            rivals = rivalry.options(table.seats, seat, others)
            worthy = [a for a in rivals if rivalry.target_of(a.option) < 0
                      or mp.exhaust_worth(table, seat, a) > 0]
            if worthy:
                assert mp.rival_choice(table, seat, rivals) is max(worthy, key=lambda a: (
                    rulings.influence_total(table.seats[a.target]),
                    int(rivalry.target_of(a.option) < 0),
                    sum(table.seats[a.target].mover().personal) if rivalry.target_of(a.option) < 0
                    else mp.exhaust_worth(table, seat, a), -a.target, -a.card))
                checked += 1
            elif rivals:
                assert mp.rival_choice(table, seat, rivals) is None
    assert checked > 100


@pytest.mark.parametrize("decks", TABLES)
def test_a_deck_s_cards_kept_from_game_to_game_are_each_game_s(decks: tuple[str, ...]) -> None:
    """A seat's unique cards, answering cards and rival bearers are worked out once per
    prepared deck (seats._deck_cards): each game's table has what its seats' cards say."""
    config = GameConfig(players=len(decks))
    prepared = [engine.prepare(sample(d), catalogue(), config) for d in decks]
    for number in range(1, 5):
        table = seats.new_table(prepared, derive_seed(6, "matchup", number), config)
        for seat, state in enumerate(table.seats):
            own = [i for i in range(len(state.cards)) if state.owner[i] == seat]
            assert table.unique_cards[seat] == [i for i in own if state.card(i).unique]
            assert table.answerers[seat] == reactions.answering_cards(state, own)
            assert table.rival_bearers[seat] == rivalry.bearers(state, own)
    # The kept lists are each table's own copies.
    first = seats.new_table(prepared, 1, config)
    second = seats.new_table(prepared, 2, config)
    assert first.unique_cards[0] == second.unique_cards[0]
    assert first.unique_cards[0] is not second.unique_cards[0]


@pytest.mark.parametrize("tokens", [list(t) for t in itertools.product(range(3), repeat=3)])
def test_the_most_plentiful_kind_is_max_s(tokens: list[int]) -> None:
    assert seats._most_plentiful(tokens) == max(range(3), key=lambda k: (tokens[k], -k))


@pytest.mark.parametrize("decks", TABLES)
def test_a_seat_holds_an_answer_exactly_when_one_is_in_hand_or_in_play(
        decks: tuple[str, ...]) -> None:
    checked = 0
    for table in every_table(decks, 4):
        for seat, state in enumerate(table.seats):
            cards = table.answerers[seat]
            assert reactions.holds_answer(state, cards) == any(
                state.where[c] == "hand" or state.where[c] in reactions._ZONES_IN_PLAY
                for c in cards)
            checked += bool(cards)
    assert checked > 100


def part_the_long_way(state: GameState, mine: list[int], target: int, killed: float,
                      untouched: float) -> float:
    """Fight._part as it was: the target's card read at every question."""
    wounded = 1.0 - untouched - killed
    card = state.card(target)
    if card.type == "wanderer":
        return killed * (card.bounty + policies.KILL_VALUE) + wounded
    if card.subtype == "stronghold":
        return -(killed * 1000 + wounded)
    if target in mine or card.is_structure:
        return -(killed * policies._card_worth(card) + wounded)
    return 0.0


@pytest.mark.parametrize("deck", SAMPLES)
def test_a_card_s_figures_in_the_fight_are_its_card_s_numbers(deck: str) -> None:
    """Fight.of (one object a card, its numbers worked out once) answers what the fight read
    of the card each time: the wounds it can still take, its part of the value, and the
    chances of its hits (but one attack, and one more hit) as the general spread on pairs."""
    checked = 0
    for state in every_state(deck, 10, "greedy"):
        c = state.combat
        if c is None or c.step not in ("assign", "modify"):
            continue
        fight = policies.Fight(state)
        for target in [*c.player, *c.wild]:
            figures = fight.of(target)
            card = state.card(target)
            assert figures.left == (1 if card.is_structure and card.subtype != "stronghold"
                                    else card.vitality - state.wounds.get(target, 0))
            for killed, untouched in ((0.0, 1.0), (0.25, 0.5), (1.0, 0.0)):
                assert figures.part(killed, untouched) == part_the_long_way(
                    state, c.player, target, killed, untouched)
            for skip in (-1, *(h.attack for h in figures.hits)):
                pairs = [(h.chance, h.wounds) for h in figures.hits if h.attack != skip]
                for chance, wounds in ((0.5, 1), (5 / 6, 2)):
                    missed = 1.0 - chance
                    for hit_chance, _ in pairs:
                        missed *= 1.0 - hit_chance
                    killed, untouched = policies._hit_chances(
                        figures.left, figures.hits, skip, chance, wounds)
                    assert untouched == missed
                    assert math.isclose(killed, kill_chance_of_pairs(
                        figures.left, [*pairs, (chance, wounds)]), abs_tol=1e-12)
            checked += 1
    assert checked > 50


# --- the table's fourth pass -----------------------------------------------------------------


@pytest.mark.parametrize("decks", TABLES)
def test_a_seat_s_prepared_deck_kept_from_game_to_game_plays_the_same_games(
        decks: tuple[str, ...]) -> None:
    """A seat's configuration and prepared deck are made once per table size and deck
    (seats._seated_config, seats._seat_prepared, keeping the deal laid out): each game is
    the game of a Prepared made afresh."""
    config = GameConfig(players=len(decks))
    prepared = [engine.prepare(sample(d), catalogue(), config) for d in decks]
    for number in range(1, 4):
        seed = derive_seed(8, "matchup", number)
        kept = seats.new_table(prepared, seed, config)
        seats._SEATED.clear()
        seats._SEAT_PREPARED.clear()
        fresh = seats.new_table(prepared, seed, config)
        assert kept.config == fresh.config
        assert kept.config.seated and kept.config.players == len(decks)
        for a, b in zip(kept.seats, fresh.seats, strict=True):
            assert a.config is kept.config
            assert a.to_dict() == b.to_dict()
    again = seats.new_table(prepared, 1, config)
    assert again.config is seats.new_table(prepared, 2, config).config
    first = seats._seat_prepared(prepared[0], again.config)
    assert first is seats._seat_prepared(prepared[0], again.config)
    assert first.deal is not None  # laid out at the first game, kept for the next ones
    assert first.deal.cards == engine.deal_layout(prepared[0]).cards
    # Another configuration is not taken for the kept one.
    other = GameConfig(players=len(decks), target=30)
    assert seats._seated_config(other, len(decks)).target == 30


@pytest.mark.parametrize("decks", TABLES)
def test_the_unique_cards_in_hand_read_from_the_hand_are_the_unique_cards_there(
        decks: tuple[str, ...]) -> None:
    """_unblocked reads the hand with each card's unique flag (Table.unique_flags), not every
    unique card of the deck: the same actions as _blocked's one by one, and the engine's list
    itself when nothing is blocked."""
    checked = 0
    for table in every_table(decks, 4):
        seat = seats.to_move(table)
        if table.window is not None:
            continue
        state = table.seats[seat]
        flags = table.unique_flags
        assert flags == [state.card(i).unique for i in range(len(state.cards))]
        assert {state.cards[i] for i in state.mover().hand if flags[i]} \
            == {state.cards[i] for i in table.unique_cards[seat] if state.where[i] == "hand"}
        legal = engine.legal_actions(state)
        found = seats._unblocked(table, seat, legal)
        long_way = [a for a in legal if not seats._blocked(table, seat, a)]
        assert found == long_way
        assert (found is legal) == (long_way == legal)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("decks", TABLES)
def test_the_rival_options_with_no_bearer_used_are_the_options_with_an_empty_set(
        decks: tuple[str, ...]) -> None:
    """rival_options hands rivalry.options an empty tuple, not a new set, when no bearer used
    one this round: the same options."""
    checked = 0
    for table in every_table(decks, 4):
        seat = seats.to_move(table)
        found = seats.rival_options(table, seat)
        if table.window is not None or table.stage != "action" or not table.rival_bearers[seat]:
            continue
        others = [s for s in table.active() if s != seat]
        used = {b for s, b in table.rivals_used if s == seat}
        assert found == rivalry.options(table.seats, seat, others, used) \
            == rivalry.options(table.seats, seat, others, set(used), table.rival_bearers[seat])
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("decks", TABLES)
def test_the_phase_queue_kept_while_every_player_is_in_holds_no_player_out(
        decks: tuple[str, ...]) -> None:
    """_settle filters the Military and Wanderer queues only once a player is out (the long
    way made a new list at every step): at every decision the queue is the filtered one."""
    checked = 0
    for table in every_table(decks, 6):
        if table.stage in ("military", "wanderer"):
            assert table.queue == [s for s in table.queue if s not in table.out]
            assert table.queue == [s for s in table.active() if s in table.queue]
            checked += 1
    assert checked > 50


# --- the table's fifth pass ------------------------------------------------------------------


@pytest.mark.parametrize("decks", TABLES)
def test_the_zones_in_play_as_a_set_are_the_tuple_s(decks: tuple[str, ...]) -> None:
    """reactions.holds_answer and answers, and the seats' uniques, ask whether a zone is in
    play of state.IN_PLAY (a frozenset) where they asked a tuple of the same zones: the same
    answers, card by card, and the same uniques as the tuple's."""
    assert IN_PLAY == frozenset(reactions._ZONES_IN_PLAY)
    checked = 0
    for table in every_table(decks, 3):
        for state in table.seats:
            where = state.where
            for i in range(len(where)):
                assert (where[i] in IN_PLAY) == (where[i] in reactions._ZONES_IN_PLAY)
            assert seats._uniques(state) == {
                i for i in range(len(where)) if state.owner[i] == state.to_move
                and where[i] in reactions._ZONES_IN_PLAY and state.card(i).unique}
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("decks", TABLES)
def test_an_action_carried_out_without_asking_for_a_window_would_open_none(
        decks: tuple[str, ...]) -> None:
    """_carry_out asks _open_window only of a play, use or use_on at a table with answering
    cards (the long way asked it of every action): every action not asked would have opened
    no window, and an unrecorded table's flush, no longer called, tells nothing."""
    checked = 0
    for table in every_table(decks, 3):
        seat = seats.to_move(table)
        if table.window is not None:
            continue
        for action in seats.legal_actions(table):
            if action.kind not in ("play", "use", "use_on") or not table.answerers:
                assert not seats._open_window(table, seat, action)
                assert table.window is None
                checked += 1
        assert table.story is None
        table.flush()
        assert table.story is None and table.seen == []
    assert checked > 500


@pytest.mark.parametrize("decks", TABLES)
def test_the_attackers_past_the_defenders_are_foreseen_as_the_long_way(
        decks: tuple[str, ...]) -> None:
    """_past_the_defenders works out a structure's homeless residents only when it houses
    some and may fall (the long way, above, always): the same fight, for every seat's troops
    (all of them, and each alone) against every other seat, before every decision."""
    checked = housed = 0
    for table in every_table(decks, 3):
        for seat, me in enumerate(table.seats):
            troops = [t for t in me.mover().defensive if me.card(t).is_troop]
            for other, them in enumerate(table.seats):
                if other == seat or not troops:
                    continue
                pool = sum(them.mover().personal)
                targets = [*them.mover().zones["private"], *them.mover().zones["guards"]]
                for rest in [troops, *([t] for t in troops)]:
                    long_way = past_the_defenders_the_long_way(
                        me, rest, them, targets, 1.5, 0.5, pool) if targets \
                        else (1.5, 0.5, 0.0, 0.0)
                    assert mp._past_the_defenders(me, rest, them, 1.5, 0.5, pool) == long_way
                    checked += 1
                housed += bool(them.mover().residents)
    assert checked > 500 and housed > 100


def phase_options_the_long_way(state: GameState) -> list[Action]:
    """engine._legal_actions outside combat as it was: every action made anew, a set of the
    card ids seen and of the dead pile's, the usable abilities as tuples, a list per kind."""
    def uses() -> list[Action]:
        options = []
        for instance, ability, _ in usable_the_long_way(state, False):
            effect = ability.effect  # type: ignore[attr-defined]
            if effect.kind == "collect":
                if any(g and state.city[k] for k, g in enumerate(effect.gains)):
                    options.append(Action("use", instance, option=ability.option))  # type: ignore[attr-defined]
            elif effect.kind == "wound_wanderer":
                options += [Action("use", instance, w, ability.option)  # type: ignore[attr-defined]
                            for w in state.mover().zones["wanderers"]]
        return options

    def recycles() -> list[Action]:
        if sum(state.mover().personal) < engine.RECYCLE_COST:
            return []
        return [Action("recycle", option=pile) for pile in ("structures", "personalities")
                if not state.mover().zones[DRAW_PILES[pile]]
                and state.mover().zones[DISCARDS[pile]]]

    homeless = state.mover().homeless
    if homeless:
        return [*(Action("rehouse", homeless[0], r) for r in state.mover().residents
                  if r != homeless[0] and r in state.host), Action("rehouse", homeless[0])]
    if state.mover().bounty_due:
        return [Action("bounty", option=rulings.KINDS[k]) for k in range(3) if state.city[k]]
    step = state.step
    if step == "arrange":
        options = [Action("guard", t, s) for t in state.mover().defensive if state.card(t).is_troop
                   for s in list(state.mover().private)]
        options += [Action("unguard", g) for g in state.mover().guards]
        people = rulings.personalities_in_play(state)
        for item in state.mover().attached:
            if state.card(item).type == "item":
                options += [Action("move_item", item, p) for p in people
                            if p != state.host.get(item, -1)]
        return [*options, Action("done")] if options else []
    if step == "draw":
        if len(state.mover().hand) >= engine.HAND_SIZE:
            return []
        draws = [Action("draw", option=pile) for pile in ("structures", "personalities")
                 if state.mover().zones[DRAW_PILES[pile]]]
        return [*draws, *recycles()]
    if step == "act":
        plays: list[Action] = []
        seen: set[str] = set()
        dead = {state.cards[i] for i in state.mover().dead}
        table = engine._Table(state)
        for instance in state.mover().hand:
            card_id = state.cards[instance]
            if card_id in seen:
                continue
            seen.add(card_id)
            card = state.card(instance)
            if card_id not in dead and rulings.affordable(state, card.cost, card.generic):
                engine._add_placements(plays, state, instance, card, table)
        return [*[Action(a.kind, a.card, a.target, a.option) for a in plays], *uses(),
                *recycles(), Action("pass")]
    if step == "military":
        return [Action("hunt"), Action("pass")] if combat.can_hunt(state) else []
    if step == "fine":
        if state.mover().fines_due <= 0:
            return []
        options = [Action("fine", option=rulings.KINDS[k]) for k in range(3)
                   if state.mover().personal[k]]
        me = state.mover()
        for zone in (me.private, me.residents, me.guards, me.defensive, me.attached):
            options += [Action("fine", i) for i in zone
                        if state.card(i).subtype != "stronghold"]
        if not options:
            return [a for a in uses()
                    if state.card(a.card).ability(a.option).effect.kind == "collect"]
        return [*options, *uses()]
    if step == "discard":
        options = []
        if state.mover().discards_left:
            seen = set()
            for instance in state.mover().hand:
                if state.cards[instance] not in seen:
                    seen.add(state.cards[instance])
                    options.append(Action("discard", instance))
        return [*options, *uses(), Action("done")]
    return []


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("deck", SAMPLES)
def test_the_phases_options_from_the_book_are_the_long_way_s(deck: str, policy: str) -> None:
    """Outside combat the legal actions come from the deck's ActionBook, added kind by kind
    to one list, copies in hand found by their profile, the usable abilities from the
    remembered holders: the same actions in the same order as the long way."""
    checked = 0
    kinds: set[str] = set()
    for state in every_state(deck, 6, policy):
        if state.combat is not None:
            continue
        found = engine.legal_actions(state)
        assert found == phase_options_the_long_way(state), (state.step, state.round)
        kinds.update(a.kind for a in found)
        checked += 1
    assert checked > 100
    assert {"play", "use", "discard", "draw", "pass", "done"} <= kinds


def test_the_book_hands_back_one_action_equal_to_a_new_one() -> None:
    book = ActionBook(["a", "b", "a", "c"])
    assert book.first == [0, 1, 0, 3]
    asked = [
        (book.play(1), Action("play", 1)), (book.play(1, 3), Action("play", 1, 3)),
        (book.guard(0, 2), Action("guard", 0, 2)), (book.move_item(3, 0),
                                                    Action("move_item", 3, 0)),
        (book.discard(2), Action("discard", 2)), (book.unguard(2), Action("unguard", 2)),
        (book.fine(0), Action("fine", 0)), (book.use(1, "b"), Action("use", 1, option="b")),
    ]
    again = [book.play(1), book.play(1, 3), book.guard(0, 2), book.move_item(3, 0),
             book.discard(2), book.unguard(2), book.fine(0), book.use(1, "b")]
    for (got, new), second in zip(asked, again, strict=True):
        assert got == new and hash(got) == hash(new) and repr(got) == repr(new)
        assert second is got
    assert book.play(1, 2) != book.play(1, 3) and book.use(1, "a") != book.use(1, "b")
    # Beyond the deck's instances (a guest at a table): a new action, equal all the same.
    assert book.play(4, 1) == Action("play", 4, 1) and book.play(1, 4) == Action("play", 1, 4)
    assert book.discard(7) == Action("discard", 7) and book.use(9, "x") == Action(
        "use", 9, option="x")
    assert book.play(4, 1) is not book.play(4, 1)


def _first_copies_by_mark(book: ActionBook, hand: list[int]) -> list[int]:
    """The engine's pass over a hand (engine._add_play_options, the discards): the instances
    whose first instance's mark is not yet this pass's."""
    marks, mark, found = book.marks, book.hand_mark(), []
    for instance in hand:
        mine = book.first[instance]
        if marks[mine] is not mark:
            marks[mine] = mark
            found.append(instance)
    return found


@pytest.mark.parametrize("hand", [
    [], [0], [0, 2], [2, 0, 1, 3, 4], [4, 3, 2, 1, 0], [1, 4, 0, 2], [3, 3], [0, 1, 0, 1, 2]])
def test_the_copies_marked_in_a_hand_are_the_copies_before_it(hand: list[int]) -> None:
    """A card's copies in hand are offered once, the first in hand: marked by their first
    instance in one pass (ActionBook.marks), the same cards as a loop over the cards before
    each (the earlier way), pass after pass on the same book, whatever earlier passes left."""
    book = ActionBook(["a", "b", "a", "c", "b"])
    long_way = [instance for position, instance in enumerate(hand)
                if all(book.first[hand[k]] != book.first[instance] for k in range(position))]
    backwards = list(reversed(hand))
    long_way_back = [instance for position, instance in enumerate(backwards)
                     if all(book.first[backwards[k]] != book.first[instance]
                            for k in range(position))]
    for _ in range(3):  # (the marks of the passes before are never this pass's)
        assert _first_copies_by_mark(book, hand) == long_way
        assert _first_copies_by_mark(book, backwards) == long_way_back
    assert book.hand_mark() is not book.hand_mark()


@pytest.mark.parametrize("deck", SAMPLES)
def test_a_card_s_profile_is_the_table_s(deck: str) -> None:
    """GameState.card reads the profiles by instance (the attribute indexed in place), built
    from the table at the first question: each card's own profile, before and after."""
    state = engine.new_game(sample(deck), catalogue(), 3)
    for _ in range(2):
        state.profiles = None
        assert [state.card(i) for i in range(len(state.cards))] == [
            state.table[c] for c in state.cards]
        assert all(state.card(i) is state.table[c] for i, c in enumerate(state.cards))


@pytest.mark.parametrize(("numbers", "instance"), [
    ({}, 0), ({3: 1}, 3), ({3: 1}, 4), ({0: 2, 5: 0, 9: 4}, 5), ({0: 2, 5: 0, 9: 4}, 1)])
def test_an_entry_dropped_is_an_entry_popped(numbers: dict[int, int], instance: int) -> None:
    """rulings._drop and GameState.move look an entry up and delete it (compiled, pop() with
    a default is a method called by name): the same dictionary as pop(instance, None)."""
    dropped, popped = dict(numbers), dict(numbers)
    rulings._drop(dropped, instance)
    popped.pop(instance, None)
    assert dropped == popped and list(dropped) == list(popped)
    state = engine.new_game(sample(SAMPLES[0]), catalogue(), 1)
    card = state.mover().structure_pile[0]
    state.host = {card: 7, **{k + 100: v for k, v in numbers.items()}} if instance % 2 else {}
    expected = {k: v for k, v in state.host.items() if k != card}
    state.move(card, "private")
    assert state.host == expected


@pytest.mark.parametrize("favour", [-1, 1])
def test_paying_and_gaining_kind_by_kind_is_the_loop_over_the_kinds(favour: int) -> None:
    """rulings.pay and gain read a cost's kinds one by one (compiled, cost[k] with a variable
    k boxed the native tuple): the same tokens as the loops over the kinds."""
    state = engine.new_game(sample(SAMPLES[0]), catalogue(), 1)
    state.mover().favour = favour
    checked = 0
    for held in itertools.product(range(3), repeat=3):
        for c0, c1, c2 in itertools.product(range(3), repeat=3):
            cost = (c0, c1, c2)
            for generic in (0, 1, 2):
                pool = [2, 0, 1]
                state.mover().personal, state.city = list(held), list(pool)
                expected_personal, expected_city = list(held), list(pool)
                ok = rulings.affordable(state, cost, generic)
                if ok:  # the long way
                    for k in range(3):
                        expected_personal[k] -= cost[k]
                        expected_city[k] += cost[k]
                    twin = state.clone()
                    twin.mover().personal, twin.city = expected_personal, expected_city
                    rulings.spend(twin, generic)
                assert rulings.pay(state, cost, generic) == ok
                assert (state.mover().personal, state.city) == (expected_personal, expected_city)
                checked += ok
            state.mover().personal, state.city = list(held), [1, 0, 2]
            got = rulings.gain(state, cost)
            expected = [min(g, [1, 0, 2][k]) for k, g in enumerate(cost)]
            assert got == expected
            assert state.mover().personal == [held[k] + expected[k] for k in range(3)]
            assert state.city == [[1, 0, 2][k] - expected[k] for k in range(3)]
    assert checked > 100


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_remembered_holders_give_the_usable_abilities_outside_combat(deck: str) -> None:
    """rulings.plain_usable (from the holders remembered until play changes) lists the
    holders and abilities of usable_abilities outside combat, in the same order."""
    found = 0
    for state in every_state(deck, 8, "random"):
        holders: list[int] = []
        abilities: list[Ability] = []
        rulings.plain_usable(state, holders, abilities)
        assert state.mover().holders_cache == rulings.plain_holders(state)
        assert list(zip(holders, abilities, strict=True)) == [
            (i, a) for i, a, _ in usable_the_long_way(state, False)]
        found += len(holders)
    assert found > 20


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_open_residences_counted_per_structure_are_the_dictionary_s(deck: str) -> None:
    """rulings.open_residences counts each structure's citizens from a list of their hosts:
    the structures the long way's dictionary of counts finds, in the same order."""
    found = 0
    for state in every_state(deck, 8, "greedy"):
        used: dict[int, int] = {}
        for citizen in state.mover().residents:
            host = state.host.get(citizen, -1)
            used[host] = used.get(host, 0) + 1
        expected = [s for s in state.mover().private if state.card(s).residencies > used.get(s, 0)]
        assert rulings.open_residences(state) == expected
        found += len(expected) + len(state.mover().residents)
    assert found > 100


# --- the table's sixth pass: its fighting code (docs/matchups.md, Speed) ---------------------


def lineup_the_long_way(attacker: GameState, sent: Sequence[int],
                        defender: GameState) -> list[int]:
    """The attackers past the wall as foresee first worked them out: key functions, sets."""
    free = sorted(sent, key=lambda t: (-attacker.card(t).offense, t))
    walls = [w for w in defender.mover().zones["defensive"] if defender.card(w).subtype == "wall"]
    if walls and free:
        slots = min(defender.card(walls[0]).residencies, len(free))
        fillers = sorted(free, key=lambda t: (0 if climbs_the_long_way(attacker, t) else 1,
                                              attacker.card(t).offense, t))[:slots]
        free = [t for t in free if t not in fillers or climbs_the_long_way(attacker, t)]
    return free


@pytest.mark.parametrize("decks", TABLES)
def test_the_attackers_lined_up_by_loops_are_the_key_functions_lineup(
        decks: tuple[str, ...]) -> None:
    """_lineup sorts by insertion and fills the wall by loops on plain numbers: the same
    attackers in the same order as the sorted key tuples, for every seat's troops (all,
    held back, each alone) against every other seat, walls or not."""
    checked = walled = 0
    # (12 games: since generic costs are paid in full, the 2-player table's first 6 games
    # build no wall)
    for table in every_table(decks, 12):
        for seat in table.active():
            me = table.seats[seat]
            ready = seats._ready_troops(me)
            for other in table.active():
                if other == seat:
                    continue
                them = table.seats[other]
                for sent in (ready, seats.attackers(me, "hold"), *([t] for t in ready)):
                    assert mp._lineup(me, sent, them) == lineup_the_long_way(me, sent, them)
                    checked += 1
                    walled += any(them.card(w).subtype == "wall" for w in them.mover().defensive)
    assert checked > 300 and walled > 50


@pytest.mark.parametrize("decks", TABLES)
def test_the_home_risk_of_threats_lined_up_once_is_the_long_way_s(
        decks: tuple[str, ...]) -> None:
    """The Military choice lines up each threat once (_lineup) for the risk of keeping every
    troop home and of each option: the risk as foresee worked out anew for each; and the
    ready troops handed to attackers give its own list."""
    checked = 0
    for table in every_table(decks, 6):
        for seat in table.active():
            me = table.seats[seat]
            later = [s for s in table.active() if s != seat]
            threats = mp._threats(table, later)
            lineups = [mp._lineup(state, ready, me) for state, ready in threats]
            ready = seats._ready_troops(me)
            for sent in ((), ready, seats.attackers(me, "hold")):
                assert mp._home_risk(me, threats, sent, lineups) \
                    == home_risk_the_long_way(table, seat, later, sent)
                checked += bool(threats)
            for option in ("all", "hold"):
                assert seats.attackers(me, option, ready) == seats.attackers(me, option)
            assert ready == seats._ready_troops(me)  # read, not changed
    assert checked > 200


def highest_roller_the_long_way(table: seats.Table, tied: list[int]) -> int:
    rng = GameRng(table.rng)
    while len(tied) > 1:
        rolls = {s: rng.die() for s in tied}
        top = max(rolls.values())
        tied = [s for s in tied if rolls[s] == top]
    table.rng = rng.state
    return tied[0]


@pytest.mark.parametrize("tied", [[0, 1], [2, 0, 1], [3, 1, 0, 2], [1]])
def test_the_highest_roller_kept_as_the_dice_come_is_the_dict_s(tied: list[int]) -> None:
    """_highest_roller keeps the highest as the dice come (no dict of rolls): the same seat
    and the same dice used, from many states of the table's generator; the list handed in
    is not changed."""
    config = GameConfig(players=4)
    prepared = [engine.prepare(sample(d), catalogue(), config) for d in SAMPLES[:4]]
    short = seats.new_table(prepared, 11, config)
    long = seats.new_table(prepared, 11, config)
    winners = set()
    for _ in range(200):
        given = list(tied)
        found = seats._highest_roller(short, given)
        assert given == tied
        assert found == highest_roller_the_long_way(long, list(tied))
        assert short.rng == long.rng
        winners.add(found)
    assert winners == set(tied)


def test_faction_members_by_loops_are_the_generator_s() -> None:
    checked = 0
    for table in every_table(SAMPLES[:4], 3):
        factions = {s.card(i).faction for s in table.seats for i in range(len(s.cards))}
        for faction in sorted(f for f in factions if f):
            assert rivalry.faction_members(table.seats, faction) == sum(
                1 for state in table.seats for zone in rulings.PERSONALITY_ZONES
                for i in state.mover().zones[zone] if state.card(i).faction == faction)
            checked += 1
    assert checked > 100


def test_a_hosting_compares_and_shows_field_by_field() -> None:
    """seats.Hosting, a plain class, equal and shown as the dataclass it was."""
    first = seats.Hosting(1, 0, "attack", [3], ("military", "wait"))
    assert first == seats.Hosting(1, 0, "attack", [3], ("military", "wait"), [], [], {})
    assert first != seats.Hosting(1, 0, "attack", [3], ("military", "wait"), [7])
    assert first.own_row == [] and first.host_troops == [] and first.bribes == {}
    assert repr(first) == ("Hosting(host=1, origin=0, kind='attack', visitors=[3], "
                           "saved=('military', 'wait'), own_row=[], host_troops=[], "
                           "bribes={})")


def row_worth_the_long_way(me: GameState, owner: GameState) -> float:
    troops = [me.card(t).offense for t in me.mover().zones["defensive"]
              if me.card(t).is_troop and t not in me.exhausted]
    if not troops:
        return 0.0
    best = max(troops)
    worth = 0.0
    for w in owner.mover().zones["wanderers"]:
        margin = best - owner.card(w).defense
        chance = 1.0 if margin > 0 else 2 / 6 if margin > -2 else 1 / 6 if margin > -3 else 0.0
        worth += chance * rulings.bounty(owner, w)
    return worth


@pytest.mark.parametrize("decks", TABLES)
def test_a_row_s_bounty_from_the_best_hunter_read_once_is_the_long_way_s(
        decks: tuple[str, ...]) -> None:
    """The Military choice reads a seat's best ready offense once (_best_hunter) for every
    row it weighs: each row's worth as worked out from the troops anew, none without one."""
    checked = unarmed = 0
    for table in every_table(decks, 4):
        for me in table.seats:
            hunter = mp._best_hunter(me)
            unarmed += hunter == mp.NO_HUNTER
            for owner in table.seats:
                assert mp._row_bounty(hunter, owner) == mp.row_worth(me, owner) \
                    == row_worth_the_long_way(me, owner)
                checked += bool(owner.mover().zones["wanderers"])
    assert checked > 300 and unarmed > 20
class _Recording:
    """A seat's policy whose choices (with the seat and the actions offered) are written down."""

    def __init__(self, policy: SeatPolicy, log: list[tuple[int, int, str, Action, int]],
                 defers: bool) -> None:
        self.policy, self.log = policy, log
        self.defers_rivals = defers and policy.defers_rivals

    def __call__(self, table: seats.Table, seat: int, actions: Sequence[Action]) -> Action:
        choice = self.policy(table, seat, actions)
        # (the actions besides the rival abilities: a policy that defers them is offered none)
        self.log.append((table.decisions, seat, table.stage, choice,
                         len([a for a in actions if a.kind != "use_on"])))
        return choice


@pytest.mark.parametrize("decks", [SAMPLES[:2], SAMPLES[1:4], SAMPLES[:4]])
def test_a_table_played_in_own_runs_is_the_table_played_decision_by_decision(
        decks: tuple[str, ...]) -> None:
    """seats.play makes a seat's own decisions in a run (_own_run); the long way asks the
    table for every decision (to_move, legal_actions, apply), as the playtest does: the same
    choices from the same actions, the same table and story."""
    config = GameConfig(players=len(decks))
    prepared = [engine.prepare(sample(d), catalogue(), config) for d in decks]
    own_runs = 0
    for number in range(1, 9):
        seed = derive_seed(6, "matchup", number)
        played = []
        for shortcut in (True, False):
            table = seats.new_table(prepared, seed, config, record=True)
            log: list[tuple[int, int, str, Action, int]] = []
            chooser = [_Recording(SeatPolicy("random" if number % 4 == 0 and s == 1
                                             else "greedy", derive_seed(seed, "policy", s)),
                                  log, shortcut) for s in range(len(decks))]
            if shortcut:
                seats.play(table, chooser)
            else:
                stage: seats.Stage = "over"  # (none yet: no seat has decided)
                answering = False
                while not table.outcome:
                    seat = seats.to_move(table)
                    actions = seats.legal_actions(table)
                    if log and not answering and seats._own_next(table, log[-1][1], stage):
                        # The seat that decided last decides again, from its engine's actions.
                        own_runs += 1
                        assert seat == log[-1][1]
                        assert actions == seats.own_actions(table, seat, table.seats[seat])
                    stage, answering = table.stage, table.window is not None
                    assert seats.apply(table, chooser[seat](table, seat, actions)).ok
            played.append((table.outcome, table.winner, table.final_round, table.decisions,
                           [s.to_dict() for s in table.seats], log, table.story))
        assert played[0] == played[1]
    assert own_runs > 500


@pytest.mark.parametrize(("decks", "games"), [(SAMPLES[:2], 4), (SAMPLES[:4], 3),
                                              (SAMPLES[2:6], 2)])
def test_no_card_comes_into_play_in_a_maintenance_discard_or_military_run(
        decks: tuple[str, ...], games: int) -> None:
    """_own_run carries out a seat's maintenance, discards and fights of the Military Phase
    without the uniques check: no action there but a play or an ability used (which go the
    long way) brings a card into play."""
    checked, fights = 0, 0
    for table in every_table(decks, games):
        if table.stage not in ("maintenance", "discard", "military") \
                or table.window is not None:
            continue
        seat = seats.to_move(table)
        state = table.seats[seat]
        if table.stage == "military" and state.combat is None \
                and not state.mover().choice_due():
            continue  # the Military choice: the long way
        fights += table.stage == "military"
        for action in seats.legal_actions(table):
            if action.kind in ("play", "use", "use_on", seats.TRUCE_KIND):
                continue  # (the long way; a truce is the table's, not the engine's)
            copy = state.copy()
            in_play = {i for i in range(len(copy.where)) if copy.where[i] in IN_PLAY}
            assert engine.apply(copy, action).ok
            assert {i for i in range(len(copy.where)) if copy.where[i] in IN_PLAY} <= in_play
            checked += 1
    assert checked > 500
    assert fights > 100


# --- the table's eighth speed pass (docs/matchups.md, "Eighth pass") -------------------------


@pytest.mark.parametrize("decks", [*TABLES, (SAMPLES[5], SAMPLES[2])])
def test_the_rival_ability_picked_without_listing_them_is_the_one_chosen_from_the_list(
        decks: tuple[str, ...]) -> None:
    """rival_pick weighs the options without making them Actions: the rule's choice among
    rival_options (the victim nearest victory, on his pool before exhausting a card, the most
    tokens or the card worth most, then the lowest seat and bearer, the first listed of
    equals; an exhausting one only when worth something), or None, for every seat at every
    step of the tables."""
    checked = picked = 0
    for table in every_table(decks, 6):
        for seat in table.active():
            rivals = seats.rival_options(table, seat)
            worthy = [a for a in rivals if rivalry.target_of(a.option) < 0
                      or mp.exhaust_worth(table, seat, a) > 0]
            expected = max(worthy, key=lambda a: (
                rulings.influence_total(table.seats[a.target]),
                int(rivalry.target_of(a.option) < 0),
                sum(table.seats[a.target].mover().personal) if rivalry.target_of(a.option) < 0
                else mp.exhaust_worth(table, seat, a), -a.target, -a.card), default=None)
            found = mp.rival_pick(table, seat)
            assert found == expected == mp.rival_choice(table, seat, rivals)
            checked += 1
            picked += found is not None
    assert checked > 300
    assert picked > 20


@pytest.mark.parametrize("decks", [*TABLES, SAMPLES[2:6], (SAMPLES[5], SAMPLES[4])])
def test_a_seat_whose_answering_cards_answer_other_kinds_of_action_has_no_answer(
        decks: tuple[str, ...]) -> None:
    """The reaction window passes over a seat whose answering cards can answer none of what
    could answer the action (reactions.answer_kinds, answered_by): by the rules, an interrupt
    answers an event played, Debate a political ability, Persuade a card brought into play,
    Retain a unique played; such a seat has no answer (reactions.answers) to an action that
    can be answered, and answered_by is 0 exactly when it cannot be (answerable: no window
    opens), for every legal action at every step of the tables and every other seat."""
    checked = passed_over = 0
    for table in every_table(decks, 5):
        if table.window is not None:
            continue
        seat = seats.to_move(table)
        acting = table.seats[seat]
        for action in seats.legal_actions(table):
            wanted = reactions.answered_by(acting, action)
            assert (wanted != 0) == reactions.answerable(acting, action)
            for other in range(table.players):
                if other == seat:
                    continue
                kinds = reactions.answer_kinds(table.seats[other], table.answerers[other])
                assert kinds == table.answer_kinds[other]
                # (an action that cannot be answered at all opens no window: answerable)
                if wanted and not kinds & wanted:
                    assert reactions.answers(table.seats, seat, action, other,
                                             table.answerers[other]) == []
                    passed_over += bool(table.answerers[other])
                checked += 1
    assert checked > 1000 and passed_over > 100


@pytest.mark.parametrize("decks", [*TABLES, (SAMPLES[5], SAMPLES[2])])
def test_a_rival_ability_checked_against_its_bearer_s_options_is_checked_against_all(
        decks: tuple[str, ...]) -> None:
    """seats._decide checks a rival ability the policy found itself against its bearer's
    options only (rival_options with ``bearer``): legal exactly when it is one of all the
    seat's options, for each option and for the same aimed at another seat or borne by
    another card (in play, not in play, past the seat's cards), at every step."""
    checked = legal = 0
    for table in every_table(decks, 5):
        for seat in table.active():
            every = seats.rival_options(table, seat)
            cards = len(table.seats[seat].where)
            tried = list(every)
            for a in every:
                tried += [Action("use_on", a.card, (a.target + 1) % table.players, a.option),
                          Action("use_on", (a.card + 7) % cards, a.target, a.option),
                          Action("use_on", cards + 3, a.target, a.option)]
            for a in tried:
                found = a in seats.rival_options(table, seat, a.card)
                assert found == (a in every)
                checked += 1
                legal += found
    assert checked > 300 and legal > 50


@pytest.mark.parametrize("decks", TABLES[1:])  # (the 2-player table's decks build no wall)
def test_the_attackers_past_a_wall_are_the_same_for_every_wall_of_that_room(
        decks: tuple[str, ...]) -> None:
    """The Military choice works out the attackers past a wall once per wall room and option
    (mp._wall_room, _past_the_wall): against every other seat, with its wall's room or none,
    they are the long way's lineup against that seat, for every seat's ready troops (all of
    them, holding one back, each alone), before every 3rd decision."""
    checked = walled = 0
    for table in every_table(decks, 10):
        if table.decisions % 3:
            continue
        for seat, me in enumerate(table.seats):
            ready = seats._ready_troops(me)
            for sent in [ready, seats.attackers(me, "hold"), *([t] for t in ready)]:
                if not sent:
                    continue
                for other, them in enumerate(table.seats):
                    if other == seat:
                        continue
                    room = mp._wall_room(them)
                    assert mp._past_the_wall(me, sent, room) \
                        == lineup_the_long_way(me, sent, them)
                    checked += 1
                    walled += room >= 0
    assert checked > 300 and walled > 50


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_faction_members_are_kept_across_other_cards_moves_and_stay_right(
        deck: str) -> None:
    kept = dropped = 0
    for decision, state in enumerate(every_state(deck, 10, "random")):
        in_play = [i for i, zone in enumerate(state.where) if zone in IN_PLAY]
        if not in_play:
            continue
        # One card in play a decision, in turn, leaves play on a copy of the state.
        instance = in_play[decision % len(in_play)]
        source = state.where[instance]
        twin = state.clone()
        rulings.faction_counts(twin)
        members = twin.mover().members_cache
        twin.move(instance, "dead")
        if twin.card(instance).type == "personality" or source in ("residents", "guards"):
            assert twin.mover().members_cache is None
            dropped += 1
        else:
            assert twin.mover().members_cache is members  # not worked out again
            kept += 1
        assert rulings.faction_counts(twin) == faction_counts_the_long_way(twin)
    assert kept > 20 and dropped > 20


@pytest.mark.parametrize("deck", SAMPLES)
def test_the_open_residences_counted_are_the_listed_ones(deck: str) -> None:
    checked = 0
    for state in every_state(deck, 8, "greedy"):
        assert rulings.open_residence_count(state) == len(rulings.open_residences(state))
        checked += 1
    assert checked > 500


def test_the_generator_in_32_bit_halves_gives_the_64_bit_arithmetic_s_numbers() -> None:
    """GameRng works its state in 32-bit halves (native integers, compiled): the same outputs,
    dice, draws below n (the halves' limit 2**31 on either side) and shuffles as the 64-bit
    arithmetic, and the same state after, from many seeds (the edges of 64 bits among them:
    the step's carry out of the low half, a state past 64 bits, a negative one)."""
    edges = [0, 1, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, (1 << 64) - 1,
             (1 << 64) - 0x9E3779B97F4A7C15, (1 << 64) + 5, -3, 0x7F4A7C15 ^ 0xFFFFFFFF]
    picks = random.Random(7)
    seeds = edges + [picks.getrandbits(64) for _ in range(1500)]
    sizes = [1, 2, 6, 7, 60, 1 << 30, (1 << 31) - 1, 1 << 31, 1 << 40, 1 << 64]
    for seed in seeds:
        new, old = GameRng(seed), SplitMix64(seed)
        assert new.state == old.state
        for n in sizes:
            assert new.next64() == old.next64()
            assert new.below(n) == old.below(n)
            assert new.die() == old.below(6) + 1
            assert new.state == old.state
        items = list(range(picks.randint(0, 70)))
        copy = list(items)
        new.shuffle(items)
        old.shuffle(copy)
        assert items == copy
        assert new.state == old.state
