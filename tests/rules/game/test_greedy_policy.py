"""The greedy policy's choices on constructed states, one behaviour per test (issue 18).

Each test builds the situation with the scenario helpers (synthetic cards, pure Python), asks
the policy for its choice among the engine's legal actions, and checks the choice.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.game import engine, rulings
from rules.game.actions import Action
from rules.game.policies import GreedyPolicy, _paid
from rules.game.state import GameState
from tests.rules.game.scenario_helpers import (
    act,
    at_step,
    battle_game,
    citizen,
    clear_hand,
    event,
    first,
    hunt,
    invocation,
    item,
    make_game,
    place,
    resolve,
    stronghold,
    structure,
    to_wanderer_phase,
    troop,
    wall,
    wanderer,
)


def choice(state: GameState) -> Action:
    return GreedyPolicy()(state, engine.legal_actions(state))


# --- the Action and Development Phase ------------------------------------------------------


def test_greedy_plays_the_fifth_member_that_wins_instead_of_passing() -> None:
    # guild-veterans, seed 23: four Guild troops in play, more troops than wanderers, 20
    # economic tokens: Siege Engineer, the fifth Guild member, switches on the token bonus
    # and wins; the greedy policy used to pass (a troop scored 0).
    veterans = [troop(f"vet{i}", influence=2) for i in range(4)]
    engineer = troop("engineer", influence=2, cost=(3, 0, 1))
    state, _, _ = battle_game(veterans, [wanderer("w")], others=[engineer])
    place(state, first(state, "engineer"), "hand")
    state.mover().personal = [20, 0, 1]
    at_step(state, "action", "act")
    assert choice(state) == Action("play", first(state, "engineer"))
    act(state, choice(state))
    assert state.where[first(state, "engineer")] == "defensive"


@pytest.mark.parametrize(("held", "plays"), [
    pytest.param([6, 6, 0], True, id="the-other-kinds-pay-it"),
    pytest.param([0, 6, 0], False, id="only-counting-tokens-would-pay-it"),
])
def test_greedy_counts_a_generic_cost_paid_with_counting_tokens(held: list[int],
                                                                plays: bool) -> None:
    # Five Kalim members in play: religious tokens count toward victory. A structure of 6
    # generic cost and one religious a round is worth playing while the economic tokens pay
    # for it, not when only the counting religious ones can (rulings.spend pays the kept
    # kind last; greedy used to price a generic cost at no influence at all).
    kalim = [citizen(f"k{i}", faction="kalim", influence=2) for i in range(5)]
    hall = structure("hall", cost=6, residencies=0,
                     abilities="E Collect 1 religious influence from the city's influence pool.")
    state = make_game([stronghold(residencies=6)], structures=[hall], personalities=kalim)
    keep = first(state, "keep")
    for i in range(5):
        place(state, first(state, f"k{i}"), "residents", keep)
    place(state, first(state, "hall"), "hand")
    state.mover().personal = list(held)
    at_step(state, "action", "act")
    assert choice(state) == (Action("play", first(state, "hall")) if plays else Action("pass"))


@pytest.mark.parametrize("members", [0, 5])
@pytest.mark.parametrize("held", [[3, 3, 3], [6, 1, 1], [0, 6, 0], [1, 4, 2], [2, 2, 0]])
def test_greedy_expects_a_payment_to_leave_what_the_engine_leaves(held: list[int],
                                                                  members: int) -> None:
    # One payment model (rulings.take_any): greedy's plans (the last round's plays, the
    # price of counting tokens) count on the tokens the engine will leave, the kept kind
    # spent last. Greedy used to spend the kinds that count toward victory last, another
    # order whenever no faction had its bonus on (and in a mixed deck).
    kalim = [citizen(f"k{i}", faction="kalim") for i in range(5)]
    tower = structure("tower", cost=3, cost_religious=1)
    state = make_game([stronghold(residencies=6)], structures=[tower], personalities=kalim)
    keep = first(state, "keep")
    for i in range(members):
        place(state, first(state, f"k{i}"), "residents", keep)
    place(state, first(state, "tower"), "hand")
    state.mover().personal = list(held)
    expected = _paid(list(held), state.card(first(state, "tower")),
                     rulings.kept_kind(state))
    at_step(state, "action", "act")
    act(state, Action("play", first(state, "tower")))
    assert state.mover().personal == expected


def test_greedy_plays_the_card_that_reaches_the_target_before_a_better_scored_one() -> None:
    # Four Kalim members in play and 8 religious tokens: a fifth Kalim member brings the
    # tokens into the total and wins; a Mosfin citizen of more influence would not.
    kalim = [citizen(f"k{i}", faction="kalim", influence=4) for i in range(4)]
    state = make_game([stronghold(residencies=6)],
                      personalities=[*kalim, citizen("monk", faction="kalim", influence=1),
                                     citizen("lord", faction="mosfin", influence=3)])
    keep = first(state, "keep")
    for i in range(4):
        place(state, first(state, f"k{i}"), "residents", keep)
    place(state, first(state, "monk"), "hand")
    place(state, first(state, "lord"), "hand")
    state.mover().personal = [0, 8, 0]
    at_step(state, "action", "act")
    assert choice(state) == Action("play", first(state, "monk"), keep)


@pytest.mark.parametrize(("wanderers", "then"), [
    (1, "pass"),  # defended: the dear troop would take the total back below the target
    (6, "play"),  # six wanderers to six troops: one more troop, whatever it costs
])
def test_greedy_plays_only_what_raises_the_total_in_the_last_round(wanderers: int,
                                                                   then: str) -> None:
    # Five Guild troops in play (10 influence) and 14 economic tokens, which count: 24 of
    # 25. The cheap troop (2 influence for 1 token) reaches 25; the dear one (1 influence
    # for 3 tokens) would then leave 23, so in the last round it waits (it used to be
    # played: a troop scores above 0 even with its tokens' influence taken off).
    guild = [troop(f"vet{i}", influence=2) for i in range(5)]
    cheap = troop("cheap", influence=2, cost=(1, 0, 0))
    dear = troop("dear", influence=1, cost=(3, 0, 0))
    state, _, _ = battle_game(guild, [wanderer(f"w{i}") for i in range(wanderers)],
                              others=[cheap, dear])
    place(state, first(state, "cheap"), "hand")
    place(state, first(state, "dear"), "hand")
    state.mover().personal = [14, 0, 0]
    at_step(state, "action", "act")
    assert choice(state) == Action("play", first(state, "cheap"))
    act(state, choice(state))
    assert rulings.influence_total(state) == 25
    assert choice(state) == (Action("pass") if then == "pass"
                             else Action("play", first(state, "dear")))


@pytest.mark.parametrize(("own", "played"), [
    ("", True),  # no income of its own: the invocation's 2 a round are all gain
    ("E Worship.", False),  # its own Worship brings 1: the invocation adds only 1
])
def test_greedy_plays_an_income_invocation_only_where_it_beats_the_bearers_own(
        own: str, played: bool) -> None:
    # Using an invocation exhausts its bearer, so its income replaces the bearer's own
    # exhausting income ability; worth a card and its tokens only when it brings more than
    # one token a round beyond it (it used to be played on any bearer).
    state = make_game([stronghold(residencies=2)],
                      personalities=[citizen("priest", strength=(0, 1, 0),
                                             abilities=own)],
                      structures=[invocation("canticle", abilities=(
                          "E Pay 1 religious influence: collect 3 religious influence from the "
                          "city's influence pool."))])
    priest = place(state, first(state, "priest"), "residents", first(state, "keep"))
    canticle = place(state, first(state, "canticle"), "hand")
    state.exhausted.add(priest)  # its own income used this round
    state.mover().personal = [0, 1, 0]
    at_step(state, "action", "act")
    assert choice(state) == (Action("play", canticle, priest) if played else Action("pass"))


RITE = "Pay 1 religious influence: target troop gains +2 offense until the end of the combat."
WARD = "Pay 2 religious influence: bearer gains +2 defense until the end of the combat."


@pytest.mark.parametrize(("text", "troop_in_play", "citizen_in_hand", "bearer"), [
    pytest.param(RITE, True, False, "priest", id="a-troop-to-strengthen"),
    pytest.param(RITE, False, False, None, id="no-troop-in-play"),
    pytest.param(RITE, True, True, None, id="its-tokens-wait-for-a-personality"),
    pytest.param(WARD, True, False, "templar", id="a-troop-bearer-that-fights"),
    pytest.param(WARD, False, False, None, id="no-troop-to-bear-it"),
])
def test_greedy_plays_a_combat_invocation_where_it_will_be_used(
        text: str, troop_in_play: bool, citizen_in_hand: bool, bearer: str | None) -> None:
    # Issue 39: an invocation used in fights (Rite of the Ember Flame, Ward Against Harm)
    # scored 0, so it was never played and always discarded. Now it is played where it will
    # be used (a troop in play; for one that helps its bearer, on a troop), with tokens to
    # spare: not while a personality in hand waits for them (measured: kalim-crusaders won
    # 0.15 rounds slower when it was played before them).
    state = make_game([stronghold(residencies=2)],
                      personalities=[citizen("priest", strength=(0, 2, 0)),
                                     troop("templar", strength=(1, 2, 0)),
                                     citizen("deacon", influence=2, cost=(0, 9, 0))],
                      structures=[invocation("rite", requirement=2, cost=(0, 2, 0),
                                             abilities=text)])
    clear_hand(state)
    place(state, first(state, "priest"), "residents", first(state, "keep"))
    place(state, first(state, "templar"), "defensive" if troop_in_play else "dead")
    rite = place(state, first(state, "rite"), "hand")
    if citizen_in_hand:
        place(state, first(state, "deacon"), "hand")
    state.mover().personal = [0, 4, 0]
    at_step(state, "action", "act")
    assert Action("play", rite, first(state, "priest")) in engine.legal_actions(state)
    expected = Action("play", rite, first(state, bearer)) if bearer else Action("pass")
    assert choice(state) == expected


@pytest.mark.parametrize(("offense", "played"), [
    pytest.param(6, True, id="the-hunt-will-kill-it"),
    pytest.param(1, False, id="no-hunt-worth-declaring"),
])
def test_greedy_plays_a_bounty_event_before_a_hunt_expected_to_kill(offense: int,
                                                                     played: bool) -> None:
    # Issue 39: Bounty Proclamation ("target wanderer gains +2 bounty until the end of the
    # round") scored 0, never played (drawn in 69% of guild-merchants games). Played in the
    # Action step on the wanderer the hunt to come is expected to kill: 2 tokens for 1.
    proclamation = event("proclamation", cost=(1, 0, 0), abilities=(
        "Target wanderer gains +2 bounty until the end of the round."))
    state, _, wolves = battle_game([troop("t1", offense=offense), troop("t2", offense=offense),
                                    troop("t3", offense=offense)],
                                   [wanderer("wolf", offense=1, defense=2, vitality=1)],
                                   others=[proclamation])
    clear_hand(state)
    card = place(state, first(state, "proclamation"), "hand")
    state.mover().personal = [1, 0, 0]
    at_step(state, "action", "act")
    assert Action("play", card, wolves[0]) in engine.legal_actions(state)
    assert choice(state) == (Action("play", card, wolves[0]) if played else Action("pass"))


def test_greedy_uses_a_troops_income_now_when_it_pays_for_a_personality() -> None:
    # Nothing else to do, 1 political held; the guard's Campaign brings 2, enough for the
    # envoy this round (kept for the Discard Phase, the tokens would wait a round).
    state, (guard,), _ = battle_game(
        [troop("guard", faction="mosfin", strength=(0, 0, 2), abilities="E Campaign.")],
        others=[troop("envoy", faction="mosfin", influence=2, cost=(0, 0, 3))])
    envoy = place(state, first(state, "envoy"), "hand")
    state.mover().personal = [0, 0, 1]
    at_step(state, "action", "act")
    assert choice(state) == Action("use", guard, option="0")
    act(state, choice(state))
    assert choice(state) == Action("play", envoy)


def test_greedy_keeps_a_troops_income_for_the_discard_phase_when_it_pays_for_nothing() -> None:
    state, _, _ = battle_game(
        [troop("guard", faction="mosfin", strength=(0, 0, 2), abilities="E Campaign.")],
        others=[troop("baron", faction="mosfin", influence=3, cost=(0, 0, 6))])
    place(state, first(state, "baron"), "hand")
    state.mover().personal = [0, 0, 1]
    at_step(state, "action", "act")
    assert choice(state) == Action("pass")


def test_greedy_plays_the_citizen_whose_income_pays_for_the_next_ones() -> None:
    # Tokens for one of two: the herald (one influence, two tokens a round) before the poet
    # (two influence, no income): its tokens bring the next personalities sooner.
    state = make_game(personalities=[
        citizen("herald", faction="mosfin", influence=1, cost=(0, 0, 2),
                abilities="E Collect 2 political influence from the city's influence pool."),
        citizen("poet", faction="mosfin", influence=2, cost=(0, 0, 2))])
    clear_hand(state)
    herald = place(state, first(state, "herald"), "hand")
    place(state, first(state, "poet"), "hand")
    state.mover().personal = [0, 0, 2]
    at_step(state, "action", "act")
    assert choice(state) == Action("play", herald, first(state, "keep"))


@pytest.mark.parametrize(("cost", "citizens", "plays"), [
    pytest.param(0, 1, True, id="free-and-the-next-citizen-finds-no-open-residence"),
    pytest.param(1, 1, False, id="not-free"),
    pytest.param(0, 0, True, id="free-though-a-residence-is-open-for-the-next-citizen"),
])
def test_greedy_plays_a_free_home_when_the_next_citizen_would_find_none(
        cost: int, citizens: int, plays: bool) -> None:
    # The stronghold's one residence is open; a citizen in hand it cannot pay for yet takes
    # it, so the next citizen drawn would find none: a free hut is played now (sixth round).
    # A free one also while the open residences outnumber the citizens in hand: it costs
    # no token and leaves the hand (tenth round; it used to pass).
    state = make_game(holdings=[stronghold(residencies=1)],
                      structures=[structure("hut", cost=cost)],
                      personalities=[citizen("clerk", cost=(0, 0, 3))])
    clear_hand(state)
    hut = place(state, first(state, "hut"), "hand")
    if citizens:
        place(state, first(state, "clerk"), "hand")
    state.mover().personal = [1, 0, 0]
    at_step(state, "action", "act")
    assert choice(state) == (Action("play", hut) if plays else Action("pass"))


@pytest.mark.parametrize(("citizens", "played"), [
    pytest.param(1, "palisade", id="one-citizen-without-a-home-the-free-wall-first"),
    pytest.param(2, "house", id="two-citizens-without-a-home-the-house-first"),
])
def test_greedy_weighs_a_home_for_a_citizen_in_hand_against_its_price(
        citizens: int, played: str) -> None:
    # A residence for a citizen in hand it cannot pay for yet is worth RESIDENCE_NEED (5
    # since generic costs are paid in full, eighth round): a house of 3 tokens for one such
    # citizen (5 + 1 - 0.3) comes after a free first wall (6); for two it comes first.
    state = make_game(holdings=[stronghold(residencies=0)],
                      structures=[structure("house", cost=3, residencies=2), wall()],
                      personalities=[citizen(f"clerk{i}", cost=(0, 0, 3)) for i in range(2)])
    clear_hand(state)
    place(state, first(state, "house"), "hand")
    place(state, first(state, "palisade"), "hand")
    for i in range(citizens):
        place(state, first(state, f"clerk{i}"), "hand")
    state.mover().personal = [3, 0, 0]
    at_step(state, "action", "act")
    assert choice(state) == Action("play", first(state, played))


@pytest.mark.parametrize(("held", "plays"), [
    pytest.param([4, 0, 0], True, id="tokens-that-do-not-count-pay-it"),
    pytest.param([0, 0, 4], False, id="only-counting-tokens-would-pay-it"),
])
def test_greedy_builds_three_residences_for_waiting_citizens_only_with_spare_tokens(
        held: list[int], plays: bool) -> None:
    # Noble Townhouses (mosfin-senate, issue 39): three residences for 4 generic tokens.
    # Three citizens in hand wait for a home: built while tokens that do not count toward
    # victory pay for it; with five Mosfin members in play its price would be 4 counting
    # political tokens (more than it adds), and greedy passes: in 609 of the 734 offers
    # of 200 greedy games the bonus was on (docs/goldfish.md, "Rules tried").
    mosfin = [citizen(f"m{i}", faction="mosfin", influence=2) for i in range(5)]
    waiting = [citizen(f"w{i}", faction="mosfin", cost=(0, 0, 9)) for i in range(3)]
    state = make_game([stronghold(residencies=5)],
                      structures=[structure("townhouses", cost=4, residencies=3)],
                      personalities=[*mosfin, *waiting])
    clear_hand(state)
    keep = first(state, "keep")
    for i in range(5):
        place(state, first(state, f"m{i}"), "residents", keep)
    for i in range(3):
        place(state, first(state, f"w{i}"), "hand")
    townhouses = place(state, first(state, "townhouses"), "hand")
    state.mover().personal = list(held)
    at_step(state, "action", "act")
    assert choice(state) == (Action("play", townhouses) if plays else Action("pass"))


def test_greedy_plays_an_event_that_brings_more_tokens_than_it_costs_first() -> None:
    # The festival costs 1 and brings 3: income, so played before the citizen (whose 3
    # political it then still pays, with one token more of each kind for the next card).
    festival = event("festival", cost=(0, 1, 0),
                     abilities="Collect 1 economic, 1 religious and 1 political influence "
                               "from the city's influence pool.")
    state = make_game(personalities=[citizen("envoy", faction="mosfin", influence=2,
                                             cost=(0, 0, 3)), festival])
    clear_hand(state)
    envoy = place(state, first(state, "envoy"), "hand")
    place(state, first(state, "festival"), "hand")
    state.mover().personal = [0, 1, 3]
    at_step(state, "action", "act")
    assert choice(state) == Action("play", first(state, "festival"))
    act(state, choice(state))
    assert state.mover().personal == [1, 1, 4]
    assert choice(state) == Action("play", envoy, first(state, "keep"))


def test_greedy_plays_an_event_that_brings_no_more_than_it_costs_after_a_personality() -> None:
    windfall = event("windfall", cost=(0, 2, 0),
                     abilities="Collect 2 economic influence from the city's influence pool.")
    state = make_game(personalities=[citizen("envoy", faction="mosfin", influence=2,
                                             cost=(0, 0, 3)), windfall])
    clear_hand(state)
    envoy = place(state, first(state, "envoy"), "hand")
    place(state, first(state, "windfall"), "hand")
    state.mover().personal = [0, 2, 3]
    at_step(state, "action", "act")
    assert choice(state) == Action("play", envoy, first(state, "keep"))


@pytest.mark.parametrize(("income_structures", "troops", "hall_income", "played"), [
    pytest.param(2, 1, 2, "hall", id="income-more-often-among-structures-defended"),
    pytest.param(0, 1, 2, "poet", id="income-more-often-among-personalities"),
    pytest.param(2, 0, 2, "poet", id="no-troop-in-play"),
    pytest.param(2, 1, 1, "poet", id="a-token-a-round-twice-is-less-than-a-citizen"),
])
def test_greedy_counts_a_structures_income_twice_while_the_structures_are_richer(
        income_structures: int, troops: int, hall_income: int, played: str) -> None:
    # Round 1, tokens for one of the two: a hall of one or two tokens a round and a citizen
    # of two influence without income (a free residence for it). While the structure pile
    # more often brings income than the personality pile (one income card in four) and a
    # troop in play faces no wanderer, the hall's income counts twice over: a hall of two
    # tokens a round comes first, one of one token no longer does (three times over, before
    # structures were paid in full, it did); otherwise the citizen.
    income = "Collect 1 economic influence from the city's influence pool."
    hall = structure("hall", cost=4, residencies=2, abilities=(
        f"Collect {hall_income} economic influence from the city's influence pool."))
    tolls = [structure(f"toll{i}", residencies=0, abilities=income)
             for i in range(income_structures)]
    huts = [structure(f"hut{i}") for i in range(4 - income_structures)]
    state = make_game([stronghold(residencies=1)], [hall, *tolls, *huts],
                      [citizen("poet", influence=2, cost=(4, 0, 0)),
                       citizen("broker", abilities="E Worship."),
                       *(troop(f"spare{i}") for i in range(3 + troops))])
    clear_hand(state)
    for i in range(troops):
        place(state, first(state, f"spare{i + 3}"), "defensive")
    place(state, first(state, "hall"), "hand")
    place(state, first(state, "poet"), "hand")
    state.mover().personal = [4, 0, 0]
    at_step(state, "action", "act")
    assert state.round == 1
    assert choice(state).card == first(state, played)


def _drawing(troops: int, wanderers: int, income_structures: int,
             in_hand: int = 0, citizens: int = 0) -> GameState:
    """A Draw step with ``troops`` troops in play (and ``in_hand`` in hand) against
    ``wanderers``, a structure pile of four cards of which ``income_structures`` have income,
    and a personality pile of four, one of them with income; the hand holds ``citizens``
    citizens."""
    tolls = [structure(f"toll{i}", residencies=0, abilities="Collect 1 economic influence "
                       "from the city's influence pool.") for i in range(income_structures)]
    huts = [structure(f"hut{i}") for i in range(4 - income_structures)]
    people = [troop(f"t{i}") for i in range(troops + in_hand)]
    state = make_game(structures=[*tolls, *huts],
                      personalities=[*people, citizen("broker", abilities="E Worship."),
                                     *(troop(f"spare{i}") for i in range(3)),
                                     *(citizen(f"c{i}") for i in range(citizens))],
                      wanderers=[wanderer(f"w{i}") for i in range(wanderers)])
    clear_hand(state)
    for i in range(citizens):
        place(state, first(state, f"c{i}"), "hand")
    for i in range(troops):
        place(state, first(state, f"t{i}"), "defensive")
    for i in range(troops, troops + in_hand):
        place(state, first(state, f"t{i}"), "hand")
    for i in range(wanderers):
        place(state, first(state, f"w{i}"), "wanderers")
    at_step(state, "maintenance", "draw")
    return state


@pytest.mark.parametrize(("troops", "wanderers", "income_structures"), [
    pytest.param(2, 1, 2, id="income-more-often-among-structures-defended"),
    pytest.param(2, 1, 0, id="income-more-often-among-personalities"),
    pytest.param(1, 0, 2, id="one-troop-in-play-none-in-the-row"),
])
def test_greedy_draws_a_personality_though_the_structure_pile_is_richer_in_income(
        troops: int, wanderers: int, income_structures: int) -> None:
    # A residence open for the next citizen: a personality, whichever pile more often
    # brings income. (While defended it used to draw a structure when the structure pile
    # was the richer: with structures paid in full their price puts off the personalities;
    # docs/decisions/greedy-rules-held-out.md.)
    state = _drawing(troops, wanderers, income_structures)
    assert choice(state) == Action("draw", option="personalities")


def test_greedy_counts_troops_in_hand_as_defence_only_beside_one_in_play() -> None:
    # The first rounds: two troops in hand, none in play and no wanderer yet; a citizen in
    # hand for the stronghold (the one structure with room), a hut in hand (not paid for)
    # would house the next. A troop in hand guards nothing: personalities (the troops to
    # play come from there); beside one in play, a structure for the next citizen.
    for troops, in_hand, pile in ((0, 2, "personalities"), (1, 1, "structures")):
        state = _drawing(troops, troops, 2, in_hand=in_hand, citizens=1)
        place(state, first(state, "hut0"), "hand")
        assert choice(state) == Action("draw", option=pile)


@pytest.mark.parametrize(("troops", "citizens", "pile"), [
    pytest.param(2, 2, "structures", id="the-next-citizen-finds-no-open-residence-defended"),
    pytest.param(1, 2, "personalities", id="no-troop-to-spare-for-the-next-wanderer"),
    pytest.param(2, 0, "personalities", id="a-residence-open-for-the-next-citizen"),
])
def test_greedy_draws_a_structure_when_the_next_citizen_finds_no_open_residence(
        troops: int, citizens: int, pile: str) -> None:
    # The stronghold is the one structure with a free residency (an open residence); a
    # structure of two residences in hand (not paid for yet, so not counted now, though the
    # older rule counts it: three homes for two citizens and the next); piles without
    # income, so only the residences decide.
    state = make_game(holdings=[stronghold(residencies=2)],
                      structures=[structure(f"hut{i}", residencies=2) for i in range(4)],
                      personalities=[*(troop(f"t{i}") for i in range(troops)),
                                     *(citizen(f"c{i}") for i in range(citizens)),
                                     *(troop(f"spare{i}") for i in range(3))],
                      wanderers=[wanderer("w")])
    clear_hand(state)
    for i in range(troops):
        place(state, first(state, f"t{i}"), "defensive")
    for i in range(citizens):
        place(state, first(state, f"c{i}"), "hand")
    place(state, first(state, "hut0"), "hand")
    place(state, first(state, "w"), "wanderers")
    at_step(state, "maintenance", "draw")
    assert choice(state) == Action("draw", option=pile)


@pytest.mark.parametrize(("guild_in_hand", "pile"), [
    pytest.param(False, "personalities", id="four-members-none-in-hand"),
    pytest.param(True, "structures", id="the-fifth-already-in-hand"),
])
def test_greedy_draws_a_personality_while_a_faction_waits_for_its_fifth_member(
        guild_in_hand: bool, pile: str) -> None:
    # Four Guild troops in play, one wanderer; two citizens in hand and no open residence
    # for a third: the residences would draw a structure, but the fifth Guild member
    # switches on the token bonus, so a personality, unless one of the Guild is in hand.
    state = make_game(holdings=[stronghold(residencies=2)],
                      structures=[structure(f"hut{i}", residencies=2) for i in range(4)],
                      personalities=[*(troop(f"t{i}") for i in range(5)),
                                     *(citizen(f"c{i}") for i in range(2)),
                                     *(citizen(f"spare{i}") for i in range(3))],
                      wanderers=[wanderer("w")])
    clear_hand(state)
    for i in range(4):
        place(state, first(state, f"t{i}"), "defensive")
    for i in range(2):
        place(state, first(state, f"c{i}"), "hand")
    if guild_in_hand:
        place(state, first(state, "t4"), "hand")
    place(state, first(state, "w"), "wanderers")
    at_step(state, "maintenance", "draw")
    assert choice(state) == Action("draw", option=pile)


@pytest.mark.parametrize(("troops", "in_hand", "wanderers", "pile"), [
    pytest.param(1, 0, 1, "personalities", id="one-troop-for-one-wanderer"),
    pytest.param(2, 0, 2, "personalities", id="two-troops-for-two-wanderers"),
    pytest.param(1, 1, 1, "structures", id="a-troop-in-hand-beside-the-one-in-play"),
    pytest.param(2, 0, 1, "structures", id="troops-outnumber-the-wanderers"),
    pytest.param(0, 0, 0, "structures", id="no-wanderer-in-the-row"),
])
def test_greedy_draws_a_personality_while_its_troops_do_not_outnumber_the_wanderers(
        troops: int, in_hand: int, wanderers: int, pile: str) -> None:
    # Three citizens in hand and two homes (the stronghold's): a structure, unless a
    # wanderer is in the row and the troops in play and in hand do not outnumber the
    # wanderers: troops come from the personality pile, and an overrun loses the game
    # before a homeless citizen costs anything (tenth round; it drew a structure).
    state = _drawing(troops, wanderers, 0, in_hand=in_hand, citizens=3)
    assert choice(state) == Action("draw", option=pile)


@pytest.mark.parametrize(("discarded", "held", "chosen"), [
    pytest.param("citizen", 10, Action("recycle", option="personalities"),
                 id="a-personality-to-draw-again"),
    pytest.param("interrupt", 10, Action("draw", option="structures"),
                 id="only-an-interrupt-to-draw-again"),
    pytest.param("citizen", 9, Action("draw", option="structures"),
                 id="the-5-tokens-would-put-off-the-next-play"),
])
def test_greedy_recycles_the_empty_pile_it_wants_when_its_discard_is_worth_it(
        discarded: str, held: int, chosen: Action) -> None:
    # Issue 39: greedy recycled only when both draw piles were empty (0 of 1,064 offers
    # taken), drawing structures nobody needed while its personalities waited in the
    # discard pile. No citizen in hand and two open residences: it wants a personality. Only
    # with twice the 5 tokens at hand: poorer, the price puts off the next play (measured:
    # won games slower by 0.05 rounds on kalim-crusaders).
    state = make_game(holdings=[stronghold(residencies=2)],
                      structures=[structure(f"hut{i}") for i in range(3)],
                      personalities=[citizen("citizen", influence=3),
                                     event("interrupt", subtype="interrupt")])
    clear_hand(state)
    me = state.mover()
    for instance in list(me.zones["personality_pile"]):
        place(state, instance, "personality_discard" if state.cards[instance] == discarded
              else "dead")
    me.personal = [held, 0, 0]
    at_step(state, "maintenance", "draw")
    assert choice(state) == chosen


@pytest.mark.parametrize(("troops", "discarded"), [
    pytest.param(2, True, id="troops-outnumber-the-wanderers"),
    pytest.param(1, False, id="one-troop-for-one-wanderer"),
])
def test_greedy_discards_a_weak_troop_while_its_troops_outnumber_the_wanderers(
        troops: int, discarded: bool) -> None:
    state, _, _ = battle_game([troop(f"t{i}") for i in range(troops)], [wanderer("w")],
                              others=[troop("recruit", influence=1, cost=(2, 0, 0)),
                                      troop("veteran", influence=2, cost=(2, 0, 0))])
    recruit = place(state, first(state, "recruit"), "hand")
    place(state, first(state, "veteran"), "hand")
    state.mover().personal = [4, 0, 0]
    at_step(state, "discard", "discard")
    state.mover().discards_left = 3
    assert choice(state) == (Action("discard", recruit) if discarded else Action("done"))
    if discarded:
        act(state, choice(state))
        assert choice(state) == Action("done")  # the two-influence troop is kept


@pytest.mark.parametrize(("troops", "discarded"), [
    pytest.param(2, True, id="troops-outnumber-the-wanderers"),
    pytest.param(1, False, id="one-troop-for-one-wanderer"),
])
def test_greedy_keeps_one_troop_in_hand_while_its_troops_outnumber_the_wanderers(
        troops: int, discarded: bool) -> None:
    # Two troops of two influence in hand (neither weak): while defended, the one of less
    # worth (offense and defense 2 against 3) goes for a fresh draw, the other is kept.
    state, _, _ = battle_game([troop(f"t{i}") for i in range(troops)], [wanderer("w")],
                              others=[troop("pikeman", influence=2, cost=(2, 0, 0)),
                                      troop("guardsman", influence=2, offense=3, defense=3,
                                            cost=(2, 0, 0))])
    pikeman = place(state, first(state, "pikeman"), "hand")
    place(state, first(state, "guardsman"), "hand")
    state.mover().personal = [4, 0, 0]
    at_step(state, "discard", "discard")
    state.mover().discards_left = 3
    assert choice(state) == (Action("discard", pikeman) if discarded else Action("done"))
    if discarded:
        act(state, choice(state))
        assert choice(state) == Action("done")  # the guardsman is kept


@pytest.mark.parametrize(("troops", "homes", "discarded"), [
    pytest.param(3, 2, True, id="two-troops-to-spare-and-two-open-residences"),
    pytest.param(2, 2, False, id="one-troop-to-spare"),
    pytest.param(3, 1, False, id="one-open-residence"),
])
def test_greedy_discards_its_last_troop_in_hand_while_guarded_and_housed(
        troops: int, homes: int, discarded: bool) -> None:
    # One troop of two influence and no income in hand (the one the rule above keeps):
    # with two troops in play beyond the wanderers and two residences open, it goes for a
    # fresh draw (eleventh round; it was kept); with less to spare, or one residence, kept.
    state, _, _ = battle_game([troop(f"t{i}") for i in range(troops)], [wanderer("w")],
                              holdings=[stronghold(), *[structure(f"hut{i}")
                                                        for i in range(homes - 1)]],
                              others=[troop("veteran", influence=2, cost=(2, 0, 0))])
    veteran = place(state, first(state, "veteran"), "hand")
    state.mover().personal = [4, 0, 0]
    at_step(state, "discard", "discard")
    state.mover().discards_left = 3
    assert rulings.open_residence_count(state) == homes
    assert choice(state) == (Action("discard", veteran) if discarded else Action("done"))


@pytest.mark.parametrize(("cost", "troops", "discarded"), [
    pytest.param((2, 0, 0), 1, True, id="two-tokens-put-off-a-personality"),
    pytest.param((1, 0, 0), 1, False, id="a-cheap-item-is-kept-with-one-troop-a-wanderer"),
    pytest.param((1, 0, 0), 2, True, id="any-item-while-troops-outnumber-the-wanderers"),
    # Issue 39: kept when the tokens held (and a round's income) pay for it and a troop
    # would take it, the sample decks' won games were slower (guild-veterans +0.09 rounds,
    # docs/goldfish.md, "Rules tried"): a dear item goes even when it could be paid now.
    pytest.param((2, 0, 0), 1, True, id="dear-though-the-tokens-held-pay-for-it"),
])
def test_greedy_discards_a_dear_item(cost: tuple[int, int, int], troops: int,
                                     discarded: bool) -> None:
    state, _, _ = battle_game([troop(f"soldier{i}") for i in range(troops)], [wanderer("w")],
                              others=[item("shield", subtype="shield", offense=0, defense=3,
                                           cost=cost)])
    shield = place(state, first(state, "shield"), "hand")
    state.mover().personal = [2, 0, 0] if cost == (2, 0, 0) and troops == 1 else [0, 0, 0]
    at_step(state, "discard", "discard")
    state.mover().discards_left = 3
    assert choice(state) == (Action("discard", shield) if discarded else Action("done"))


# --- combat ------------------------------------------------------------------------------


def _hunt_with(hand: list[dict[str, object]], soldier_offense: int = 2,
               **troop_fields: Any) -> tuple[GameState, int, int]:
    """A hunt at its modification step: one troop against one wanderer it barely misses
    (offense 2 against defense 3), ``hand`` in hand."""
    state, (soldier,), (wolf,) = battle_game(
        [troop("t", offense=soldier_offense, defense=9, vitality=3, **troop_fields)],
        [wanderer("w", offense=0, defense=3, vitality=1, bounty=2)], others=hand)
    for card in hand:
        place(state, first(state, str(card["id"])), "hand")
    hunt(state, [wolf], [soldier])
    act(state, Action("separate", soldier, wolf))
    assert state.combat is not None and state.combat.step == "modify"
    return state, soldier, wolf


def test_greedy_plays_a_battle_event_that_turns_a_miss_into_a_kill() -> None:
    flank = event("flank", subtype="battle", cost=(1, 0, 0),
                  abilities="Target troop of yours gains +2 offense until the end of the "
                            "combat.")
    state, soldier, _ = _hunt_with([flank])
    assert choice(state) == Action("play", first(state, "flank"), soldier)


def test_greedy_keeps_a_battle_event_that_changes_nothing() -> None:
    flank = event("flank", subtype="battle",
                  abilities="Target troop of yours gains +2 offense until the end of the "
                            "combat.")
    state, _, _ = _hunt_with([flank], soldier_offense=9)
    assert choice(state) == Action("done")


def test_greedy_charges_when_the_offense_changes_the_outcome() -> None:
    state, soldier, _ = _hunt_with([], soldier_offense=3, abilities="Charge.",
                                   strength=(1, 0, 0))
    assert choice(state) == Action("charge", soldier)


def test_greedy_uses_a_combat_ability_when_it_changes_the_outcome() -> None:
    rite = invocation("rite", requirement=1, abilities="Pay 1 religious influence: target "
                      "troop gains +2 offense until the end of the combat.")
    state, (soldier,), (wolf,) = battle_game(
        [troop("t", offense=2, defense=9, vitality=3, strength=(0, 1, 0))],
        [wanderer("w", offense=0, defense=3, vitality=1, bounty=2)], others=[rite])
    place(state, first(state, "rite"), "attached", soldier)
    hunt(state, [wolf], [soldier])
    act(state, Action("separate", soldier, wolf))
    assert choice(state) == Action("use", first(state, "rite"), soldier, "0")


def test_greedy_splits_its_troops_into_as_many_hits_as_a_kill_needs() -> None:
    # Vitality 2: one joint attack wounds once at most; two separate attacks can kill.
    state, (strong, second), (ogre,) = battle_game(
        [troop("strong", offense=6, defense=9, vitality=3),
         troop("second", offense=5, defense=9, vitality=3)],
        [wanderer("ogre", offense=0, defense=3, vitality=2, bounty=3)])
    hunt(state, [ogre], [strong, second])
    act(state, Action("separate", strong, ogre))
    assert choice(state) == Action("separate", second, ogre)


def test_greedy_bribes_a_wanderer_when_that_is_cheaper_than_fighting_it() -> None:
    # No troop to fight it: the bandit would destroy the inn (and its residents' home).
    state, _, (bandit,) = battle_game(
        wanderers=[wanderer("bandit", aggression=6, offense=6, defense=6, vitality=3,
                            bounty=1, abilities="Bribery.")],
        holdings=[stronghold(defense=9), structure("inn", cost=3, residencies=3)])
    to_wanderer_phase(state)
    assert state.combat is not None and state.combat.step == "bribe"
    assert choice(state) == Action("bribe", bandit)


@pytest.mark.parametrize(("wounds", "sent"), [
    pytest.param(2, True, id="the-stronghold-s-last-wound"),
    pytest.param(0, False, id="a-wound-the-stronghold-can-take"),
])
def test_greedy_pays_to_send_an_exhausted_troop_when_the_raid_needs_it(wounds: int,
                                                                      sent: bool) -> None:
    # Issue 39: greedy never paid the 3 tokens that send an exhausted troop. A raid with no
    # ready troop to meet it: the ogre strikes the stronghold; with one wound left to it that
    # loses the game, so the exhausted troop is sent; with three left, a wound costs less than
    # the tokens and the troop's risk.
    state, (guard,), _ = battle_game(
        [troop("guard", offense=3, defense=4, vitality=3)],
        [wanderer("ogre", aggression=6, offense=5, defense=2, vitality=2)],
        holdings=[stronghold(defense=4, vitality=3)])
    state.exhausted.add(guard)
    state.wounds[first(state, "keep")] = wounds
    state.mover().personal = [5, 0, 0]
    to_wanderer_phase(state)
    assert state.combat is not None and state.combat.step == "muster"
    assert choice(state) == (Action("send", guard, option="pay") if sent else Action("done"))


def test_greedy_fights_a_wanderer_it_can_kill_rather_than_bribe_it() -> None:
    state, _, _ = battle_game(
        [troop("t", offense=9, defense=9, vitality=3)],
        [wanderer("bandit", aggression=6, offense=1, defense=1, vitality=1, bounty=3,
                  abilities="Bribery.")])
    to_wanderer_phase(state)
    assert state.combat is not None and state.combat.step == "bribe"
    assert choice(state) == Action("done")


# --- the Wanderer Phase and the Discard Phase ------------------------------------------------


def test_greedy_uses_an_income_ability_to_pay_a_fine() -> None:
    state = make_game(personalities=[citizen("herald", strength=(0, 0, 2),
                                             abilities="E Campaign.")],
                      wanderers=[wanderer("w")])
    place(state, first(state, "herald"), "residents", first(state, "keep"))
    place(state, first(state, "w"), "wanderers")
    state.mover().personal = [0, 0, 0]
    to_wanderer_phase(state)
    assert choice(state) == Action("use", first(state, "herald"), option="0")


@pytest.mark.parametrize(("citizens", "pays_with"), [
    pytest.param(0, "hut", id="a-spare-free-structure"),
    pytest.param(1, "hut", id="the-stronghold-houses-the-citizen-in-hand"),
    pytest.param(2, "token", id="the-hut-would-house-a-citizen-in-hand"),
])
def test_greedy_pays_a_fine_with_a_spare_free_structure(citizens: int, pays_with: str) -> None:
    # An empty free hut, no income, while the stronghold's open residence houses the
    # citizens in hand: giving it up costs no play and no token (sixth round).
    state = make_game(holdings=[stronghold(residencies=1)], structures=[structure("hut")],
                      personalities=[citizen(f"c{i}", cost=(0, 0, 3)) for i in range(2)],
                      wanderers=[wanderer("w")])
    clear_hand(state)
    hut = place(state, first(state, "hut"), "private")
    for i in range(citizens):
        place(state, first(state, f"c{i}"), "hand")
    place(state, first(state, "w"), "wanderers")
    state.mover().personal = [2, 0, 0]
    to_wanderer_phase(state)
    assert state.step == "fine"
    expected = Action("fine", hut) if pays_with == "hut" else Action("fine", option="economic")
    assert choice(state) == expected


@pytest.mark.parametrize(("homeless", "residents", "keeps"), [
    pytest.param((3, 0), [(2, 0), (1, 0)], "weakest", id="more-influence-replaces-the-weakest"),
    pytest.param((1, 2), [(1, 0), (3, 0)], "weakest", id="same-influence-more-income"),
    pytest.param((1, 0), [(2, 0), (3, 0)], "let-go", id="less-influence-lets-it-go"),
    pytest.param((2, 1), [(2, 1), (4, 0)], "let-go", id="worth-the-same-lets-it-go"),
])
def test_greedy_keeps_the_homeless_citizen_only_when_he_is_worth_more(
        homeless: tuple[int, int], residents: list[tuple[int, int]], keeps: str) -> None:
    # A homeless citizen (no open residence) replaces the resident worth least, by faction
    # influence then income, when he is worth more; else he goes (mosfin-senate lost Lady
    # Seraphine Voss, influence 3, while a Court Notary, influence 2, kept its home).
    def person(name: str, worth: tuple[int, int]) -> dict[str, object]:
        influence, income = worth
        return citizen(name, influence=influence, strength=(0, 0, 2),
                       abilities=f"Collect {income} political influence from the city's "
                                 "influence pool." if income else "")

    state = make_game([stronghold(residencies=2), structure("hut", residencies=1)],
                      personalities=[person("new", homeless),
                                     *(person(f"r{i}", w) for i, w in enumerate(residents))],
                      wanderers=[wanderer("w")])
    keep, hut, new = first(state, "keep"), first(state, "hut"), first(state, "new")
    place(state, new, "residents", hut)
    for i in range(len(residents)):
        place(state, first(state, f"r{i}"), "residents", keep)
    at_step(state, "wanderer", "fine")
    state.mover().fines_due = 1
    act(state, Action("fine", hut))
    weakest = first(state, "r0" if residents[0] < residents[1] else "r1")
    assert choice(state) == (Action("rehouse", new, weakest) if keeps == "weakest"
                             else Action("rehouse", new))


UNUSABLE = [
    pytest.param(event("rally", subtype="battle", requirement=3,
                       abilities="Each of your troops in this combat gains +1 defense."),
                 id="battle-event-no-troop-is-strong-enough-for"),
    pytest.param(invocation("psalm", requirement=3,
                            abilities="E Pay 1 religious influence: collect 3 religious "
                                      "influence from the city's influence pool."),
                 id="invocation-nobody-may-bear"),
    pytest.param(item("spear", offense=2), id="item-with-no-troop-to-carry-it"),
]


@pytest.mark.parametrize("card", UNUSABLE)
def test_greedy_discards_what_it_cannot_use(card: dict[str, object]) -> None:
    state = make_game(personalities=[citizen("clerk", strength=(0, 1, 0)), card,
                                     citizen("friar")])
    place(state, first(state, "clerk"), "residents", first(state, "keep"))
    place(state, first(state, str(card["id"])), "hand")
    place(state, first(state, "friar"), "hand")
    at_step(state, "discard", "discard")
    state.mover().discards_left = 3
    assert choice(state) == Action("discard", first(state, str(card["id"])))
    act(state, choice(state))
    assert choice(state) == Action("done")  # the citizen is kept


@pytest.mark.parametrize(("setup", "kind"), [
    pytest.param("lacking", "political", id="the-kind-a-card-in-hand-lacks"),
    pytest.param("bonus", "economic", id="the-kind-of-the-five-members-bonus"),
    pytest.param("neither", "religious", id="else-the-kind-held-fewest"),
])
def test_bounties_are_taken_in_the_kind_that_counts_most(setup: str, kind: str) -> None:
    guild = [troop(f"g{i}", faction="guild", offense=9, defense=9) for i in range(5)]
    state, troops, (wolf,) = battle_game(
        guild if setup == "bonus" else guild[:1],
        [wanderer("w", defense=0, vitality=1, bounty=1)],
        others=[citizen("envoy", faction="mosfin", cost=(0, 0, 3))])
    if setup == "lacking":
        place(state, first(state, "envoy"), "hand")
    state.mover().personal = [3, 1, 2]
    hunt(state, [wolf], troops[:1])
    act(state, Action("separate", troops[0], wolf))
    while state.combat is not None and state.combat.step == "assign":
        act(state, choice(state))
    resolve(state)
    assert state.mover().bounty_due == 1
    assert choice(state) == Action("bounty", option=kind)



def test_greedy_discards_a_personality_it_will_not_afford_for_rounds() -> None:
    # 4 political needed, none held and no political income: it would sit in hand.
    state = make_game(personalities=[citizen("lord", faction="mosfin", cost=(0, 0, 4)),
                                     citizen("clerk", faction="mosfin", cost=(0, 0, 1))])
    lord, clerk = first(state, "lord"), first(state, "clerk")
    place(state, lord, "hand")
    place(state, clerk, "hand")
    state.mover().personal = [3, 3, 1]
    at_step(state, "discard", "discard")
    state.mover().discards_left = 3
    assert choice(state) == Action("discard", lord)
    act(state, choice(state))
    assert choice(state) == Action("done")  # the clerk is paid for


# --- the constants tuned in the fifth round (docs/goldfish.md) ---------------------------------
# Each on a state where the old value chose the other way.


def test_greedy_keeps_a_personality_three_rounds_of_income_pay_for() -> None:
    # 4 political needed, 1 held, 1 a round from the herald: paid for in three rounds
    # (AFFORD_ROUNDS 3), so kept (at 2 rounds it was discarded).
    state = make_game(personalities=[
        citizen("herald", faction="mosfin",
                abilities="E Collect 1 political influence from the city's influence pool."),
        citizen("lord", faction="mosfin", cost=(0, 0, 4))])
    place(state, first(state, "herald"), "residents", first(state, "keep"))
    clear_hand(state)
    place(state, first(state, "lord"), "hand")
    state.mover().personal = [0, 0, 1]
    at_step(state, "discard", "discard")
    state.mover().discards_left = 3
    assert choice(state) == Action("done")


def test_greedy_hunts_one_wanderer_with_four_troops() -> None:
    # Two wanderers each worth a duel, four ready troops: one wanderer per three troops
    # (HUNTERS_PER_PREY), so one is engaged and every troop joins that fight (at one per two,
    # both were engaged and the troops split).
    state, _, (w0, w1) = battle_game(
        [troop(f"t{i}", offense=4, defense=9, vitality=3) for i in range(4)],
        [wanderer(f"w{i}", offense=0, defense=1, vitality=1, bounty=2) for i in range(2)])
    at_step(state, "military", "military")
    assert choice(state) == Action("hunt")
    act(state, choice(state))
    engaged = choice(state)
    assert engaged.kind == "engage" and engaged.card in (w0, w1)
    act(state, engaged)
    assert choice(state) == Action("done")


def test_greedy_plays_a_battle_event_for_a_small_expected_gain() -> None:
    # +2 offense for a token turns a hopeless attack (margin -2) into a 6 in 36 kill of a
    # wanderer of bounty 4: an expected 7 * 6/36 - 1 = 0.17 gained, above MODIFY_THRESHOLD
    # (0.125; at 0.25 greedy kept its token).
    flank = event("flank", subtype="battle", cost=(1, 0, 0),
                  abilities="Target troop of yours gains +2 offense until the end of the "
                            "combat.")
    state, (soldier,), (wolf,) = battle_game(
        [troop("t", offense=1, defense=9, vitality=3)],
        [wanderer("w", offense=0, defense=3, vitality=1, bounty=4)], others=[flank])
    place(state, first(state, "flank"), "hand")
    hunt(state, [wolf], [soldier])
    act(state, Action("separate", soldier, wolf))
    assert choice(state) == Action("play", first(state, "flank"), soldier)


@pytest.mark.parametrize(("guarded", "plays"), [
    pytest.param(False, "pikeman", id="no-troop-guards-the-city"),
    pytest.param(True, "clerk", id="a-troop-already-guards-it"),
])
def test_greedy_plays_a_troop_before_a_citizen_of_less_influence(guarded: bool,
                                                                  plays: str) -> None:
    # Tokens for one of two, no wanderer yet: a troop of two influence (2/3) scores
    # TROOP_BASE 14 + 8 + its fight 2.5 = 24.5 against the citizen of one influence's
    # 20 + 4 = 24, so it comes first while no troop is in play (at TROOP_BASE 10, the citizen;
    # ninth round). With a troop in play its fight counts for nothing: the citizen.
    state = make_game(personalities=[citizen("clerk", faction="guild", cost=(2, 0, 0)),
                                     troop("pikeman", influence=2, offense=2, defense=3,
                                           cost=(2, 0, 0)),
                                     troop("guard")])
    clear_hand(state)
    if guarded:
        place(state, first(state, "guard"), "defensive")
    place(state, first(state, "clerk"), "hand")
    place(state, first(state, "pikeman"), "hand")
    state.mover().personal = [2, 0, 0]
    at_step(state, "action", "act")
    chosen = choice(state)
    assert chosen.kind == "play" and state.cards[chosen.card] == plays


# --- City Maintenance: guards --------------------------------------------------------------


def _flyers_at_maintenance(row: list[dict[str, object]], troop_fields: dict[str, Any],
                           guarded: bool = False) -> tuple[GameState, int, int]:
    """City Maintenance's arrange step: one troop (guarding the hut with ``guarded``), a
    stronghold of defense 5 and a hut of defense 0 housing a citizen, ``row`` in the row."""
    state = make_game([stronghold(defense=5)], [structure("hut")],
                      [troop("soldier", offense=2, defense=3, **troop_fields),
                       citizen("clerk")], row)
    clear_hand(state)
    soldier = place(state, first(state, "soldier"), "defensive")
    hut = place(state, first(state, "hut"), "private")
    place(state, first(state, "clerk"), "residents", hut)
    for card in row:
        place(state, first(state, str(card["id"])), "wanderers")
    if guarded:
        place(state, soldier, "guards", hut)
    at_step(state, "maintenance", "arrange")
    return state, soldier, hut


@pytest.mark.parametrize(("row", "troop_fields", "guards"), [
    pytest.param([wanderer("crows", offense=2, abilities="Flight.")], {}, True,
                 id="flyers-no-troop-can-meet-go-past-it-to-the-hut"),
    pytest.param([wanderer("crows", offense=2, abilities="Flight.")],
                 {"abilities": "Ranged."}, False, id="a-ranged-troop-meets-and-hunts-them"),
    pytest.param([wanderer("crows", offense=2, abilities="Flight."), wanderer("wolf")], {},
                 False, id="a-walking-wanderer-is-met-by-the-troop"),
])
def test_greedy_guards_a_structure_the_raid_would_reach(
        row: list[dict[str, object]], troop_fields: dict[str, Any], guards: bool) -> None:
    # Issue 39: 0 of 2,234 guard offers taken. A raid of flyers goes past troops without
    # Ranged or Flight (who cannot hunt them either) to the weakest structure: a guard adds
    # its defense there. Otherwise the troop is worth more in the defensive holdings.
    state, soldier, hut = _flyers_at_maintenance(row, troop_fields)
    assert choice(state) == (Action("guard", soldier, hut) if guards else Action("done"))


def test_greedy_brings_its_guard_back_when_the_raid_can_be_met() -> None:
    state, soldier, _ = _flyers_at_maintenance([wanderer("wolf")], {}, guarded=True)
    assert choice(state) == Action("unguard", soldier)


@pytest.mark.parametrize(("row", "built"), [
    pytest.param([wanderer("crows", offense=2, abilities="Flight.")], True,
                 id="the-troops-will-guard"),
    pytest.param([wanderer("wolf")], False, id="no-troop-will-guard"),
])
def test_greedy_builds_a_barracks_when_its_troops_will_guard(
        row: list[dict[str, object]], built: bool) -> None:
    # Ashgate Barracks: no residence, +1 defense to its guards. Worth its 3 tokens only while
    # greedy's troops guard or will (issue 39: never built).
    state = make_game([stronghold(defense=5)],
                      [structure("barracks", cost=3, residencies=0,
                                 abilities="Troops guarding this structure gain +1 defense.")],
                      [troop("soldier", offense=2, defense=3)], row)
    clear_hand(state)
    place(state, first(state, "soldier"), "defensive")
    barracks = place(state, first(state, "barracks"), "hand")
    for card in row:
        place(state, first(state, str(card["id"])), "wanderers")
    state.mover().personal = [3, 0, 0]
    at_step(state, "action", "act")
    assert choice(state) == (Action("play", barracks) if built else Action("pass"))


# --- combat: what a wound costs later --------------------------------------------------------


def _hunt_at_risk(others: list[dict[str, object]], hand: list[dict[str, object]],
                  wounds: int = 0) -> tuple[GameState, int]:
    """A hunt at its modification step: a troop of vitality 2 (``wounds`` on it) strikes a
    bear it kills 5 times in 6, and the bear strikes back, wounding it 5 times in 6; ``others``
    wait in the row, ``hand`` in hand."""
    state, (soldier,), (bear, *_) = battle_game(
        [troop("soldier", offense=4, defense=3, vitality=2)],
        [wanderer("bear", offense=4, defense=3, vitality=1, bounty=2), *others],
        others=hand)
    state.wounds[soldier] = wounds
    for card in hand:
        place(state, first(state, str(card["id"])), "hand")
    state.mover().personal = [3, 0, 0]
    hunt(state, [bear], [soldier])
    act(state, Action("separate", soldier, bear))
    assert state.combat is not None and state.combat.step == "modify"
    return state, soldier


HOLD_THE_LINE = event("hold", subtype="battle", cost=(1, 0, 0),
                      abilities="Your troops in this combat do not become exhausted for "
                                "taking a wound.")


@pytest.mark.parametrize(("others", "played"), [
    pytest.param([wanderer("wolf", aggression=6)], True,
                 id="a-raid-comes-after-the-hunt-and-a-wounded-troop-would-miss-it"),
    pytest.param([], False, id="nothing-left-this-round-for-the-troop-to-miss"),
])
def test_greedy_holds_the_line_when_an_exhausted_troop_would_miss_the_raid(
        others: list[dict[str, object]], played: bool) -> None:
    # Issue 39: Hold the Line counted the wound only (0 of 65 offers taken). Its worth is
    # what the wounded troop, exhausted, would miss: the wolf's raid after the hunt.
    state, _ = _hunt_at_risk(others, [HOLD_THE_LINE])
    assert choice(state) == (Action("play", first(state, "hold")) if played
                             else Action("done"))


RALLY = event("rally", subtype="battle", cost=(2, 0, 0),
              abilities="Remove one wound counter from each of your troops in this combat.")


@pytest.mark.parametrize(("wounds", "played"), [
    pytest.param(1, True, id="the-wound-removed-spares-the-troop-s-life"),
    pytest.param(0, False, id="no-wound-to-remove"),
])
def test_greedy_rallies_when_a_wound_removed_spares_a_troop(wounds: int, played: bool) -> None:
    # Its one wound left, the bear's strike back would kill the troop 5 times in 6: a wound
    # removed, it only wounds (issue 39: 1.5 a troop healed, never its life, so never played).
    state, _ = _hunt_at_risk([], [RALLY], wounds=wounds)
    offered = Action("play", first(state, "rally")) in engine.legal_actions(state)
    assert offered == bool(wounds)
    assert choice(state) == (Action("play", first(state, "rally")) if played
                             else Action("done"))
