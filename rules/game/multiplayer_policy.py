"""Policies for a seat at a table of 2 to 6 (rules/game/seats.py): one per seat.

Pure Python. Everything a seat decides on its own cards (plays, draws, fines, its side of a
combat) is decided by the solo policy of its name (rules/game/policies.py) on the seat's own
state. What only a table offers is the Military Phase's choice: whom to attack, whether to hold
a troop back, which wanderer row to hunt. The greedy seat weighs every choice in faction
influence (a token, of valor or bounty, counts ``TOKEN``):

* **an attack** on each player, sending every ready troop ("all") or holding the best
  defender back ("hold"), by the fight it foresees (:func:`foresee`, the troops, walls, guards
  and defenders the rules count): the influence it cuts from him (troops and guards killed,
  residents left homeless by a destroyed structure), in full off the opponent nearest victory
  and half off the others, plus the valor, less what its own troops may lose, less what the
  strongest player still to act could then take at its home that he could not otherwise
  (:func:`home_risk`: holding a defender back is worth it exactly when that defender keeps
  him off a structure); an attack likely to knock a stronghold out, or the one that cuts the
  player within ``LEADER_GAP`` of the target, comes first (``URGENT``);
* **a hunt**: its own row when the solo greedy policy would hunt it (its fines and raids
  end, ``OWN_ROW``, and the bounty), or another's row by the bounty its ready troops may
  win (:func:`row_worth`, from ``HUNT_WORTH`` tokens; the leader's row a little less, since
  the hunt rids him of his wanderers);
* the better of the best attack (from ``ATTACK_WORTH``) and the best hunt is played, else it
  passes; but when the next Wanderer Phase may overrun the city (every player loses), a hunt
  that may kill a wanderer comes before any attack.

When another seat's action may be answered (a reaction window, rules/game/reactions.py), it
answers when that seat is the player nearest victory or the action takes from it, with the
cheapest answer, and declines otherwise.

In the Action and Development cycle it plays its own cards as the solo greedy policy does and,
when that would pass, first uses Extort, Tithe or Sap on the player nearest victory.

The random seat picks uniformly among all legal actions (fuzzing).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rules.game import reactions, rulings
from rules.game.actions import Action
from rules.game.policies import POLICIES, Policy, _worth_hunting
from rules.game.seats import Table, attackers
from rules.game.state import GameState

LEADER_GAP = 4
HUNT_WORTH = 2.0
# Worths are in faction influence: a token (valor, bounty) is worth TOKEN of it.
TOKEN = 0.5
ATTACK_WORTH = 1.0  # the least an attack must be worth
OWN_ROW = 2.0  # what ending one's own fines and raids is worth, beyond the bounty
STRUCTURE_WORTH = 0.5  # a structure destroyed, its residents aside
BREACH = 0.5  # a wound on the stronghold (they stay: the next may destroy it)
RELIEF = 0.5
OTHERS = 0.5  # a cut off an opponent other than the leader counts this much
KNOCKOUT_CHANCE = 0.5
URGENT = 100.0
DIE_BONUS = (1, 2, 0, 0, -1, -2)
MULTIPLAYER_POLICIES = ("greedy", "random")


class SeatPolicy:
    """The policy of one seat: ``policy(table, seat, actions)``."""

    def __init__(self, name: str, seed: int) -> None:
        if name not in MULTIPLAYER_POLICIES:
            raise ValueError(f"unknown policy {name!r} at a table; choose one of "
                             f"{', '.join(MULTIPLAYER_POLICIES)}")
        self.name = name
        self.solo: Policy = POLICIES[name](seed)
        self.attacks = 0  # attacks on another player declared (a matchup counts them)

    def __call__(self, table: Table, seat: int, actions: Sequence[Action]) -> Action:
        state = table.seats[seat]
        if table.window is not None:
            return answer_choice(table, seat, actions) if self.name == "greedy" \
                else self.solo(state, actions)
        if table.stage == "military" and table.hosting is None and state.combat is None \
                and not state.bounty_due:
            choice = military_choice(table, seat, actions) if self.name == "greedy" \
                else self.solo(state, actions)
            self.attacks += choice.kind == "attack"
            return choice
        # Rival abilities are offered only in the Action and Development cycle.
        rivals = [a for a in actions if a.kind == "use_on"] if table.stage == "action" else []
        if not rivals:
            return self.solo(state, actions)
        if self.name == "random":
            return self.solo(state, actions)
        # Greedy plays its own cards first (as solo); before it passes, it takes from the
        # player nearest victory (Extort, Tithe, Sap), the most tokens first.
        choice = self.solo(state, [a for a in actions if a.kind != "use_on"])
        if choice.kind != "pass":
            return choice
        return max(rivals, key=lambda a: (rulings.influence_total(table.seats[a.target]),
                                          sum(table.seats[a.target].personal), -a.target,
                                          -a.card))


def answer_choice(table: Table, seat: int, actions: Sequence[Action]) -> Action:
    """The greedy seat's answer in a reaction window: it answers when the action held back
    is the player nearest victory's (it would help him) or takes from this seat, with the
    cheapest answer; otherwise it declines."""
    window = table.window
    decline = next(a for a in actions if a.kind == "decline")
    if window is None:
        return decline
    totals = {s: rulings.influence_total(table.seats[s]) for s in table.active()}
    leading = totals.get(window.seat, 0) >= max(totals.values())
    if not leading and not reactions.hurts(table.seats, window.seat, window.action, seat):
        return decline
    me, acting = table.seats[seat], table.seats[window.seat]

    def price(action: Action) -> int:
        if action.option == reactions.INTERRUPT:
            return me.card(action.card).total_cost
        if action.option == "persuade":
            return acting.card(window.action.card).total_cost
        return 0
    answers = [a for a in actions if a.kind == "react"]
    return min(answers, key=lambda a: (price(a), a.card), default=decline)


def military_choice(table: Table, seat: int, actions: Sequence[Action]) -> Action:
    """The greedy seat's Military Phase choice (see the module docstring)."""
    me = table.seats[seat]
    later = [s for s in table.queue[1:] if s != seat and s not in table.out]
    exposed = home_risk(table, seat, later, ())
    leader = _leader(table, seat)
    best: tuple[float, Action] | None = None
    risks: dict[str, float] = {}  # "all" or "hold": the same troops away whoever is attacked
    sending: dict[str, list[int]] = {}
    for action in actions:
        if action.kind != "attack":
            continue
        if action.option not in sending:
            sending[action.option] = attackers(me, action.option)
        sent = sending[action.option]
        worth = attack_worth(table, seat, action.target, sent, leader)
        if worth == -math.inf:
            continue
        if action.option not in risks:
            risks[action.option] = home_risk(table, seat, later, sent) - exposed
        worth -= risks[action.option]
        if best is None or worth > best[0]:
            best = (worth, action)
    crowded = _crowded(table)
    if best is not None and best[0] >= URGENT and not crowded:
        return best[1]  # a knock-out, or the only way to stop a player about to win
    hunt = next((a for a in actions if a.kind == "hunt"), None)
    hunting: tuple[float, Action] | None = None
    if hunt is not None and _worth_hunting(me):
        hunting = (OWN_ROW + TOKEN * row_worth(me, me), hunt)
    for action in actions:
        if action.kind == "hunt_row":
            bounty = row_worth(me, table.seats[action.target])
            worth = TOKEN * bounty - _relief(table, leader, action.target)
            if (bounty >= HUNT_WORTH or (crowded and bounty > 0)) \
                    and (hunting is None or worth > hunting[0]):
                hunting = (worth, action)
    if crowded and hunting is not None:
        return hunting[1]  # the city about to be overrun: every player would lose
    if best is not None and best[0] >= ATTACK_WORTH \
            and (hunting is None or best[0] > hunting[0]):
        return best[1]
    if hunting is not None and hunting[0] > 0:
        return hunting[1]
    return next(a for a in actions if a.kind == "pass")


@dataclass(frozen=True)
class Fight:
    """An attack as the greedy seat foresees it, in expected values: the faction influence
    the defender loses (troops and guards killed, residents left homeless), the valor
    tokens taken from him, the influence the attacker loses (its troops killed, and the
    valor they give), and the chances its stronghold is wounded and destroyed."""

    cut: float = 0.0
    valor: float = 0.0
    lost: float = 0.0
    breach: float = 0.0
    knockout: float = 0.0


def hit_chance(offense: int, defense: int) -> float:
    """The chance an attack wounds: one die, 1 and 2 adding offense, 5 and 6 defense."""
    margin = offense - defense
    return sum(1 for bonus in DIE_BONUS if margin + bonus > 0) / 6


def foresee(attacker: GameState, sent: Sequence[int], defender: GameState,
            away: Collection[int] = ()) -> Fight:
    """The expected fight when ``sent`` (troops of ``attacker``) attack ``defender``'s
    holdings, ``away`` being the defender's troops not at home. As the rules count it: the
    weakest attackers fill the wall (climbers and flyers get over it); the others, strongest
    first, each engage the defending troop they beat by most, and it strikes back; each ready
    defender holds one attacker; the attackers left over pile on the structure or guard they
    beat by most (the wanderers' fixed rule, combat._wild_choice), the stronghold last."""
    free = sorted(sent, key=lambda t: (-attacker.card(t).offense, t))
    walls = [w for w in defender.zones["defensive"] if defender.card(w).subtype == "wall"]
    if walls and free:
        slots = min(defender.card(walls[0]).residencies, len(free))
        fillers = sorted(free, key=lambda t: (0 if _climbs(attacker, t) else 1,
                                              attacker.card(t).offense, t))[:slots]
        free = [t for t in free if t not in fillers or _climbs(attacker, t)]
    home = [t for t in defender.zones["defensive"] if defender.card(t).is_troop
            and t not in defender.exhausted and t not in away]
    pool = sum(defender.personal)
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
        killed = _kill_chance(attacker, troop, defender, target)
        cut += killed * defender.card(target).influence
        valor += killed * min(defender.card(target).influence, pool)
        back = _kill_chance(defender, target, attacker, troop)
        lost += back * attacker.card(troop).influence * (1 + TOKEN)
    if left and free:
        # The defenders no attacker engaged join the attacks on the weakest attacker.
        weakest = min(free, key=lambda t: (attacker.card(t).defense, t))
        power = sum(defender.card(d).offense for d in left)
        chance = hit_chance(power, attacker.card(weakest).defense)
        if attacker.card(weakest).vitality - attacker.wounds.get(weakest, 0) <= 1:
            lost += chance * attacker.card(weakest).influence * (1 + TOKEN)
    breach = knockout = 0.0
    if rest:
        cut, valor, breach, knockout = _past_the_defenders(attacker, rest, defender, cut,
                                                           valor, pool)
    return Fight(cut, valor, lost, breach, knockout)


def _past_the_defenders(attacker: GameState, rest: Sequence[int], defender: GameState,
                        cut: float, valor: float, pool: int
                        ) -> tuple[float, float, float, float]:
    targets = [*defender.zones["private"], *defender.zones["guards"]]
    if not targets:
        return cut, valor, 0.0, 0.0
    power = sum(attacker.card(t).offense for t in rest)
    razes = sum(3 for t in rest if "raze" in rulings.keywords(attacker, t))

    def defense(target: int) -> int:
        card = defender.card(target)
        value = card.defense
        if card.is_structure:
            value += sum(defender.card(g).defense for g in defender.zones["guards"]
                         if defender.host.get(g) == target)
        return value

    def key(target: int) -> tuple[int, int]:
        bonus = razes if defender.card(target).is_structure else 0
        stronghold = defender.card(target).subtype == "stronghold"
        return (power + bonus - defense(target), 0 if stronghold else 1)

    target = max(targets, key=key)
    card = defender.card(target)
    chance = hit_chance(power + (razes if card.is_structure else 0), defense(target))
    if card.subtype == "stronghold":
        doomed = card.vitality - defender.wounds.get(target, 0) <= 1
        return cut, valor, chance, chance if doomed else 0.0
    if card.is_structure:
        living: dict[int, int] = {}
        for resident in defender.zones["residents"]:
            home = defender.host.get(resident, -1)
            living[home] = living.get(home, 0) + 1
        residents = [r for r in defender.zones["residents"] if defender.host.get(r) == target]
        homes = sum(max(0, defender.card(s).residencies - living.get(s, 0))
                    for s in defender.zones["private"] if s != target)
        homeless = sorted(defender.card(r).influence for r in residents)[:max(
            0, len(residents) - homes)]
        return cut + chance * (sum(homeless) + STRUCTURE_WORTH), valor, 0.0, 0.0
    if card.vitality - defender.wounds.get(target, 0) <= 1:
        return (cut + chance * card.influence, valor + chance * min(card.influence, pool),
                0.0, 0.0)
    return cut, valor, 0.0, 0.0


def _climbs(state: GameState, troop: int) -> bool:
    return bool({"climb", "flight"} & rulings.keywords(state, troop))


def _kill_chance(state: GameState, troop: int, enemy_state: GameState, enemy: int) -> float:
    """The chance ``troop`` kills ``enemy`` in one attack (Fierce: two wounds on a troop
    without Armor)."""
    enemy_card = enemy_state.card(enemy)
    wounds = 2 if "fierce" in rulings.keywords(state, troop) \
        and "armor" not in rulings.keywords(enemy_state, enemy) else 1
    if enemy_card.vitality - enemy_state.wounds.get(enemy, 0) > wounds:
        return 0.0
    if troop in state.exhausted:
        return 0.0
    return hit_chance(state.card(troop).offense, enemy_card.defense)


def attack_worth(table: Table, seat: int, target: int, sent: Sequence[int],
                 leader: int) -> float:
    """What an attack of ``sent`` on ``target`` is worth to ``seat``, in faction influence:
    what it cuts from him (weighted by how near victory he is), the valor (tokens, at
    ``TOKEN``), less what the attackers may lose; ``URGENT`` and more for a likely knock-out
    or the attack that keeps a player about to win below the target (``leader``: the
    opponent nearest victory, :func:`_leader`)."""
    if not sent:
        return -math.inf
    me, them = table.seats[seat], table.seats[target]
    fight = foresee(me, sent, them)
    weight = 1.0 if target == leader else OTHERS
    worth = fight.cut * weight + TOKEN * fight.valor - fight.lost + BREACH * fight.breach
    if fight.knockout >= KNOCKOUT_CHANCE:
        worth += URGENT
    total = rulings.influence_total(them)
    if total >= table.config.target - LEADER_GAP and fight.cut >= 1.0 \
            and total == rulings.influence_total(table.seats[leader]):
        worth += URGENT
    return worth


def _leader(table: Table, seat: int) -> int:
    """The opponent nearest victory: an influence cut off him counts in full (at two players,
    every cut), off the others ``OTHERS``."""
    others = [s for s in table.active() if s != seat]
    return max(others, key=lambda s: (rulings.influence_total(table.seats[s]), -s))


def home_risk(table: Table, seat: int, later: Sequence[int], sent: Sequence[int]) -> float:
    """What the strongest attack of a player still to act could cut from ``seat`` at home
    while ``sent`` are away (influence and valor, the worst of them)."""
    me = table.seats[seat]
    worst = 0.0
    for other in later:
        state = table.seats[other]
        ready = attackers(state, "all")
        if not ready:
            continue
        fight = foresee(state, ready, me, away=sent)
        worst = max(worst, fight.cut + TOKEN * fight.valor + URGENT * fight.knockout)
    return worst


def _crowded(table: Table) -> bool:
    """Whether the next Wanderer Phase may overrun the city (each player still in draws a
    wanderer): then a hunt comes before any attack."""
    wanderers = sum(len(table.seats[s].zones["wanderers"]) for s in table.active())
    return wanderers + len(table.active()) > table.config.overrun_limit


def _relief(table: Table, leader: int, owner: int) -> float:
    """A hunt of the leader's row also rids him of his wanderers (their fines and raids):
    a little against hunting it."""
    return RELIEF if owner == leader and table.players > 2 else 0.0


def row_worth(me: GameState, owner: GameState) -> float:
    """The bounty a hunt of ``owner``'s row may bring: each wanderer by the chance its best
    match among ``me``'s ready troops wounds it (a die of 1 or 2 adds offense, 5 or 6 defense)."""
    troops = [me.card(t).offense for t in me.zones["defensive"]
              if me.card(t).is_troop and t not in me.exhausted]
    if not troops:
        return 0.0
    best = max(troops)
    worth = 0.0
    for w in owner.zones["wanderers"]:
        prey = owner.card(w)
        margin = best - prey.defense
        chance = 1.0 if margin > 0 else 2 / 6 if margin > -2 else 1 / 6 if margin > -3 else 0.0
        worth += chance * rulings.bounty(owner, w)
    return worth
