"""Rule scenarios for the solo rules engine (rules/game), one per rule of the rulebook v0.80.

Each scenario builds a small game from synthetic cards (tests/rules/game/scenario_helpers.py),
puts cards where the rule needs them, drives the engine through ``legal_actions`` / ``apply``
and checks the outcome. rules/COVERAGE.md maps every rule of the rulebook to these tests.
Pure Python: no Django, no database.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from rules.deck_rules import HOLDINGS_CODES, validate_deck
from rules.game import engine, rulings
from rules.game.actions import Action
from rules.game.config import GameConfig
from rules.game.state import GameState
from rules.game.vocabulary import TOKEN_KINDS, Step
from tests.rules.game.scenario_helpers import (
    act,
    at_step,
    attack_by,
    attack_on,
    attacks,
    battle_game,
    citizen,
    deck_of,
    event,
    events,
    first,
    hunt,
    instances,
    invocation,
    item,
    kinds,
    make_game,
    muster,
    place,
    play_out,
    resolve,
    set_dice,
    stronghold,
    structure,
    take_bounty,
    time_limit,
    to_wanderer_phase,
    troop,
    wall,
    wanderer,
)

Setup = Callable[[], GameState]


def alive(state: GameState, instance: int) -> bool:
    """Not killed or destroyed so far (a killed wanderer may come back when its discard pile
    is recycled, so this reads the log rather than the zone)."""
    return not any(e["card"] == instance and e["reason"] in ("killed", "destroyed")
                   for e in events(state, "leaves_play"))


def play_actions(state: GameState) -> list[Action]:
    return [a for a in engine.legal_actions(state) if a.kind == "play"]


# --- Losing the Game: the wanderer overrun ------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 7, 11, 2024], ids=lambda s: f"seed-{s}")
def test_overrun_six_tame_wanderers_no_troops_lose_in_round_4(seed: int) -> None:
    # "All players lose immediately if the number of wanderers in play is greater than three
    # times the player count": solo, the fourth wanderer (one a round) loses in round 4.
    state = make_game(
        structures=[structure("hut")],
        personalities=[citizen(f"c{i}", influence=1) for i in range(3)],
        wanderers=[wanderer(f"w{i}", aggression=0) for i in range(6)], seed=seed)
    play_out(state)
    assert (state.outcome, state.final_round) == ("overrun", 4)
    assert len(state.mover().zones["wanderers"]) == 4
    assert not events(state, "wanderers_attack")  # aggression 0 never attacks
    assert [e["count"] for e in events(state, "fines_due")] == [1, 2, 3]


def test_overrun_limit_is_three_times_the_player_count() -> None:
    state = make_game(wanderers=[wanderer(f"w{i}", aggression=0) for i in range(8)],
                      players=2, seed=5)
    play_out(state)
    assert (state.outcome, state.final_round) == ("overrun", 7)
    assert events(state, "overrun")[0]["wanderers"] == 7


# --- Walls ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("blocks", "attackers", "on_wall"), [
    pytest.param(1, 2, 1, id="blocks-1-of-2"),
    pytest.param(2, 3, 2, id="blocks-2-of-3"),
    pytest.param(3, 1, 1, id="blocks-3-only-1-attacker"),
])
def test_wall_absorbs_attackers_first(blocks: int, attackers: int, on_wall: int) -> None:
    # "the shield icon shows the number of enemy attackers which must be assigned to the wall
    # during combat before any other assignments are made" (block capacity = residencies).
    state, _, wild = battle_game(
        holdings=[stronghold(defense=0), wall(blocks=blocks, defense=3)],
        wanderers=[wanderer(f"w{i}", aggression=6, offense=1 + i) for i in range(attackers)])
    the_wall = first(state, "palisade")
    to_wanderer_phase(state)
    assert state.combat is not None and state.combat.step == "modify"
    assigned = events(state, "separate_attack") + events(state, "joint_attack")
    wild_moves = [e for e in assigned if e["card"] in wild]
    assert [e["target"] for e in wild_moves[:on_wall]] == [the_wall] * on_wall
    on_the_wall = {m for g in state.combat.groups if g[0] == 1 and g[1] == the_wall
                   for m in g[2:]}
    assert len(on_the_wall) == on_wall
    # The weakest fill the wall (the fixed wanderer rule).
    assert on_the_wall == set(wild[:on_wall])


def test_wall_attackers_make_separate_attacks() -> None:
    # Attackers owed to the wall each make their own (separate) attack on it.
    state, _, wild = battle_game(
        holdings=[stronghold(defense=9), wall(blocks=2, defense=9)],
        wanderers=[wanderer("a", aggression=6), wanderer("b", aggression=6)])
    to_wanderer_phase(state)
    assert state.combat is not None
    the_wall = first(state, "palisade")
    wall_groups = [g for g in state.combat.groups if g[0] == 1 and g[1] == the_wall]
    assert sorted(g[2:] for g in wall_groups) == [[wild[0]], [wild[1]]]


def test_wall_wounded_is_destroyed() -> None:
    # "If a structure (other than a stronghold) is wounded it is destroyed."
    state, _, _ = battle_game(holdings=[stronghold(defense=9), wall(blocks=1, defense=0)],
                              wanderers=[wanderer("ogre", aggression=6, offense=3, vitality=5)])
    the_wall = first(state, "palisade")
    to_wanderer_phase(state)
    resolve(state)
    assert state.where[the_wall] == "structure_discard"


# --- Combat Resolution: the die table --------------------------------------------------------


@pytest.mark.parametrize(("roll", "plus_offense", "plus_defense"), [
    pytest.param(1, 1, 0, id="1-plus1-offense"),
    pytest.param(2, 2, 0, id="2-plus2-offense"),
    pytest.param(3, 0, 0, id="3-no-change"),
    pytest.param(4, 0, 0, id="4-no-change"),
    pytest.param(5, 0, 1, id="5-plus1-defense"),
    pytest.param(6, 0, 2, id="6-plus2-defense"),
])
def test_die_table(roll: int, plus_offense: int, plus_defense: int) -> None:
    # One die per attack; it counts for the card in every engagement of the combat: its
    # offense in its own attack, its defense against the attack on it.
    state, (soldier,), (wolf,) = battle_game(
        [troop("t", offense=2, defense=2, vitality=5)],
        [wanderer("w", offense=2, defense=2, vitality=5)])
    hunt(state, [wolf], [soldier])
    act(state, Action("separate", soldier, wolf))
    resolve(state, [roll, 3])  # the troop's attack rolls `roll`; the strike-back rolls 3
    die = events(state, "die")[0]
    assert (die["lead"], die["roll"]) == (soldier, roll)
    assert die["effect"] == rulings_effect(plus_offense, plus_defense)
    assert attack_by(state, soldier)["offense"] == 2 + plus_offense
    assert attack_on(state, soldier)["defense"] == 2 + plus_defense
    assert state.wounds.get(wolf, 0) == (1 if plus_offense else 0)
    assert state.wounds.get(soldier, 0) == 0


def rulings_effect(plus_offense: int, plus_defense: int) -> str:
    if plus_offense:
        return f"+{plus_offense} offense"
    if plus_defense:
        return f"+{plus_defense} defense"
    return "no change"


def test_die_rolls_of_recorded_games_cover_the_table() -> None:
    # Every logged die names its effect by the table, and dice of ordinary games show all six.
    seen: dict[int, str] = {}
    for seed in range(1, 9):
        state = make_game(personalities=[troop(f"t{i}", offense=3, defense=3, vitality=3)
                                         for i in range(4)],
                          wanderers=[wanderer(f"w{i}", aggression=4, offense=3, defense=1,
                                              vitality=2) for i in range(6)], seed=seed)
        play_out(state)
        for die in events(state, "die"):
            assert seen.setdefault(die["roll"], die["effect"]) == die["effect"]
    assert seen == {1: "+1 offense", 2: "+2 offense", 3: "no change", 4: "no change",
                    5: "+1 defense", 6: "+2 defense"}


def test_joint_attack_adds_offenses_and_rolls_one_die() -> None:
    # "their offenses are added together against the target ... The group as a whole makes
    # one combat die roll".
    state, (one, two), (bear,) = battle_game(
        [troop("a", offense=2, defense=9), troop("b", offense=2, defense=9)],
        [wanderer("bear", offense=0, defense=3, vitality=5)])
    hunt(state, [bear], [one, two])
    act(state, Action("separate", one, bear))
    act(state, Action("joint", two, bear, str(one)))
    assert state.combat is not None and len(state.combat.groups) == 2  # joint + strike-back
    resolve(state, [1, 3])
    joint = [e for e in attacks(state) if e["target"] == bear]
    assert joint == [dict(joint[0], attackers=[one, two], offense=5, defense=3, wounds=1)]


# --- Draw Pile Recycling ------------------------------------------------------------------


def test_recycling_a_draw_pile_costs_5_tokens() -> None:
    # "the discard pile may be recycled for a cost of 5 influence tokens."
    state = make_game(personalities=[citizen(f"c{i}") for i in range(3)])
    for c in range(1, 4):
        place(state, c, "personality_discard")
    at_step(state, "maintenance", "draw")
    assert engine.legal_actions(state) == [Action("recycle", option="personalities")]
    before_personal, before_city = sum(state.mover().personal), sum(state.city)
    act(state, Action("recycle", option="personalities"))
    assert sum(state.mover().personal) == before_personal - 5
    assert sum(state.city) == before_city + 5
    me = state.mover()
    assert sorted(me.zones["hand"] + me.zones["personality_pile"]) == [1, 2, 3]
    assert state.mover().zones["personality_discard"] == []


def test_recycling_needs_5_tokens() -> None:
    state = make_game(personalities=[citizen("c")])
    place(state, 1, "personality_discard")
    state.mover().personal = [2, 1, 1]
    at_step(state, "action", "act")
    assert "recycle" not in kinds(engine.legal_actions(state))


def test_recycling_is_offered_while_drawing_when_one_pile_is_empty() -> None:
    # "If the last card of a draw pile has been drawn the discard pile may be recycled": the
    # empty personality pile can be recycled even though the structure pile still has cards.
    state = make_game(structures=[structure("hut")], personalities=[citizen("c")])
    place(state, first(state, "c"), "personality_discard")
    at_step(state, "maintenance", "draw")
    assert Action("recycle", option="personalities") in engine.legal_actions(state)


def test_wanderer_pile_recycles_for_free() -> None:
    # "Wanderer piles recycle for free."
    state = make_game(wanderers=[wanderer("w1"), wanderer("w2")])
    for w in instances(state, "w1") + instances(state, "w2"):
        place(state, w, "wanderer_discard")
    personal, city = list(state.mover().personal), list(state.city)
    to_wanderer_phase(state)
    recycles = events(state, "recycle")
    assert [(e["pile"], e["free"]) for e in recycles] == [("wanderers", True)]
    assert (state.mover().personal, state.city) == (personal, city)
    me = state.mover()
    assert len(me.zones["wanderers"]) == 1 and len(me.zones["wanderer_pile"]) == 1


# --- Victory ------------------------------------------------------------------------------


VICTORY = [
    # (target, citizens as (faction, influence), personal tokens, victory?)
    pytest.param(15, [("kalim", 5)] * 3, (0, 0, 0), True, id="target-15-reached"),
    pytest.param(15, [("kalim", 7), ("guild", 7)], (0, 0, 0), False, id="target-15-short-by-1"),
    pytest.param(20, [("mosfin", 5)] * 4, (0, 0, 0), True, id="target-20-reached"),
    pytest.param(25, [("guild", 5)] * 5, (0, 0, 0), True, id="target-25-reached"),
    pytest.param(25, [("kalim", 4)] * 5, (0, 5, 0), True, id="five-kalim-add-religious"),
    pytest.param(25, [("mosfin", 4)] * 5, (0, 0, 5), True, id="five-mosfin-add-political"),
    pytest.param(25, [("guild", 4)] * 5, (5, 0, 0), True, id="five-guild-add-economic"),
    pytest.param(25, [("kalim", 4)] * 5, (5, 0, 5), False, id="bonus-only-primary-kind"),
    pytest.param(25, [("kalim", 5)] * 4, (0, 5, 0), False, id="four-members-no-bonus"),
    pytest.param(25, [("kalim", 3)] * 3 + [("guild", 3)] * 3, (5, 5, 5), False,
                 id="three-and-three-no-bonus"),
]


@pytest.mark.parametrize(("target", "members", "tokens", "won"), VICTORY)
def test_victory_at_the_start_of_a_round(target: int, members: list[tuple[str, int]],
                                         tokens: tuple[int, int, int], won: bool) -> None:
    # "Add the faction influence of all your personalities together. In addition, if you have
    # five or more members from the same faction ... add the tokens from your personal pool
    # which match their primary influence type"; checked at the start of a round.
    cards = [citizen(f"c{i}", faction=f, influence=n) for i, (f, n) in enumerate(members)]
    state = make_game([stronghold(residencies=10)], personalities=cards, target=target)
    keep = first(state, "keep")
    for i in range(len(cards)):
        place(state, first(state, f"c{i}"), "residents", keep)
    state.mover().personal = list(tokens)
    at_step(state, "discard", "discard")
    act(state, Action("done"))
    check = events(state, "victory_check")[-1]
    assert check["round"] == 2
    assert check["influence"] == sum(n for _, n in members) + (
        tokens[{"kalim": 1, "mosfin": 2, "guild": 0}[members[0][0]]]
        if len(members) >= 5 and len({f for f, _ in members}) == 1 else 0)
    assert (state.outcome, state.final_round) == (("victory", 2) if won else ("", 0))


def test_troops_and_guards_count_for_influence_and_members() -> None:
    # Troops in the defensive holdings and guards are personalities too.
    state, soldiers, _ = battle_game(
        [troop(f"t{i}", faction="kalim", influence=4) for i in range(4)],
        others=[citizen("c", faction="kalim", influence=4)], target=25)
    keep = first(state, "keep")
    place(state, soldiers[0], "guards", keep)
    place(state, first(state, "c"), "residents", keep)
    state.mover().personal = [0, 5, 0]
    assert rulings.influence_total(state) == 25


@pytest.mark.parametrize("target", [1, 15], ids=lambda t: f"target-{t}")
def test_earliest_victory_round_is_2(target: int) -> None:
    # Nothing of influence is in play when round 1 starts; a card played in round 1 wins at
    # the start of round 2.
    state = make_game(personalities=[citizen("sage", influence=15)], target=target)
    play_out(state)
    checks = events(state, "victory_check")
    assert checks[0]["round"] == 1 and checks[0]["influence"] == 0
    assert (state.outcome, state.final_round) == ("victory", 2)


def test_round_cap_timeout() -> None:
    # No victory by the start of round cap+1: a timeout.
    state = make_game(round_cap=3)
    play_out(state)
    assert (state.outcome, state.final_round) == ("timeout", 4)
    assert [e["round"] for e in events(state, "round")] == [1, 2, 3, 4]


def test_victory_at_the_start_of_round_cap_plus_1_beats_the_timeout() -> None:
    state = make_game(personalities=[citizen("sage", influence=15)], target=15, round_cap=1)
    play_out(state)
    assert (state.outcome, state.final_round) == ("victory", 2)


# --- Strongholds and losing ---------------------------------------------------------------


@pytest.mark.parametrize(("vitality", "outcome"), [
    pytest.param(1, "stronghold", id="destroyed-loses"),
    pytest.param(2, "", id="wounded-survives-exhausted"),
])
def test_stronghold_destroyed_loses(vitality: int, outcome: str) -> None:
    # "The stronghold is the home of the player—if it is destroyed the player loses."
    state, _, _ = battle_game(holdings=[stronghold(defense=0, vitality=vitality)],
                              wanderers=[wanderer("dragon", aggression=6, offense=5)])
    keep = first(state, "keep")
    to_wanderer_phase(state)
    resolve(state)
    assert state.outcome == outcome
    if outcome:
        assert events(state, "stronghold_destroyed")[0]["card"] == keep
        assert engine.legal_actions(state) == []
    else:
        assert state.wounds[keep] == 1 and keep in state.exhausted


# --- Playing cards: where and when ------------------------------------------------------------


def test_citizens_need_an_open_residence() -> None:
    # "Must be played on a structure of yours with an open residence."
    state = make_game([stronghold(residencies=0)], personalities=[citizen("a"), citizen("b")],
                      structures=[structure("hut", residencies=1)])
    a, b, hut = first(state, "a"), first(state, "b"), first(state, "hut")
    place(state, a, "hand")
    place(state, b, "hand")
    at_step(state, "action", "act")
    assert play_actions(state) == []
    place(state, hut, "private")
    assert play_actions(state) == [Action("play", a, hut), Action("play", b, hut)]
    act(state, Action("play", a, hut))
    assert (state.where[a], state.host[a]) == ("residents", hut)
    assert play_actions(state) == []  # the only residence is taken


def test_only_one_wall_in_play() -> None:
    # "Only one wall may be in play per player."
    state = make_game(structures=[wall("w1"), wall("w2")])
    w1, w2 = first(state, "w1"), first(state, "w2")
    place(state, w1, "hand")
    place(state, w2, "hand")
    at_step(state, "action", "act")
    assert play_actions(state) == [Action("play", w1), Action("play", w2)]
    act(state, Action("play", w1))
    assert state.where[w1] == "defensive"
    assert play_actions(state) == []


def test_stronghold_cannot_be_played_after_setup() -> None:
    # Strongholds are playable only in the Initial Holdings.
    state = make_game(structures=[stronghold("second-keep")])
    place(state, first(state, "second-keep"), "hand")
    at_step(state, "action", "act")
    assert play_actions(state) == []


def test_troops_go_to_the_defensive_holdings_or_guard_a_structure() -> None:
    state = make_game(personalities=[troop("t")])
    t, keep = first(state, "t"), first(state, "keep")
    place(state, t, "hand")
    at_step(state, "action", "act")
    assert play_actions(state) == [Action("play", t), Action("play", t, keep)]
    act(state, Action("play", t, keep))
    assert (state.where[t], state.host[t]) == ("guards", keep)
    assert rulings.open_residences(state) == [keep]  # "Guards do not use up a residency."


def test_items_attach_to_a_personality_and_leave_with_it() -> None:
    # "If the card the item is attached to leaves play the item is discarded."
    state = make_game(personalities=[troop("t"), item("sword")], wanderers=[wanderer("w")])
    t, sword = first(state, "t"), first(state, "sword")
    place(state, first(state, "w"), "wanderers")
    place(state, sword, "hand")
    at_step(state, "action", "act")
    assert play_actions(state) == []  # no personality to carry it (a wanderer cannot)
    place(state, t, "defensive")
    assert play_actions(state) == [Action("play", sword, t)]
    act(state, Action("play", sword, t))
    rulings.discard_from_play(state, t, "test")
    assert state.where[sword] == "personality_discard"


@pytest.mark.parametrize(("subtype", "faction", "strength", "playable"), [
    pytest.param("general", "guild", 2, True, id="general-strength-met"),
    pytest.param("general", "guild", 1, False, id="general-strength-short"),
    pytest.param("kalim", "kalim", 2, True, id="kalim-on-kalim"),
    pytest.param("kalim", "mosfin", 2, False, id="kalim-on-other-faction"),
])
def test_invocations_need_religious_strength(subtype: str, faction: str, strength: int,
                                             playable: bool) -> None:
    # "attached beneath a personality of yours with a religious strength equal to or greater
    # than the invocation's religious strength requirement"; Kalim invocations only for Kalim.
    state = make_game(personalities=[citizen("priest", faction=faction,
                                             strength=(0, strength, 0)),
                                     invocation("rite", subtype=subtype, requirement=2)])
    priest, rite = first(state, "priest"), first(state, "rite")
    place(state, priest, "residents", first(state, "keep"))
    place(state, rite, "hand")
    at_step(state, "action", "act")
    assert play_actions(state) == ([Action("play", rite, priest)] if playable else [])


def test_costs_must_be_paid_to_play() -> None:
    # "To play a card simply pay all of its costs", typed costs with their own kind.
    state = make_game(personalities=[citizen("noble", cost=(0, 0, 3))])
    noble, keep = first(state, "noble"), first(state, "keep")
    place(state, noble, "hand")
    state.mover().personal = [9, 9, 2]
    at_step(state, "action", "act")
    assert play_actions(state) == []
    state.mover().personal = [0, 0, 3]
    state.pending = None
    city = list(state.city)
    act(state, Action("play", noble, keep))
    assert state.mover().personal == [0, 0, 0] and state.city == [city[0], city[1], city[2] + 3]


def test_generic_cost_spares_the_kept_kind() -> None:
    # Documented choice (rulings.spend): generic costs come from the kinds not kept for the
    # five-members bonus, the most plentiful first.
    state = make_game(structures=[structure("tower", cost=4)],
                      personalities=[citizen("k", faction="kalim")])
    tower = first(state, "tower")
    assert state.mover().favour == 1  # religious, Kalim's primary kind
    place(state, tower, "hand")
    state.mover().personal = [3, 3, 3]
    at_step(state, "action", "act")
    act(state, Action("play", tower))
    assert state.mover().personal == [1, 3, 1]


def test_generic_cost_spares_the_kind_that_counts_toward_victory() -> None:
    # Documented choice (rulings.kept_kind): a mixed deck keeps its favoured kind (economic:
    # more Guild personalities) until another faction has five members in play; then that
    # faction's kind counts toward victory and is spent last.
    kalim = [citizen(f"k{i}", faction="kalim") for i in range(5)]
    guild = [citizen(f"g{i}", faction="guild") for i in range(6)]
    state = make_game([stronghold(residencies=6)], structures=[structure("tower", cost=4)],
                      personalities=[*kalim, *guild])
    assert state.mover().favour == 0  # economic, the Guild's primary kind
    keep = first(state, "keep")
    for i in range(5):
        place(state, first(state, f"k{i}"), "residents", keep)
    place(state, first(state, "tower"), "hand")
    state.mover().personal = [3, 3, 3]
    at_step(state, "action", "act")
    act(state, Action("play", first(state, "tower")))
    assert state.mover().personal == [1, 3, 1]


@pytest.mark.parametrize(("held", "left"), [
    pytest.param([0, 5, 0], [0, 1, 0], id="only-the-kept-kind"),
    pytest.param([1, 5, 0], [0, 2, 0], id="the-others-first-then-the-kept-kind"),
    pytest.param([2, 1, 1], [0, 0, 0], id="everything"),
])
def test_generic_cost_is_paid_in_full_with_the_kept_kind_when_the_others_run_out(
        held: list[int], left: list[int]) -> None:
    # "To play a card simply pay all of its costs": sparing the kept kind is a preference,
    # never a reason to pay less. (Found in session 11: with no other kind left, spend()
    # stopped at once, and a structure costing 4 was played for nothing.)
    state = make_game(structures=[structure("tower", cost=4)],
                      personalities=[citizen("k", faction="kalim")])
    tower = first(state, "tower")
    assert state.mover().favour == 1  # religious, Kalim's primary kind
    place(state, tower, "hand")
    state.mover().personal = list(held)
    city = sum(state.city)
    at_step(state, "action", "act")
    act(state, Action("play", tower))
    assert state.mover().personal == left
    assert sum(state.city) == city + 4


@pytest.mark.parametrize(("card", "offered"), [
    pytest.param(event("news", abilities="Collect 2 economic influence from the city's "
                       "influence pool."), True, id="general-income-event"),
    pytest.param(event("rumour", abilities="Target player discards his hand."), False,
                 id="unmodelled-general-event"),
    pytest.param(event("veto", subtype="interrupt", abilities="Cancel target event just "
                       "played; its costs are still paid."), False, id="interrupt-event"),
    pytest.param(event("hex", abilities="Pay 1 religious influence: exhaust target "
                       "personality."), False, id="no-solo-effect-event"),
])
def test_events_with_no_solo_effect_are_not_offered(card: dict[str, Any],
                                                    offered: bool) -> None:
    state = make_game(personalities=[card])
    instance = first(state, card["id"])
    place(state, instance, "hand")
    at_step(state, "action", "act")
    assert (Action("play", instance) in play_actions(state)) is offered
    if offered:
        act(state, Action("play", instance))
        assert state.where[instance] == "personality_discard"  # discarded after use
        assert state.mover().personal[0] == 6


def test_search_takes_a_residence_and_reshuffles_the_pile() -> None:
    # Documented choice: a searched pile is reshuffled.
    state = make_game(structures=[structure(f"s{i}", residencies=0) for i in range(5)]
                      + [structure("inn", residencies=2)],
                      personalities=[event("survey", abilities="Search your structure draw "
                                           "pile for a structure with residencies and put it "
                                           "in your hand.")])
    survey, inn = first(state, "survey"), first(state, "inn")
    place(state, survey, "hand")
    at_step(state, "action", "act")
    act(state, Action("play", survey, inn))
    assert state.where[inn] == "hand"
    search = events(state, "search")[0]
    assert search["card"] == inn and search["order"] == state.mover().zones["structure_pile"]


# --- Unique cards ---------------------------------------------------------------------------


def test_playing_a_unique_already_in_play_discards_the_old_copy() -> None:
    # "the previous copy along with any attached cards is immediately placed into its owner's
    # discard pile."
    hero = troop("hero", unique=True)
    state = make_game(personalities=[hero, hero, item("sword")])
    old, new = instances(state, "hero")
    sword = first(state, "sword")
    place(state, old, "defensive")
    place(state, sword, "attached", old)
    place(state, new, "hand")
    at_step(state, "action", "act")
    act(state, Action("play", new))
    assert (state.where[old], state.where[sword], state.where[new]) == (
        "personality_discard", "personality_discard", "defensive")


def test_killed_unique_goes_to_the_dead_pile() -> None:
    # "If a unique card is killed or destroyed it is placed in its owner's dead pile".
    state, (soldier,), (beast,) = battle_game(
        [troop("t", offense=5, defense=5)],
        [wanderer("beast", unique=True, offense=0, defense=0, vitality=1)])
    hunt(state, [beast], [soldier])
    act(state, Action("separate", soldier, beast))
    resolve(state)
    assert state.where[beast] == "dead"


def test_a_dead_unique_cannot_be_played() -> None:
    # "... and may no longer be brought into play by any player so long as it remains in the
    # dead pile."
    hero = troop("hero", unique=True)
    state = make_game(personalities=[hero, hero])
    dead, copy_ = instances(state, "hero")
    place(state, dead, "dead")
    place(state, copy_, "hand")
    at_step(state, "action", "act")
    assert play_actions(state) == []


def test_unique_wanderer_drawn_while_a_copy_is_in_play_is_replaced() -> None:
    # "In the case of a unique wanderer a replacement must be drawn for the discarded
    # wanderer."
    ghost = wanderer("ghost", unique=True)
    state = make_game(wanderers=[ghost, ghost, wanderer("rat"), wanderer("bat")])
    old, new = instances(state, "ghost")
    rat = first(state, "rat")
    place(state, old, "wanderers")
    state.mover().zones["wanderer_pile"][:] = [new, rat, first(state, "bat")]
    state.exhausted.add(old)  # no fine to pay
    to_wanderer_phase(state)
    assert state.where[old] == "wanderer_discard"
    assert state.mover().zones["wanderers"] == [new, rat]


def test_unique_wanderer_in_the_dead_pile_is_discarded_and_replaced() -> None:
    ghost = wanderer("ghost", unique=True)
    state = make_game(wanderers=[ghost, ghost, wanderer("rat")])
    dead, copy_ = instances(state, "ghost")
    rat = first(state, "rat")
    place(state, dead, "dead")
    state.mover().zones["wanderer_pile"][:] = [copy_, rat]
    to_wanderer_phase(state)
    assert state.where[copy_] == "wanderer_discard"
    assert state.mover().zones["wanderers"] == [rat]


def test_tokens_on_a_card_leaving_play_return_to_the_city() -> None:
    # "Influence tokens without an owner return to the city's influence pool."
    ghost = wanderer("ghost", unique=True)
    state = make_game(wanderers=[ghost, ghost, wanderer("rat")])
    old, new = instances(state, "ghost")
    place(state, old, "wanderers")
    state.exhausted.add(old)
    state.on_card[old] = [2, 0, 1]
    state.mover().zones["wanderer_pile"][:] = [new, first(state, "rat")]
    city = list(state.city)
    to_wanderer_phase(state)
    assert state.where[old] == "wanderer_discard" and old not in state.on_card
    assert state.city == [city[0] + 2, city[1], city[2] + 1]


def test_dead_unique_as_the_last_wanderer_does_not_hang() -> None:
    ghost = wanderer("ghost", unique=True)
    state = make_game(wanderers=[ghost, ghost])
    dead, copy_ = instances(state, "ghost")
    place(state, dead, "dead")
    with time_limit(1):
        to_wanderer_phase(state)
    assert state.mover().zones["wanderers"] == [] and state.step == "discard"
    assert state.where[copy_] != "wanderers"


def test_two_copies_of_a_unique_wanderer_as_the_only_wanderers_do_not_hang() -> None:
    ghost = wanderer("ghost", unique=True)
    state = make_game(wanderers=[ghost, ghost])
    old, _ = instances(state, "ghost")
    place(state, old, "wanderers")
    state.exhausted.add(old)
    with time_limit(1):
        to_wanderer_phase(state)
    assert len([w for w in state.mover().zones["wanderers"] if state.cards[w] == "ghost"]) == 1


# --- Income abilities: Campaign, Worship, Oppress ---------------------------------------------


INCOME = [
    # (ability, strength (economic, religious, political), kind gained, city pool, gained)
    pytest.param("E Campaign.", (0, 0, 3), 2, 10, 3, id="campaign-up-to-strength"),
    pytest.param("E Campaign.", (0, 0, 3), 2, 2, 2, id="campaign-pool-short"),
    pytest.param("E Campaign.", (0, 0, 3), 2, 0, None, id="campaign-pool-empty"),
    pytest.param("E Worship.", (0, 2, 0), 1, 10, 2, id="worship-up-to-strength"),
    pytest.param("E Worship.", (0, 2, 0), 1, 1, 1, id="worship-pool-short"),
    pytest.param("E Oppress.", (0, 4, 0), 0, 10, 4, id="oppress-economic-by-religious"),
    pytest.param("E Oppress.", (0, 4, 0), 0, 3, 3, id="oppress-pool-short"),
]


@pytest.mark.parametrize(("text", "strength", "kind", "pool", "gained"), INCOME)
def test_income_abilities_take_from_the_city_pool(text: str, strength: tuple[int, int, int],
                                                  kind: int, pool: int,
                                                  gained: int | None) -> None:
    # "Collect ... influence from the city's influence pool up to bearer's ... strength";
    # "If ... no tokens remain in it they simply are not able to do so."
    state = make_game(personalities=[citizen("agent", strength=strength, abilities=text)])
    agent = first(state, "agent")
    place(state, agent, "residents", first(state, "keep"))
    state.city = [10, 10, 10]
    state.city[kind] = pool
    at_step(state, "action", "act")
    use = Action("use", agent, option="0")
    if gained is None:
        assert use not in engine.legal_actions(state)
        return
    before = list(state.mover().personal)
    act(state, use)
    assert state.mover().personal[kind] - before[kind] == gained
    assert state.city[kind] == pool - gained
    assert agent in state.exhausted


# --- Exhaustion -------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "exhausted", "offered"), [
    pytest.param("E Worship.", False, True, id="E-ability-ready"),
    pytest.param("E Worship.", True, False, id="E-ability-exhausted-card"),
    pytest.param("Worship.", True, True, id="no-E-ability-exhausted-card"),
])
def test_exhausting_abilities_need_an_unexhausted_card(text: str, exhausted: bool,
                                                       offered: bool) -> None:
    # "Exhausted cards may only use abilities which do not require them to exhaust."
    state = make_game(personalities=[citizen("monk", strength=(0, 2, 0), abilities=text)])
    monk = first(state, "monk")
    place(state, monk, "residents", first(state, "keep"))
    if exhausted:
        state.exhausted.add(monk)
    at_step(state, "action", "act")
    assert (Action("use", monk, option="0") in engine.legal_actions(state)) is offered


def test_an_exhausting_ability_is_used_once_then_the_card_is_exhausted() -> None:
    state = make_game(personalities=[citizen("monk", strength=(0, 2, 0),
                                             abilities="E Worship.")])
    monk = first(state, "monk")
    place(state, monk, "residents", first(state, "keep"))
    at_step(state, "action", "act")
    act(state, Action("use", monk, option="0"))
    assert Action("use", monk, option="0") not in engine.legal_actions(state)


def test_invocation_E_exhausts_the_bearer_and_exhausted_bearers_cannot_invoke() -> None:
    # Documented choice: the E of an invocation exhausts its bearer; "Exhausted personalities
    # may not use invocations."
    state = make_game(personalities=[
        citizen("priest", strength=(0, 2, 0)),
        invocation("psalm", requirement=1, abilities="E Collect 1 religious influence from "
                   "the city's influence pool.")])
    priest, psalm = first(state, "priest"), first(state, "psalm")
    place(state, priest, "residents", first(state, "keep"))
    place(state, psalm, "attached", priest)
    at_step(state, "action", "act")
    use = Action("use", psalm, option="0")
    act(state, use)
    assert priest in state.exhausted and psalm not in state.exhausted
    assert use not in engine.legal_actions(state)


def test_city_maintenance_unexhausts_every_card() -> None:
    state, (soldier,), (wolf,) = battle_game([troop("t")], [wanderer("w")])
    state.exhausted |= {soldier, wolf, first(state, "keep")}
    at_step(state, "discard", "discard")
    act(state, Action("done"))
    assert state.round == 2 and state.exhausted == set()


def test_faction_threshold_abilities_need_enough_members() -> None:
    # "(F)n": only when the faction has n members in play.
    state = make_game([stronghold(residencies=5)], personalities=[
        citizen("seer", strength=(0, 2, 0), abilities="E (F)3 Worship."),
        citizen("k1"), citizen("k2")])
    keep, seer = first(state, "keep"), first(state, "seer")
    place(state, seer, "residents", keep)
    place(state, first(state, "k1"), "residents", keep)
    at_step(state, "action", "act")
    use = Action("use", seer, option="0")
    assert use not in engine.legal_actions(state)
    place(state, first(state, "k2"), "residents", keep)
    assert use in engine.legal_actions(state)


# --- Wanderer Phase: fines, hoarding, followers ---------------------------------------------


def _fine_game() -> tuple[GameState, list[int]]:
    state, _, wild = battle_game(
        holdings=[stronghold(residencies=2)], others=[citizen("clerk")],
        wanderers=[wanderer("a"), wanderer("b"), wanderer("c")])
    place(state, first(state, "clerk"), "residents", first(state, "keep"))
    state.exhausted.add(wild[2])
    to_wanderer_phase(state)
    return state, wild


def test_fines_one_per_unexhausted_wanderer() -> None:
    # "for each unexhausted wanderer in your Wanderer Row pay a fine".
    state, _ = _fine_game()
    assert (state.step, state.mover().fines_due) == ("fine", 2)
    clerk, keep = first(state, "clerk"), first(state, "keep")
    options = engine.legal_actions(state)
    assert options == [Action("fine", option="economic"), Action("fine", option="religious"),
                       Action("fine", option="political"), Action("fine", clerk)]
    assert Action("fine", keep) not in options  # documented: never the stronghold


def test_fine_paid_with_a_token_goes_to_the_city_pool() -> None:
    state, _ = _fine_game()
    personal, city = list(state.mover().personal), list(state.city)
    act(state, Action("fine", option="religious"))
    assert state.mover().personal == [personal[0], personal[1] - 1, personal[2]]
    assert state.city == [city[0], city[1] + 1, city[2]]
    assert state.mover().fines_due == 1


def test_fine_paid_with_a_card_discards_it() -> None:
    state, _ = _fine_game()
    clerk = first(state, "clerk")
    act(state, Action("fine", clerk))
    assert state.where[clerk] == "personality_discard"


def test_fines_are_waived_when_nothing_can_pay() -> None:
    state, _, _ = battle_game(wanderers=[wanderer("a")])
    state.mover().personal = [0, 0, 0]
    to_wanderer_phase(state)
    assert events(state, "fines_waived") == [dict(events(state, "fines_waived")[0], count=1)]
    assert state.step == "discard"


def test_new_wanderer_each_wanderer_phase_unexhausted() -> None:
    state = make_game(wanderers=[wanderer("w")])
    w = first(state, "w")
    to_wanderer_phase(state)
    assert state.where[w] == "wanderers" and w not in state.exhausted


def test_hoarding_takes_a_city_token_at_the_start_of_the_wanderer_phase() -> None:
    # "At the beginning of the Wanderer Phase place one token from the city's influence pool
    # ... on this wanderer as an additional bounty."
    state, (soldier,), (magpie,) = battle_game(
        [troop("t", offense=5)], [wanderer("magpie", abilities="Hoarding.", bounty=2,
                                           offense=0, defense=0, vitality=1)])
    city = sum(state.city)
    to_wanderer_phase(state)
    assert events(state, "hoard")[0]["card"] == magpie
    assert sum(state.city) == city - 1
    assert sum(state.on_card[magpie]) == 1
    # The hoard is collected with the bounty.
    at_step(state, "military", "military")
    hunt(state, [magpie], [soldier])
    act(state, Action("separate", soldier, magpie))
    before = sum(state.mover().personal)
    take_bounty(resolve(state))
    assert sum(state.mover().personal) == before + 2 + 1 and magpie not in state.on_card


def test_an_exhausted_hoarder_still_hoards() -> None:
    state, _, (magpie,) = battle_game(wanderers=[wanderer("magpie", abilities="Hoarding.")])
    state.exhausted.add(magpie)
    to_wanderer_phase(state)
    assert sum(state.on_card.get(magpie, [0])) == 1


@pytest.mark.parametrize(("follower_exhausted", "joins"), [
    pytest.param(False, True, id="unexhausted-joins"),
    pytest.param(True, False, id="exhausted-stays"),
])
def test_follower_joins_aggressive_wanderers(follower_exhausted: bool, joins: bool) -> None:
    # "If unexhausted, bearer will join other aggressive wanderers in combat."
    state, _, (brute, lackey) = battle_game(
        holdings=[stronghold(defense=9)],
        wanderers=[wanderer("brute", aggression=6),
                   wanderer("lackey", aggression=0, abilities="Follower.")])
    if follower_exhausted:
        state.exhausted.add(lackey)
    to_wanderer_phase(state)
    assert state.combat is not None
    assert state.combat.wild == ([brute, lackey] if joins else [brute])


def test_follower_alone_does_not_attack() -> None:
    state, _, _ = battle_game(wanderers=[wanderer("lackey", aggression=0,
                                                  abilities="Follower.")])
    to_wanderer_phase(state)
    assert state.combat is None and not events(state, "wanderers_attack")


@pytest.mark.parametrize(("aggression", "attacks_"), [
    pytest.param(0, False, id="aggression-0-never"),
    pytest.param(6, True, id="aggression-6-always"),
])
def test_aggression_roll(aggression: int, attacks_: bool) -> None:
    # "On a roll equal to or less than the wanderer's aggression rating it has become
    # aggressive"; solo, the wanderers attack the player.
    state, _, _ = battle_game(wanderers=[wanderer("w", aggression=aggression)])
    to_wanderer_phase(state)
    roll = events(state, "aggression_roll")[0]
    assert roll["aggressive"] is attacks_ is (roll["roll"] <= aggression)
    assert (state.combat is not None) is attacks_


def test_exhausted_wanderers_do_not_roll_for_aggression() -> None:
    state, _, (w,) = battle_game(wanderers=[wanderer("w", aggression=6)])
    state.exhausted.add(w)
    to_wanderer_phase(state)
    assert events(state, "aggression_roll") == [] and state.combat is None


# --- Combat: movement ------------------------------------------------------------------------


def test_exhausted_troops_cost_3_tokens_to_send() -> None:
    # "Each troop exhausted before combat is declared may only be sent to the battlefield
    # after paying three influence tokens."
    state, (tired, fresh), (wolf,) = battle_game([troop("tired"), troop("fresh")],
                                                 [wanderer("w")])
    state.exhausted.add(tired)
    at_step(state, "military", "military")
    act(state, Action("hunt"))
    act(state, Action("engage", wolf))
    act(state, Action("done"))
    assert engine.legal_actions(state) == [Action("send", tired, option="pay"),
                                           Action("send", fresh), Action("done")]
    personal, city = sum(state.mover().personal), sum(state.city)
    act(state, Action("send", tired, option="pay"))
    assert (sum(state.mover().personal), sum(state.city)) == (personal - 3, city + 3)
    act(state, Action("send", fresh))
    assert sum(state.mover().personal) == personal - 3


def test_exhausted_troops_cannot_be_sent_without_3_tokens() -> None:
    state, (tired,), _ = battle_game([troop("tired")], [wanderer("w")])
    state.exhausted.add(tired)
    state.mover().personal = [1, 1, 0]
    at_step(state, "military", "military")
    assert engine.legal_actions(state) == []  # nothing to hunt with


def test_exhausted_attacker_has_offense_0() -> None:
    # "If an exhausted troop, structure, or wanderer is involved in a battle its offense is 0".
    state, (tired,), (wolf,) = battle_game([troop("tired", offense=5, defense=9)],
                                           [wanderer("w", defense=1)])
    state.exhausted.add(tired)
    hunt(state, [wolf], [tired])
    act(state, Action("separate", tired, wolf))
    resolve(state, [3, 3])
    assert attack_by(state, tired)["offense"] == 0 and wolf not in state.wounds


def test_exhausted_attacker_gets_no_die_offense_bonus() -> None:
    state, (tired,), (wolf,) = battle_game([troop("tired", offense=5, defense=9)],
                                           [wanderer("w", defense=1)])
    state.exhausted.add(tired)
    hunt(state, [wolf], [tired])
    act(state, Action("separate", tired, wolf))
    resolve(state, [2, 3])
    assert attack_by(state, tired)["offense"] == 0 and wolf not in state.wounds


def test_a_hunt_engages_chosen_wanderers_only() -> None:
    # "The hunting player selects which wanderers from a single wanderer row he wishes to
    # engage in combat."
    state, (soldier,), (wolf, _) = battle_game([troop("t")], [wanderer("w"), wanderer("bear")])
    hunt(state, [wolf], [soldier])
    assert state.combat is not None and state.combat.wild == [wolf]
    assert engine.legal_actions(state) == [Action("separate", soldier, wolf)]


# --- Combat: assignments -----------------------------------------------------------------


def test_an_attacked_unassigned_card_strikes_back() -> None:
    # "If a card is assigned to an unassigned card these cards are considered to be assigned
    # to each other. Both cards will attack and defend against one another."
    state, (soldier,), (wolf,) = battle_game([troop("t")], [wanderer("w")])
    hunt(state, [wolf], [soldier])
    act(state, Action("separate", soldier, wolf))
    assert state.combat is not None
    assert state.combat.groups == [[0, wolf, soldier], [1, soldier, wolf]]


def test_a_card_attacked_twice_only_attacks_its_first_assignment() -> None:
    state, (one, two), (ogre,) = battle_game([troop("a"), troop("b")],
                                             [wanderer("ogre", vitality=5)])
    hunt(state, [ogre], [one, two])
    act(state, Action("separate", one, ogre))
    act(state, Action("separate", two, ogre))
    assert state.combat is not None
    wild_groups = [g for g in state.combat.groups if g[0] == 1]
    assert wild_groups == [[1, one, ogre]]


def test_structures_are_targeted_only_once_no_defending_troop_is_unassigned() -> None:
    # "Target structure ... if no defending troops remain unassigned."
    state, (guard_troop,), (raider,) = battle_game(
        [troop("t", offense=1, defense=9, vitality=5)],
        [wanderer("raider", aggression=6, offense=3)], holdings=[stronghold(defense=0)])
    to_wanderer_phase(state)
    muster(state, [guard_troop])
    assert state.combat is not None and state.combat.groups[0] == [1, guard_troop, raider]


def test_without_defending_troops_the_attackers_target_structures() -> None:
    state, _, (raider,) = battle_game(
        [troop("t", offense=1, defense=9)], [wanderer("raider", aggression=6, offense=3)],
        holdings=[stronghold(defense=0)])
    keep = first(state, "keep")
    to_wanderer_phase(state)
    muster(state, [])  # the troop stays home
    assert state.combat is not None and state.combat.groups[0] == [1, keep, raider]


def test_guards_add_offense_and_defense_to_their_structure() -> None:
    # "Troops residing on a structure are considered guards and add their offense and defense
    # to the structure in battle".
    state, _, _ = battle_game(
        holdings=[stronghold(offense=0, defense=0, vitality=5)],
        wanderers=[wanderer("raider", aggression=6, offense=1, defense=0, vitality=5)],
        others=[troop("g", offense=2, defense=3)])
    keep = first(state, "keep")
    place(state, first(state, "g"), "guards", keep)
    to_wanderer_phase(state)
    resolve(state)
    assert attack_on(state, keep)["defense"] == 3
    assert attack_by(state, keep)["offense"] == 2


def test_guards_can_be_targeted_but_do_not_strike_back() -> None:
    # "Guards may not assign during combat but may be targeted."
    state, _, (raider,) = battle_game(
        holdings=[stronghold(defense=9)],
        wanderers=[wanderer("raider", aggression=6, offense=3)],
        others=[troop("g", offense=5, defense=0, vitality=3)])
    g = first(state, "g")
    place(state, g, "guards", first(state, "keep"))
    to_wanderer_phase(state)
    assert state.combat is not None and state.combat.groups == [[1, g, raider]]


def test_guards_of_a_destroyed_structure_take_a_wound_and_return() -> None:
    # "If their structure is destroyed in combat they take a wound and return to the
    # defensive holdings."
    state, _, (razer,) = battle_game(
        holdings=[stronghold(defense=9), structure("barracks")],
        wanderers=[wanderer("razer", aggression=6, offense=5, vitality=5, abilities="Raze.")],
        others=[troop("g", offense=1, defense=1, vitality=2)])
    barracks, g = first(state, "barracks"), first(state, "g")
    place(state, g, "guards", barracks)
    to_wanderer_phase(state)
    assert state.combat is not None and state.combat.groups[0] == [1, barracks, razer]
    resolve(state)
    assert state.where[barracks] == "structure_discard"
    assert (state.where[g], state.wounds[g], g in state.exhausted) == ("defensive", 1, True)


def test_citizens_of_a_lost_structure_move_to_the_first_open_residence() -> None:
    # "If a citizen loses his residence he must immediately be placed on an empty residence
    # at no cost or into the discard pile": the first takes the keep's open residence; none
    # is left for the second, whose fate is then the player's choice.
    state = make_game([stronghold(residencies=1), structure("hut", residencies=2)],
                      personalities=[citizen("a"), citizen("b")])
    keep, hut = first(state, "keep"), first(state, "hut")
    a, b = first(state, "a"), first(state, "b")
    place(state, a, "residents", hut)
    place(state, b, "residents", hut)
    rulings.discard_from_play(state, hut, "test")
    assert (state.where[a], state.host[a]) == ("residents", keep)
    assert state.mover().homeless == [b] and b not in state.host


def _lost_home(homeless_card: dict[str, Any], resident_card: dict[str, Any]
               ) -> tuple[GameState, int, int, int]:
    """A citizen on a hut and another on the keep (its one residence), a fine to pay: the
    hut pays it, and the hut's citizen finds no open residence."""
    state = make_game([stronghold(residencies=1), structure("hut", residencies=1)],
                      personalities=[homeless_card, resident_card], wanderers=[wanderer("w")])
    keep, hut = first(state, "keep"), first(state, "hut")
    newcomer, resident = first(state, homeless_card["id"]), first(state, resident_card["id"])
    place(state, newcomer, "residents", hut)
    place(state, resident, "residents", keep)
    at_step(state, "wanderer", "fine")
    state.mover().fines_due = 1
    act(state, Action("fine", hut))
    return state, newcomer, resident, keep


@pytest.mark.parametrize(("displace", "newcomer_at", "resident_at"), [
    pytest.param(True, "residents", "personality_discard", id="replace-the-resident"),
    pytest.param(False, "personality_discard", "residents", id="let-it-go"),
])
def test_a_homeless_citizen_may_replace_a_resident_who_goes_to_the_discard_pile(
        displace: bool, newcomer_at: str, resident_at: str) -> None:
    # "If no open residence remains the citizen can replace another citizen who will go to the
    # discard pile instead": the player's choice, before anything else goes on.
    state, newcomer, resident, keep = _lost_home(citizen("lady", influence=3),
                                                 citizen("notary", influence=2))
    assert engine.legal_actions(state) == [Action("rehouse", newcomer, resident),
                                           Action("rehouse", newcomer)]
    assert state.step == "fine" and state.mover().homeless == [newcomer]
    act(state, Action("rehouse", newcomer, resident if displace else -1))
    assert (state.where[newcomer], state.where[resident]) == (newcomer_at, resident_at)
    if displace:
        assert state.host[newcomer] == keep
        assert [e["card"] for e in events(state, "leaves_play")
                if e["reason"] == "displaced"] == [resident]
    assert state.mover().homeless == [] and state.step == "discard"


def test_a_homeless_citizen_with_no_citizen_to_replace_goes_to_the_discard_pile() -> None:
    # No open residence and no other citizen with one: the discard pile, no choice offered.
    state = make_game([stronghold(residencies=0), structure("hut", residencies=1)],
                      personalities=[citizen("a")], wanderers=[wanderer("w")])
    a, hut = first(state, "a"), first(state, "hut")
    place(state, a, "residents", hut)
    at_step(state, "wanderer", "fine")
    state.mover().fines_due = 1
    act(state, Action("fine", hut))
    assert state.where[a] == "personality_discard" and state.mover().homeless == []
    assert "rehouse" not in kinds(engine.legal_actions(state))


def test_a_citizen_made_homeless_in_a_raid_chooses_before_the_combat_ends() -> None:
    # "He must immediately be placed": a structure destroyed in a raid puts the choice before
    # anything else (the combat's end, the fines); it survives a save.
    state, _, (razer,) = battle_game(
        holdings=[stronghold(defense=9, residencies=1), structure("hut")],
        wanderers=[wanderer("razer", aggression=6, offense=5, vitality=5)],
        others=[citizen("lady", influence=3), citizen("notary", influence=1)])
    keep, hut = first(state, "keep"), first(state, "hut")
    lady, notary = first(state, "lady"), first(state, "notary")
    place(state, lady, "residents", hut)
    place(state, notary, "residents", keep)
    to_wanderer_phase(state)
    assert state.combat is not None and state.combat.groups[0] == [1, hut, razer]
    resolve(state)
    assert state.where[hut] == "structure_discard" and state.combat is not None
    assert engine.legal_actions(state) == [Action("rehouse", lady, notary),
                                           Action("rehouse", lady)]
    saved = GameState.from_dict(state.to_dict(), by_id=state.by_id)
    assert engine.legal_actions(saved) == engine.legal_actions(state)
    act(state, Action("rehouse", lady, notary))
    assert (state.host[lady], state.where[notary]) == (keep, "personality_discard")
    assert "rehouse" not in kinds(engine.legal_actions(state))


@pytest.mark.parametrize(("attacker_keywords", "can_target_flyer"), [
    pytest.param("", False, id="plain-troop"),
    pytest.param("Ranged.", True, id="ranged-troop"),
    pytest.param("Flight.", True, id="flying-troop"),
])
def test_flyers_only_targeted_by_ranged_or_flight(attacker_keywords: str,
                                                  can_target_flyer: bool) -> None:
    # "Flyers cannot be assigned by a card without the ranged or flight ability."
    state, (soldier,), (hawk, wolf) = battle_game(
        [troop("t", abilities=attacker_keywords)],
        [wanderer("hawk", abilities="Flight."), wanderer("w")])
    hunt(state, [hawk, wolf], [soldier])
    targets = {a.target for a in engine.legal_actions(state) if a.kind == "separate"}
    assert targets == ({hawk, wolf} if can_target_flyer else {wolf})


def test_flyers_may_attack_structures_past_defenders_without_ranged_or_flight() -> None:
    # "If no defenders with ranged or flight remain unassigned flyers may assign to
    # structures."
    state, (soldier,), (hawk,) = battle_game(
        [troop("t", defense=1)], [wanderer("hawk", aggression=6, abilities="Flight.")],
        holdings=[stronghold(defense=0)])
    to_wanderer_phase(state)
    muster(state, [soldier])
    assert state.combat is not None and state.combat.groups[0] == [1, first(state, "keep"),
                                                                   hawk]


def test_a_ranged_flyer_is_not_struck_back_by_a_card_without_ranged_or_flight() -> None:
    # "Ranged flyers may only be hit by those with ranged or flight unless they elect to make
    # a non-ranged attack."
    state, _, (hawk,) = battle_game(
        holdings=[stronghold(offense=3, defense=9)],
        wanderers=[wanderer("hawk", aggression=6, abilities="Flight. Ranged.", defense=0)])
    to_wanderer_phase(state)
    assert state.combat is not None
    assert [g for g in state.combat.groups if g[1] == hawk] == []


def test_defender_fights_two_different_enemies() -> None:
    # "Bearer may fight two enemies ... A defender can wound both of his assignments."
    state, (shield,), (w1, w2) = battle_game(
        [troop("t", offense=5, defense=9, vitality=5, abilities="Defender.")],
        [wanderer("w1", offense=1, defense=0, vitality=3),
         wanderer("w2", offense=0, defense=0, vitality=3)])
    hunt(state, [w1, w2], [shield])
    act(state, Action("separate", shield, w1))
    assert Action("separate", shield, w1) not in engine.legal_actions(state)  # not w1 again
    act(state, Action("separate", shield, w2))
    resolve(state)
    assert (state.wounds.get(w1), state.wounds.get(w2)) == (1, 1)


def test_a_defender_s_second_fight_is_against_a_troop_or_a_wanderer_never_a_structure() -> None:
    # "Defender—G: ... may choose two unassigned troops or wanderers if not yet assigned or one
    # additional troop/wanderer if already assigned": once the raider with Defender has
    # engaged the only defending troop, the structures it may now reach are no second fight.
    state, (soldier,), (raider,) = battle_game(
        [troop("t", offense=1, defense=1, vitality=3)],
        [wanderer("raider", aggression=6, offense=3, abilities="Defender.")],
        holdings=[stronghold(defense=0)])
    to_wanderer_phase(state)
    muster(state, [soldier])
    assert state.combat is not None
    assert [g for g in state.combat.groups if g[0] == 1] == [[1, soldier, raider]]


def test_without_defender_a_troop_makes_one_assignment() -> None:
    state, (soldier,), (w1, w2) = battle_game([troop("t")], [wanderer("w1"), wanderer("w2")])
    hunt(state, [w1, w2], [soldier])
    act(state, Action("separate", soldier, w1))
    assert state.combat is not None and state.combat.step == "modify"


def test_climber_on_the_wall_makes_a_new_assignment() -> None:
    # "If a troop with climb is assigned to a wall he may elect, after all wall assignments
    # have been made, to climb past the wall and make a new assignment".
    state, _, (ape,) = battle_game(
        holdings=[stronghold(defense=0), wall(blocks=1, defense=9)],
        wanderers=[wanderer("ape", aggression=6, abilities="Climb.")])
    to_wanderer_phase(state)
    assert state.combat is not None and state.combat.climbed == [ape]
    wild_groups = [g for g in state.combat.groups if g[0] == 1]
    assert wild_groups == [[1, first(state, "keep"), ape]]


# --- Combat resolution: order, wounds, keywords ------------------------------------------------


ORDER = [
    # (troop keywords, wanderer keywords, troop survives, wanderer survives)
    pytest.param("Ranged.", "", True, False, id="ranged-troop-kills-first"),
    pytest.param("", "Ranged.", False, True, id="ranged-wanderer-kills-first"),
    pytest.param("Fleetfoot.", "", True, False, id="fleetfoot-before-others"),
    pytest.param("Ranged.", "Fleetfoot.", True, False, id="ranged-before-fleetfoot"),
    pytest.param("Fleetfoot.", "Ranged.", False, True, id="fleetfoot-after-ranged"),
    pytest.param("", "", False, False, id="same-step-both-strike"),
    pytest.param("Ranged.", "Ranged.", False, False, id="both-ranged-both-strike"),
]


@pytest.mark.parametrize(("troop_kw", "wanderer_kw", "troop_lives", "wanderer_lives"), ORDER)
def test_ranged_then_fleetfoot_then_other_attacks(troop_kw: str, wanderer_kw: str,
                                                  troop_lives: bool,
                                                  wanderer_lives: bool) -> None:
    # "Resolve the combat phases in this order: Ranged attacks. Fleetfoot attacks. All other
    # attacks." "A wounded troop/wanderer/structure will still strike back if it was wounded
    # during its own attack phase."
    state, (soldier,), (wolf,) = battle_game(
        [troop("t", offense=5, defense=1, vitality=1, abilities=troop_kw)],
        [wanderer("w", offense=5, defense=1, vitality=1, abilities=wanderer_kw)])
    hunt(state, [wolf], [soldier])
    act(state, Action("separate", soldier, wolf))
    resolve(state)
    assert (alive(state, soldier), alive(state, wolf)) == (troop_lives, wanderer_lives)


def test_a_joint_attack_is_ranged_only_if_every_attacker_is() -> None:
    state, (archer, soldier), (bear,) = battle_game(
        [troop("archer", offense=3, defense=1, vitality=1, abilities="Ranged."),
         troop("t", offense=3, defense=9)],
        [wanderer("bear", offense=5, defense=4, vitality=1)])
    hunt(state, [bear], [archer, soldier])
    act(state, Action("separate", archer, bear))
    act(state, Action("joint", soldier, bear, str(archer)))
    resolve(state)
    # The joint attack resolves with the others: the bear strikes the archer back first.
    assert not alive(state, archer) and not alive(state, bear)


@pytest.mark.parametrize(("attacker_kw", "target_kw", "joint", "wounds"), [
    pytest.param("Fierce.", "", False, 2, id="fierce-two-wounds"),
    pytest.param("Fierce.", "Armor.", False, 1, id="armor-stops-fierce"),
    pytest.param("", "", False, 1, id="plain-one-wound"),
    pytest.param("Fierce.", "", True, 1, id="fierce-joint-with-non-fierce"),
])
def test_fierce(attacker_kw: str, target_kw: str, joint: bool, wounds: int) -> None:
    # "Bearer does two wounds if target troop or wanderer does not have armor. Fierce cannot
    # be used in a joint attack unless all joint attacking troops/wanderers have fierce."
    state, (brute, helper), (ogre,) = battle_game(
        [troop("brute", offense=5, defense=9, abilities=attacker_kw),
         troop("helper", offense=1, defense=9)],
        [wanderer("ogre", offense=0, defense=1, vitality=5, abilities=target_kw)])
    hunt(state, [ogre], [brute, helper] if joint else [brute])
    act(state, Action("separate", brute, ogre))
    if joint:
        act(state, Action("joint", helper, ogre, str(brute)))
    resolve(state)
    assert state.wounds[ogre] == wounds


@pytest.mark.parametrize(("keywords_", "exhausted"), [
    pytest.param("Endurance.", False, id="endurance-stays-ready"),
    pytest.param("", True, id="wound-exhausts"),
])
def test_endurance(keywords_: str, exhausted: bool) -> None:
    # "Place a wound counter on the target and exhaust it"; Endurance: "does not become
    # exhausted for taking a wound."
    state, (soldier,), (wolf,) = battle_game(
        [troop("t", offense=1, defense=0, vitality=3, abilities=keywords_)],
        [wanderer("w", offense=3, defense=1, vitality=3, abilities=keywords_)])
    hunt(state, [wolf], [soldier])
    act(state, Action("separate", soldier, wolf))
    resolve(state, [1, 3])  # the troop's +1 makes it hit
    assert state.wounds[wolf] == 1 and state.wounds[soldier] == 1
    assert (wolf in state.exhausted, soldier in state.exhausted) == (exhausted, exhausted)


@pytest.mark.parametrize(("target_kw", "offense"), [
    pytest.param("", 4, id="giant-vs-non-giant-plus3"),
    pytest.param("Giant Size.", 1, id="giant-vs-giant-no-bonus"),
])
def test_giant_size(target_kw: str, offense: int) -> None:
    # "Bearer gains +3 offense against any non-giant sized troop or wanderer."
    state, (giant,), (foe,) = battle_game(
        [troop("giant", offense=1, defense=9, abilities="Giant Size.")],
        [wanderer("foe", offense=0, defense=3, vitality=5, abilities=target_kw)])
    hunt(state, [foe], [giant])
    act(state, Action("separate", giant, foe))
    resolve(state)
    assert attack_by(state, giant)["offense"] == offense
    assert state.wounds.get(foe, 0) == (1 if offense > 3 else 0)


@pytest.mark.parametrize(("keywords_", "offense"), [
    pytest.param("Raze.", 4, id="raze-plus3-vs-structure"),
    pytest.param("", 1, id="no-raze"),
])
def test_raze(keywords_: str, offense: int) -> None:
    # "Bearer gains +3 offense against structures."
    state, _, (ram,) = battle_game(
        holdings=[stronghold(defense=2, vitality=5)],
        wanderers=[wanderer("ram", aggression=6, offense=1, abilities=keywords_)])
    keep = first(state, "keep")
    to_wanderer_phase(state)
    resolve(state)
    assert attack_by(state, ram)["offense"] == offense
    assert state.wounds.get(keep, 0) == (1 if offense > 2 else 0)


def test_raze_gives_nothing_against_troops() -> None:
    state, (soldier,), (ram,) = battle_game(
        [troop("t", defense=2, vitality=5)],
        [wanderer("ram", offense=1, abilities="Raze.")])
    hunt(state, [ram], [soldier])
    act(state, Action("separate", soldier, ram))
    resolve(state)
    assert attack_by(state, ram)["offense"] == 1


@pytest.mark.parametrize(("city", "choices", "offered"), [
    pytest.param([10, 10, 10], ["political", "political", "economic"],
                 [["economic", "religious", "political"]] * 3, id="any-kinds"),
    pytest.param([10, 1, 0], ["religious", "economic", "economic"],
                 [["economic", "religious"], ["economic"], ["economic"]],
                 id="only-kinds-the-city-has"),
])
def test_the_victor_chooses_the_kinds_of_a_bounty(city: list[int], choices: list[str],
                                                  offered: list[list[str]]) -> None:
    # "When a player kills a wanderer he receives a bounty (#24) from the city's influence
    # pool. The bounty can be made of any token type": the player chooses, one token at a
    # time, among the kinds the city's pool still has.
    state, (soldier,), (wolf,) = battle_game(
        [troop("t", faction="kalim", offense=5)],
        [wanderer("w", defense=0, vitality=1, bounty=3)])
    state.city = list(city)
    personal = list(state.mover().personal)
    hunt(state, [wolf], [soldier])
    act(state, Action("separate", soldier, wolf))
    resolve(state)
    assert not alive(state, wolf)
    for kind, kinds_offered in zip(choices, offered, strict=True):
        assert engine.legal_actions(state) == [Action("bounty", option=k) for k in kinds_offered]
        act(state, Action("bounty", option=kind))
    gained = [state.mover().personal[k] - personal[k] for k in range(3)]
    assert gained == [choices.count(k) for k in TOKEN_KINDS]
    assert state.mover().bounty_due == 0 and state.combat is None


def test_the_weapon_slot_uses_only_the_best_weapon() -> None:
    # "During combat, a troop may only use one weapon, one armor, and one shield."
    state, (soldier,), (bear,) = battle_game(
        [troop("t", offense=2, defense=9)], [wanderer("bear", defense=9, vitality=5)],
        others=[item("dagger", offense=1), item("axe", offense=3),
                item("helm", subtype="armor", offense=0, defense=2)])
    for name in ("dagger", "axe", "helm"):
        place(state, first(state, name), "attached", soldier)
    hunt(state, [bear], [soldier])
    act(state, Action("separate", soldier, bear))
    resolve(state)
    assert attack_by(state, soldier)["offense"] == 2 + 3
    assert attack_on(state, soldier)["defense"] == 9 + 2


# --- Combat modification: Charge, Fear, Fervor, Pray, battle events -----------------------


def test_charge_trades_defense_for_offense_up_to_military_strength() -> None:
    state, (lancer,), (bear,) = battle_game(
        [troop("lancer", offense=2, defense=5, strength=(2, 0, 0), abilities="Charge.")],
        [wanderer("bear", offense=0, defense=9, vitality=5)])
    hunt(state, [bear], [lancer])
    act(state, Action("separate", lancer, bear))
    act(state, Action("charge", lancer))
    act(state, Action("charge", lancer))
    assert Action("charge", lancer) not in engine.legal_actions(state)
    resolve(state)
    assert attack_by(state, lancer)["offense"] == 4
    assert attack_on(state, lancer)["defense"] == 3


def test_fear_gives_one_enemy_minus_3_offense() -> None:
    state, (scary,), (bear,) = battle_game(
        [troop("scary", offense=1, defense=2, vitality=5, abilities="Fear.")],
        [wanderer("bear", offense=4, defense=9, vitality=5)])
    hunt(state, [bear], [scary])
    act(state, Action("separate", scary, bear))
    act(state, Action("fear", scary, bear))
    assert "fear" not in kinds(engine.legal_actions(state))  # Fear does not stack
    resolve(state)
    assert attack_by(state, bear)["offense"] == 1 and scary not in state.wounds


def test_fervor_spends_religious_tokens_for_offense() -> None:
    state, (zealot,), (bear,) = battle_game(
        [troop("zealot", offense=1, defense=9, strength=(0, 2, 0), abilities="Fervor.")],
        [wanderer("bear", offense=0, defense=9, vitality=5)])
    hunt(state, [bear], [zealot])
    act(state, Action("separate", zealot, bear))
    religious = state.mover().personal[1]
    act(state, Action("fervor", zealot))
    resolve(state)
    assert state.mover().personal[1] == religious - 2
    assert attack_by(state, zealot)["offense"] == 3


def test_pray_gives_another_card_a_bonus() -> None:
    state, (soldier,), (bear,) = battle_game(
        [troop("t", offense=1, defense=1, vitality=5)],
        [wanderer("bear", offense=3, defense=9, vitality=5)],
        others=[citizen("cleric", strength=(0, 2, 0), abilities="E Pray.")])
    cleric = first(state, "cleric")
    place(state, cleric, "residents", first(state, "keep"))
    hunt(state, [bear], [soldier])
    act(state, Action("separate", soldier, bear))
    act(state, Action("pray", cleric, soldier, "defense"))
    assert "pray" not in kinds(engine.legal_actions(state))  # one prayer per target
    assert cleric in state.exhausted  # printed with E
    resolve(state)
    assert attack_on(state, soldier)["defense"] == 3 and soldier not in state.wounds


@pytest.mark.parametrize(("strength", "playable"), [
    pytest.param(2, True, id="strength-met"),
    pytest.param(1, False, id="strength-short"),
])
def test_battle_event_needs_military_strength_on_the_battlefield(strength: int,
                                                                 playable: bool) -> None:
    # "Battle events require a troop with sufficient economic/military strength to be on the
    # battlefield in order to be used"; played in the modification step.
    rally = event("rally", subtype="battle", requirement=2,
                  abilities="Target troop of yours gains +2 offense until the end of the combat.")
    state, (soldier,), (bear,) = battle_game(
        [troop("t", offense=1, defense=9, strength=(strength, 0, 0))],
        [wanderer("bear", offense=0, defense=9, vitality=5)], others=[rally])
    card = first(state, "rally")
    place(state, card, "hand")
    hunt(state, [bear], [soldier])
    act(state, Action("separate", soldier, bear))
    play = Action("play", card, soldier)
    assert (play in engine.legal_actions(state)) is playable
    if playable:
        act(state, play)
        resolve(state)
        assert attack_by(state, soldier)["offense"] == 3
        assert state.where[card] == "personality_discard"


def test_berserk_starts_a_second_combat_against_a_new_target() -> None:
    state, (mad,), (w1, w2) = battle_game(
        [troop("mad", offense=9, defense=9, vitality=5, abilities="Berserk.")],
        [wanderer("w1", offense=0, defense=0, vitality=1),
         wanderer("w2", offense=0, defense=0, vitality=5)])
    hunt(state, [w1, w2], [mad])
    act(state, Action("separate", mad, w1))
    set_dice(state, [3] * 8)
    act(state, Action("done"))
    take_bounty(state)
    assert state.combat is not None and state.combat.step == "berserk"
    assert engine.legal_actions(state) == [Action("berserk", mad, w2), Action("done")]
    act(state, Action("berserk", mad, w2))
    act(state, Action("done"))
    assert not alive(state, w1) and state.wounds.get(w2) == 1


@pytest.mark.parametrize(("keywords", "may_hit_the_flyer"), [
    pytest.param("Berserk.", False, id="no-ranged-no-flight"),
    pytest.param("Berserk. Ranged.", True, id="ranged"),
    pytest.param("Berserk. Flight.", True, id="flight"),
])
def test_a_berserk_troop_s_new_target_follows_flight_and_ranged(keywords: str,
                                                                  may_hit_the_flyer: bool) -> None:
    # Berserk: "Treat this new round as a completely new combat", so its new target is one it
    # may assign to: "Flyers cannot be assigned by a card without the ranged or flight
    # ability."
    state, (mad,), (wolf, hawk, boar) = battle_game(
        [troop("mad", offense=9, defense=9, vitality=5, abilities=keywords)],
        [wanderer("w1", offense=0, defense=0, vitality=1),
         wanderer("hawk", offense=0, defense=0, vitality=5, abilities="Flight."),
         wanderer("boar", offense=0, defense=0, vitality=5)])
    hunt(state, [wolf, hawk, boar], [mad])
    act(state, Action("separate", mad, wolf))
    while state.combat is not None and state.combat.step == "assign":
        act(state, Action("done"))
    set_dice(state, [3] * 8)
    act(state, Action("done"))
    take_bounty(state)
    assert state.combat is not None and state.combat.step == "berserk"
    targets = {a.target for a in engine.legal_actions(state) if a.kind == "berserk"}
    assert targets == ({hawk, boar} if may_hit_the_flyer else {boar})


def test_the_wall_is_filled_before_any_other_assignment() -> None:
    # "If a wall is present the attacking lord or wanderer group must assign troops/wanderers
    # to the wall until the wall's block capacity is filled" (then the sides take turns).
    state, (soldier,), (a, b) = battle_game(
        [troop("t", defense=9)], [wanderer("a", aggression=6), wanderer("b", aggression=6)],
        holdings=[stronghold(), wall(blocks=2)])
    to_wanderer_phase(state)
    muster(state, [soldier])
    assert state.combat is not None and state.combat.wall_left == 0
    the_wall = first(state, "palisade")
    assert {g[2] for g in state.combat.groups if g[0] == 1 and g[1] == the_wall} == {a, b}


def test_attack_events_name_their_resolution_step() -> None:
    # Every logged attack names its resolution step (ranged, fleetfoot, other).
    state, (archer,), (wolf,) = battle_game(
        [troop("archer", offense=1, defense=9, abilities="Ranged.")],
        [wanderer("w", offense=1, defense=9, vitality=5)])
    hunt(state, [wolf], [archer])
    act(state, Action("separate", archer, wolf))
    resolve(state)
    assert [e["step"] for e in attacks(state)] == ["ranged", "other"]


def test_a_wounded_wanderer_returns_exhausted_so_it_neither_rolls_nor_is_fined() -> None:
    # "Be sure to return troops, wanderers, and strongholds which took a wound as exhausted";
    # aggression rolls and fines are for un-exhausted wanderers only.
    state, (soldier,), (bear, wolf) = battle_game(
        [troop("t", offense=5, defense=9)],
        [wanderer("bear", defense=0, vitality=5, aggression=6), wanderer("w", aggression=0)])
    hunt(state, [bear], [soldier])
    act(state, Action("separate", soldier, bear))
    resolve(state)
    assert bear in state.exhausted and state.wounds[bear] == 1
    assert [e["card"] for e in events(state, "aggression_roll")] == [wolf]
    assert state.mover().fines_due == 1


# --- Bribery ------------------------------------------------------------------------------


def test_bribery_sends_the_wanderer_home_and_the_bribe_stays_on_it() -> None:
    # "Bearer returns home immediately from the combat ... Bribes remain on bearer and are
    # collected in addition to any normal bounty when the card is killed. The influence cost
    # to bribe a wanderer is its bounty".
    state, (soldier,), (thief,) = battle_game(
        [troop("t", offense=5)],
        [wanderer("thief", aggression=6, offense=9, defense=0, vitality=1, bounty=2,
                  abilities="Bribery.")])
    to_wanderer_phase(state)
    assert state.combat is not None and state.combat.step == "bribe"
    personal, city = sum(state.mover().personal), sum(state.city)
    act(state, Action("bribe", thief))
    assert sum(state.mover().personal) == personal - 2 and sum(state.city) == city
    assert sum(state.on_card[thief]) == 2
    assert state.combat is not None and state.combat.wild == []  # gone home
    muster(state, [])
    resolve(state)  # nothing left to fight (the empty modification step still asks)
    assert state.combat is None and events(state, "combat_over")
    assert not events(state, "attack")
    assert state.where[thief] == "wanderers"
    # Killed later: bounty and bribe together.
    hunt(state, [thief], [soldier])
    act(state, Action("separate", soldier, thief))
    before = sum(state.mover().personal)
    take_bounty(resolve(state))
    assert sum(state.mover().personal) == before + 2 + 2


# --- Custom texts (rules/game/effects.py) --------------------------------------------------


def test_wound_a_wanderer_ability_kills_and_pays_the_bounty() -> None:
    state, _, (rat,) = battle_game(
        wanderers=[wanderer("rat", vitality=1, bounty=2)],
        others=[citizen("hunter", abilities="E Pay 1 economic influence: target wanderer "
                        "takes one wound.")])
    hunter = first(state, "hunter")
    place(state, hunter, "residents", first(state, "keep"))
    at_step(state, "action", "act")
    personal = sum(state.mover().personal)
    act(state, Action("use", hunter, rat, "0"))
    take_bounty(state)
    assert not alive(state, rat) and sum(state.mover().personal) == personal - 1 + 2


def test_bounty_bonus_lasts_until_the_end_of_the_round() -> None:
    state, _, (rat,) = battle_game(
        wanderers=[wanderer("rat")],
        others=[event("reward", abilities="Target wanderer gains +2 bounty until the end of "
                      "the round.")])
    reward = first(state, "reward")
    place(state, reward, "hand")
    at_step(state, "action", "act")
    act(state, Action("play", reward, rat))
    assert state.bounty_bonus == {rat: 2}
    at_step(state, "discard", "discard")
    act(state, Action("done"))
    assert state.bounty_bonus == {}


def test_unmodelled_custom_text_is_played_for_its_numbers_only() -> None:
    # Custom text the engine does not read is listed as unmodelled; the card still plays.
    odd = citizen("oddball", influence=15, abilities="Once per game, swap two hands.")
    state = make_game(personalities=[odd], target=15)
    assert state.card(first(state, "oddball")).unmodelled == ("Once per game, swap two hands.",)
    play_out(state)
    assert (state.outcome, state.final_round) == ("victory", 2)


def test_abilities_that_only_act_on_other_players_are_not_offered() -> None:
    # Solo: Sap, Crusade, Extort... have no target; they are listed as "no solo effect".
    state = make_game(personalities=[citizen("schemer", strength=(2, 2, 2),
                                             abilities="E Sap. E Crusade. Extort. Debate.")])
    schemer = first(state, "schemer")
    place(state, schemer, "residents", first(state, "keep"))
    at_step(state, "action", "act")
    assert "use" not in kinds(engine.legal_actions(state))
    assert len(state.card(schemer).no_solo_effect) == 4


def test_income_abilities_are_also_used_in_the_discard_step() -> None:
    # Documented: income abilities are offered in the Action and Discard steps.
    state = make_game(personalities=[citizen("monk", strength=(0, 2, 0),
                                             abilities="E Worship.")])
    monk = first(state, "monk")
    place(state, monk, "residents", first(state, "keep"))
    at_step(state, "discard", "discard")
    assert Action("use", monk, option="0") in engine.legal_actions(state)
    at_step(state, "maintenance", "draw")
    assert Action("use", monk, option="0") not in engine.legal_actions(state)


def test_combat_abilities_are_used_in_the_modification_step() -> None:
    # "each player can use one ability or event which immediately modifies the combat".
    state, (soldier,), (wolf,) = battle_game(
        [troop("t", offense=5, defense=1, vitality=1, strength=(0, 1, 0))],
        [wanderer("w", offense=5, defense=1, vitality=1)],
        others=[invocation("eagle-eye", requirement=1, abilities="Pay 1 religious influence: "
                           "bearer gains ranged until the end of the combat.")])
    eye = first(state, "eagle-eye")
    place(state, eye, "attached", soldier)
    at_step(state, "action", "act")
    assert "use" not in kinds(engine.legal_actions(state))
    hunt(state, [wolf], [soldier])
    act(state, Action("separate", soldier, wolf))
    act(state, Action("use", eye, option="0"))
    resolve(state)
    assert alive(state, soldier) and not alive(state, wolf)  # it shot first


def test_a_wanderer_with_fear_frightens_the_strongest_troop() -> None:
    state, (strong, weak), _ = battle_game(
        [troop("strong", offense=4, defense=9), troop("weak", offense=1, defense=9)],
        [wanderer("ghoul", aggression=6, offense=0, defense=9, vitality=5,
                  abilities="Fear.")])
    to_wanderer_phase(state)
    muster(state, [strong, weak])
    while state.combat is not None and state.combat.step == "assign":
        act(state, next(a for a in engine.legal_actions(state) if a.kind == "separate"))
    assert events(state, "fear")[0]["target"] == strong
    resolve(state)
    assert attack_by(state, strong)["offense"] == 1


# --- Setup, City Maintenance, Discard ------------------------------------------------------


def test_setup_starts_with_4_of_each_and_pays_holdings_to_the_city() -> None:
    # "Each player begins with 4 each of economic, religious, and political tokens"; the
    # city's pool starts with 40 of each (documented choice, GameConfig.city_pool).
    state = make_game([stronghold(cost=5), wall(cost=2)])
    assert sum(state.mover().personal) == 12 - 7
    assert sum(state.city) == 120 + 7
    assert GameConfig().city_pool == (40, 40, 40)
    assert state.where[first(state, "palisade")] == "defensive"
    setup = events(state, "setup")[0]
    assert (setup["personal"], setup["city"]) == ([4, 4, 4], [40, 40, 40])


def test_holdings_that_cost_more_than_12_tokens_are_refused() -> None:
    with pytest.raises(engine.DeckNotPlayable):
        make_game([stronghold(cost=13)])


ILLEGAL_HOLDINGS = [
    pytest.param([stronghold("keep"), stronghold("tower")], "too_many_strongholds",
                 id="two-strongholds"),
    pytest.param([stronghold(), *(structure(f"shed{i}", residencies=0) for i in range(4))],
                 "too_many_zero_cost_structures", id="four-zero-cost-structures"),
    pytest.param([stronghold(), structure("folly", cost=1, unique=True)],
                 "unique_structure_in_holdings", id="unique-structure"),
    pytest.param([stronghold(), wall("w1", cost=1), wall("w2", cost=1)], "too_many_walls",
                 id="two-walls"),
    pytest.param([stronghold(cost=13)], "holdings_over_budget", id="over-budget"),
    pytest.param([stronghold(), citizen("clerk")], "wrong_pile", id="citizen-in-holdings"),
]


@pytest.mark.parametrize(("holdings", "code"), ILLEGAL_HOLDINGS)
def test_initial_holdings_that_break_the_rules_are_refused_with_the_validators_problems(
        holdings: list[dict[str, Any]], code: str) -> None:
    # "each player must purchase initial holdings (using their 12 starting influence tokens)
    # ... including: a stronghold, two or less zero cost structures, as may other non-unique
    # structures desired"; "A player must have one and only one stronghold"; "Only one wall
    # may be in play per player." The engine refuses such holdings with the deck validator's
    # own problems (same codes, same messages).
    deck, facts = deck_of(holdings)
    with pytest.raises(engine.DeckNotPlayable) as refused:
        engine.prepare(deck, facts)
    expected = [p for p in validate_deck(deck, facts, players=1).errors
                if p.code in HOLDINGS_CODES or (p.code == "wrong_pile" and set(p.cards)
                                                & {e.card_id for e in deck.holdings})]
    assert [p.code for p in expected] == [code]
    assert refused.value.problems == tuple(expected)
    assert expected[0].message in str(refused.value)


def test_holdings_without_a_stronghold_are_left_to_the_advisor() -> None:
    # A deck that leaves the holdings to the advisor (none listed, or none with a stronghold)
    # is played with the advisor's legal choice.
    deck, facts = deck_of([structure(f"shed{i}", residencies=0) for i in range(4)],
                          structures=[stronghold(), structure("inn", cost=2, residencies=2)])
    prepared = engine.prepare(deck, facts)
    assert validate_deck(prepared.deck, facts, players=1).legal or all(
        p.code not in HOLDINGS_CODES for p in validate_deck(prepared.deck, facts).errors)
    assert "keep" in {e.card_id for e in prepared.deck.holdings}


def test_draw_one_at_a_time_up_to_seven() -> None:
    # "Draw one card at a time from your structure and or personality draw pile ... until you
    # hold seven cards in your hand."
    state = make_game(structures=[structure(f"s{i}") for i in range(5)],
                      personalities=[citizen(f"c{i}") for i in range(5)])
    assert (state.phase, state.step) == ("maintenance", "draw")
    for count in range(7):
        assert len(state.mover().zones["hand"]) == count
        assert kinds(engine.legal_actions(state)) == ["draw", "draw"]
        act(state, Action("draw", option="structures" if count % 2 else "personalities"))
    assert len(state.mover().zones["hand"]) == 7 and state.phase == "action"


def test_discard_up_to_three_cards() -> None:
    state = make_game(personalities=[troop(f"t{i}", cost=(9, 9, 9)) for i in range(5)])
    for i in range(1, 6):
        place(state, i, "hand")
    at_step(state, "discard", "discard")
    state.mover().discards_left = 3
    for _ in range(3):
        act(state, Action("discard", state.mover().zones["hand"][0]))
    assert state.round == 1 and engine.legal_actions(state) == [Action("done")]
    assert len(state.mover().zones["personality_discard"]) == 3


def test_maintenance_moves_troops_to_guard_and_items_between_personalities() -> None:
    # "Move any personalities ... Transfer items among your holdings" (City Maintenance only).
    state, (a, b), _ = battle_game([troop("a"), troop("b")], others=[item("sword")])
    keep, sword = first(state, "keep"), first(state, "sword")
    place(state, sword, "attached", a)
    at_step(state, "action", "act")
    assert not {"guard", "unguard", "move_item"} & set(kinds(engine.legal_actions(state)))
    at_step(state, "maintenance", "arrange")
    options = engine.legal_actions(state)
    assert {Action("guard", a, keep), Action("guard", b, keep), Action("move_item", sword, b),
            Action("done")} <= set(options)
    act(state, Action("guard", a, keep))
    act(state, Action("move_item", sword, b))
    assert (state.where[a], state.host[a], state.host[sword]) == ("guards", keep, b)
    act(state, Action("unguard", a))
    assert state.where[a] == "defensive"


def test_release_of_cards_is_not_offered() -> None:
    # Documented: releasing cards is never useful to the solo goal, so it is not an action.
    state, _, _ = battle_game([troop("t")])
    at_step(state, "action", "act")
    assert set(kinds(engine.legal_actions(state))) <= {"play", "use", "recycle", "pass"}


# --- Illegal actions ------------------------------------------------------------------------


ILLEGAL = [
    pytest.param("act", Action("play", 1), id="play-a-card-not-in-hand"),
    pytest.param("act", Action("hunt"), id="hunt-in-the-action-phase"),
    pytest.param("act", Action("draw", option="personalities"), id="draw-in-the-action-phase"),
    pytest.param("act", Action("play", 999), id="no-such-card"),
    pytest.param("act", Action("use", 0, option="7"), id="no-such-ability"),
    pytest.param("act", Action("fine", option="economic"), id="fine-outside-the-fine-step"),
    pytest.param("draw", Action("pass"), id="pass-while-drawing"),
    pytest.param("act", Action("recycle", option="personalities"), id="recycle-non-empty-pile"),
]


@pytest.mark.parametrize(("step", "action"), ILLEGAL)
def test_an_illegal_action_is_refused_and_changes_nothing(step: Step, action: Action) -> None:
    state = make_game(personalities=[troop("t"), citizen("c")], wanderers=[wanderer("w")])
    place(state, first(state, "c"), "hand")
    at_step(state, "action" if step == "act" else "maintenance", step)
    engine.legal_actions(state)  # the decision as offered (which marks the cards offered)
    before = copy.deepcopy(state.to_dict())
    result = engine.apply(state, action)
    assert result.ok is False and result.reason and result.events == []
    assert state.to_dict() == before
    assert engine.apply(state, engine.legal_actions(state)[-1]).ok  # the game goes on


def test_no_action_is_legal_once_the_game_is_over() -> None:
    state = make_game(round_cap=1)
    play_out(state)
    result = engine.apply(state, Action("pass"))
    assert (result.ok, result.reason) == (False, "The game is over.")


# --- Issue 18: rules the engine got wrong ----------------------------------------------------


def test_berserk_after_a_fight_in_the_private_holdings_stays_in_the_private_holdings() -> None:
    # Berserk: "If the first combat was against a target in the private holdings the new
    # target must also be from the private holdings" -- also when that first target was
    # destroyed (it was in the private holdings when the fight began).
    state, (soldier,), (_brute, rager) = battle_game(
        [troop("t", offense=1, defense=9, vitality=5)],
        [wanderer("brute", aggression=6, offense=5, defense=9, vitality=5),
         wanderer("rager", aggression=6, offense=3, defense=9, vitality=5,
                  abilities="Berserk.")],
        holdings=[stronghold(defense=5), structure("hut", residencies=0)])
    keep, hut = first(state, "keep"), first(state, "hut")
    to_wanderer_phase(state)
    muster(state, [soldier])
    assert state.combat is not None
    assert [g[1] for g in state.combat.groups if g[0] == 1 and g[2] == rager] == [hut]
    resolve(state)
    assert not alive(state, hut)
    berserk = events(state, "berserk_round")[0]
    assert state.events is not None
    later = state.events[state.events.index(berserk):]
    assert [e["target"] for e in later if e["type"] == "separate_attack"] == [keep]


@pytest.mark.parametrize(("archer_kw", "hit"), [
    pytest.param("Ranged.", False, id="ranged-bearer-cannot-be-hit"),
    pytest.param("", True, id="bearer-without-ranged-is-still-hit"),
])
def test_flight_granted_in_the_modification_step_makes_a_ranged_flyer(archer_kw: str,
                                                                      hit: bool) -> None:
    # Flight: "Ranged flyers may only be hit by those with ranged or flight": checked when the
    # attacks are resolved, so Flight granted after the assignments (Wings of the Dawn) counts.
    state, (archer,), (wolf,) = battle_game(
        [troop("archer", offense=1, defense=1, vitality=1, strength=(0, 2, 0),
               abilities=archer_kw)],
        [wanderer("w", offense=5, defense=9, vitality=5)],
        others=[invocation("wings", requirement=1, abilities="Pay 2 religious influence: "
                           "bearer gains Flight until the end of the combat.")])
    wings = first(state, "wings")
    place(state, wings, "attached", archer)
    hunt(state, [wolf], [archer])
    act(state, Action("separate", archer, wolf))
    act(state, Action("use", wings, option="0"))
    assert "flight" in rulings.keywords(state, archer)
    resolve(state)
    assert alive(state, archer) is not hit
    assert attack_on(state, archer)["wounds"] == (1 if hit else 0)


@pytest.mark.parametrize("endurance", [True, False], ids=["endurance", "no-endurance"])
def test_endurance_also_spares_a_card_wounded_by_an_ability(endurance: bool) -> None:
    # Endurance: "Troop or wanderer does not become exhausted for taking a wound" -- any wound,
    # not only those of a combat. Unexhausted, it still rolls for aggression and is fined.
    state, _, (ogre,) = battle_game(
        wanderers=[wanderer("ogre", vitality=3, aggression=0,
                            abilities="Endurance." if endurance else "")],
        others=[citizen("hunter", abilities="E Pay 1 economic influence: target wanderer "
                        "takes one wound.")])
    hunter = first(state, "hunter")
    place(state, hunter, "residents", first(state, "keep"))
    at_step(state, "action", "act")
    act(state, Action("use", hunter, ogre, "0"))
    assert state.wounds[ogre] == 1
    assert (ogre in state.exhausted) is not endurance
    to_wanderer_phase(state)
    assert bool(events(state, "aggression_roll")) is endurance
    assert state.mover().fines_due == (1 if endurance else 0)


def test_abilities_may_be_used_while_paying_fines() -> None:
    # "Many cards have abilities which may be used during any phase": a citizen's unused
    # Campaign can take the token that pays the fine instead of discarding a card.
    state = make_game(personalities=[citizen("herald", strength=(0, 0, 2),
                                             abilities="E Campaign.")],
                      wanderers=[wanderer("w")])
    herald, keep = first(state, "herald"), first(state, "keep")
    place(state, herald, "residents", keep)
    place(state, first(state, "w"), "wanderers")
    state.city = [state.city[k] + state.mover().personal[k] for k in range(3)]
    state.mover().personal = [0, 0, 0]
    to_wanderer_phase(state)
    assert state.step == "fine" and state.mover().fines_due == 1
    campaign = Action("use", herald, option="0")
    assert engine.legal_actions(state) == [Action("fine", herald), campaign]
    act(state, campaign)
    assert state.mover().personal == [0, 0, 2]
    act(state, Action("fine", option="political"))
    assert state.where[herald] == "residents" and state.step == "discard"


def test_a_defender_may_decline_its_second_fight() -> None:
    # Defender: "Bearer *may* fight two enemies": once it has one assignment, "done" ends its
    # side's assignments.
    state, (shield,), (w1, w2) = battle_game(
        [troop("t", offense=5, defense=9, vitality=5, abilities="Defender.")],
        [wanderer("w1", offense=1, defense=0, vitality=3),
         wanderer("w2", offense=0, defense=0, vitality=3)])
    hunt(state, [w1, w2], [shield])
    act(state, Action("separate", shield, w1))
    assert engine.legal_actions(state) == [Action("separate", shield, w2), Action("done")]
    act(state, Action("done"))
    assert state.combat is not None and state.combat.step == "modify"
    assert not any(g[0] == 0 and g[1] == w2 for g in state.combat.groups)


def test_search_lets_the_player_choose_the_structure() -> None:
    # "Search your structure draw pile for a structure with residencies and put it in your
    # hand": the player looks through the pile and chooses.
    state = make_game(structures=[structure("hut", residencies=1),
                                  structure("shed", residencies=0),
                                  structure("inn", residencies=2)],
                      personalities=[event("survey", abilities="Search your structure draw "
                                           "pile for a structure with residencies and put it "
                                           "in your hand.")])
    survey, hut, inn = first(state, "survey"), first(state, "hut"), first(state, "inn")
    place(state, survey, "hand")
    at_step(state, "action", "act")
    assert set(play_actions(state)) == {Action("play", survey, hut), Action("play", survey, inn)}
    act(state, Action("play", survey, inn))
    assert state.where[inn] == "hand" and state.where[hut] == "structure_pile"


def test_bribery_costs_the_bounty_with_its_bonus_and_hoarded_tokens() -> None:
    # Bribery: "The influence cost to bribe a wanderer is its bounty"; Hoarding puts tokens on
    # the wanderer "as an additional bounty", and a bounty bonus adds to it too.
    state, _, (thief,) = battle_game(
        wanderers=[wanderer("thief", aggression=6, offense=9, defense=0, vitality=1, bounty=2,
                            abilities="Bribery. Hoarding.")])
    state.bounty_bonus[thief] = 2
    to_wanderer_phase(state)  # it hoards one token, then attacks
    assert sum(state.on_card[thief]) == 1
    personal = sum(state.mover().personal)
    act(state, Action("bribe", thief))
    assert sum(state.mover().personal) == personal - 5
    assert sum(state.on_card[thief]) == 1 + 5
