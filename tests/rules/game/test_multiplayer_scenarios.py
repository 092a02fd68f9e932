"""The multiplayer rules, one scenario each, named after the rule (rules/COVERAGE.md,
"Multiplayer"): a table of 2 to 6 seats (rules/game/seats.py), pure Python, no database."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import pytest

from rules.decklist import DeckEntry
from rules.game import combat, engine, reactions, rivalry, rulings, seats
from rules.game import table_policy as mp
from rules.game.actions import Action
from rules.game.config import GameConfig
from rules.game.matchup import seating
from rules.game.seats import Table
from rules.game.state import Combat, GameState
from rules.game.table_policy import SeatPolicy
from rules.rng import derive_seed
from tests.rules.game.engine_helpers import catalogue, own, place, sample, seated

FAITHFUL, VETERANS, BLADES = "kalim-faithful.txt", "guild-veterans.txt", "mosfin-blades.txt"
CRUSADERS, SENATE = "kalim-crusaders.txt", "mosfin-senate.txt"


def table(*decks: str, seed: int = 1, target: int = 25) -> Table:
    prepared = [engine.prepare(sample(d), catalogue()) for d in decks]
    return seats.new_table(prepared, seed, GameConfig(target=target))


def policies(t: Table, name: str = "greedy") -> list[seats.SeatPolicy]:
    return [SeatPolicy(name, s) for s in range(t.players)]


def play_until(t: Table, done: Callable[[Table], bool], name: str = "greedy") -> None:
    chosen = policies(t, name)
    for _ in range(20_000):
        if done(t) or t.outcome:
            return
        seat = seats.to_move(t)
        assert seats.apply(t, chosen[seat](t, seat, seats.legal_actions(t))).ok
    raise AssertionError("the table never got there")


def troops(t: Table, seat: int) -> list[int]:
    state = t.state
    return [i for i in state.seats[seat].zones["defensive"] if state.card(i).is_troop]


def can_hunt_as(t: Table, seat: int) -> bool:
    """Whether ``seat`` could hunt his own row now (combat.can_hunt, asked of a copy of the
    table's state with him as its player: the table's own flow is left as it is)."""
    probe = t.state.clone()
    probe.player = probe.to_move = seat
    return combat.can_hunt(probe)


def give_troops(t: Table, seat: int, count: int) -> list[int]:
    """Put ``count`` troops of the seat's personality pile into its defensive holdings."""
    state = t.state
    found = [i for i in t.seat(seat).zones["personality_pile"]
            if state.card(i).is_troop][:count]
    for i in found:
        state.move(i, "defensive")
    state.pending = None
    return found


@pytest.mark.parametrize(("pools", "lead"), [
    ([[5, 0, 0], [1, 1, 1]], 0),
    ([[0, 0, 1], [2, 2, 2]], 1),
    ([[1, 1, 1], [0, 0, 0], [9, 0, 0]], 2),
], ids=["seat-1-richest", "seat-2-richest", "seat-3-of-3-richest"])
def test_lead_player_has_the_most_personal_tokens(pools: list[list[int]], lead: int) -> None:
    decks = [FAITHFUL, VETERANS, BLADES][:len(pools)]
    t = table(*decks)
    for seat, pool in enumerate(pools):
        t.seat(seat).personal[:] = pool
    assert seats._lead_player(t) == lead


def test_lead_player_ties_are_broken_by_a_die() -> None:
    leads = set()
    for seed in range(12):
        t = table(FAITHFUL, FAITHFUL, seed=seed)  # the same deck: the same pools
        assert sum(t.seat(0).personal) == sum(t.seat(1).personal)
        leads.add(t.lead)
    assert leads == {0, 1}


def test_the_action_cycle_goes_left_from_the_lead_player_one_action_each() -> None:
    t = table(FAITHFUL, VETERANS, BLADES)
    play_until(t, lambda t: t.stage == "action")
    first = seats.to_move(t)
    assert first == t.lead
    actions = seats.legal_actions(t)
    move = next(a for a in actions if a.kind != "pass")
    seats.apply(t, move)
    while t.seat(first).bounty_due:
        seats.apply(t, seats.legal_actions(t)[0])
    assert seats.to_move(t) == (first + 1) % 3


def test_the_action_phase_ends_only_when_every_player_passes_in_sequence() -> None:
    t = table(FAITHFUL, VETERANS)
    play_until(t, lambda t: t.stage == "action")
    lead, other = t.lead, 1 - t.lead
    seats.apply(t, Action("pass"))  # the lead passes...
    assert seats.to_move(t) == other
    act = next(a for a in seats.legal_actions(t) if a.kind != "pass")
    seats.apply(t, act)  # ...the other acts: the lead has the right to act again
    while t.seat(other).bounty_due:
        seats.apply(t, seats.legal_actions(t)[0])
    assert t.stage == "action" and seats.to_move(t) == lead
    assert t.state.player == lead and t.state.step == "act"
    seats.apply(t, Action("pass"))
    seats.apply(t, Action("pass"))
    assert t.stage == "military"
    assert all(seats.standing(t, s)[0] in ("military", "wanderer") for s in range(t.players))


def test_a_player_with_nothing_to_do_in_the_military_phase_is_not_asked() -> None:
    """A player without a troop can neither hunt nor attack: he passes the Military Phase
    unasked, as the solo player without a troop does (a decision of one "pass" is none)."""
    t = table(FAITHFUL, VETERANS)
    play_until(t, lambda t: t.stage == "action")
    bare = 1 - t.lead
    state = t.state
    for zone in ("hand", "personality_pile", "defensive"):
        for i in list(t.seat(bare).zones[zone]):
            if state.card(i).is_troop:
                state.move(i, "personality_discard")
    state.forget_derived()
    state.pending = None
    asked = []
    chosen = policies(t)
    while t.stage in ("action", "military") and not t.outcome:
        seat = seats.to_move(t)
        if t.stage == "military" and t.hosting is None:
            asked.append(seat)
        assert seats.apply(t, chosen[seat](t, seat, seats.legal_actions(t))).ok
    assert bare not in asked and t.stage != "military"


def test_one_city_pool_is_shared_by_every_player() -> None:
    t = table(FAITHFUL, VETERANS, BLADES)
    paid = sum(t.state.city) - sum(t.config.city_pool)
    # Every seat's Initial Holdings were paid into the one pool.
    holdings = sum(12 - sum(t.seat(s).personal) for s in range(t.players))
    assert paid == holdings


def test_an_attack_on_another_players_holdings_is_fought_there_with_the_troops_where_they_are(
        ) -> None:
    t = table(VETERANS, FAITHFUL)
    play_until(t, lambda t: t.stage == "military" and t.hosting is None
               and any(a.kind == "attack" and a.option == "all" for a in seats.legal_actions(t)))
    attacker = seats.to_move(t)
    defender = 1 - attacker
    sent = seats.attackers(t.state, attacker, "all")
    cards_before = len(t.state.cards)
    seats.apply(t, Action("attack", target=defender, option="all"))
    assert t.hosting is not None and t.hosting.kind == "attack"
    host = t.state
    # The attackers fight in the defender's combat as the cards they are: nothing copied.
    assert host.combat is not None and host.combat.wild == sent
    assert len(host.cards) == cards_before
    assert all(host.owner[troop] == attacker and host.where[troop] == "defensive"
               for troop in sent)
    play_until(t, lambda t: t.hosting is None)
    back = t.state
    for troop in sent:  # every attacker is home, or dead in its owner's piles
        assert back.where[troop] in ("defensive", "personality_discard", "dead")
        assert troop in t.seat(attacker).zones[back.where[troop]]


def _attack_at_assignments(t: Table) -> tuple[int, int, list[int]]:
    """(attacker, defender, troops sent): the first attack of greedy seats, played to its
    assignments."""
    play_until(t, lambda t: t.stage == "military" and t.hosting is None
               and any(a.kind == "attack" and a.option == "all" for a in seats.legal_actions(t)))
    attacker = seats.to_move(t)
    defender = 1 - attacker
    sent = seats.attackers(t.state, attacker, "all")
    assert seats.apply(t, Action("attack", target=defender, option="all")).ok
    fight = t.state.combat
    assert fight is not None
    play_until(t, lambda t: t.hosting is None or fight.step not in ("bribe", "muster"))
    assert t.hosting is not None and fight.step == "assign"
    return attacker, defender, sent


def test_the_attacker_makes_his_troops_assignments_first() -> None:
    # "The attacking player makes assignments first, then the sides alternate": the table asks
    # the attacker (to_move), with his own troops' options, in the defender's combat.
    t = table(VETERANS, FAITHFUL)
    attacker, defender, sent = _attack_at_assignments(t)
    assert seats.to_move(t) == attacker
    actions = seats.legal_actions(t)
    assert actions[-1] == seats.TRUCE  # (he may also offer to end the attack)
    actions = actions[:-1]
    assert actions and all(a.kind in ("separate", "joint") and a.card in sent for a in actions)
    # The table's state says so itself: his combat (player), the attacker's decision
    # (to_move), which a saved and loaded state keeps.
    there = t.state
    assert (there.player, there.to_move) == (defender, attacker)
    assert there.mover() is there.seats[attacker] and there.player_seat() is there.seats[defender]
    loaded = GameState.from_dict(json.loads(json.dumps(there.to_dict())))
    assert (loaded.player, loaded.to_move) == (defender, attacker)
    chosen = actions[-1]  # any of his options, not only the fixed rule's
    assert seats.apply(t, chosen).ok
    fight = t.state.combat
    assert fight is not None
    assert any(group[0] == combat.WILD and chosen.card in group[2:] for group in fight.groups)


def _attack_at_modification(t: Table) -> tuple[int, int, Combat]:
    """(attacker, defender, the combat) of the first attack between greedy seats, played to
    its modification step."""
    def there(t: Table) -> bool:
        hosting = t.hosting
        fight = None if hosting is None else t.state.combat
        return hosting is not None and hosting.kind == "attack" and fight is not None \
            and fight.step == "modify"
    play_until(t, there)
    assert t.hosting is not None
    fight = t.state.combat
    assert fight is not None
    return t.hosting.origin, t.hosting.host, fight


def test_the_modification_step_starts_with_the_attacker_and_rotates_left() -> None:
    # "Starting with the attacking player and rotating left each player can use one ability
    # or event which immediately modifies the combat until no player wishes to further
    # modify the combat": the attacker plays a battle event on his own troop, paid from his
    # own pool and hand; then each other player in turn from his left (the defender, and a
    # third player only when he holds a ready Crusade: Bell of Judgement), then the attacker
    # again, until all pass in a row.
    t = table(CRUSADERS, CRUSADERS, CRUSADERS, seed=3)
    attacker, defender, fight = _attack_at_modification(t)
    assert fight.modifiers == [attacker, (attacker + 1) % 3, (attacker + 2) % 3]
    assert seats.to_move(t) == attacker
    mine = t.state
    event = place(mine, "Flanking Charge", "hand", attacker)
    t.seat(attacker).personal[:] = [5, 5, 5]
    t.state.pending = None
    plays = [a for a in seats.legal_actions(t) if a.kind == "play" and a.card == event]
    assert plays and all(a.target in fight.wild for a in plays)
    troop = plays[0].target
    assert seats.apply(t, plays[0]).ok
    while t.window is not None:  # nobody answers it here
        assert seats.apply(t, Action("decline")).ok
    assert fight.bonus_off[troop] == 2
    assert mine.where[event] == "personality_discard"
    assert sum(t.seat(attacker).personal) < 15
    for seat in fight.modifiers[1:]:
        if seat != defender and seat not in fight.rivals:
            continue  # nothing of his could modify the battle: passed over
        assert seats.to_move(t) == seat and fight.step == "modify"
        assert seats.apply(t, Action("done")).ok
    assert seats.to_move(t) == attacker and fight.step == "modify"  # he may answer them
    assert seats.apply(t, Action("done")).ok
    assert fight.step != "modify"  # every seat passed in a row


def test_a_third_player_may_crusade_an_attacking_troop_in_the_modification_step() -> None:
    # "Players may use abilities during any phase"; "if an exhausted troop ... is involved in
    # a battle its offense is 0": a player outside the combat exhausts an attacker with his
    # Bell of Judgement (Crusade) at his turn of the rotation.
    t = table(CRUSADERS, CRUSADERS, CRUSADERS, seed=3)
    attacker, defender, fight = _attack_at_modification(t)
    third = next(s for s in fight.modifiers if s not in (attacker, defender))
    bell = place(t.state, "Bell of Judgement", "private", third)
    t.rivals_used.clear()
    seats._rotate(t, fight, attacker)  # (the rotation's rivals, as had the bell been ready)
    assert third in fight.rivals
    while seats.to_move(t) != third:
        assert seats.apply(t, Action("done")).ok
    actions = seats.legal_actions(t)
    crusades = [a for a in actions if a.kind == "use_on" and a.card == bell]
    aimed = {rivalry.target_of(a.option) for a in crusades}
    alive = {c for c in (*fight.wild, *fight.player) if c not in t.state.exhausted}
    assert aimed == {c for c in alive if t.state.card(c).is_troop}
    troop = fight.wild[0]
    choice = next(a for a in crusades if rivalry.target_of(a.option) == troop)
    assert seats.apply(t, choice).ok
    assert troop in t.state.exhausted
    assert fight.step == "modify" and seats.to_move(t) != third  # the rotation goes on
    assert (third, bell) in t.rivals_used


def test_an_attacking_lords_hold_the_line_keeps_his_own_troops_unexhausted() -> None:
    t = table(VETERANS, VETERANS, seed=2)
    attacker, _defender, fight = _attack_at_modification(t)
    mine = t.state
    event = place(mine, "Hold the Line", "hand", attacker)
    t.seat(attacker).personal[:] = [5, 5, 5]
    t.state.pending = None
    play = next(a for a in seats.legal_actions(t) if a.kind == "play" and a.card == event)
    assert seats.apply(t, play).ok
    assert fight.hold_wild and not fight.hold_line


def test_an_ai_attacker_frightens_by_the_wanderers_fixed_rule() -> None:
    t = table(VETERANS, FAITHFUL)
    attacker, _defender, _ = _attack_at_modification(t)
    actions = seats.legal_actions(t)
    choice = SeatPolicy("greedy", 1)(t, attacker, actions)
    target = combat.fear_target(t.state)
    assert choice.kind == "done" or (choice.kind == "fear" and choice.target == target)


def test_an_ai_attacker_assigns_by_the_wanderers_fixed_rule() -> None:
    t = table(VETERANS, FAITHFUL)
    attacker, _defender, _ = _attack_at_assignments(t)
    actions = seats.legal_actions(t)
    choice = SeatPolicy("greedy", 1)(t, attacker, actions)
    assert choice == combat.wild_choice(t.state)
    assert any(choice is a for a in actions)


def test_the_jerkin_ignores_a_wanderers_first_wound_not_another_lords_troops() -> None:
    # Boiled Leather Jerkin: "Bearer may ignore the first wound from a wanderer each round."
    t = table(VETERANS, FAITHFUL)
    home, other = t.state, t.state
    troop = give_troops(t, 0, 1)[0]
    jerkin = place(home, "Boiled Leather Jerkin", "attached", 0)
    home.host[jerkin] = troop
    home.forget_derived()
    enemy = give_troops(t, 1, 1)[0]
    wanderer = t.seat(0).wanderer_pile[0]
    assert other.owner[enemy] == 1 and home.card(wanderer).type == "wanderer"
    assert not combat._ignores_wound(home, troop, [enemy])  # another lord's troop
    assert combat._ignores_wound(home, troop, [wanderer])
    assert not combat._ignores_wound(home, troop, [wanderer])  # the first wound only


def test_faction_threshold_abilities_count_every_players_members() -> None:
    # "(F)n: only with n members of the faction in play among all players' cards": the High
    # Cantor's Pray (Kalim 3) counts the other seat's Kalim members too.
    t = table(FAITHFUL, FAITHFUL)
    mine, theirs = t.state, t.state
    for state in (mine, theirs):
        for i in rulings.personalities_in_play(state):
            state.move(i, "personality_discard")
    cantor_card = next(mine.card(i) for i in own(mine, 0)
                       if mine.card(i).name == "High Cantor Idrys Mael")
    zone = "residents" if cantor_card.is_citizen else "defensive"
    cantor = place(mine, cantor_card.name, zone, 0)
    assert rulings.faction_members(mine, "kalim") == 1
    assert "pray" not in rulings.keywords(mine, cantor)
    kalim = [i for i in t.seat(1).personality_pile if theirs.card(i).is_troop
             and theirs.card(i).faction == "kalim"][:2]
    assert len(kalim) == 2
    for i in kalim:
        theirs.move(i, "defensive")
    assert rulings.faction_members(mine, "kalim") == 3
    assert "pray" in rulings.keywords(mine, cantor)


def _at_attack_choice(t: Table) -> tuple[int, int]:
    """(attacker, defender): greedy seats played to a Military choice that may attack."""
    play_until(t, lambda t: t.stage == "military" and t.hosting is None
               and any(a.kind == "attack" and a.option == "all" for a in seats.legal_actions(t)))
    attacker = seats.to_move(t)
    return attacker, 1 - attacker


def test_the_attacker_chooses_the_troops_he_sends_an_exhausted_one_for_3_tokens() -> None:
    # "Declaration, Movement": the attacker's troops come first, chosen by him; moving an
    # exhausted troop costs 3 tokens, as in the defender's muster.
    t = table(VETERANS, FAITHFUL)
    attacker, defender = _at_attack_choice(t)
    state = t.state
    ready, tired = give_troops(t, attacker, 2)
    state.exhausted.discard(ready)
    state.exhausted.add(tired)
    t.seat(attacker).personal[:] = [3, 3, 3]
    assert seats.apply(t, Action("attack", target=defender, option="choose")).ok
    assert seats.to_move(t) == attacker and t.hosting is None
    options = seats.legal_actions(t)
    assert Action("send", ready) in options and Action("send", tired, option="pay") in options
    assert seats.apply(t, Action("send", tired, option="pay")).ok
    assert sum(t.seat(attacker).personal) == 9 - 3
    assert Action("send", tired, option="pay") not in seats.legal_actions(t)
    assert seats.apply(t, Action("done")).ok
    assert t.hosting is not None and t.hosting.visitors == [tired]
    fight = t.state.combat
    assert fight is not None and fight.wild == [tired]


@pytest.mark.parametrize(("tokens", "offered"), [((1, 1, 0), False), ((1, 1, 1), True)],
                         ids=["two-tokens", "three-tokens"])
def test_with_every_troop_exhausted_an_attack_or_a_hunt_needs_3_tokens_to_send_one(
        tokens: tuple[int, int, int], offered: bool) -> None:
    # "Moving an exhausted troop ... costs 3 tokens": with every troop exhausted and fewer
    # tokens, no troop could be sent, so neither a hunt of another's row nor an attack is
    # offered (it could only be called off, the Military choice spent); with 3 they are.
    t = table(VETERANS, FAITHFUL)
    attacker, defender = _at_attack_choice(t)
    state = t.state
    give_troops(t, attacker, 2)
    for troop in t.seat(attacker).defensive:
        if state.card(troop).is_troop:
            state.exhausted.add(troop)
    t.seat(attacker).personal[:] = list(tokens)
    state.pending = None
    options = seats.legal_actions(t)
    assert (Action("attack", target=defender, option="choose") in options) is offered
    assert not [a for a in options if a.kind == "attack" and a.option in ("all", "hold")]
    if t.seat(defender).zones["wanderers"]:
        assert (Action("hunt_row", target=defender) in options) is offered
    assert options[-1] == Action("pass")


def test_an_attack_declared_with_no_troop_is_called_off() -> None:
    t = table(VETERANS, FAITHFUL)
    _, defender = _at_attack_choice(t)
    assert seats.apply(t, Action("attack", target=defender, option="choose")).ok
    assert seats.apply(t, Action("done")).ok
    assert t.declaring is None and t.hosting is None
    assert t.state.combat is None


def test_holding_troops_back_keeps_the_best_defender_home() -> None:
    t = table(VETERANS, FAITHFUL)
    ready = give_troops(t, 0, 3)
    state = t.state
    kept = set(ready) - set(seats.attackers(state, 0, "hold"))
    assert len(kept) == 1
    best = max(state.card(i).defense for i in ready)
    assert state.card(kept.pop()).defense == best
    assert set(seats.attackers(state, 0, "all")) == set(ready)


@pytest.mark.parametrize(("influence", "taken"), [(2, 2), (0, 0), (9, 6)],
                         ids=["two-tokens", "no-faction-influence", "more-than-he-has"])
def test_valor_takes_tokens_equal_to_the_killed_troops_faction_influence(
        influence: int, taken: int) -> None:
    t = table(VETERANS, FAITHFUL)
    t.seat(0).personal[:] = [0, 0, 0]
    t.seat(1).personal[:] = [3, 2, 1]
    seats._valor(t, 0, 1, influence)
    assert sum(t.seat(0).personal) == taken
    assert sum(t.seat(1).personal) == 6 - taken


def test_a_hunt_on_another_players_row_pays_the_hunter_and_leaves_the_wanderers_his() -> None:
    t = table(VETERANS, FAITHFUL)
    play_until(t, lambda t: t.stage == "military" and t.hosting is None
               and any(a.kind == "hunt_row" for a in seats.legal_actions(t)))
    hunter = seats.to_move(t)
    owner = 1 - hunter
    own_row = list(t.seat(hunter).zones["wanderers"])
    theirs = list(t.seat(owner).zones["wanderers"])
    seats.apply(t, Action("hunt_row", target=owner))
    fight = t.state.combat
    assert fight is not None and fight.kind == "hunt"
    # The row is hunted where it lies (Combat.row): the hunter's own stays his.
    there = t.state
    assert fight.row == owner and there.row() is there.seats[owner].zones["wanderers"]
    assert t.seat(hunter).zones["wanderers"] == own_row
    engage = [a.card for a in seats.legal_actions(t) if a.kind == "engage"]
    assert engage and set(engage) <= set(theirs)
    play_until(t, lambda t: t.hosting is None)
    assert t.seat(hunter).zones["wanderers"][:len(own_row)] == own_row
    for w in theirs:  # alive in their owner's row, or killed into his piles
        assert t.state.where[w] in ("wanderers", "wanderer_discard", "dead")


def test_aggressive_wanderers_attack_the_highest_roller_ties_rolling_again() -> None:
    t = table(VETERANS, FAITHFUL, BLADES)
    chosen = {seats._highest_roller(t, [0, 1, 2]) for _ in range(30)}
    assert chosen == {0, 1, 2}  # anyone may be attacked, their owner too
    assert seats._highest_roller(t, [1]) == 1


def test_wanderers_attacking_another_player_fight_at_his_holdings_and_go_home() -> None:
    t = table(VETERANS, FAITHFUL)
    play_until(t, lambda t: t.stage == "wanderer" and t.hosting is None
               and t.state.combat is None and bool(t.seat(t.queue[0]).zones["wanderers"]))
    t.outcome = ""
    owner = t.queue[0]
    state = t.state
    raider = t.seat(owner).zones["wanderers"][0]
    state.step = "raid"
    seats._host(t, 1 - owner, owner, "raid", [raider])
    assert t.hosting is not None and seats.to_move(t) in (1 - owner, owner)
    play_until(t, lambda t: t.hosting is None)
    assert state.where[raider] in ("wanderers", "wanderer_discard", "dead")
    assert len(t.state.cards) == len(t.state.flags)


def _wild_turn(t: Table) -> GameState | None:
    """The table's state when its combat waits on its wild side's controller's assignment."""
    state = t.state
    fight = state.combat
    if fight is not None and fight.kind == "raid" and fight.step == "assign" \
            and fight.turn == combat.WILD and fight.asks_wild:
        return state
    return None


def _raid_at_assignments(t: Table, on_owner: bool) -> tuple[GameState, int]:
    """(the raided state, the owner of the raiding wanderers): the first raid of greedy seats
    by wanderers on another player (``on_owner`` False) or on their owner, at the wanderers'
    first assignment."""
    def there(t: Table) -> bool:
        state = _wild_turn(t)
        if state is None or t.stage != "wanderer":
            return False
        return (t.hosting is None) == on_owner
    play_until(t, there)
    state = _wild_turn(t)
    assert state is not None
    owner = t.queue[0]
    return state, owner


@pytest.mark.parametrize("seed", [3, 7])
def test_wanderers_attacking_another_player_are_controlled_by_their_owner(seed: int) -> None:
    # "If your wanderers attack another player then you control all wanderers during the
    # combat": he makes their assignments (and is first in the modification rotation).
    t = table(VETERANS, FAITHFUL, BLADES, seed=seed)
    raided, owner = _raid_at_assignments(t, on_owner=False)
    assert t.hosting is not None and raided.player == t.hosting.host != owner
    assert seats.to_move(t) == owner == raided.to_move
    fight = raided.combat
    assert fight is not None and fight.modifiers[0] == owner
    actions = seats.legal_actions(t)
    assert actions and all(a.kind in ("separate", "joint") and a.card in fight.wild
                           for a in actions)
    assert seats.apply(t, actions[-1]).ok  # any of them, not only the fixed rule's


def test_wanderers_attacking_their_owner_are_controlled_by_the_player_on_his_left() -> None:
    # "If they attack you then the player to your left controls all wanderers."
    t = table(VETERANS, FAITHFUL, BLADES, seed=3)
    raided, owner = _raid_at_assignments(t, on_owner=True)
    assert raided.player == owner
    left = next(s for s in ((owner + k) % 3 for k in (1, 2)) if s not in t.out)
    assert seats.to_move(t) == left == raided.to_move
    choice = SeatPolicy("greedy", 1)(t, left, seats.legal_actions(t))
    assert choice == combat.wild_choice(raided)  # an AI controller: the fixed rule
    assert seats.apply(t, choice).ok


def test_a_unique_played_while_another_copy_is_in_play_sends_that_copy_to_its_owners_discard(
        ) -> None:
    t = table(FAITHFUL, FAITHFUL)
    old, new = t.state, t.state
    unique = next(i for i in t.seat(1).zones["personality_pile"] if old.card(i).unique
                  and old.card(i).type == "personality")
    # The same deck: the new seat's copy is its instance of the same card.
    mine = next(i for i in t.seat(0).zones["personality_pile"]
                if new.cards[i] == old.cards[unique])
    old.move(unique, "defensive")
    new.move(mine, "defensive")
    seats._check_uniques(t, 0, {mine})
    assert old.where[unique] == "personality_discard"
    assert new.where[mine] == "defensive"


def test_citizens_left_homeless_by_another_players_unique_structure_are_discarded() -> None:
    # Another seat's copy of a unique structure sends this one to the discard pile on that
    # seat's turn: its citizens, with no open residence, go to the discard pile (their fate is
    # not this seat's decision then), leaving the other citizens housed.
    t = table(FAITHFUL, FAITHFUL)
    old, new = t.state, t.state
    me = t.seat(1)
    cathedral = next(i for i in me.zones["structure_pile"]
                     if old.card(i).name == "Grand Cathedral of Embers")
    old.move(cathedral, "private")
    new.move(cathedral, "private")  # the same deck: the same instance number
    citizens = [i for i in me.zones["personality_pile"] if old.card(i).is_citizen]
    for citizen in citizens:  # the cathedral's two first, then every other residence
        homes = rulings.open_residences(old, 1)
        if not homes:
            break
        old.move(citizen, "residents")
        old.host[citizen] = cathedral if citizen in citizens[:2] else homes[-1]
    others = [c for c in me.residents if old.host[c] != cathedral]
    assert others and len(me.residents) > 2
    seats._check_uniques(t, 0, {cathedral})
    assert old.where[cathedral] == "structure_discard" and me.homeless == []
    assert [old.where[c] for c in citizens[:2]] == ["personality_discard"] * 2
    assert all(old.where[c] == "residents" for c in others)


def test_the_initial_holdings_never_replace_one_another() -> None:
    t = table(FAITHFUL, FAITHFUL)  # both hold the same unique stronghold
    play_until(t, lambda t: t.round == 2)
    for seat in range(t.players):
        assert any(t.state.card(i).subtype == "stronghold"
                   for i in t.seat(seat).zones["private"])


def test_a_dead_unique_blocks_every_player() -> None:
    t = table(FAITHFUL, FAITHFUL)
    dead, alive = t.state, t.state
    unique = next(i for i in t.seat(1).zones["personality_pile"] if dead.card(i).unique
                  and dead.card(i).type == "personality")
    dead.move(unique, "dead")
    assert seats._blocked(t, 0, Action("play", unique))
    assert not seats._blocked(t, 1, Action("play", unique))  # his own rule: the solo engine's
    alive.move(unique, "hand")


def test_a_player_whose_stronghold_is_destroyed_is_out_and_his_tokens_stay() -> None:
    t = table(VETERANS, FAITHFUL, BLADES)
    # (the engine ends the game of the player whose stronghold is destroyed: seat 3's turn)
    play_until(t, lambda t: t.stage == "action" and t.state.player == 2)
    out = t.state
    tokens = list(t.seat(2).personal)
    rulings.end_game(out, "stronghold")
    seats._settle(t)
    assert 2 in t.out
    assert not any(t.seat(2).zones[z]
            for z in ("private", "residents", "guards", "defensive",
                                          "wanderers", "attached", "hand"))
    assert t.seat(2).personal == tokens
    play_until(t, lambda t: t.round == 3)
    assert t.outcome or 2 not in t.active()


def test_a_player_may_surrender_at_any_time_and_is_out_as_if_his_stronghold_fell() -> None:
    # "A player may surrender at any time. All cards of a player whose stronghold has been
    # destroyed go to the discard piles ... while their influence tokens and counters remain."
    t = table(VETERANS, FAITHFUL, BLADES)
    play_until(t, lambda t: t.stage == "action" and t.round == 2)
    quitter = seats.to_move(t)
    tokens = list(t.seat(quitter).personal)
    assert seats.surrender(t, quitter).ok
    assert t.out[quitter] == (2, seats.SURRENDERED) and not t.outcome
    assert not any(t.seat(quitter).zones[z] for z in ("private", "defensive", "hand"))
    assert t.seat(quitter).personal == tokens
    assert seats.to_move(t) not in (quitter, -1)  # the cycle goes on without him
    assert not seats.surrender(t, quitter).ok  # once out, out
    play_until(t, lambda t: t.round == 3)


def test_when_the_lead_player_surrenders_the_action_cycle_starts_at_his_left() -> None:
    t = table(FAITHFUL, BLADES, SENATE, seed=5, target=15)
    assert t.stage == "maintenance"
    lead = t.lead
    assert seats.surrender(t, lead).ok
    play_until(t, lambda t: t.stage == "action")
    assert seats.to_move(t) == t.active()[0] != lead


def test_a_player_who_surrenders_in_the_middle_of_an_attack_ends_it_and_the_last_wins(
        ) -> None:
    t = table(VETERANS, FAITHFUL)
    attacker, defender, _ = _attack_at_assignments(t)
    assert seats.surrender(t, defender).ok
    assert t.hosting is None
    assert t.outcome == "victory" and t.winner == attacker
    assert not seats.surrender(t, attacker).ok  # the game is over


def test_an_attacker_who_surrenders_at_his_modification_leaves_the_others_playing() -> None:
    t = table(CRUSADERS, CRUSADERS, CRUSADERS, seed=3)
    attacker, _defender, fight = _attack_at_modification(t)
    sent = list(fight.wild)
    assert seats.surrender(t, attacker).ok
    assert t.hosting is None and t.state.combat is None and not t.outcome
    assert all(t.state.where[troop] not in ("defensive", "private")
               for troop in sent)
    start = t.round
    play_until(t, lambda t: t.round == start + 1)
    assert attacker not in t.active()


def test_the_last_player_standing_wins() -> None:
    t = table(VETERANS, FAITHFUL)
    play_until(t, lambda t: t.stage == "action")
    rulings.end_game(t.state, "stronghold")
    seats._settle(t)
    assert t.outcome == "victory" and t.winner == 0


def test_victory_is_checked_at_the_start_of_each_round_for_every_player() -> None:
    t = table(VETERANS, FAITHFUL, target=15)
    seats.play(t, policies(t))
    assert t.outcome == "victory"
    state = t.state
    totals = [rulings.influence_total(state, s) for s in range(t.players)]
    assert totals[t.winner] >= 15 and max(totals) == totals[t.winner]


def test_every_player_loses_when_the_wanderers_exceed_three_times_the_players() -> None:
    t = table(VETERANS, FAITHFUL)
    for seat, count in ((0, 4), (1, 3)):
        state = t.state
        for i in t.seat(seat).zones["wanderer_pile"][:count]:
            state.move(i, "wanderers")
    t.row_before = []
    seats._arrivals(t, 0)
    assert t.outcome == "overrun" and t.winner == -1


def test_three_times_the_players_wanderers_is_not_yet_an_overrun() -> None:
    t = table(VETERANS, FAITHFUL)
    for seat in (0, 1):
        state = t.state
        for i in t.seat(seat).zones["wanderer_pile"][:3]:
            state.move(i, "wanderers")
    seats._arrivals(t, 0)
    assert not t.outcome


@pytest.mark.parametrize("decks", [2, 3, 6])
def test_seats_rotate_so_each_deck_sits_in_each_seat_equally_often(decks: int) -> None:
    sat = {(game_seat, deck) for number in range(1, decks + 1)
           for game_seat, deck in enumerate(seating(decks, number))}
    assert sat == {(s, d) for s in range(decks) for d in range(decks)}


def test_each_seat_may_have_its_own_policy() -> None:
    t = table(VETERANS, FAITHFUL)
    seats.play(t, [SeatPolicy("greedy", 0), SeatPolicy("random", 1)])
    assert t.outcome in ("victory", "overrun", "timeout")


@pytest.mark.parametrize(("deck", "name", "ability", "victim_after", "taker_gain", "city_gain"), [
    (VETERANS, "Coin Broker", "extort", [0, 3, 3], [1, 0, 0], 0),
    (FAITHFUL, "Tithe Reeve", "tithe", None, [0, 0, 0], None),
], ids=["extort-takes-economic", "tithe-moves-religious-to-the-city"])
def test_rival_abilities_take_from_another_players_pool(
        deck: str, name: str, ability: str, victim_after: list[int] | None,
        taker_gain: list[int], city_gain: int | None) -> None:
    t = table(deck, BLADES)
    play_until(t, lambda t: t.stage == "action" and seats.to_move(t) == 0)
    state = t.state
    bearer = next(i for i in own(state, 0) if state.card(i).name == name
                  and not state.in_play(i))
    state.move(bearer, "defensive")
    state.exhausted.discard(bearer)
    state.pending = None
    t.seat(1).personal[:] = [1, 3, 3]
    before, city = list(t.seat(0).personal), sum(state.city)
    use = Action("use_on", bearer, 1, ability)
    assert use in seats.legal_actions(t)
    strength = state.card(bearer).strength
    seats.apply(t, use)
    if ability == "extort":
        assert t.seat(1).personal == victim_after
        gained = [a - b for a, b in zip(t.seat(0).personal, before, strict=True)]
        assert gained == taker_gain
        assert sum(state.city) == city
    else:
        moved = min(3, strength[1])
        assert t.seat(1).personal == [1, 3 - moved, 3]
        assert t.seat(0).personal == before and sum(state.city) == city + moved
    assert seats.to_move(t) == 1  # it was the seat's action of the cycle
    # Once a round per bearer (choice: two lords extorting each other would never stop).
    seats.apply(t, Action("pass"))
    assert all(a.card != bearer for a in seats.legal_actions(t) if a.kind == "use_on")


def test_sap_takes_the_most_plentiful_kinds_to_the_city() -> None:
    t = table(VETERANS, BLADES)
    state = t.state
    t.seat(1).personal[:] = [1, 4, 2]
    bearer = next(i for i in t.seat(0).zones["personality_pile"]
            if state.card(i).is_troop)
    card = state.card(bearer)  # no sample card has Sap: this troop gets it, political 3
    state.by_id[card.id] = replace(card, no_solo_effect=("Sap.",), strength=(0, 0, 3))
    state.profiles = None
    state.move(bearer, "defensive")
    city = sum(state.city)
    assert Action("use_on", bearer, 1, "sap") in rivalry.options(t.state, 0, [1])
    assert rivalry.apply(t.state, 0, Action("use_on", bearer, 1, "sap")) == 3
    # One token at a time from the most plentiful kind: 4 religious, then 3, then a tie of
    # 2 and 2 (religious before political).
    assert t.seat(1).personal == [1, 1, 2] and sum(state.city) == city + 3


@pytest.mark.parametrize(("clause", "parsed"), [
    ("Extort.", ("extort", False, 0)), ("E Tithe.", ("tithe", True, 0)),
    ("E (F)3 Extort.", ("extort", True, 3)), ("Retain.", None),
    ("E Crusade.", ("crusade", True, 0)), ("E (F)3 Crusade.", ("crusade", True, 3)),
    ("E Discredit.", ("discredit", True, 0)), ("E Influence.", ("influence", True, 0)),
    ("E Pay 2 religious influence: exhaust target personality.", ("exhaust", True, 0)),
    ("Pay 1 political influence: exhaust target personality", ("exhaust", False, 0)),
], ids=["extort", "e-tithe", "faction-extort", "not-a-rival-ability", "e-crusade",
        "faction-crusade", "e-discredit", "e-influence", "e-pay-exhaust-personality",
        "pay-exhaust-personality"])
def test_rival_ability_clauses(clause: str, parsed: tuple[str, bool, int] | None) -> None:
    assert rivalry.parse(clause) == parsed


def at_action(*decks: str) -> Table:
    """A table at its first Action and Development Phase, seat 1 (index 0) to act."""
    t = table(*decks)
    play_until(t, lambda t: t.stage == "action" and seats.to_move(t) == 0 and t.window is None)
    return t


def stronghold(t: Table, seat: int) -> int:
    state = t.state
    return next(s for s in state.seats[seat].zones["private"]
                if state.card(s).subtype == "stronghold")


# (deck, bearer, its zone, ability, the victim's target: a troop, a citizen or a structure)
EXHAUSTING = [
    (CRUSADERS, "Bell of Judgement", "private", "crusade", "troop"),
    (SENATE, "Whispering Envoy", "residents", "discredit", "citizen"),
    (SENATE, "Spymaster's Clerk", "residents", "influence", "structure"),
]


@pytest.mark.parametrize(("deck", "name", "zone", "ability", "what"), EXHAUSTING,
                         ids=["crusade-exhausts-a-troop", "discredit-exhausts-a-citizen",
                              "influence-exhausts-a-structure"])
def test_crusade_discredit_and_influence_exhaust_another_players_card(
        deck: str, name: str, zone: str, ability: str, what: str) -> None:
    t = at_action(deck, VETERANS)
    state, victim = t.state, t.state
    bearer = place(state, name, zone, 0)
    if what == "troop":
        target = give_troops(t, 1, 1)[0]
    elif what == "citizen":
        target = place(victim, "Coin Broker", "residents", 1)
    else:
        target = stronghold(t, 1)
    victim.exhausted.discard(target)
    use = Action("use_on", bearer, 1, rivalry.exhaust_option(ability, target))
    assert use in seats.legal_actions(t)
    # Only the other player's cards of the kind named are targets.
    aimed = [rivalry.target_of(a.option) for a in seats.legal_actions(t)
             if a.kind == "use_on" and a.card == bearer and a.option.startswith(ability)]
    assert aimed == rivalry.exhaust_targets(t.state, 1, what) and target in aimed
    tokens = [list(t.seat(0).personal), list(t.seat(1).personal),
        list(state.city)]
    assert seats.apply(t, use).ok
    assert t.window is None  # (no seat holds an answer to it here)
    assert target in victim.exhausted
    assert bearer in state.exhausted  # "E"
    # no token moves
    assert [t.seat(0).personal, t.seat(1).personal, state.city] == tokens
    assert seats.to_move(t) == 1  # it was the seat's action of the cycle
    assert rivalry.sentence(t.state, use, 0) == (
        f"{name} uses {ability.capitalize()} on seat 2's {victim.card(target).name}: "
        "exhausted.")
    # Once a round per bearer, and the exhausted card is no target any more.
    seats.apply(t, Action("pass"))
    assert all(a.card != bearer and rivalry.target_of(a.option) != target
               for a in seats.legal_actions(t) if a.kind == "use_on")


def test_an_exhausted_card_is_no_target_of_crusade() -> None:
    t = at_action(CRUSADERS, VETERANS)
    state, victim = t.state, t.state
    bell = place(state, "Bell of Judgement", "private", 0)
    ready, tired = give_troops(t, 1, 2)
    victim.exhausted.discard(ready)
    victim.exhausted.add(tired)
    aimed = {rivalry.target_of(a.option) for a in seats.legal_actions(t)
             if a.kind == "use_on" and a.card == bell}
    assert ready in aimed and tired not in aimed


def test_discredit_is_political_and_may_be_debated_crusade_is_not() -> None:
    t = at_action(SENATE, SENATE)
    state = t.state
    envoy = place(state, "Whispering Envoy", "residents", 0)  # political 2
    warden_seat = at_action(CRUSADERS, VETERANS)
    warden = place(warden_seat.state, "Cathedral Warden", "defensive", 0)
    discredit = Action("use_on", envoy, 1, rivalry.exhaust_option("discredit", 3))
    crusade = Action("use_on", warden, 1, rivalry.exhaust_option("crusade", 3))
    assert reactions.political(state, discredit) == 2
    assert reactions.political(warden_seat.state, crusade) == -1
    # A Court Notary (Debate, political 2) in the other seat answers the Discredit.
    notary = place(t.state, "Court Notary", "residents", 1)
    citizen = place(t.state, "Whispering Envoy", "residents", 1)
    assert seats.apply(t, Action("use_on", envoy, 1,
                                 rivalry.exhaust_option("discredit", citizen))).ok
    assert t.window is not None and seats.to_move(t) == 1
    assert seats.apply(t, Action("react", notary, 0, "debate")).ok
    assert citizen not in t.state.exhausted  # negated
    assert envoy in state.exhausted  # "E": used all the same


@pytest.mark.parametrize(("bearer", "zone", "victim_troop", "chosen"), [
    ("Bell of Judgement", "private", "Ashgate Spearman", True),
    ("Cathedral Warden", "defensive", "Ironhide Bruiser", True),
    ("Cathedral Warden", "defensive", "Sellsword", False),
], ids=["a-structure-always-trades-up", "a-troop-trades-itself-for-a-stronger-one",
        "a-troop-keeps-itself-against-a-weaker-one"])
def test_greedy_exhausts_a_troop_when_it_costs_the_victim_more_than_itself(
        bearer: str, zone: str, victim_troop: str, chosen: bool) -> None:
    t = at_action(CRUSADERS, VETERANS)
    state, victim = t.state, t.state
    mine = place(state, bearer, zone, 0)
    theirs = place(victim, victim_troop, "defensive", 1)
    rivals = [a for a in seats.rival_options(t, 0) if a.card == mine
              and rivalry.target_of(a.option) == theirs]
    assert rivals
    worth = mp.exhaust_worth(t, 0, rivals[0])
    target_card, own = victim.card(theirs), state.card(mine)
    expected = target_card.offense + target_card.defense \
        - (own.offense + own.defense if own.is_troop else 0)
    assert worth == expected
    assert (mp.rival_choice(t, 0, rivals) is rivals[0]) == chosen


def test_greedy_exhausts_no_troop_while_the_wanderers_may_overrun_the_city_soon() -> None:
    # A troop exhausted is one fewer to hunt: with two Wanderer Phases (a wanderer each player
    # each) enough to overrun the city, Crusade is kept (table_policy.CRUSADE_ROUNDS).
    t = at_action(CRUSADERS, VETERANS)
    state, victim = t.state, t.state
    bell = place(state, "Bell of Judgement", "private", 0)
    theirs = place(victim, "Ironhide Bruiser", "defensive", 1)
    crusade = [a for a in seats.rival_options(t, 0) if a.card == bell
               and rivalry.target_of(a.option) == theirs]
    in_play = sum(len(t.seat(s).zones["wanderers"]) for s in range(t.players))
    room = t.config.overrun_limit - in_play - mp.CRUSADE_ROUNDS * t.players
    assert room >= 0 and mp.rival_choice(t, 0, crusade) is crusade[0]
    pile = [i for i in t.seat(1).zones["wanderer_pile"]][:room + 1]
    for i in pile:
        victim.move(i, "wanderers")
    victim.forget_derived()
    assert mp.exhaust_worth(t, 0, crusade[0]) == 0
    assert mp.rival_choice(t, 0, crusade) is None


def test_a_stronghold_destroyed_by_an_attack_knocks_its_player_out() -> None:
    t = table(VETERANS, FAITHFUL)
    play_until(t, lambda t: t.stage == "military" and t.hosting is None)
    attacker = seats.to_move(t)
    defender = 1 - attacker
    give_troops(t, attacker, 4)
    for troop in troops(t, attacker):
        t.state.exhausted.discard(troop)
    home = t.state
    for troop in troops(t, defender) + list(t.seat(defender).zones["guards"]):
        home.move(troop, "personality_discard")
    keep = next(i for i in t.seat(defender).zones["private"]
            if home.card(i).subtype == "stronghold")
    for structure in [i for i in t.seat(defender).zones["private"] if i != keep]:
        rulings.discard_from_play(home, structure, "test")
    for wall in [i for i in t.seat(defender).zones["defensive"]
            if home.card(i).subtype == "wall"]:
        rulings.discard_from_play(home, wall, "test")
    home.wounds[keep] = home.card(keep).vitality - 1  # one more wound destroys it
    seats.apply(t, Action("attack", target=defender, option="all"))
    play_until(t, lambda t: t.hosting is None)
    assert t.out == {defender: (t.round, "attack")}
    assert home.where[keep] in ("structure_discard", "dead")
    assert (t.outcome, t.winner) == ("victory", attacker)  # the last player standing


def _retainer_attacks(t: Table) -> tuple[int, int]:
    """Seat 0 (mosfin-blades) attacks seat 1 with its Silverblade Retainer (Defender, Bribery,
    faction influence 2): the retainer's instance, and the card seat 1's combat names (the
    same: the seats share one card space)."""
    state = t.state
    retainer = next(i for i in own(state, 0)
                    if state.cards[i] == "demo-silverblade-retainer")
    state.move(retainer, "defensive")
    state.pending = None
    seats._host(t, 1, 0, "attack", [retainer])
    assert t.hosting is not None
    assert t.hosting.visitors == [retainer]
    return retainer, retainer


def test_bribery_of_another_lords_troop_costs_his_faction_influence() -> None:
    t = table(BLADES, FAITHFUL)
    t.seat(1).personal[:] = [3, 3, 3]
    _, guest = _retainer_attacks(t)
    host = t.state
    assert host.card(guest).influence == 2 and host.card(guest).bounty == 0
    assert Action("bribe", guest) in engine.legal_actions(host)
    assert combat.bribe_cost(host, guest) == 2  # not a bounty of 0 (or the minimum of one)
    assert engine.apply(host, Action("bribe", guest)).ok
    assert sum(t.seat(1).personal) == 9 - 2
    assert sum(host.on_card[guest]) == 2  # "Bribes remain on bearer"


def _retainer_defends(t: Table) -> tuple[int, Combat]:
    """Seat 1 attacks seat 0 (mosfin-blades), who sends his Silverblade Retainer (Bribery,
    faction influence 2) to the battlefield: the retainer, and the combat at the attacker's
    bribes."""
    defender = t.state
    retainer = next(i for i in own(defender, 0) if defender.cards[i] == "demo-silverblade-retainer")
    defender.move(retainer, "defensive")
    defender.exhausted.discard(retainer)
    sent = give_troops(t, 1, 1)
    t.seat(1).personal[:] = [3, 3, 3]
    seats._host(t, 0, 1, "attack", sent)
    fight = defender.combat
    assert fight is not None
    while fight.step != "muster":
        assert seats.apply(t, Action("done")).ok
    assert seats.to_move(t) == 0
    assert seats.apply(t, Action("send", retainer)).ok
    if fight.step == "muster":  # (done, unless nothing else could be sent)
        assert seats.apply(t, Action("done")).ok
    return retainer, fight


def test_the_attacker_may_bribe_a_defending_troop_before_the_assignments() -> None:
    # Bribery: "Bearer returns home immediately from the combat. Bribes should be paid before
    # assignments are made ... a troop's cost is his faction influence": the attacking lord
    # bribes a defender once the defender has moved his troops, from his own pool.
    t = table(BLADES, FAITHFUL)
    retainer, fight = _retainer_defends(t)
    assert fight.step == combat.BRIBE_BACK and seats.to_move(t) == 1
    assert seats.legal_actions(t) == [Action("bribe", retainer), Action("done"), seats.TRUCE]
    assert seats.apply(t, Action("bribe", retainer)).ok
    assert retainer not in fight.player  # home at once
    defender = t.state
    assert sum(t.seat(1).personal) == 9 - 2 and sum(defender.on_card[retainer]) == 2
    assert fight.step != combat.BRIBE_BACK


def test_an_ai_attacker_bribes_no_defender() -> None:
    t = table(BLADES, FAITHFUL)
    _retainer_defends(t)
    choice = SeatPolicy("greedy", 1)(t, 1, seats.legal_actions(t))
    assert choice == Action("done")


def test_a_bribe_on_a_troop_is_collected_by_the_lord_who_kills_it() -> None:
    t = table(BLADES, FAITHFUL)
    state = t.state
    retainer = next(i for i in own(state, 0)
                    if state.cards[i] == "demo-silverblade-retainer")
    state.on_card[retainer] = [1, 0, 1]  # bribed in an earlier combat
    state.city[0] -= 1
    state.city[2] -= 1
    retainer, guest = _retainer_attacks(t)
    host = t.state
    assert host.on_card[guest] == [1, 0, 1]  # the bribe travels with its bearer
    t.seat(0).personal[:] = [5, 5, 5]
    t.seat(1).personal[:] = [0, 0, 0]
    city_before = list(host.city)
    rulings.remove_killed(host, guest, "killed")
    assert t.hosting is not None and t.hosting.fight is not None
    t.hosting.fight.troop_kills.append(guest)  # killed by the defender's troops
    seats._finish_hosting(t)
    # The bribe (1 economic, 1 political) and the valor of a troop of faction influence 2.
    assert sum(t.seat(1).personal) == 2 + 2
    assert t.seat(1).personal[0] >= 1 and t.seat(1).personal[2] >= 1
    assert host.city == city_before  # the bribe went to the city with the card, then to him
    assert t.state.where[retainer] == "personality_discard"


@pytest.mark.parametrize(("by_troop", "valor"), [(True, 2), (False, 0)],
                         ids=["killed-by-a-troop", "killed-by-a-structure"])
def test_valor_is_earned_only_by_a_troop_that_kills(by_troop: bool, valor: int) -> None:
    # "If a troop of yours kills another lord's troop, take influence tokens from that lord":
    # a troop killed by a structure or a wall (striking back) earns nobody valor.
    t = table(BLADES, FAITHFUL)
    retainer, _ = _retainer_attacks(t)
    host = t.state
    t.seat(0).personal[:] = [5, 5, 5]
    t.seat(1).personal[:] = [0, 0, 0]
    rulings.remove_killed(host, retainer, "killed")
    assert t.hosting is not None and t.hosting.fight is not None
    if by_troop:
        t.hosting.fight.troop_kills.append(retainer)
    seats._finish_hosting(t)
    assert sum(t.seat(1).personal) == valor


def test_a_kill_is_a_troops_when_its_attack_has_a_troop_in_it() -> None:
    # combat._resolve notes the cards killed by an attack with a troop in it (Combat.troop_kills).
    t = table(VETERANS, FAITHFUL)
    play_until(t, lambda t: t.outcome != "" or (
        t.state.combat is not None and len(t.state.combat.troop_kills) > 0))
    state = t.state
    fight = state.combat
    assert fight is not None
    for card in fight.troop_kills:
        assert not state.in_play(card)
        assert any(group[1] == card and any(state.card(m).is_troop for m in group[2:])
                   for group in fight.groups)


def table_with(extra: dict[str, str], *decks: str, seed: int = 1) -> Table:
    """A table of ``decks``, seat 0's deck with one copy more of each card of ``extra``
    (card id -> the name it is looked up by, in the personality pile)."""
    prepared = []
    for number, name in enumerate(decks):
        deck = sample(name)
        if number == 0:
            deck = replace(deck, personalities=(
                *deck.personalities, *(DeckEntry(card_id, 1) for card_id in extra)))
        prepared.append(engine.prepare(deck, catalogue()))
    return seats.new_table(prepared, seed, GameConfig(target=25))


def at_own_action(t: Table, seat: int = 0) -> None:
    play_until(t, lambda t: t.stage == "action" and seats.to_move(t) == seat
               and t.state.player == seat and t.state.step == "act")


def in_hand(t: Table, seat: int, name: str) -> int:
    state = t.state
    found = next(i for i in own(state, seat) if state.card(i).name == name and not state.in_play(i))
    state.move(found, "hand")
    state.pending = None
    return found


def test_target_structure_texts_reach_another_players_structures() -> None:
    # "Target structure other than a stronghold takes one wound." names no owner: Rooftop
    # Fire may burn another player's structure, and his citizens it housed find another of
    # his residences or go to his discard pile (not the burning player's decision).
    t = table_with({"demo-rooftop-fire": "Rooftop Fire"}, VETERANS, FAITHFUL)
    at_own_action(t)
    fire = in_hand(t, 0, "Rooftop Fire")
    victim = t.state
    theirs = [s for s in t.seat(1).private if victim.card(s).subtype != "stronghold"]
    assert theirs
    offered = {a.target for a in seats.legal_actions(t) if a.card == fire}
    assert set(theirs) <= offered
    mine = {s for s in t.seat(0).private
            if t.state.card(s).subtype != "stronghold"}
    assert offered == mine | set(theirs)
    target = min(theirs, key=lambda s: victim.card(s).vitality)
    housed = [c for c in t.seat(1).residents if victim.host.get(c) == target]
    assert seats.apply(t, Action("play", fire, target)).ok
    if victim.card(target).vitality <= 1:
        assert victim.where[target] == "structure_discard"
        assert all(victim.where[c] in ("residents", "personality_discard") for c in housed)
        assert t.seat(1).homeless == []
    else:
        assert victim.wounds[target] == 1
    assert t.state.where[fire] == "personality_discard"


@pytest.mark.parametrize(("card_id", "name", "kind"), [
    ("demo-bounty-proclamation", "Bounty Proclamation", "play"),
    ("demo-holy-immolation", "Holy Immolation", "use"),
], ids=["bounty-proclamation", "holy-immolation"])
def test_target_wanderer_texts_reach_every_players_row(card_id: str, name: str,
                                                       kind: str) -> None:
    # "Target wanderer" names no row: the wanderers of every player's row are targets.
    t = table_with({card_id: name}, CRUSADERS, BLADES)
    at_own_action(t)
    state, other = t.state, t.state
    card = in_hand(t, 0, name)
    if kind == "use":  # an invocation: cast on a Kalim personality, its bearer uses it
        bearer = next(i for i in own(state, 0) if state.card(i).faction == "kalim"
                      and state.card(i).is_troop and not state.in_play(i))
        state.move(bearer, "defensive")
        state.move(card, "attached")
        state.host[card] = bearer
        t.seat(0).personal[:] = [5, 5, 5]
        state.forget_derived()
        state.pending = None
    for seat, seat_state in enumerate((state, other)):  # a wanderer in each row
        seat_state.move(t.seat(seat).wanderer_pile[0], "wanderers")
    state.pending = None
    theirs = list(t.seat(1).zones["wanderers"])
    offered = {a.target for a in seats.legal_actions(t) if a.kind == kind and a.card == card}
    assert set(theirs) <= offered
    assert set(t.seat(0).zones["wanderers"]) <= offered


def test_each_player_texts_reach_every_player() -> None:
    # "Each player exhausts one of his citizens": Bread Riot's player exhausts the citizen he
    # chooses, and every other player one of his (the one that costs him least, made for him:
    # one without an exhausting ability first, then the least income).
    t = table_with({"demo-bread-riot": "Bread Riot"}, VETERANS, FAITHFUL, SENATE)
    at_own_action(t)
    riot = in_hand(t, 0, "Bread Riot")
    t.seat(0).personal[:] = [5, 5, 5]
    for seat in range(3):
        state = t.state
        stronghold = next(s for s in t.seat(seat).private
                          if state.card(s).subtype == "stronghold")
        for citizen in [i for i in own(state, seat) if state.card(i).is_citizen
                        and not state.in_play(i)][:2]:
            state.move(citizen, "residents")
            state.host[citizen] = stronghold
        for citizen in t.seat(seat).residents:
            state.exhausted.discard(citizen)
        state.forget_derived()
        state.pending = None
    mine = t.seat(0).residents[0]
    expected = {s: rulings.cheapest_citizen(t.state, s) for s in (1, 2)}
    assert all(c >= 0 for c in expected.values())
    assert seats.apply(t, Action("play", riot, mine)).ok
    for seat in range(3):
        exhausted = [c for c in t.seat(seat).residents if c in t.state.exhausted]
        assert exhausted == [mine if seat == 0 else expected[seat]]


def test_the_citizen_another_player_exhausts_for_bread_riot_costs_him_least() -> None:
    t = table(VETERANS, FAITHFUL)
    state = t.state
    stronghold = next(s for s in t.seat(1).private
            if state.card(s).subtype == "stronghold")
    citizens = [i for i in own(state, 1) if state.card(i).is_citizen and not state.in_play(i)]
    for citizen in citizens:
        state.move(citizen, "residents")
        state.host[citizen] = stronghold
        state.exhausted.discard(citizen)
    chosen = rulings.cheapest_citizen(state, 1)
    key = [(any(a.exhausts for a in state.card(c).abilities), state.card(c).income,
            state.card(c).influence) for c in citizens]
    assert key[citizens.index(chosen)] == min(key)
    state.exhausted.update(citizens)
    assert rulings.cheapest_citizen(state, 1) == -1


def test_exhaust_target_personality_reaches_another_players_personality() -> None:
    # Censure of the Faithless, "E Pay 2 religious influence: exhaust target personality",
    # cast on a Kalim personality: at a table its bearer exhausts another player's
    # personality, paying 2 religious tokens, and is exhausted himself.
    t = table(CRUSADERS, BLADES)
    at_own_action(t)
    state, victim = t.state, t.state
    censure = in_hand(t, 0, "Censure of the Faithless")
    bearer = next(i for i in own(state, 0) if state.card(i).faction == "kalim"
                  and state.card(i).is_troop and not state.in_play(i))
    state.move(bearer, "defensive")
    state.move(censure, "attached")
    state.host[censure] = bearer
    t.seat(0).personal[:] = [0, 2, 0]
    give_troops(t, 1, 1)
    state.forget_derived()
    state.pending = None
    targets = [i for zone in ("residents", "guards", "defensive")
               for i in t.seat(1).zones[zone] if i not in victim.exhausted]
    offered = [a for a in seats.legal_actions(t) if a.kind == "use_on" and a.card == censure]
    assert {rivalry.target_of(a.option) for a in offered} == set(targets)
    assert all(a.target == 1 for a in offered)
    use = offered[0]
    assert seats.apply(t, use).ok
    assert rivalry.target_of(use.option) in victim.exhausted
    assert bearer in state.exhausted and t.seat(0).personal == [0, 0, 0]
    # Without the price, or with the bearer exhausted, it is not offered.
    state.exhausted.discard(bearer)
    t.rivals_used.clear()
    play_until(t, lambda t: t.stage == "action" and seats.to_move(t) == 0
               and t.state.player == 0 and t.state.step == "act")
    t.seat(0).personal[:] = [5, 1, 5]
    state.pending = None
    assert not [a for a in seats.legal_actions(t) if a.kind == "use_on" and a.card == censure]


def test_an_attack_between_players_ends_when_both_agree() -> None:
    # "A combat not involving wanderers may be ended at any time if both players agree to
    # cease combat": the attacker offers at one of his decisions, the defender agrees, and the
    # attack ends where it stands: nobody fought, every attacker is home, the Military Phase
    # goes on.
    t = table(VETERANS, FAITHFUL)
    _attacker, defender, sent = _attack_at_assignments(t)
    assert seats.TRUCE in seats.legal_actions(t)
    assert seats.apply(t, seats.TRUCE).ok
    assert seats.to_move(t) == defender
    assert seats.legal_actions(t) == list(seats.TRUCE_ANSWERS)
    before = {i: t.state.where[i] for i in sent}
    assert seats.apply(t, Action("truce", option="accept")).ok
    assert t.hosting is None and t.state.combat is None and t.truce == -1
    assert {i: t.state.where[i] for i in sent} == before
    assert not t.state.wounds and not any(t.state.wounds.get(i)
                                                    for i in sent)


def test_an_offer_to_end_an_attack_refused_leaves_it_going_on_and_is_made_once() -> None:
    t = table(VETERANS, FAITHFUL)
    attacker, _, _ = _attack_at_assignments(t)
    before = seats.legal_actions(t)
    assert seats.apply(t, seats.TRUCE).ok
    assert seats.apply(t, Action("truce", option="refuse")).ok
    # The attacker is asked again at the decision he was at, with no second offer.
    assert seats.to_move(t) == attacker
    assert seats.legal_actions(t) == before[:-1]


def test_the_ai_defender_agrees_to_end_an_attack_and_the_ai_attacker_fights_on() -> None:
    t = table(VETERANS, FAITHFUL)
    attacker, defender, _ = _attack_at_assignments(t)
    chosen = policies(t)
    assert chosen[attacker](t, attacker, seats.legal_actions(t)) != seats.TRUCE  # never offers
    seats.apply(t, seats.TRUCE)
    answer = chosen[defender](t, defender, seats.legal_actions(t))
    assert answer.option == "accept"
    t.truce = defender  # (as if the defender had offered)
    assert chosen[attacker](t, attacker, list(seats.TRUCE_ANSWERS)).option == "refuse"


def test_no_truce_is_offered_in_a_combat_with_wanderers() -> None:
    t = table(VETERANS, FAITHFUL)
    def raid(t: Table) -> bool:
        return t.hosting is not None and t.hosting.kind in ("raid", "hunt_row")
    play_until(t, lambda t: raid(t) or t.round > 6)
    for _ in range(200):
        if not raid(t) or t.outcome:
            break
        actions = seats.legal_actions(t)
        assert seats.TRUCE not in actions
        seats.apply(t, actions[-1])


@pytest.mark.parametrize(("players", "short"), [(4, False), (5, True), (6, True)])
def test_a_table_is_seated_only_with_three_wanderers_per_player_in_each_pile(
        players: int, short: bool) -> None:
    # "Each wanderer draw pile must consist of no less than three wanderers multiplied by the
    # number of players": the sample decks hold 12 or 13, enough for 4 players, not 5 or 6;
    # the table refuses them with the deck validator's problem.
    names = [VETERANS, FAITHFUL, BLADES, CRUSADERS, SENATE, VETERANS][:players]
    prepared = [engine.prepare(sample(d), catalogue()) for d in names]
    if not short:
        assert seats.new_table(prepared, 1, GameConfig()).players == players
        return
    with pytest.raises(engine.DeckNotPlayable, match=f"a table of {players} needs at least "
                       f"{3 * players}") as refused:
        seats.new_table(prepared, 1, GameConfig())
    assert [p.code for p in refused.value.problems] == ["wanderer_pile_too_small"]
    full = [engine.prepare(seated(d, players), catalogue()) for d in names]
    assert seats.new_table(full, 1, GameConfig()).players == players


def test_a_seat_answering_in_its_own_combat_pays_from_its_own_pool() -> None:
    # While the attacker decides in the defender's combat (to_move), the defender may answer
    # his battle event (rules/game/reactions.py): what the defender pays comes from his own
    # pool, named by his seat, not from the pool of the seat deciding.
    t = table(VETERANS, FAITHFUL)
    attacker, defender, _ = _attack_at_assignments(t)
    there = t.state
    assert there.to_move == attacker
    there.seats[attacker].personal[:] = [4, 4, 4]
    there.seats[defender].personal[:] = [1, 2, 3]
    assert rulings.held(there) == 12 and rulings.held(there, defender) == 6
    assert not rulings.affordable(there, (0, 3, 0), 0, defender)
    assert rulings.pay(there, (1, 0, 0), 2, defender)
    assert sum(there.seats[defender].personal) == 3 and there.seats[attacker].personal == [4, 4, 4]


def test_an_attacked_player_may_hunt_at_his_turn_with_what_the_attack_left_him() -> None:
    # "Military Phase: starting with the lead player each player may hunt or attack": whether
    # a player may hunt is judged at his turn. A defender who could not pay to send his
    # exhausted troops when the cycle ended, and holds the tokens after the attack on him,
    # may hunt with them at his turn.
    t = table(VETERANS, FAITHFUL)
    play_until(t, lambda t: t.stage == "military" and t.hosting is None
               and len(t.queue) == 2 and t.queue[0] == seats.to_move(t)
               and any(a.kind == "attack" and a.option == "all"
                       for a in seats.legal_actions(t)))
    defender = t.queue[1]
    home = t.state
    me = t.seat(defender)
    troops = [i for i in me.defensive if home.card(i).is_troop]
    assert troops and me.zones["wanderers"]
    home.exhausted.update(troops)  # none ready, and too poor to send one
    me.personal[:] = [0, 0, 2]
    home.pending = None
    assert not can_hunt_as(t, defender)
    assert seats.apply(t, Action("attack", target=defender, option="all")).ok
    me.personal[:] = [3, 3, 3]  # (as valor or a bribe collected in the attack would)
    play_until(t, lambda t: t.hosting is None)
    assert seats.to_move(t) == defender and t.stage == "military"
    hunted = [a for a in seats.legal_actions(t) if a.kind == "hunt"]
    assert hunted and combat.can_hunt(home)


def test_a_players_hunt_is_offered_by_his_row_as_it_is_at_his_turn() -> None:
    # "Military Phase: starting with the lead player each player may hunt or attack": a
    # player whose row was emptied before his turn (by another's hunt on it) is not offered a
    # hunt of it; his Military Phase begins at his turn, not when the cycle ended.
    t = table(VETERANS, FAITHFUL, CRUSADERS, seed=5)  # (round 2: he could hunt then)
    play_until(t, lambda t: t.stage == "military" and len(t.queue) == 3)
    later = t.queue[1]
    there = t.state
    row = list(t.seat(later).zones["wanderers"])
    assert row and can_hunt_as(t, later)
    for w in row:  # as another player's hunt of his row may leave it
        there.move(w, "wanderer_discard")
    play_until(t, lambda t: t.stage != "military" or seats.to_move(t) == later)
    assert t.stage == "military" and seats.to_move(t) == later
    assert all(a.kind != "hunt" for a in seats.legal_actions(t))


def test_an_attacked_players_hunt_is_still_judged_at_his_turn() -> None:
    # As above, for a player attacked before his turn: a third player between them may still
    # hunt his row (here emptied by hand, as that hunt could), and at his turn he is not
    # offered a hunt of the empty row.
    t = table(VETERANS, FAITHFUL, CRUSADERS, seed=1)  # (round 2: the last seat is attacked)
    play_until(t, lambda t: t.stage == "military" and len(t.queue) == 3 and t.hosting is None
               and any(a.kind == "attack" and a.option == "all" and a.target == t.queue[2]
                       for a in seats.legal_actions(t)))
    last = t.queue[2]
    assert seats.apply(t, Action("attack", target=last, option="all")).ok
    play_until(t, lambda t: t.hosting is None)
    assert t.stage == "military" and t.queue[1:] == [last] and t.seat(last).zones["wanderers"]
    assert can_hunt_as(t, last)
    there = t.state
    for w in list(t.seat(last).zones["wanderers"]):
        there.move(w, "wanderer_discard")
    play_until(t, lambda t: t.stage != "military" or seats.to_move(t) == last)
    assert t.stage == "military" and seats.to_move(t) == last
    assert all(a.kind != "hunt" for a in seats.legal_actions(t))


def test_a_players_options_at_his_turn_follow_his_pool_after_another_players_extort() -> None:
    """A seat's options in the Action and Development cycle are worked out at its turn, not
    kept from its last one: after another player's Extort took tokens from his pool he is
    offered only the cards that pool still pays for (guild-veterans extorts guild-merchants in
    round 1 of this seeded game)."""
    config = GameConfig(players=2)
    decks = [engine.prepare(seated(d, 2), catalogue(), config)
             for d in ("guild-merchants.txt", "guild-veterans.txt")]
    seed = derive_seed(6, "matchup", 3)
    t = seats.new_table(decks, seed, config)
    chooser = [SeatPolicy("greedy", derive_seed(seed, "policy", s)) for s in range(2)]
    extorted = plays = 0
    while not t.outcome and t.round == 1:
        seat = seats.to_move(t)
        actions = seats.legal_actions(t)
        state = t.state
        if t.stage == "action" and t.window is None:
            for action in actions:
                if action.kind == "play":
                    card = state.card(action.card)
                    assert rulings.affordable(state, card.cost, card.generic, seat), action
                    plays += 1
        choice = chooser[seat](t, seat, actions)
        extorted += choice.kind == "use_on" and choice.option == "extort"
        assert seats.apply(t, choice).ok
    assert extorted and plays
