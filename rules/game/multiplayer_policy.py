"""Policies for a seat at a table of 2 to 6 (rules/game/seats.py): one per seat.

Pure Python. Everything a seat decides on its own cards (plays, draws, fines, its side of a
combat) is decided by the solo policy of its name (rules/game/policies.py) on the seat's own
state. What only a table offers is the Military Phase's choice: whom to attack, whether to hold
a troop back, which wanderer row to hunt. The greedy seat weighs it so, in this order:

1. an opponent close to victory (``LEADER_GAP`` influence or less from the target) whose
   home defense its ready troops beat is attacked: only the attack stops him;
2. its own row, when the solo greedy policy would hunt it (its fines and raids end);
3. the wanderer row whose expected bounty (each wanderer its best ready troop beats, weighted
   by the chance of a wound) is highest, from ``HUNT_WORTH`` up;
4. an opponent whose home defense its ready troops beat by ``ATTACK_MARGIN`` (valor, and a
   stronghold in reach), when no player still to act could then break through at home;
5. else it passes.

In the Action and Development cycle it plays its own cards as the solo greedy policy does and,
when that would pass, first uses Extort, Tithe or Sap on the player nearest victory.

It holds its best defender back ("hold") whenever a player still to act this phase has more
ready offense than its home would keep. The random seat picks uniformly among all legal
actions (fuzzing).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.game import rulings
from rules.game.actions import Action
from rules.game.policies import POLICIES, Policy, _worth_hunting
from rules.game.seats import Table, attackers
from rules.game.state import GameState

LEADER_GAP = 4
HUNT_WORTH = 2.0
ATTACK_MARGIN = 3
MULTIPLAYER_POLICIES = ("greedy", "random")


class SeatPolicy:
    """The policy of one seat: ``policy(table, seat, actions)``."""

    def __init__(self, name: str, seed: int) -> None:
        if name not in MULTIPLAYER_POLICIES:
            raise ValueError(f"unknown policy {name!r} at a table; choose one of "
                             f"{', '.join(MULTIPLAYER_POLICIES)}")
        self.name = name
        self.solo: Policy = POLICIES[name](seed)

    def __call__(self, table: Table, seat: int, actions: Sequence[Action]) -> Action:
        state = table.seats[seat]
        if self.name == "greedy" and table.stage == "military" and table.hosting is None \
                and state.combat is None and not state.bounty_due:
            return military_choice(table, seat, actions)
        rivals = [a for a in actions if a.kind == "use_on"]
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


def military_choice(table: Table, seat: int, actions: Sequence[Action]) -> Action:
    """The greedy seat's Military Phase choice (see the module docstring)."""
    me = table.seats[seat]
    attacks = {(a.target, a.option): a for a in actions if a.kind == "attack"}
    threat = max((ready_offense(table.seats[s]) for s in table.queue[1:] if s != seat),
                 default=0)
    option = "hold" if threat and any(o == "hold" for _, o in attacks) else "all"
    sent = attackers(me, option) if attacks else []
    offense = sum(me.card(t).offense for t in sent)
    target = table.config.target
    leaders = sorted((s for s, o in attacks if o == option),
                     key=lambda s: (-rulings.influence_total(table.seats[s]), s))
    for other in leaders:
        if rulings.influence_total(table.seats[other]) >= target - LEADER_GAP \
                and offense > home_defense(table.seats[other]):
            return attacks[(other, option)]
    hunt = next((a for a in actions if a.kind == "hunt"), None)
    if hunt is not None and _worth_hunting(me):
        return hunt
    rows = [(row_worth(me, table.seats[a.target]), -a.target, a) for a in actions
            if a.kind == "hunt_row"]
    if rows:
        worth, _, best = max(rows, key=lambda r: (r[0], r[1]))
        if worth >= HUNT_WORTH:
            return best
    if not threat or home_defense(me, without=sent) > threat:
        for other in leaders:
            if offense >= home_defense(table.seats[other]) + ATTACK_MARGIN:
                return attacks[(other, option)]
    return next(a for a in actions if a.kind == "pass")


def ready_offense(state: GameState) -> int:
    return sum(state.card(t).offense for t in state.zones["defensive"]
               if state.card(t).is_troop and t not in state.exhausted)


def home_defense(state: GameState, without: Sequence[int] = ()) -> int:
    """What an attacker must get past, roughly: the defense of the troops at home and of the
    guards, and the stronghold's."""
    total = 0
    for zone in ("defensive", "guards", "private"):
        for i in state.zones[zone]:
            card = state.card(i)
            if i in without or (zone == "defensive" and not card.is_troop):
                continue
            if card.is_troop or card.subtype == "stronghold":
                total += card.defense
    return total


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
