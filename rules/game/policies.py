"""Policies: who makes the player's choices. Separate from the rules, which only say what is
legal.

Pure Python. A policy is a callable ``(state, legal_actions) -> action``.

* :class:`RandomPolicy` picks uniformly among the legal actions with its own seeded RNG (for
  fuzzing the engine: every legal path gets taken sooner or later).
* :class:`GreedyPolicy` is the default heuristic, playing to reach the influence target fast
  (its weights are the constants below, tuned on the sample decks against the lookahead
  player, rules/game/lookahead.py):

  - **draws** a structure when the citizens in hand would not all find a residence (open
    residences plus the residences of structures in hand), or, while its troops in play and
    in hand (one of them in play) outnumber the wanderers, when one more citizen would find
    no residence open now (structures in hand not counted); otherwise a personality
    (always while a faction has four members in play and none in hand: the fifth switches
    on the token bonus; and while a wanderer is in the row and its troops in play and in
    hand do not outnumber the wanderers: the troops come from the personality pile); it
    recycles the discard pile of the pile it wants when that pile is empty, it holds twice
    the 5 tokens recycling costs, and the discard pile holds a personality (for the
    personality pile) or a structure with residences or income (for the structure pile);
    any discard pile when both draw piles are empty;
  - **acts** by using every income ability of citizens, structures, items and invocations,
    and playing every event that brings more tokens than it costs, first (troops keep
    theirs for the Discard Phase so that they fight unexhausted, unless nothing else is
    left to do and the tokens pay for a personality in hand now); then
    plays a personality that reaches the victory target if one does (the tokens its play
    leaves counted as the engine will take them, :func:`rulings.take_any`); else the best card it
    can afford, by this score: personalities by faction influence and income (a token of
    income worth more than a point of influence; troops a little below citizens, more
    while it has no more troops than wanderers), structures when residences
    are short (a free one already when the next citizen would find no open residence, or
    when the open residences outnumber the citizens in hand) or
    by their income (worth more the earlier they come, twice over while
    the structure pile more often brings income than the personality pile and its troops
    outnumber the wanderers, as for the draw), income events, a first
    wall, items on troops that lack that kind of item, a bounty event on a wanderer the hunt
    to come is expected to kill when the bounty it adds (times the kill chance) beats its
    cost, income invocations (only on a bearer they bring more than a token a round beyond
    its own exhausting income ability: using one exhausts the bearer), invocations used in
    fights where they will be used (troops in play; one that strengthens its bearer on a
    troop) while no personality in hand waits for the tokens; every token of a kind that
    counts toward victory (a five-members bonus on) costs a point of influence; it
    never plays a card that only hurts itself, and never passes while a play brings a
    faction to five members; in the **last round** (while its troops outnumber the
    wanderers), when the personalities in hand that raise its influence total bring it to
    the target by the next round's start, it plays only those, then passes rather than
    spend the tokens that count on anything else;
  - **hunts** when a wanderer's best duel with one of its ready troops is expected to gain
    (its bounty and the end of its fines and raids, much more when the next wanderer would
    overrun the city) more than the troop's risk (strike-backs, who strikes first), at most
    one wanderer per three ready troops, and sends every ready troop;
  - **fights** (hunts and the wanderers' raids) by weighing the fight's expected outcome
    over the dice (:class:`Fight`): each assignment is the one after which the fight goes
    best (enough separate hits to kill, no needless strike-backs), a Defender passes up a
    second fight that only costs; in the modification step it plays a battle event or uses a
    combat ability (Charge, Fervor, Pray, Fear, an invocation) when that changes the expected
    outcome by more than its tokens (Hold the Line by what a troop wounded, so exhausted,
    would miss later this round: the raid after a hunt, its income ability; Rally the
    Veterans by the deaths a wound removed spares, in this fight and after); it bribes an
    attacker whose fight would cost more than its bribe (it can destroy something and cannot
    be killed);
    in a raid that no ready troop meets and that may deal the stronghold its last wound, it
    pays 3 tokens to send the exhausted troop that spares it most beyond its own risk;
  - **guards** (City Maintenance) only while every wanderer in the row flies and no troop of
    the defensive holdings has Ranged or Flight (their raid goes past the troops, who cannot
    hunt them either): each troop guards the structure they would wound most easily; else
    its guards come back to the defensive holdings; a structure that strengthens its guards
    (Ashgate Barracks) is worth its bonus only while troops guard or will;
  - **pays fines** with a free structure it can spare (no income, no resident, the other
    open residences house the citizens in hand), else an income ability's token if one can
    bring it, else a token of a kind
    that does not count toward victory, the kind it holds most of, else its cheapest card;
  - **rehouses** a homeless citizen (no residence open) in the residence of the citizen
    worth least (faction influence, then income) when he is worth more, else lets him go;
  - **takes bounties** in the kind a card in hand lacks, else the kind of a five-members
    bonus, else the kind it holds fewest of;
  - **discards** cards it can never play (interrupts and other no-effect events, a second
    wall, a dead or duplicate unique), cards nothing can use (a battle event no troop is
    strong enough for, an invocation nobody may bear, an item with no troop) and cards it
    would not play now if it could pay (structures nobody needs, items no bearer wants,
    invocations used in fights with no troop to help or while a personality waits), then
    personalities it will not afford for three rounds (a kind of their cost beyond its
    tokens and three rounds of its income of that kind), then
    troops of one influence and no income while its troops in play outnumber the wanderers,
    then items without income (of two tokens or more, or any while its troops in play
    outnumber the wanderers), then, while its troops in play outnumber the wanderers, every
    troop in hand but the one of most worth, and that one too if it has no income while
    they outnumber the wanderers by two and two residences are open, after using its
    troops' income abilities.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final

from rules.game import battle_effects, combat, phase_effects, rulings, static_effects
from rules.game.actions import Action
from rules.game.profile import Profile
from rules.game.state import GameState
from rules.rng import GameRng

# The weights of the greedy policy's scores, tuned on the sample decks against the lookahead
# player (docs/goldfish.md): a play scores in "influence points" of about 4 each.
INFLUENCE: Final = 4.0  # a point of faction influence, the unit of the scores
BONUS_TOKEN: Final = 4.0  # a token of a kind that counts toward victory (five-members bonus) spent
CITIZEN_BASE: Final = 20.0  # a citizen, besides its influence and income
# a troop: less than a citizen (it fights, but needs no residence); 10 before generic costs were
# paid in full (a troop before a citizen of less influence). Each weight here was kept on
# held-out games (docs/decisions/greedy-rules-held-out.md); its commit holds the figures.
TROOP_BASE: Final = 14.0
# per point of offense and defense, while it has no more troops than wanderers
TROOP_FIGHT: Final = 0.5
PERSON_INCOME: Final = 6.0  # a token of a personality's income: its tokens pay for the next ones
COST_WEIGHT: Final = 0.1  # a token of a card's cost (the cheaper of two plays of equal worth)
# a residence of a structure, per citizen in hand without one (8 before generic costs were paid
# in full: a structure's price now delays the next personality more)
RESIDENCE_NEED: Final = 5.0
WALL_VALUE: Final = 6.0  # a first wall
ITEM_BASE: Final = 3.0  # an item on a troop lacking that kind, besides its offense and defense
INCOME_ITEM: Final = 5.0  # an income item or invocation, besides its income
# (the events' and abilities' worths outside combat: rules/game/phase_effects.py)
# an income structure pays about this many rounds less the round number...
INCOME_ROUNDS: Final = 12.0
INCOME_LEAST: Final = 2.0  # ...and never less than this many
# ...this many times over while the structure pile more often brings income than the
# personality pile and the troops in play and in hand outnumber the wanderers (3 while
# structures bought with generic costs were often free)
STRUCTURE_INCOME_RICHER: Final = 2.0
HUNT_GAIN: Final = 0.5  # a hunt is declared on a wanderer whose best duel is expected to gain this
# what a kill is worth more when the next wanderer would overrun the city
OVERRUN_STAKE: Final = 20.0
STRIKE_BACK: Final = 0.5  # a hunting troop wounded, not killed
WOUND_GAIN: Final = 1.0  # a wanderer wounded, not killed: exhausted, so no fine and no raid from it
HUNTERS_PER_PREY: Final = 3  # wanderers engaged at most: one per three ready troops, at least one
# a personality in hand it cannot pay for within this many rounds is discarded
AFFORD_ROUNDS: Final = 3
# an item in hand that costs this many tokens or more is discarded (Discard Phase)
ITEM_DEAR: Final = 2
# a structure with residences costing at most this many tokens is played when one more
# citizen would find no open residence (as the draw reckons), not only when one in hand lacks
# one (free ones only: at 1, kalim-faithful's held-out games were 0.023 rounds slower)
CHEAP_HOME: Final = 0
# an income invocation is played only on a bearer it brings more than this many tokens a round
# beyond the bearer's own exhausting income ability (its use exhausts the bearer)
INVOCATION_GAIN: Final = 1
# an invocation used in fights (Rite of the Ember Flame, Ward Against Harm), besides its bonus,
# played where it will be used (issue 39: scored 0 before, so always discarded)
COMBAT_INVOCATION: Final = 3.0
# a point of the bonus a structure gives its guards (Ashgate Barracks), while troops guard or
# will (issue 39: greedy never guarded, so the barracks was never worth its price)
GUARD_HOME: Final = 5.0
RECYCLE_TOKENS: Final = 5  # what recycling a draw pile costs (engine.RECYCLE_COST)
type Policy = Callable[[GameState, Sequence[Action]], Action]


class RandomPolicy:
    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = GameRng(seed)

    def __call__(self, state: GameState, actions: Sequence[Action]) -> Action:
        return actions[self.rng.below(len(actions))]


class GreedyPolicy:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        del seed  # deterministic: it needs no randomness

    def __call__(self, state: GameState, actions: Sequence[Action]) -> Action:
        me = state.mover()
        if len(actions) == 1:
            return actions[0]  # nothing to weigh: every rule below picks an offered action
        if me.homeless:
            return _rehouse_choice(state, actions)
        if me.bounty_due:
            return _bounty_choice(state, actions)
        if state.combat is not None:
            return _combat_choice(state, actions)
        step = state.step
        if step == "draw":
            return _draw_choice(state, actions)
        if step == "act":
            return _act_choice(state, actions)
        if step == "military":
            return _find(actions, "hunt") if _worth_hunting(state) else _find(actions, "pass")
        if step == "fine":
            return _fine_choice(state, actions)
        if step == "discard":
            return _discard_choice(state, actions)
        if step == "arrange":
            return _arrange_choice(state, actions)
        return _find(actions, "done") or actions[-1]


POLICIES: dict[str, Callable[[int], Policy]] = {"greedy": GreedyPolicy, "random": RandomPolicy}


def _find(actions: Sequence[Action], kind: str) -> Action:
    for action in actions:
        if action.kind == kind:
            return action
    return actions[-1]


def _rehouse_choice(state: GameState, actions: Sequence[Action]) -> Action:
    """A homeless citizen replaces the resident worth least (faction influence, then income)
    when he is worth more; else he goes to the discard pile (the last action)."""
    let_go = actions[-1]
    weakest: Action | None = None
    for action in actions:
        if action.target >= 0 and (weakest is None or _citizen_worth(state, action.target)
                                   < _citizen_worth(state, weakest.target)):
            weakest = action
    if weakest is not None \
            and _citizen_worth(state, let_go.card) > _citizen_worth(state, weakest.target):
        return weakest
    return let_go


def _arrange_choice(state: GameState, actions: Sequence[Action]) -> Action:
    """City Maintenance: while every wanderer in the row flies and no troop of the defensive
    holdings has Ranged or Flight, the troops can neither hunt them nor stop their raid, which
    goes past them to the structures: each troop guards the structure the flyers would wound
    most easily (guards add their defense, and their offense to its strike back); else the
    guards come back to the defensive holdings (to hunt and to meet the raiders)."""
    me = state.mover()
    threat = _flyer_threat(state)
    if threat < 0:
        for action in actions:
            if action.kind == "unguard":
                return action
        return _find(actions, "done")
    # (A strike wounds only while its margin is -1 or more: _wound_chance. The stronghold
    # last of equals: it takes wounds, the others are destroyed by one.)
    weakest, least = -1, (threat + 2, 0)
    for structure in me.zones["private"]:
        key = (_guarded_defense(state, structure),
               1 if state.card(structure).subtype == "stronghold" else 0)
        if key < least:
            weakest, least = structure, key
    if weakest < 0:
        return _find(actions, "done")
    best: Action | None = None
    for action in actions:
        if action.kind == "guard" and action.target == weakest and (
                best is None or state.card(action.card).defense
                > state.card(best.card).defense):
            best = action
    return best if best is not None else _find(actions, "done")


def _flyer_threat(state: GameState) -> int:
    """The most offense of the wanderers in the row when they all fly and no troop of the
    defensive holdings has Ranged or Flight (their raid goes past the troops); else -1."""
    me = state.mover()
    row = state.row()
    if not row:
        return -1
    most = -1
    for wanderer in row:
        if "flight" not in rulings.keywords(state, wanderer):
            return -1
        most = max(most, state.card(wanderer).offense)
    for troop in me.zones["defensive"]:
        if state.card(troop).is_troop and {"ranged", "flight"} & rulings.keywords(state, troop):
            return -1
    return most


def _guarded_defense(state: GameState, structure: int) -> int:
    """A structure's defense with its guards (theirs and the structure's bonus to each)."""
    card = state.card(structure)
    bonus = static_effects.guard_bonus(card, "guard_defense")
    defense = card.defense
    for guard in state.mover().zones["guards"]:
        if state.host.get(guard) == structure:
            defense += state.card(guard).defense + bonus
    return defense


def _citizen_worth(state: GameState, citizen: int) -> tuple[int, int]:
    card = state.card(citizen)
    return card.influence, card.income


def _draw_choice(state: GameState, actions: Sequence[Action]) -> Action:
    me = state.mover()
    draws = {a.option: a for a in actions if a.kind == "draw"}
    if not draws:
        return actions[0]
    hand = [state.card(i) for i in me.hand]
    # (Counted in loops: compiled, sum() of a generator is a generator object and a call.)
    citizens = 0
    homes = open_homes = rulings.open_residence_count(state)
    for c in hand:
        if c.is_citizen:
            citizens += 1
        if c.type == "structure" and c.subtype == "general":
            homes += c.residencies
    want = "structures" if citizens + 1 > homes else "personalities"
    # While defended, a structure also when the next citizen would find no residence open
    # now (a structure in hand still has to be paid for, and delays that citizen a round).
    # (No longer when the structure pile more often brings income: with structures paid in
    # full, their price puts off the personalities.)
    if want == "personalities" and len(draws) > 1 and citizens + 1 > open_homes \
            and _defended(state, hand=True):
        want = "structures"
    # A personality, though, while a faction has four members in play and none in hand: the
    # fifth switches on the token bonus; and while
    # a wanderer is in the row and the troops in play and in hand do not outnumber the
    # wanderers: troops come from the personality pile, and an overrun loses before a
    # homeless citizen costs anything (each rule kept on held-out games:
    # docs/decisions/greedy-rules-held-out.md).
    if want == "structures" and len(draws) > 1 and (_fifth_wanted(state, hand)
                                                     or _troops_wanted(state, hand)):
        want = "personalities"
    # The pile it wants is empty: recycled when its discard pile holds a card it would draw
    # it for, rather than a draw from the other pile; only with twice the price at hand
    # (poorer, the 5 tokens put off the next play: won games were slower, issue 39).
    if want not in draws:
        for action in actions:
            if action.kind == "recycle" and action.option == want \
                    and rulings.held(state) >= 2 * RECYCLE_TOKENS \
                    and _worth_recycling(state, want):
                return action
    return draws.get(want) or next(iter(draws.values()))


def _worth_recycling(state: GameState, pile: str) -> bool:
    """Whether the discard pile of ``pile`` holds a card worth 5 tokens to draw again: a
    personality (the influence that wins), a structure with residences or income."""
    me = state.mover()
    discard = me.zones["personality_discard" if pile == "personalities"
                       else "structure_discard"]
    for instance in discard:
        card = state.card(instance)
        if pile == "personalities":
            if card.type == "personality" and not _dead_card(state, instance):
                return True
        elif card.subtype == "general" and (card.residencies or card.income):
            return True
    return False


def _fifth_wanted(state: GameState, hand: list[Profile]) -> bool:
    """A faction with four members in play and no personality of it in hand."""
    members, _ = rulings.faction_counts(state)
    for faction, count in members.items():
        if count == 4 and faction in rulings.PRIMARY and not any(
                c.type == "personality" and c.faction == faction for c in hand):
            return True
    return False


def _troops_wanted(state: GameState, hand: list[Profile]) -> bool:
    """A wanderer in the row, and no more troops in play and in hand than wanderers."""
    wanderers = len(state.row())
    if not wanderers:
        return False
    troops = _troops_in_play(state)
    for c in hand:
        if c.is_troop:
            troops += 1
    return troops <= wanderers


def _defended(state: GameState, hand: bool = False) -> bool:
    """More troops in play (and in hand, with ``hand``, one of them in play: a troop in hand
    guards nothing yet) than wanderers in the row: one to spare for the next wanderer."""
    me = state.mover()
    troops = _troops_in_play(state)
    if hand and troops:
        for t in me.hand:
            if state.card(t).is_troop:
                troops += 1
    return troops > len(state.row())


def _income_share(state: GameState, pile: str) -> float:
    """The share of the cards left in ``pile`` that have an income ability (the player knows
    his deck and what he has drawn: the pile's contents, not its order)."""
    me = state.mover()
    cards = me.zones[pile]
    count = 0
    for i in cards:
        if state.card(i).income:
            count += 1
    return count / len(cards)


def _structures_richer(state: GameState) -> bool:
    """Whether the cards left in the structure pile more often have an income ability than
    those left in the personality pile (both piles drawn from)."""
    me = state.mover()
    return bool(me.zones["structure_pile"]) and bool(me.zones["personality_pile"]) \
        and _income_share(state, "structure_pile") > _income_share(state, "personality_pile")


def _act_choice(state: GameState, actions: Sequence[Action]) -> Action:
    """Income first (the uses score above any play); then a play that reaches the victory
    target, whatever its score; then the best scored play; never a pass while a play switches
    on the five-members bonus."""
    context = _Context(state)
    best = best_scored(state, actions, context)
    if best is not None and best.kind != "play":
        return best
    sprint = _final_sprint(state, actions, context, best)
    if sprint is not None:
        return sprint
    winning, bonus = _decisive_plays(state, actions, context)
    return winning or best or bonus or _troop_income_for_a_play(state, actions) \
        or _find(actions, "pass")


def _final_sprint(state: GameState, actions: Sequence[Action], context: _Context,
                  best_play: Action | None) -> Action | None:
    """The last round's plays: when the personalities in hand that raise the influence total
    (their influence, less the tokens that count toward victory they cost, plus the tokens
    a fifth member switches on) bring it to the victory target by the next round's start
    (with the troops' income still to come this round), only those are played, the one
    that raises it most first; then another play only while the total stays at the target,
    else a pass. None when the target is out of reach this round, or the troops in play do
    not outnumber the wanderers (a troop may still be needed: an overrun loses first)."""
    me = state.mover()
    if not _defended(state):
        return None
    members = context.members
    people: list[tuple[Profile, Action]] = []
    joining: dict[str, int] = {}
    most = context.influence
    last = -1
    for action in actions:
        if action.kind != "play" or action.card == last:
            continue  # (a card's placements come together)
        card = state.card(action.card)
        if card.type == "personality" and not (card.is_troop and action.target >= 0):
            last = action.card
            people.append((card, action))
            most += card.influence
            if card.faction:
                joining[card.faction] = joining.get(card.faction, 0) + 1
    # A quick bound first: every token of a kind that counts or could count by a fifth member
    # (the troops' income read only when one does: most decisions end here without it).
    income: list[int] | None = None
    target = state.config.target
    for faction, kind in rulings.PRIMARY.items():
        if members.get(faction, 0) + joining.get(faction, 0) >= 5:
            if income is None:
                income = _sprint_income(state)
            most += me.personal[kind] + income[kind]
    if most < target:
        return None
    if income is None:
        income = _sprint_income(state)
    personal = list(me.personal)
    counts = members
    kept = context.kept
    homes = rulings.open_residence_count(state)
    total = context.influence + _counting_tokens(personal, counts)
    first: Action | None = None
    while True:  # the play that raises the total most, again and again
        best: tuple[int, int] | None = None
        for index, (card, _) in enumerate(people):
            if (card.is_citizen and homes <= 0) or not _can_pay(personal, card):
                continue
            printed = total - _counting_tokens(personal, counts) + card.influence
            after = printed + _counting_tokens(_paid(personal, card, kept),
                                               _joined(counts, card))
            if after > total and (best is None or after > best[0]):
                best = (after, index)
        if best is None:
            break
        card, action = people.pop(best[1])
        personal, counts = _paid(personal, card, kept), _joined(counts, card)
        total = best[0]
        homes -= 1 if card.is_citizen else 0
        first = first or action
    if total + _counting_tokens(income, counts) < target:
        return None
    if first is not None:
        return first
    # Nothing raises it any more: another play only while what it costs keeps the target.
    if best_play is not None:
        left = _paid(personal, state.card(best_play.card), kept)
        if total - _counting_tokens(personal, counts) + _counting_tokens(left, counts) \
                + _counting_tokens(income, counts) >= target:
            return None
    return _find(actions, "pass")


def _sprint_income(state: GameState) -> list[int]:
    """The tokens still to come before the victory check: the income abilities of the
    troops in play not used yet this round (greedy uses them in the Discard Phase)."""
    me = state.mover()
    income = [0, 0, 0]
    for instance in me.defensive:
        card = state.card(instance)
        if card.is_troop and instance not in state.exhausted:
            for ability in card.abilities:
                if ability.effect.kind == "collect":
                    for k in range(3):
                        income[k] += ability.effect.gains[k]
    return income


def _counting_tokens(personal: Sequence[int], members: dict[str, int]) -> int:
    """The tokens that count toward victory: each five-members faction's primary kind."""
    tokens = 0
    for faction, kind in rulings.PRIMARY.items():
        if members.get(faction, 0) >= 5:
            tokens += personal[kind]
    return tokens


def _can_pay(personal: list[int], card: Profile) -> bool:
    return rulings.covers(personal, card.cost, card.generic)


def _paid(personal: list[int], card: Profile, kept: int) -> list[int]:
    """The tokens left after paying for ``card``: what the engine will take (its typed cost,
    then its generic cost in :func:`rulings.take_any`'s order, the kept kind last)."""
    left = [personal[0] - card.cost[0], personal[1] - card.cost[1], personal[2] - card.cost[2]]
    if card.generic:
        rulings.take_any(left, card.generic, kept)
    return left


def _joined(members: dict[str, int], card: Profile) -> dict[str, int]:
    """The members of each faction once ``card`` is in play (a copy when it changes)."""
    if not card.faction:
        return members
    counts = dict(members)
    counts[card.faction] = counts.get(card.faction, 0) + 1
    return counts


def _troop_income_for_a_play(state: GameState, actions: Sequence[Action]) -> Action | None:
    """A troop's income ability, used now rather than in the Discard Phase, when nothing
    else is left to do and its tokens pay for a personality in hand this round (tokens
    spent a round earlier are worth more than the troop unexhausted for the fights)."""
    me = state.mover()
    have = me.personal
    for action in actions:
        if action.kind != "use" or not state.card(action.card).is_troop:
            continue
        effect = state.card(action.card).ability(action.option).effect
        if effect.kind != "collect":
            continue
        after = [have[k] + effect.gains[k] - effect.pay[k] for k in range(3)]
        for instance in me.zones["hand"]:
            card = state.card(instance)
            if card.type != "personality" or rulings.affordable(state, card.cost,
                                                                card.generic):
                continue
            if all(after[k] >= card.cost[k] for k in range(3)) and \
                    sum(after) - sum(card.cost) >= card.generic and \
                    (not card.is_citizen or rulings.open_residences(state)):
                return action
    return None


def best_scored(state: GameState, actions: Sequence[Action],
                context: _Context | None = None) -> Action | None:
    """The first action of the highest :func:`_score` above 0 (None if none scores)."""
    if context is None:
        context = _Context(state)
    # Most decisions offer an income ability (scored 100 and up) beside plays that cannot
    # reach that: then only the uses need scoring. A play wins a tie (it is offered first),
    # so the plays are skipped only when none could reach the best use.
    best_use: Action | None = None
    best_use_score = 0.0
    for action in actions:
        if action.kind != "play":
            score = _score(state, action, context)
            if score > best_use_score:
                best_use, best_use_score = action, score
    if best_use is not None and all(
            a.kind != "play" or _play_bound(state.card(a.card)) < best_use_score
            for a in actions):
        return best_use
    best: Action | None = None
    best_score = 0.0
    # A play's score depends on the card, and on its target only for items and invocations
    # (a citizen scores the same on any residence, a troop on any structure it guards): the
    # placements of one card come together, so each card is scored once (a second copy of a
    # card is never offered). Uses, items and invocations are scored one by one.
    last_card, last_guard, last_score = -1, False, 0.0
    for action in actions:
        if action.kind == "play" and state.card(action.card).type not in ("item",
                                                                          "invocation"):
            guard = action.target >= 0
            if action.card == last_card and guard == last_guard:
                score = last_score
            else:
                score = _score(state, action, context)
                last_card, last_guard, last_score = action.card, guard, score
        else:
            score = _score(state, action, context)
        if score > best_score:
            best, best_score = action, score
    return best


def _decisive_plays(state: GameState, actions: Sequence[Action], context: _Context
                    ) -> tuple[Action | None, Action | None]:
    """The personality whose play reaches the victory target (checked at the next round's
    start), and one that brings a faction to five members (switching on the token bonus),
    each the first found of the highest total, or None."""
    me = state.mover()
    if not any(a.kind == "play" and state.card(a.card).type == "personality"
               for a in actions):
        return None, None
    members = context.members
    total = context.influence
    target = state.config.target
    winning: Action | None = None
    bonus: Action | None = None
    best_total, bonus_total = -1, -1
    last = -1
    for action in actions:
        if action.kind != "play" or action.card == last:
            continue  # (a card's placements come together and reach the same total)
        card = state.card(action.card)
        if card.type != "personality" or (card.is_troop and action.target >= 0):
            continue
        last = action.card
        reached = total + card.influence
        # The tokens its play leaves (its generic cost too: what the engine will take).
        left = _paid(me.personal, card, context.kept) if card.generic else None
        for faction, kind in rulings.PRIMARY.items():
            count = members.get(faction, 0) + (1 if card.faction == faction else 0)
            if count >= 5:
                reached += left[kind] if left is not None \
                    else me.personal[kind] - card.cost[kind]
        if reached >= target and reached > best_total:
            winning, best_total = action, reached
        if card.faction and members.get(card.faction, 0) == 4 and reached > bonus_total:
            bonus, bonus_total = action, reached
    return winning, bonus


class _Context:
    """Figures every candidate of one decision shares, worked out at most once."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._troops: int | None = None
        self._short: int | None = None
        self._slots: dict[int, list[str | None]] | None = None
        # The kinds that count toward victory (_counting_kinds), one bit each (-1: not yet):
        # compiled, tagged ints tested where a set was asked for boxed ones at every play.
        self._bonus = -1
        self._members: dict[str, int] | None = None
        self._influence = 0
        self._kept = -1  # kept, once asked (-1: not yet)

    def bonus_cost(self, card: Profile) -> float:
        """What paying ``card`` costs in victory: with a faction's five-members bonus on,
        every token of its kind spent is one influence less: its typed cost of that kind, and
        what the engine takes of that kind for its generic cost (:func:`_paid`)."""
        bonus = self._bonus
        if bonus < 0:
            bonus = 0
            for faction, count in self.members.items():
                if count >= 5 and faction in rulings.PRIMARY:
                    bonus |= 1 << rulings.PRIMARY[faction]
            self._bonus = bonus
        if not bonus:
            return 0.0
        personal = self.state.mover().personal
        cost = card.cost
        total = 0
        if bonus & 1:
            total += cost[0]
        if bonus & 2:
            total += cost[1]
        if bonus & 4:
            total += cost[2]
        generic = card.generic
        if not generic:
            return total * BONUS_TOKEN
        # From what the typed cost leaves, none below 0: a card in hand it cannot pay for yet
        # is weighed too (the Discard Phase's keep), the part of its generic cost nothing
        # pays now as counting tokens (the tokens to come are mostly of the kind its income
        # and bounties bring).
        # (Kind by kind, no list made in the usual case: this is asked for every play scored.)
        left0 = personal[0] - cost[0]
        left1 = personal[1] - cost[1]
        left2 = personal[2] - cost[2]
        left0 = left0 if left0 > 0 else 0
        left1 = left1 if left1 > 0 else 0
        left2 = left2 if left2 > 0 else 0
        held = left0 + left1 + left2
        kept = self.kept
        if bonus == 1 << kept:  # one kind counts, and it is the kept one
            # The usual case, by arithmetic: take_any spends the kept kind (the one that
            # counts) only once the others are out.
            spare = held - (left0 if kept == 0 else left1 if kept == 1 else left2)
            if generic > spare:
                total += generic - spare
        else:
            left = [left0, left1, left2]
            before = list(left)
            rulings.take_any(left, generic, kept)
            for k in range(3):
                if bonus >> k & 1:
                    total += before[k] - left[k]
            if generic > held:
                total += generic - held
        return total * BONUS_TOKEN

    @property
    def kept(self) -> int:
        """The kind a generic cost spares (:func:`rulings.kept_kind`)."""
        if self._kept < 0:
            self._kept = rulings.kept_kind(self.state)
        return self._kept

    @property
    def members(self) -> dict[str, int]:
        """The personalities in play of each faction."""
        if self._members is None:
            self._count_personalities()
        assert self._members is not None
        return self._members

    @property
    def influence(self) -> int:
        """The printed influence of the personalities in play, together."""
        if self._members is None:
            self._count_personalities()
        return self._influence

    def _count_personalities(self) -> None:
        # Members and influence together (the engine remembers them between decisions).
        self._members, self._influence = rulings.faction_counts(self.state)

    @property
    def troops(self) -> int:
        if self._troops is None:
            state = self.state
            troops = 0
            for t in state.mover().defensive:
                if state.card(t).is_troop:
                    troops += 1
            self._troops = troops
        return self._troops

    def slots(self, host: int) -> list[str | None]:
        """The subtypes of the cards attached to ``host``."""
        if self._slots is None:
            state = self.state
            self._slots = {}
            for attached in state.mover().zones["attached"]:
                self._slots.setdefault(state.host.get(attached, -1), []).append(
                    state.card(attached).subtype)
        return self._slots.get(host, [])

    @property
    def short_of_homes(self) -> int:
        """Citizens in hand beyond the open residences."""
        if self._short is None:
            state = self.state
            citizens = sum(1 for i in state.mover().zones["hand"] if state.card(i).is_citizen)
            self._short = citizens - rulings.open_residence_count(state)
        return self._short


def _score(state: GameState, action: Action, context: _Context) -> float:
    if action.kind == "use":
        holder = state.card(action.card)
        if holder.is_troop:
            return 0  # troops use their income after the fighting (Discard Phase)
        effect = holder.ability(action.option).effect
        return _PHASE_EFFECT.get(effect.kind, _COLLECT).use_worth(state, action, effect)
    if action.kind != "play":
        return 0
    card = state.card(action.card)
    cost = card.total_cost * COST_WEIGHT + context.bonus_cost(card)
    if card.type == "personality":
        if card.is_troop:
            if action.target >= 0:
                return 0
            needed = context.troops <= len(state.row())
            fight = (card.offense + card.defense) * TROOP_FIGHT if needed else 0
            return TROOP_BASE + card.influence * INFLUENCE + card.income * PERSON_INCOME \
                + fight - cost
        return CITIZEN_BASE + card.influence * INFLUENCE + card.income * PERSON_INCOME - cost
    if card.type == "structure":
        if card.subtype == "wall":
            return WALL_VALUE - cost
        # Income pays every round to come: worth more the earlier it comes into play, and
        # more again while the structure pile is the richer in income (the next income
        # structure is further off than the next income personality, the draw's reckoning)
        # and the troops guard the city (tokens spared from troops this round).
        income = card.income * max(INCOME_LEAST, INCOME_ROUNDS - state.round)
        if income and _structures_richer(state) and _defended(state, hand=True):
            income *= STRUCTURE_INCOME_RICHER
        short = context.short_of_homes
        if not income and ((short == 0 and card.total_cost <= CHEAP_HOME)
                           or (short < 0 and not card.total_cost)):
            # A cheap home for the next citizen (measured: docs/goldfish.md); a free one also
            # while the open residences outnumber the citizens in hand: it costs no token and
            # leaves the hand for a fresh draw (kept on held-out games, as every rule here).
            short = 1
        value = RESIDENCE_NEED * min(max(short, 0), card.residencies) + income \
            + _guard_home_worth(state, card)
        return value + (1 if card.residencies else 0) - cost if value else 0
    if card.type == "item":
        host = state.card(action.target)
        if card.abilities and host.type == "personality" and card.income:
            return INCOME_ITEM
        if not host.is_troop:
            return 0
        slot = card.subtype or "other"
        return 0 if slot in context.slots(action.target) else \
            ITEM_BASE + card.offense + card.defense - cost
    if card.type == "invocation":
        # One used in fights where it will be used (_combat_worth: below any personality, so
        # played with tokens to spare). An income invocation only on a bearer it brings
        # more than INVOCATION_GAIN tokens a round beyond the bearer's own: using one
        # exhausts its bearer, whose own income ability then waits.
        if not card.income:
            worth = _combat_worth(state, card, action.target, context)
            return worth - cost if worth else 0
        gain = _exhausting_income(card) - _exhausting_income(state.card(action.target))
        return INCOME_ITEM + gain if gain > INVOCATION_GAIN else 0
    if card.type == "event":
        effect = card.abilities[0].effect
        entry = _PHASE_EFFECT.get(effect.kind)
        if entry is not None:
            return entry.play_worth(_FORESIGHT, state, action, card, effect)
    return 0


def _guard_home_worth(state: GameState, card: Profile) -> float:
    """What a structure that strengthens its guards (Ashgate Barracks, Guildhall of Veterans)
    adds for that: :data:`GUARD_HOME` a point of its bonus while troops guard or will
    (:func:`_arrange_choice`: flyers no troop can meet); else 0 (greedy guards only then)."""
    bonus = static_effects.guard_bonus(card, "")
    if not bonus or not (state.mover().zones["guards"] or _flyer_threat(state) >= 0):
        return 0.0
    return GUARD_HOME * bonus


class _Foresight:
    """What greedy foresees for a phase effect's worth (phase_effects.Valuer)."""

    def bounty_gain(self, state: GameState, target: int, amount: int) -> float:
        return _bounty_gain(state, target, amount)


_FORESIGHT: Final = _Foresight()
_PHASE_EFFECT: Final = phase_effects.KINDS
# An ability of a kind with no entry is weighed as an income (none is offered today).
_COLLECT: Final = phase_effects.KINDS["collect"]


def _bounty_gain(state: GameState, target: int, amount: int) -> float:
    """The tokens ``amount`` more bounty on ``target`` (any wanderer in the row: -1) is
    expected to bring: the chance that the hunt greedy would declare kills it, times
    ``amount`` (0 for a wanderer it would not hunt)."""
    hunted = _huntable(state)
    if not hunted:
        return 0.0
    troops, helpers, urgent = _hunters(state)
    best = 0.0
    for wanderer in hunted:
        if target >= 0 and wanderer != target:
            continue
        for troop in troops:
            # (_duel's gain grows by the kill chance with each token of bounty)
            kill = _duel(state, troop, wanderer, helpers - troop.offense, urgent, 1) \
                - _duel(state, troop, wanderer, helpers - troop.offense, urgent)
            best = max(best, kill * amount)
    return best


def _combat_worth(state: GameState, card: Profile, bearer: int, context: _Context) -> float:
    """What an invocation used in fights is worth on ``bearer``: :data:`COMBAT_INVOCATION`
    and its bonus, where it will be used: one that strengthens a troop while troops are in
    play, one that strengthens its bearer on a troop in the defensive holdings; else 0."""
    me = state.mover()
    for instance in me.hand:
        if state.card(instance).type == "personality":
            return 0.0  # its tokens wait for a personality, which wins sooner
    worth = 0.0
    for ability in card.abilities:
        effect = ability.effect
        if not effect.combat:
            continue
        if effect.kind == "troop_offense":
            usable = context.troops > 0
        elif effect.kind in ("self_defense", "grant"):
            usable = state.card(bearer).is_troop and state.where[bearer] == "defensive"
        else:
            continue
        if usable:
            worth = max(worth, COMBAT_INVOCATION + max(effect.amount, 1))
    return worth


def _exhausting_income(card: Profile) -> int:
    """The most tokens, net of its price, one exhausting income ability of ``card`` brings."""
    most = 0
    for ability in card.abilities:
        effect = ability.effect
        if ability.exhausts and effect.kind == "collect":
            net = rulings.tokens(effect.gains) - rulings.tokens(effect.pay)
            most = max(most, net)
    return most


def _play_bound(card: Profile) -> float:
    """The most :func:`_score` gives for playing ``card``, whatever the table (a test checks
    it against every play of many games)."""
    cost = card.total_cost * COST_WEIGHT
    if card.type == "personality":
        if card.is_troop:
            return (TROOP_BASE + card.influence * INFLUENCE + card.income * PERSON_INCOME
                    + (card.offense + card.defense) * TROOP_FIGHT - cost)
        return CITIZEN_BASE + card.influence * INFLUENCE + card.income * PERSON_INCOME - cost
    if card.type == "structure":
        if card.subtype == "wall":
            return WALL_VALUE - cost
        guard_bonus = static_effects.guard_bonus(card, "")
        return max(0, RESIDENCE_NEED * card.residencies
                   + card.income * max(INCOME_LEAST, INCOME_ROUNDS) * STRUCTURE_INCOME_RICHER
                   + GUARD_HOME * guard_bonus + 1 - cost)
    if card.type == "item":
        return max(INCOME_ITEM, ITEM_BASE + card.offense + card.defense - cost)
    if card.type == "invocation":
        combat_bonus = 0
        for ability in card.abilities:
            if ability.effect.combat:
                combat_bonus = max(combat_bonus, ability.effect.amount, 1)
        return max(INCOME_ITEM + card.income,
                   COMBAT_INVOCATION + combat_bonus - cost if combat_bonus else 0)
    if card.type == "event" and card.abilities:
        effect = card.abilities[0].effect
        entry = _PHASE_EFFECT.get(effect.kind)
        return phase_effects.DRAW_EVENT if entry is None else entry.play_bound(card, effect)
    return 0


def _huntable(state: GameState) -> list[int]:
    """The wanderers worth hunting now, best first: each matched with the ready troop that
    fights it best (see :func:`_duel`), kept when the fight is expected to gain (a kill's
    bounty and the end of its fines and raids, more when the row is full and the next
    wanderer would overrun the city) more than it risks (the troop's life)."""
    troops, helpers, urgent = _hunters(state)
    if not troops:
        return []
    chosen: list[tuple[float, int]] = []
    for wanderer in state.row():
        best = -math.inf
        for troop in troops:
            best = max(best, _duel(state, troop, wanderer, helpers - troop.offense, urgent))
        if best > HUNT_GAIN:
            chosen.append((best, wanderer))
    chosen.sort(key=_first_best)
    return [w for _, w in chosen[:max(1, len(troops) // HUNTERS_PER_PREY)]]


def _hunters(state: GameState) -> tuple[list[_Hunter], int, bool]:
    """The ready troops, their offense together, and whether the wanderer row is full (the
    next wanderer would overrun the city)."""
    me = state.mover()
    troops = [_Hunter(state, t) for t in me.zones["defensive"]
              if state.card(t).is_troop and t not in state.exhausted]
    helpers = 0
    for troop in troops:
        helpers += troop.offense
    return troops, helpers, len(state.row()) >= state.config.overrun_limit


def _first_best(entry: tuple[float, int]) -> tuple[float, int]:
    return -entry[0], entry[1]


class _Hunter:
    """A ready troop's numbers outside combat: offense (printed, its items, against
    wanderers), defense (printed, its items), keywords."""

    def __init__(self, state: GameState, troop: int) -> None:
        card = state.card(troop)
        self.instance = troop
        self.card = card
        self.keys = rulings.keywords(state, troop)
        offense, defense = card.offense, card.defense
        for item in rulings.items_used(state, troop):
            offense += state.card(item).offense
            defense += state.card(item).defense
        offense += static_effects.offense_against_wanderers(state, troop)
        self.offense, self.defense = offense, defense
        self.left = card.vitality - state.wounds.get(troop, 0)


def _duel(state: GameState, lead: _Hunter, wanderer: int, helpers: int, urgent: bool,
          bonus: int = 0) -> float:
    """What hunting ``wanderer`` with ``lead`` in front is expected to gain: the lead strikes
    (with ``helpers``' offense joining, half of it counted: they may be needed elsewhere), the
    wanderer strikes back at the lead; the one that strikes in an earlier step (ranged, then
    fleetfoot) may kill the other first. ``bonus``: bounty beyond the printed one."""
    prey = state.card(wanderer)
    lead_keys, prey_keys = lead.keys, rulings.keywords(state, wanderer)
    if "flight" in prey_keys and "ranged" not in lead_keys and "flight" not in lead_keys:
        return -1.0  # "Flyers cannot be assigned by a card without the ranged or flight"
    giant = "giant-size" in lead_keys and "giant-size" not in prey_keys
    hit = _wound_chance(lead.offense + (3 if giant else 0) + helpers // 2 - prey.defense)
    back = prey.offense + (3 if "giant-size" in prey_keys and "giant-size" not in lead_keys
                           else 0)
    guard = lead.defense - static_effects.defense_malus(state, [wanderer])
    struck = _wound_chance(back - guard)
    ours = 2 if "fierce" in lead_keys and "armor" not in prey_keys else 1
    theirs = 2 if "fierce" in prey_keys and "armor" not in lead_keys else 1
    kill = hit if ours >= prey.vitality - state.wounds.get(wanderer, 0) else 0.0
    lost = struck if theirs >= lead.left else 0.0
    first, second = _step_of(lead_keys), _step_of(prey_keys)
    if first < second:
        struck, lost = struck * (1 - kill), lost * (1 - kill)
    elif second < first:
        hit, kill = hit * (1 - lost), kill * (1 - lost)
    prize = prey.bounty + bonus + KILL_VALUE + (OVERRUN_STAKE if urgent else 0.0)
    return kill * prize + (hit - kill) * WOUND_GAIN - lost * _card_worth(lead.card) \
        - (struck - lost) * STRIKE_BACK


def _step_of(keys: frozenset[str]) -> int:
    return 0 if "ranged" in keys else 1 if "fleetfoot" in keys else 2


def _worth_hunting(state: GameState) -> bool:
    """Whether :func:`_huntable` would name a wanderer: one duel expected to gain more than
    :data:`HUNT_GAIN` is enough, so the rest are not weighed (nor sorted)."""
    troops, helpers, urgent = _hunters(state)
    for wanderer in state.row():
        for troop in troops:
            if _duel(state, troop, wanderer, helpers - troop.offense, urgent) > HUNT_GAIN:
                return True
    return False


def _combat_choice(state: GameState, actions: Sequence[Action]) -> Action:
    assert state.combat is not None
    step = state.combat.step
    if step == "engage":
        # One engage decision per wanderer hunted, and the wanderers worth it stay the same
        # throughout (engaging changes nothing _huntable reads): weighed once per combat.
        wanted = state.combat.plan
        if wanted is None:
            wanted = state.combat.plan = _huntable(state)
        for action in actions:
            if action.kind == "engage" and combat.listed(wanted, action.card):
                return action
        return _find(actions, "done")
    if step == "muster":
        sends = [a for a in actions if a.kind == "send" and a.option != "pay"]
        if sends:
            return sends[0]
        paid = _paid_defender(state, actions)
        return paid if paid is not None else _find(actions, "done")
    if step in ("assign", "berserk"):
        choices = [a for a in actions if a.kind in ("separate", "joint", "berserk")]
        if not choices:
            return _find(actions, "done")
        # The assignment after which the fight is expected to go best (a kill needs as many
        # separate hits as the target has vitality left; every attack risks a strike-back).
        # Copies of a card, with the same wounds, make the same assignment: one of each.
        distinct = _distinct_assignments(state, choices)
        if len(distinct) == 1 and len(choices) == len(actions):
            return distinct[0]  # nothing to weigh: no other assignment, no "done"
        fight = Fight(state, boosts=False)
        best = distinct[0]
        best_gain = -math.inf
        for action in distinct:
            gain = fight.assignment_gain(action)
            if gain > best_gain + 1e-9:
                best, best_gain = action, gain
        if state.combat.step == "assign" and len(choices) < len(actions) and best_gain < 0:
            return _find(actions, "done")  # a Defender's second fight that only costs
        return best
    if step == "modify":
        return _modify_choice(state, actions)
    if step == "bribe":
        return _bribe_choice(state, actions)
    return _find(actions, "done")


def _distinct_assignments(state: GameState, choices: list[Action]) -> list[Action]:
    """The first of each set of assignments alike: the same card (by its id), wounds and
    exhaustion, target and option (a lead's number written out: the same test as its
    value). Compared with the few kept so far in a loop: a tuple of the four and a set of
    them were made for every option (tests/rules/game/test_engine_shortcuts.py checks the
    same list as with the set)."""
    distinct: list[Action] = []
    ids: list[str] = []
    marks: list[int] = []
    cards, wounds, exhausted = state.cards, state.wounds, state.exhausted
    # (A card's options come together: its id and mark are read once for them.)
    last, card_id, mark = -1, "", 0
    for action in choices:
        card = action.card
        if card != last:
            last, card_id = card, cards[card]
            mark = wounds.get(card, 0) + (100 if card in exhausted else 0)
        target, option = action.target, action.option
        for index in range(len(distinct)):
            kept = distinct[index]
            if kept.target == target and marks[index] == mark and ids[index] == card_id \
                    and kept.option == option:
                break
        else:
            distinct.append(action)
            ids.append(card_id)
            marks.append(mark)
    return distinct


def _paid_defender(state: GameState, actions: Sequence[Action]) -> Action | None:
    """In a raid no ready troop defends and the raiders may deal the stronghold its last
    wound (the game lost): the exhausted troop (3 tokens to send) whose defence spares most
    beyond its own risk; else None. (Sent to spare other structures too, it lost more games
    than it saved: its tokens, its wounds and its death left the row to overrun the city.)"""
    c = state.combat
    assert c is not None
    if c.kind != "raid" or c.player:
        return None
    me = state.mover()
    structures = [s for s in me.zones["private"] if state.card(s).subtype == "stronghold"
                  and state.wounds.get(s, 0) + 1 >= state.card(s).vitality]
    if not structures:
        return None
    raiders = [w for w in c.wild if state.in_play(w)]
    spared = 0.0
    for wanderer in raiders:
        spared += _raid_damage(state, wanderer, structures)
    best: Action | None = None
    best_gain = combat.MOVE_EXHAUSTED_COST * TOKEN_VALUE
    for action in actions:
        if action.kind != "send" or action.option != "pay":
            continue
        risk = 0.0
        for wanderer in raiders:
            risk += _raid_damage(state, wanderer, [action.card])
        if spared - risk > best_gain:
            best, best_gain = action, spared - risk
    return best


def _raid_damage(state: GameState, wanderer: int, targets: Sequence[int]) -> float:
    """What ``wanderer`` is expected to cost striking the one of ``targets`` it hurts most:
    its chance to wound times the loss (the stronghold's last wound loses the game; any wound
    destroys another structure; a personality killed, or a wound)."""
    damage = 0.0
    for target in targets:
        chance = _wound_chance(combat.strike(state, wanderer, target))
        card = state.card(target)
        if card.subtype == "stronghold":
            left = card.vitality - state.wounds.get(target, 0)
            loss = 1000.0 if left <= 1 else 1.0
        elif card.is_structure or state.wounds.get(target, 0) + 1 >= card.vitality:
            loss = _card_worth(card)
        else:
            loss = 1.0
        damage = max(damage, chance * loss)
    return damage


def _bribe_choice(state: GameState, actions: Sequence[Action]) -> Action:
    """Bribe the attacker whose fight costs most beyond its bribe: what it is expected to
    destroy or kill (it strikes where it beats the defense by most: the player's ready troops,
    or with none his structures), less what killing it would bring (a ready troop that beats
    it), against the bribe's tokens (half of them come back with its bounty if it is killed
    later)."""
    me = state.mover()
    best = _find(actions, "done")
    best_gain = 0.0
    troops = [t for t in me.zones["defensive"]
              if state.card(t).is_troop and t not in state.exhausted]
    targets = troops or [*me.zones["private"], *me.zones["guards"]]
    for action in actions:
        if action.kind != "bribe":
            continue
        wanderer = action.card
        damage = _raid_damage(state, wanderer, targets)
        card = state.card(wanderer)
        killed = max((_wound_chance(combat.strike(state, t, wanderer)) for t in troops),
                     default=0.0) if card.vitality - state.wounds.get(wanderer, 0) <= 1 else 0.0
        gain = damage - killed * (card.bounty + KILL_VALUE) \
            - combat.bribe_cost(state, wanderer) * TOKEN_VALUE * 0.5
        if gain > best_gain:
            best, best_gain = action, gain
    return best


# --- weighing a fight ------------------------------------------------------------------------

# The chance an attack wounds, by its margin before the dice: the attacking group's die adds
# 0, +1 or +2 offense (4, 1 and 1 chances in 6), the target's die 0, +1 or +2 defense.
_WOUND_CHANCE: Final = {2: 35 / 36, 1: 30 / 36, 0: 6 / 36, -1: 1 / 36}
# The same chances as plain floats: _wound_chance is asked for every attack of every option
# weighed, and compiled, comparisons on an int cost less than a dict lookup.
_WOUND_2: Final = _WOUND_CHANCE[2]
_WOUND_1: Final = _WOUND_CHANCE[1]
_WOUND_0: Final = _WOUND_CHANCE[0]
_WOUND_MINUS_1: Final = _WOUND_CHANCE[-1]
# a wanderer gone: no more fines, raids or overrun from it, besides its bounty
KILL_VALUE: Final = 3.0
TOKEN_VALUE: Final = 1.0  # what a token spent on a modification is worth, in the same units
MODIFY_THRESHOLD: Final = 0.125  # a modification is used when it gains more than this
# what a troop exhausted by a wound in a hunt misses in the raid still to come this round, if
# the row raids (Hold the Line; issue 39: it counted the wound only, so never paid)
EXHAUSTED_DEFENDER: Final = 4.0
# a wound removed (Rally the Veterans), for the fights to come besides this one
HEALED_WOUND: Final = 1.0


def _wound_chance(margin: int) -> float:
    if margin >= 3:
        return 1.0
    if margin == 2:
        return _WOUND_2
    if margin == 1:
        return _WOUND_1
    if margin == 0:
        return _WOUND_0
    return _WOUND_MINUS_1 if margin == -1 else 0.0


class Hit:
    """One attack that may wound a target in the fight: its chance to wound (its attackers
    alive), wounds per hit, and the attack's index. A small class rather than a tuple:
    compiled, the chance is kept as a native float, not a boxed one read through a tuple."""

    __slots__ = ("attack", "chance", "wounds")

    def __init__(self, chance: float, wounds: int, attack: int) -> None:
        self.chance = chance
        self.wounds = wounds
        self.attack = attack


# What a card's part of the fight's value counts: nothing, a wanderer's (its kill a gain) or
# one of the player's cards (its loss).
_NOTHING: Final = 0
_WANDERER: Final = 1
_LOSS: Final = 2


class Figures:
    """One card's figures in a fight, looked up once per card (compiled, native fields where
    there were four dictionaries keyed by instance): the wounds it can still take, its chance
    to live through the fight, the hits on it, its part of the fight's value, and what that
    part counts (``kind``, ``prize``: a kill's worth)."""

    __slots__ = ("alive", "hits", "kind", "left", "prize", "step", "worth")

    def __init__(self, left: int, kind: int, prize: float) -> None:
        self.left = left
        self.kind = kind
        self.prize = prize
        self.alive = 1.0
        self.worth = 0.0
        self.hits: list[Hit] = []
        self.step = -1  # the last resolution step that struck it (Fight.value)

    def part(self, killed: float, untouched: float) -> float:
        """Its part of the fight's value, from the chance that it is killed and the chance
        that nothing wounds it."""
        wounded = 1.0 - untouched - killed
        if self.kind == _WANDERER:
            return killed * self.prize + wounded
        if self.kind == _LOSS:
            return -(killed * self.prize + wounded)
        return 0.0


class Fight:
    """What the combat is expected to bring the player if resolved now, and with what a
    modification would change: wanderers killed (their bounty and :data:`KILL_VALUE`) or
    wounded, minus his cards killed, destroyed or wounded, step by step (a card killed in an
    earlier step strikes no more), over the dice. The attacks are read once (combat.forecast)
    and each modification weighed by arithmetic on them."""

    def __init__(self, state: GameState, boosts: bool = True) -> None:
        self.state = state
        # Whether boosts will be weighed (boost_gain reads each attack's margin and factor);
        # an assignment decision weighs none, and keeps none of the lists below.
        self.boosts = boosts
        self.attacks = combat.forecast(state)
        # The combat's own list (read, never changed): a set of it was made at every decision,
        # for a few questions about a handful of cards.
        self.mine = _combat_cards(state)
        # Filled by value() for the fight as it stands (what assignment_gain starts from):
        # each card's figures (its chance to live, the hits on it, its part of the value;
        # cards asked about later get theirs when first asked), ...
        self.figures: dict[int, Figures] = {}
        self.chances: list[float] = []  # each attack's chance to wound, its attackers alive
        self.margins: list[int] = []  # each attack's margin before the dice
        self.factors: list[float] = []  # the chance its attackers are alive to strike
        self.base = self.value(keep=True)
        self.engaged: dict[int, list[int]] | None = None  # combat.engaged, for assignments

    def assignment_gain(self, action: Action) -> float:
        """About what the assignment ``action`` adds to the fight's value, weighed on the
        cards it touches only: its target (one hit more, or a stronger joint attack) and, if
        the target strikes back, the card assigned (whichever strikes in an earlier step may
        kill the other first). A local estimate, cheap enough to weigh every option."""
        (replaced, target, offense, defense, step, wounds, back_margin, back_step,
         back_wounds) = combat.assignment_numbers(self.state, self.attacks, action,
                                                  self._engaged())
        figures = self.figures
        # (the card's own figures only when the target strikes back: else its chance to live)
        known = figures.get(action.card)
        chance = _wound_chance(offense - defense) * (1.0 if known is None else known.alive)
        if replaced >= 0:
            for member in self.attacks[replaced].members:
                member_figures = figures.get(member)
                if member_figures is not None:  # (else alive: times 1.0, the same bits)
                    chance *= member_figures.alive
        on = self.of(target)
        if back_margin == combat.NO_STRIKE_BACK:
            killed, untouched = _hit_chances(on.left, on.hits, replaced, chance, wounds)
            return on.part(killed, untouched) - on.worth
        card = self.of(action.card) if known is None else known
        back = _wound_chance(back_margin) * on.alive
        if step < back_step:  # the target may die before it strikes back
            killed, _ = _hit_chances(on.left, on.hits, -1, chance, wounds)
            back *= 1.0 - killed
        elif back_step < step:  # the card may die before it strikes
            killed, _ = _hit_chances(card.left, card.hits, -1, back, back_wounds)
            chance *= 1.0 - killed
        killed, untouched = _hit_chances(on.left, on.hits, replaced, chance, wounds)
        gain = on.part(killed, untouched) - on.worth
        killed, untouched = _hit_chances(card.left, card.hits, -1, back, back_wounds)
        return gain + card.part(killed, untouched) - card.worth

    def _engaged(self) -> dict[int, list[int]]:
        if self.engaged is None:
            self.engaged = combat.engaged(self.state)
        return self.engaged

    def grant_gain(self, actor: int, keyword: str) -> float:
        """What ``actor`` gaining ``keyword`` for the combat adds to the fight's value."""
        return self.value(grant=(actor, keyword)) - self.base

    def held_line(self, mine: list[int]) -> float:
        """What Hold the Line is worth to ``mine`` (:func:`_held_line`)."""
        return _held_line(self.state, self, mine)

    def rallied(self, mine: list[int]) -> float:
        """What a wound healed on each of ``mine`` is worth (:func:`_rallied`)."""
        return _rallied(self.state, self, mine)

    def boost_gain(self, boost_off: dict[int, int] | None, boost_def: dict[int, int] | None,
                   feared: int = -1) -> float:
        """About what more offense or defense for some cards (or Fear on one) adds to the
        fight's value, weighed on the targets of the attacks it changes only (as
        assignment_gain)."""
        changed: dict[int, dict[int, float]] = {}
        for index, attack in enumerate(self.attacks):
            target, members, offenses = attack.target, attack.members, attack.offenses
            ready, defense = attack.ready, attack.defense
            delta = 0
            for position, member in enumerate(members):
                if not ready[position]:
                    continue
                add = boost_off.get(member, 0) if boost_off is not None else 0
                if member == feared:
                    add -= 3
                if add:
                    delta += max(0, offenses[position] + add) - max(0, offenses[position])
            if boost_def is not None and target in boost_def:
                delta -= max(0, defense + boost_def[target]) - defense
            if delta:
                chance = _wound_chance(self.margins[index] + delta) * self.factors[index]
                changed.setdefault(target, {})[index] = chance
        gain = 0.0
        for target, chances in changed.items():
            on = self.of(target)
            hits = [Hit(chances.pop(hit.attack, hit.chance), hit.wounds, hit.attack)
                    for hit in on.hits]
            hits += [Hit(c, self.attacks[i].wounds, i) for i, c in chances.items()]
            killed = _kill_chance(on.left, hits)
            untouched = 1.0
            for hit in hits:
                untouched *= 1.0 - hit.chance
            gain += on.part(killed, untouched) - on.worth
        return gain

    def of(self, card: int) -> Figures:
        """The card's figures in the fight as it stands (new ones, untouched, if no attack
        may wound it)."""
        figures = self.figures.get(card)
        if figures is None:
            figures = self._new_figures(card)
            self.figures[card] = figures
        return figures

    def _new_figures(self, target: int) -> Figures:
        card = self.state.card(target)
        # Any wound destroys a structure other than a stronghold.
        left = 1 if card.is_structure and card.subtype != "stronghold" \
            else card.vitality - self.state.wounds.get(target, 0)
        if card.type == "wanderer":
            return Figures(left, _WANDERER, card.bounty + KILL_VALUE)
        if card.subtype == "stronghold":
            return Figures(left, _LOSS, 1000.0)
        if combat.listed(self.mine, target) or card.is_structure:
            return Figures(left, _LOSS, _card_worth(card))
        return Figures(left, _NOTHING, 0.0)

    def value(self, boost_off: dict[int, int] | None = None,
              boost_def: dict[int, int] | None = None, feared: int = -1,
              grant: tuple[int, str] | None = None, keep: bool = False) -> float:
        """The fight's expected value, with the changes a modification would make; ``keep``:
        remember its parts (the fight as it stands, for assignment_gain)."""
        state = self.state
        attacks = self.attacks if grant is None else combat.forecast(
            state, {grant[0]: grant[1]})
        # the figures of each card that an attack may wound, in the order of their first hit
        figures: dict[int, Figures] = {}
        lists = keep and self.boosts
        chances = [0.0] * len(attacks) if lists else []
        if lists:
            self.margins, self.factors = [0] * len(attacks), [1.0] * len(attacks)
        present = 0  # a bit per resolution step that has attacks
        for attack in attacks:
            present |= 1 << attack.step
        struck: list[Figures] = []
        for step in (0, 1, 2):
            if not present >> step & 1:
                continue
            struck.clear()
            for index, attack in enumerate(attacks):
                if attack.step != step:
                    continue
                target, members, offenses = attack.target, attack.members, attack.offenses
                ready, defense, wounds = attack.ready, attack.defense, attack.wounds
                offense = 0
                for position, member in enumerate(members):
                    value = offenses[position]
                    if ready[position]:
                        if boost_off is not None:
                            value += boost_off.get(member, 0)
                        if member == feared:
                            value -= 3
                    offense += max(0, value)
                if boost_def is not None:
                    defense = max(0, defense + boost_def.get(target, 0))
                chance = _wound_chance(offense - defense)
                positive = chance > 0
                if lists or positive:
                    # The chance its attackers are alive to strike, and the attack's chance
                    # to wound times each of theirs (in that order, as before: the same bits;
                    # a card struck in this step is alive, 1.0, until the step ends).
                    factor = 1.0
                    for member in members:
                        member_figures = figures.get(member)
                        living = 1.0 if member_figures is None else member_figures.alive
                        factor *= living
                        chance *= living
                    if lists:
                        self.margins[index], self.factors[index] = offense - defense, factor
                if positive:
                    # The hits carry their attack's index: the same lists are kept as the
                    # figures' hits (one object a hit, not a second list of them).
                    on = figures.get(target)
                    if on is None:
                        on = self._new_figures(target)
                        figures[target] = on
                    on.hits.append(Hit(chance, wounds, index))
                    if on.step != step:  # (its chance to live: once)
                        on.step = step
                        struck.append(on)
                    if lists:
                        chances[index] = chance
            for on in struck:
                on.alive = 1.0 - _kill_chance(on.left, on.hits)
        total = 0.0
        for on in figures.values():
            untouched = 1.0
            for hit in on.hits:
                untouched *= 1.0 - hit.chance
            worth = on.part(1.0 - on.alive, untouched)
            total += worth
            if keep:
                on.worth = worth
        if keep:
            self.figures = figures
        if lists:
            self.chances = chances
        return total


def _combat_cards(state: GameState) -> list[int]:
    assert state.combat is not None
    return state.combat.player


def _hit_chances(left: int, hits: list[Hit], skip: int, chance: float,
                 wounds: int) -> tuple[float, float]:
    """(The chance that ``hits``, but the attack ``skip``, and one more hit (``chance``,
    ``wounds``) deal ``left`` wounds or more; the chance none lands.)"""
    untouched = 1.0 - chance
    simple = left <= 1 or wounds >= left
    for hit in hits:
        if hit.attack != skip:
            untouched *= 1.0 - hit.chance
            if hit.wounds < left:
                simple = False
    if left <= 0:
        return 1.0, untouched
    if simple:
        return 1.0 - untouched, untouched
    if left == 2:  # most of the time (see _spread_two)
        none, one, two = 1.0, 0.0, 0.0
        for hit in hits:
            if hit.attack != skip:
                none, one, two = _spread_two(none, one, two, hit.chance, hit.wounds)
        return _spread_two(none, one, two, chance, wounds)[2], untouched
    spread = [1.0] + [0.0] * left  # chance of 0..left-1 wounds so far, then "left or more"
    for hit in hits:
        if hit.attack != skip:
            spread = _spread_hit(spread, left, hit.chance, hit.wounds)
    return _spread_hit(spread, left, chance, wounds)[left], untouched


def _spread_hit(spread: list[float], left: int, chance: float, wounds: int) -> list[float]:
    """``spread`` (the chance of 0..left-1 wounds so far, then of "left or more") after one
    more hit (``chance``, ``wounds``)."""
    moved = [0.0] * (left + 1)
    for taken, weight in enumerate(spread):
        moved[taken] += weight * (1.0 - chance)
        moved[min(left, taken + wounds)] += weight * chance
    return moved


def _spread_two(none: float, one: float, two: float, chance: float, wounds: int
                ) -> tuple[float, float, float]:
    """:func:`_spread_hit` for ``left`` 2, on three floats rather than a list: the case of
    most targets weighed (a wanderer with two wounds to go), and compiled, a list of floats
    makes an object of every sum. The same sums in the same order, so the same results to
    the last bit (the zeros _spread_hit starts from add nothing: every product is >= 0)."""
    stay = 1.0 - chance
    if wounds == 1:
        return none * stay, none * chance + one * stay, one * chance + two * stay + two * chance
    return none * stay, one * stay, none * chance + one * chance + two * stay + two * chance


def _kill_chance(left: int, hits: list[Hit]) -> float:
    """The chance that independent hits deal ``left`` wounds or more."""
    if left <= 0:
        return 1.0
    if left == 1 or all(hit.wounds >= left for hit in hits):
        missed = 1.0
        for hit in hits:
            missed *= 1.0 - hit.chance
        return 1.0 - missed
    if left == 2:
        none, one, two = 1.0, 0.0, 0.0
        for hit in hits:
            none, one, two = _spread_two(none, one, two, hit.chance, hit.wounds)
        return two
    spread = [1.0] + [0.0] * left  # chance of 0..left-1 wounds so far, then "left or more"
    for hit in hits:
        spread = _spread_hit(spread, left, hit.chance, hit.wounds)
    return spread[left]


def _card_worth(card: Profile) -> float:
    """What losing one of the player's cards in play costs, in the units of fight_value."""
    if card.type == "personality":
        return 3.0 + card.influence * 3 + card.total_cost * 0.5
    return 2.0 + card.total_cost * 0.5 + card.residencies * 2


def _modify_choice(state: GameState, actions: Sequence[Action]) -> Action:
    """The modification that improves the fight's expected outcome most for what it costs,
    if any does by :data:`MODIFY_THRESHOLD`; else done."""
    best = _find(actions, "done")
    if len(actions) == 1:
        return best
    fight = Fight(state)
    best_gain = MODIFY_THRESHOLD
    for action in actions:
        weighed = _weigh_modification(state, action, fight)
        if weighed is not None and weighed > best_gain:
            best, best_gain = action, weighed
    return best


def _weigh_modification(state: GameState, action: Action, fight: Fight) -> float | None:
    """What ``action`` adds to the fight's expected outcome, less what it spends."""
    me = state.mover()
    kind, card = action.kind, action.card
    if kind == "charge":
        return fight.boost_gain({card: 1}, {card: -1})
    if kind in ("fervor", "pray"):
        amount = min(state.card(card).strength[1], me.personal[1])
        target = card if kind == "fervor" else action.target
        boost = {target: amount}
        after = fight.boost_gain(boost, None) if kind == "fervor" or action.option == "offense" \
            else fight.boost_gain(None, boost)
        return after - amount * TOKEN_VALUE
    if kind == "fear":
        # "E Fear" exhausts the bearer: its own attack then counts for nothing.
        lost = {card: -99} if "fear" in state.card(card).exhausting else None
        return fight.boost_gain(lost, None, action.target)
    if kind == "use":
        effect = state.card(card).ability(action.option).effect
        price = rulings.tokens(effect.pay) * TOKEN_VALUE
        actor = state.host.get(card, card) if state.card(card).type == "invocation" else card
        entry = battle_effects.KINDS.get(effect.kind)
        worth = None if entry is None else entry.use_worth(fight, effect, actor, action.target)
        return None if worth is None else worth - price
    if kind == "play":
        profile = state.card(card)
        effect = profile.abilities[0].effect
        entry = battle_effects.KINDS.get(effect.kind)
        if entry is None:
            return None
        mine = [t for t in fight.mine if state.in_play(t)]
        worth = entry.play_worth(fight, effect, action.target, mine)
        return None if worth is None else worth - profile.total_cost * TOKEN_VALUE
    return None


def _held_line(state: GameState, fight: Fight, mine: list[int]) -> float:
    """What keeping ``mine`` unexhausted when wounded (Hold the Line) is worth: for each troop
    without Endurance, its chance to be wounded and live, times what an exhausted troop
    misses later this round (exhaustion ends at the next round's start): after a hunt, the
    raid still to come (:data:`EXHAUSTED_DEFENDER`, times the chance the row raids), and
    its exhausting income ability in the Discard Phase."""
    c = state.combat
    assert c is not None
    raid = 0.0
    if c.kind == "hunt":
        calm = 1.0
        for wanderer in state.row():
            if wanderer not in state.exhausted and not combat.listed(c.wild, wanderer):
                calm *= 1.0 - min(6, state.card(wanderer).aggression) / 6
        raid = (1.0 - calm) * EXHAUSTED_DEFENDER
    gain = 0.0
    for troop in mine:
        on = fight.figures.get(troop)
        if on is None or "endurance" in rulings.keywords(state, troop):
            continue
        untouched = 1.0
        for hit in on.hits:
            untouched *= 1.0 - hit.chance
        wounded = on.alive - untouched
        if wounded > 0:
            gain += wounded * (raid + _exhausting_income(state.card(troop)) * TOKEN_VALUE)
    return gain


def _rallied(state: GameState, fight: Fight, mine: list[int]) -> float:
    """What removing a wound from each wounded troop of ``mine`` (Rally the Veterans) is
    worth: the deaths it spares in this fight (one more wound to take), and
    :data:`HEALED_WOUND` a wound for the fights to come (a wound left makes the next strike
    deadlier, this round and the next)."""
    gain = 0.0
    for troop in mine:
        if not state.wounds.get(troop):
            continue
        gain += HEALED_WOUND
        on = fight.figures.get(troop)
        if on is not None:
            spared = _kill_chance(on.left, on.hits) - _kill_chance(on.left + 1, on.hits)
            gain += spared * _card_worth(state.card(troop))
    return gain


def _fine_choice(state: GameState, actions: Sequence[Action]) -> Action:
    me = state.mover()
    for action in actions:  # a spare free structure before any token: it is worth less
        if action.kind == "fine" and action.card >= 0 and _spare_structure(state, action.card):
            return action
    for action in actions:  # income first: it may bring the token that pays
        if action.kind == "use" and state.card(action.card).ability(
                action.option).effect.kind == "collect":
            return action
    tokens = [a for a in actions if a.kind == "fine" and a.card < 0]
    if tokens:
        # Not a token that counts toward victory (a five-members bonus kind) while another
        # kind can pay; then the kind held most, not the kept kind on ties.
        favour = me.favour
        counting = _bonus_kinds(state)
        return max(tokens, key=lambda a: (rulings.KIND_INDEX[a.option] not in counting,
                                          me.personal[rulings.KIND_INDEX[a.option]],
                                          rulings.KIND_INDEX[a.option] != favour))
    cards = [a for a in actions if a.kind == "fine"]
    return min(cards, key=lambda a: (state.card(a.card).influence * 3
                                     + state.card(a.card).total_cost, a.card))


def _spare_structure(state: GameState, instance: int) -> bool:
    """A free general structure in play with no income and no resident, while the other
    open residences house every citizen in hand: giving it up costs no play and no token."""
    me = state.mover()
    card = state.card(instance)
    if card.type != "structure" or card.subtype != "general" or card.income \
            or card.total_cost:
        return False
    for citizen in me.residents:
        if state.host.get(citizen, -1) == instance:
            return False
    citizens = 0
    for i in me.hand:
        if state.card(i).is_citizen:
            citizens += 1
    others = 0
    for structure in rulings.open_residences(state):
        if structure != instance:
            others += 1
    return others >= citizens


def _bounty_choice(state: GameState, actions: Sequence[Action]) -> Action:
    """The kind that counts most: one a card in hand lacks to be played (the card first that
    lacks fewest tokens); else the kind whose tokens count toward victory now (a faction with
    five members in play); else the kind held fewest of, the kept kind on ties (generic costs
    spend the other kinds first, so this keeps every kind at hand)."""
    me = state.mover()
    offered = [rulings.KIND_INDEX[a.option] for a in actions]
    personal = me.personal
    # In plain loops (the same choices as max/min with a key: compiled, each key is a
    # closure called per kind and a tuple built per call, and this runs for every token).
    best_lacking, best_kind = -1, -1
    for instance in me.hand:
        card = state.card(instance)
        if card.type == "event" and card.subtype != "general":
            continue
        cost = card.cost
        short0 = cost[0] - personal[0]
        short1 = cost[1] - personal[1]
        short2 = cost[2] - personal[2]
        short0 = short0 if short0 > 0 else 0
        short1 = short1 if short1 > 0 else 0
        short2 = short2 if short2 > 0 else 0
        lacking = short0 + short1 + short2
        if not lacking:
            continue
        # The offered kind it lacks most of (the lowest kind on ties), if it lacks any.
        kind, most = -1, 0
        for k in offered:
            short = short0 if k == 0 else short1 if k == 1 else short2
            if short and (kind < 0 or short > most or (short == most and k < kind)):
                kind, most = k, short
        if kind >= 0 and (best_kind < 0 or lacking < best_lacking):
            best_lacking, best_kind = lacking, kind
    if best_kind >= 0:
        chosen = best_kind
    else:
        counting = _bonus_kinds(state)
        favour = me.favour
        # The least by (not counting, held, not the kept kind, kind), compared in turn.
        chosen = -1
        best_counts = best_unkept = False
        best_held = 0
        for k in offered:
            counts, held, unkept = k not in counting, personal[k], k != favour
            if chosen < 0 or (counts, held, unkept, k) < (best_counts, best_held, best_unkept,
                                                          chosen):
                chosen, best_counts, best_held, best_unkept = k, counts, held, unkept
    return actions[offered.index(chosen)]


def _bonus_kinds(state: GameState) -> set[int]:
    """The token kinds that count toward victory now: the primary kind of each faction with
    five or more members in play."""
    return _counting_kinds(_Context(state).members)


def _counting_kinds(members: dict[str, int]) -> set[int]:
    """The primary kind of each faction of ``members`` (personalities in play per faction)
    with five or more."""
    return {rulings.PRIMARY[f] for f, n in members.items() if n >= 5 and f in rulings.PRIMARY}


def _discard_choice(state: GameState, actions: Sequence[Action]) -> Action:
    me = state.mover()
    for action in actions:
        if action.kind == "use" and state.card(action.card).is_troop:
            holder = state.card(action.card)
            ability = holder.ability(action.option)
            if ability.effect.kind == "collect":
                return action
    context = _Context(state)
    people: list[Profile] | None = None
    for action in actions:
        if action.kind != "discard":
            continue
        if _dead_card(state, action.card):
            return action
        card = state.card(action.card)
        if card.type in ("event", "invocation", "item"):
            if people is None:
                people = [state.card(i) for i in (*rulings.personalities_in_play(state),
                                                  *me.zones["hand"])
                          if state.card(i).type == "personality"]
            if _unusable(card, people):
                return action
        if _idle(state, action.card, context):
            return action
    # Then a personality it will not afford for rounds: a kind of its cost beyond what the
    # player holds and AFFORD_ROUNDS rounds of his income of that kind bring.
    income: list[int] | None = None
    for action in actions:
        if action.kind == "discard" and state.card(action.card).type == "personality":
            if income is None:
                income = _income_by_kind(state)
            cost = state.card(action.card).cost
            for kind in range(3):
                if cost[kind] > me.personal[kind] + income[kind] * AFFORD_ROUNDS:
                    return action
    # Then a troop of one influence and no income in hand while the troops in play
    # outnumber the wanderers: a fresh draw is worth more than one more weak troop.
    if _defended(state):
        for action in actions:
            if action.kind == "discard":
                card = state.card(action.card)
                if card.is_troop and card.influence <= 1 and not card.income:
                    return action
    # Then an item without income: paying for it puts off a personality, so one of ITEM_DEAR
    # tokens or more, and any while the troops in play outnumber the wanderers.
    defended = _defended(state)
    for action in actions:
        if action.kind == "discard":
            card = state.card(action.card)
            if card.type == "item" and not card.income and (defended
                                                            or card.total_cost >= ITEM_DEAR):
                return action
    # Then, while the troops in play outnumber the wanderers, every troop in hand but one,
    # the least worth first: a second one only waits there while a fresh draw could play.
    if defended:
        troops = [a for a in actions if a.kind == "discard" and state.card(a.card).is_troop]
        if len(troops) > 1:
            return min(troops, key=lambda a: (_troop_worth(state.card(a.card)), a.card))
    # Then the last troops in hand too, those without income, while the troops in play
    # outnumber the wanderers by two and two residences are open: the city is guarded and
    # the next citizens have homes, so a fresh draw plays sooner than one more troop (learned
    # from the lookahead's judgments, kept on held-out games).
    if defended and rulings.open_residence_count(state) >= 2 and _troops_to_spare(state):
        troops = [a for a in actions if a.kind == "discard" and state.card(a.card).is_troop
                  and not state.card(a.card).income]
        if troops:
            return min(troops, key=lambda a: (_troop_worth(state.card(a.card)), a.card))
    return _find(actions, "done")


def _troops_to_spare(state: GameState) -> bool:
    """At least two troops in play more than the wanderers in the row."""
    return _troops_in_play(state) >= len(state.row()) + 2


def _troops_in_play(state: GameState) -> int:
    """The troops in the defensive holdings."""
    me = state.mover()
    troops = 0
    for t in me.defensive:
        if state.card(t).is_troop:
            troops += 1
    return troops


def _troop_worth(card: Profile) -> float:
    """A troop in hand's worth, to keep the best: influence, income, offense and defense."""
    return card.influence * INFLUENCE + card.income * PERSON_INCOME + card.offense \
        + card.defense


def _income_by_kind(state: GameState) -> list[int]:
    """The tokens of each kind the income abilities of the cards in play bring a round."""
    me = state.mover()
    income = [0, 0, 0]
    for zone in ("private", "residents", "guards", "defensive", "attached"):
        for instance in me.zones[zone]:
            for ability in state.card(instance).abilities:
                gains = ability.effect.gains
                if ability.effect.kind == "collect":
                    income[0] += gains[0]
                    income[1] += gains[1]
                    income[2] += gains[2]
    return income


def _idle(state: GameState, instance: int, context: _Context) -> bool:
    """A card the policy would not play now even if it could pay for it (a structure nobody
    needs a home in, an item no bearer wants, an invocation or event it does not use)."""
    card = state.card(instance)
    if card.type in ("personality", "structure") and card.subtype in ("citizen", "troop",
                                                                       "stronghold"):
        return False
    if card.type == "event" and card.subtype == "battle":
        return False
    if card.type in ("item", "invocation"):
        return all(_score(state, state.book().play(instance, p), context) <= 0
                   for p in rulings.personalities_in_play(state))
    return _score(state, state.book().play(instance), context) <= 0


def _unusable(card: Profile, people: list[Profile]) -> bool:
    """A card in hand that none of ``people`` (the personalities in play and in hand) can
    use, so it only takes a draw's place: a battle event no troop is strong enough for, an
    invocation no personality may bear, an item with no troop to carry it."""
    if card.type == "event":
        return card.subtype == "battle" and not any(
            p.is_troop and p.strength[0] >= card.strength[0] for p in people)
    if card.type == "invocation":
        return not any(p.strength[1] >= card.strength[1]
                       and (card.subtype != "kalim" or p.faction == "kalim") for p in people)
    return not card.income and not any(p.is_troop for p in people)


def _dead_card(state: GameState, instance: int) -> bool:
    me = state.mover()
    card = state.card(instance)
    if card.type == "event":
        return card.subtype == "interrupt" or not card.abilities or card.abilities[0].effect.kind \
            in ("no_solo_effect", "wound_structure", "exhaust_citizens")
    if card.subtype == "wall":
        return any(state.card(i).subtype == "wall" for i in me.zones["defensive"])
    if card.unique:
        return any(state.cards[i] == card.id and (state.in_play(i) or state.where[i] == "dead")
                   for i in range(len(state.cards)))
    return card.subtype == "stronghold"
