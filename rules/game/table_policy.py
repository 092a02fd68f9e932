"""The policy of a seat at a table of 1 to 6 (rules/game/seats.py): one per seat, the one
policy of every game (a table of one asks its solo policy at once).

Pure Python. Everything a seat decides on its own cards (plays, draws, fines, its side of a
combat) is decided by the solo policy of its name (rules/game/policies.py: the players of
one's own game) on the table's state, the seat its player; this module holds what a seat
decides about the others, reading every seat's cards and pool from the table's one state
(``Table.state``, ``state.seats[seat]``) by seat number. What only a table offers is the
Military Phase's choice: whom to attack, whether to hold a troop back, which wanderer row to
hunt. The greedy seat weighs every choice in faction influence (a token, of valor or bounty,
counts ``TOKEN``):

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
when that would pass, first uses its rival abilities on the player nearest victory
(:func:`rival_choice`): Extort, Tithe or Sap on his pool; Crusade, Discredit or Influence on
the card whose exhaustion costs him most, when it costs him something (a troop out of this
round's fights, worth more than the bearer's own when the bearer is a troop it exhausts; a
citizen or a structure whose abilities are not used yet).

The random seat picks uniformly among all legal actions (fuzzing).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from typing import Final

from rules.game import combat, reactions, rivalry, rulings, seats
from rules.game.actions import Action
from rules.game.policies import POLICIES, Policy, _worth_hunting
from rules.game.seats import Table, attackers
from rules.game.state import GameState

LEADER_GAP: Final = 4
HUNT_WORTH: Final = 2.0
# Worths are in faction influence: a token (valor, bounty) is worth TOKEN of it.
TOKEN: Final = 0.5
ATTACK_WORTH: Final = 1.0  # the least an attack must be worth
OWN_ROW: Final = 2.0  # what ending one's own fines and raids is worth, beyond the bounty
STRUCTURE_WORTH: Final = 0.5  # a structure destroyed, its residents aside
BREACH: Final = 0.5  # a wound on the stronghold (they stay: the next may destroy it)
RELIEF: Final = 0.5
OTHERS: Final = 0.5  # a cut off an opponent other than the leader counts this much
KNOCKOUT_CHANCE: Final = 0.5
URGENT: Final = 100.0
DIE_BONUS: Final = (1, 2, 0, 0, -1, -2)
NO_HUNTER: Final = -(10**6)  # _best_hunter of a seat without a ready troop
# Crusade exhausts no troop while the Wanderer Phases of this many rounds may overrun the city
# (a troop exhausted is one fewer to hunt: kalim-faithful v guild-veterans, 400 games, without
# this check 22 games were lost by every player, against 2 without Crusade and 4 with it).
CRUSADE_ROUNDS: Final = 2
MULTIPLAYER_POLICIES: Final = ("greedy", "random")


class SeatPolicy:
    """The policy of one seat: ``policy(table, seat, actions)``."""

    def __init__(self, name: str, seed: int, solo: Policy | None = None) -> None:
        """``solo``: the policy of the seat's own decisions, when it is not one of
        :data:`MULTIPLAYER_POLICIES` (the goldfish runner's lookahead, at a table of one:
        rules/game/runner.py makes it); it then decides every choice, as ``random`` does."""
        if solo is None and name not in MULTIPLAYER_POLICIES:
            raise ValueError(f"unknown policy {name!r} at a table; choose one of "
                             f"{', '.join(MULTIPLAYER_POLICIES)}")
        self.name = name
        self.solo: Policy = POLICIES[name](seed) if solo is None else solo
        self.greedy = name == "greedy"
        self.attacks = 0  # attacks on another player declared (a matchup counts them)
        # Greedy weighs the rival abilities only when it would pass (below): seats.play
        # offers it the actions without them, and it looks for them then.
        self.defers_rivals = self.greedy

    def __call__(self, table: Table, seat: int, actions: Sequence[Action]) -> Action:
        state = table.state
        if table.players == 1:
            # A table of one is the solo game (seats.new_table): every choice is its own
            # policy's. (The table's questions below cost a goldfish game about 1% of its
            # instructions.)
            return self.solo(state, actions)
        if table.truce >= 0:
            return truce_answer(table, seat, actions)
        if table.hosting is not None and actions and actions[-1] is seats.TRUCE:
            actions = actions[:-1]  # (an AI seat offers no truce: see truce_answer)
        if table.window is not None:
            return answer_choice(table, seat, actions) if self.greedy \
                else self.solo(state, actions)
        if table.declaring is not None:
            # (greedy never declares an attack troop by troop: a random seat may)
            return next((a for a in actions if a.kind == "send" and not a.option),
                        actions[-1]) if self.greedy else self.solo(state, actions)
        if seat != state.player:
            # The attacker's own assignments and modifications in the defender's combat, or
            # the raiding wanderers' controller's.
            return attack_choice(state, actions) if self.greedy \
                else self.solo(state, actions)
        if table.stage == "military" and table.hosting is None and state.combat is None \
                and not table.seat(seat).choice_due():
            choice = military_choice(table, seat, actions) if self.greedy \
                else self.solo(state, actions)
            self.attacks += choice.kind == "attack"
            return choice
        # Rival abilities are offered only in the Action and Development cycle, and only to a
        # seat with a rival bearer (seats.Table.rival_bearers).
        if table.stage != "action" or (table.rival_bearers and not table.rival_bearers[seat]):
            return self.solo(state, actions)
        if not self.greedy:
            return self.solo(state, actions)
        # Greedy plays its own cards first (as solo); before it passes, it uses its rival
        # abilities on the player nearest victory (rival_choice). Offered the actions without
        # them (seats.play, defers_rivals), it looks for them only then; offered them, it sets
        # them aside (the same choice either way).
        rivals: list[Action] | None = None
        # (a list of Actions, so typed: compiled, read natively, not as any Sequence; the
        # isinstance alone would make it a list of Any, its kinds compared generically)
        offered: list[Action] = actions if isinstance(actions, list) else list(actions)
        for action in offered:
            if action.kind == "use_on":
                rivals = [a for a in offered if a.kind == "use_on"]
                break
        choice = self.solo(state, actions if rivals is None
                           else [a for a in actions if a.kind != "use_on"])
        if choice.kind != "pass":
            return choice
        if rivals is None:
            # Looked for without listing them as Actions (rival_pick: the same choice).
            return rival_pick(table, seat) or choice
        return rival_choice(table, seat, rivals) or choice


def truce_answer(table: Table, seat: int, actions: Sequence[Action]) -> Action:
    """An AI seat's answer to an offer to end an attack: the defender agrees (an attack
    ended costs him nothing more), the attacker fights on (he chose the attack). AI seats
    never offer one themselves."""
    hosting = table.hosting
    agree = hosting is not None and seat == hosting.host
    for action in actions:
        if action.option == ("accept" if agree else "refuse"):
            return action
    return actions[-1]


def attack_choice(host: GameState, actions: Sequence[Action]) -> Action:
    """An attacking lord's assignment of his troops in the defender's combat in ``host`` (or the
    raiding wanderers' controller's): the fixed rule the wanderers follow (combat.wild_choice:
    the wall filled with the weakest, then each attacker where its margin is best); in the
    modification step, Fear on the player's strongest engaged troop as the wanderers' rule,
    nothing else; no bribe of a defender."""
    fight = host.combat
    if fight is not None and fight.step == combat.BRIBE_BACK:
        return actions[-1]  # (no bribe of a defender: done, as before the rule was modelled)
    if fight is not None and fight.step == "modify":
        target = combat.fear_target(host)
        return next((a for a in actions if a.kind == "fear" and a.target == target),
                    actions[-1])
    choice = combat.wild_choice(host)
    for action in actions:  # the offered action itself (seats.play finds it by identity)
        if action == choice:
            return action
    return actions[0]


def exhaust_worth(table: Table, seat: int, action: Action, crowded: bool | None = None,
                  aimed: int = -1) -> int:
    """What exhausting the target of an exhausting rival ability costs its owner, less what
    it costs ``seat`` (0 or less: not worth it). A troop: its offense and defense (out of this
    round's fights), less the bearer's when the bearer is a troop the ability exhausts; none
    while the wanderers may overrun the city within :data:`CRUSADE_ROUNDS` rounds
    (``crowded``, when the caller worked it out). A citizen or a structure: the tokens its
    income abilities would take and one a plain ability (none used this round: it is not
    exhausted). (``aimed``: the target card, rivalry.target_of, when the caller read it.)"""
    if crowded is None and table.state.card(
            aimed if aimed >= 0 else rivalry.target_of(action.option)).is_troop:
        crowded = _crowded(table, CRUSADE_ROUNDS)
    return _exhaust_worth(table, seat, action.card, action.target,
                          rivalry.ability_of(action.option),
                          aimed if aimed >= 0 else rivalry.target_of(action.option),
                          bool(crowded))


def _exhaust_worth(table: Table, seat: int, bearer_card: int, victim: int, ability: str,
                   aimed: int, crowded: bool) -> int:
    """:func:`exhaust_worth` of ``bearer_card``'s ``ability`` aimed at ``victim``'s card
    ``aimed`` (``crowded``: :func:`_crowded` of :data:`CRUSADE_ROUNDS`, read only for a
    troop)."""
    state = table.state
    target = state.card(aimed)
    bearer = state.card(bearer_card)
    if bearer.type == "invocation":  # its bearer uses it (and is exhausted), at a price
        user = state.card(rulings.actor(state, bearer_card))
        cost = rivalry.price(bearer, ability)
        spent = cost[0] + cost[1] + cost[2] + (user.offense + user.defense if user.is_troop
                                              and not crowded else 0)
    else:
        spent = 0
    if target.is_troop:
        if crowded:
            return 0  # every troop may be needed against the wanderers before long
        worth = target.offense + target.defense - spent
        if bearer.is_troop:
            for parsed in rivalry.rival_abilities(bearer):
                if parsed[0] == ability and parsed[1]:
                    worth -= bearer.offense + bearer.defense
                    break
        return worth
    return target.income + len(target.plain_abilities) - spent


def rival_choice(table: Table, seat: int, rivals: Sequence[Action]) -> Action | None:
    """The rival ability used on the player nearest victory: on his pool, the most tokens
    first; else exhausting the card worth most (:func:`exhaust_worth`); None when only
    exhausting ones worth nothing are offered. Max of (influence total, on the pool, tokens
    or worth, -seat, -bearer), by a loop (a lambda in __call__ would make it build a closure
    at every decision); an exhausting one is weighed only when its victim is as near victory
    as the best found so far (it could not win otherwise)."""
    # The best key so far held as five numbers, compared in turn (compiled, a key tuple is
    # made and compared generically an option): (total, on the pool, tokens or worth,
    # -seat, -bearer).
    chosen: Action | None = None
    top = kind = amount = last = card = 0
    crowded: bool | None = None
    totals: dict[int, int] = {}  # each victim's influence total, worked out once
    for action in rivals:
        victim = action.target
        total = totals.get(victim)
        if total is None:
            total = totals[victim] = rulings.influence_total(table.state, victim)
        aimed = rivalry.target_of(action.option)
        if aimed >= 0:
            if chosen is not None and total < top:
                continue
            if crowded is None:
                crowded = _crowded(table, CRUSADE_ROUNDS)
            worth = exhaust_worth(table, seat, action, crowded, aimed)
            if worth <= 0:
                continue
            on_pool = 0
        else:
            on_pool = 1
            worth = 0
            for tokens in table.seat(victim).personal:
                worth += tokens
        if chosen is None or _outranks(total, on_pool, worth, victim, action.card,
                                       top, kind, amount, last, card):
            chosen = action
            top, kind, amount, last, card = total, on_pool, worth, -victim, -action.card
    return chosen


def _outranks(total: int, on_pool: int, worth: int, victim: int, bearer: int,
              top: int, kind: int, amount: int, last: int, card: int) -> bool:
    """Whether a rival option's key (influence total, on the pool, tokens or worth, -victim,
    -bearer) is above the best so far, held as the five numbers (top, kind, amount, last,
    card): compared in turn, no tuple made (compiled, a tuple key is built and compared
    generically an option)."""
    if total != top:
        return total > top
    if on_pool != kind:
        return on_pool > kind
    if worth != amount:
        return worth > amount
    if -victim != last:
        return -victim > last
    return -bearer > card


def rival_pick(table: Table, seat: int) -> Action | None:
    """:func:`rival_choice` of :func:`seats.rival_options`, without listing the options: each
    one weighed as rivalry.options would list it, in its order, and only the one chosen made
    an Action. A victim less near victory than the best found so far is passed over whole
    (none of his options could be chosen: the influence total comes first)."""
    flow = table.state  # (the seat deciding in the action cycle is its player)
    if table.window is not None or table.stage != "action" or table.hosting is not None \
            or flow.player != seat or flow.step != "act" or flow.combat is not None \
            or table.seat(seat).choice_due() \
            or (table.rival_bearers and not table.rival_bearers[seat]):
        return None  # (seats.rival_setting's None)
    state = table.state
    # The bearers in play not used this round first: most passes have none (each bearer
    # uses one a round), and then no other seat is read.
    used: set[int] = set()
    if table.rivals_used:
        for s, bearer in table.rivals_used:
            if s == seat:
                used.add(bearer)
    bearers = rivalry.usable_bearers(state, seat, used,
                                     table.rival_bearers[seat] if table.rival_bearers else None)
    if not bearers:
        return None
    others: list[int] = []
    for s in table.active():
        if s != seat:
            others.append(s)
    found = False
    top = kind = amount = last = card_key = 0
    pick_card = pick_victim = -1
    pick_option = ""
    crowded: bool | None = None
    totals: dict[int, int] = {}
    members_of: dict[str | None, int] = {}
    for bearer in bearers:
        if used and bearer in used:
            continue
        card = state.card(bearer)
        for ability in rivalry.ready_abilities(state, seat, bearer, card, members_of):
            aimed = rivalry.EXHAUSTING.get(ability)
            taken = 0  # (the kind a pool ability takes, -1 any)
            if aimed is None:
                strength, taken, _ = rivalry.RIVAL_ABILITIES[ability]
                if not card.strength[strength]:
                    continue
            for victim in others:
                total = totals.get(victim)
                if total is None:
                    total = totals[victim] = rulings.influence_total(state, victim)
                if found and total < top:
                    continue
                if aimed is None:
                    pool = table.seat(victim).personal
                    if (pool[taken] if taken >= 0 else pool[0] + pool[1] + pool[2]) <= 0:
                        continue
                    worth = pool[0] + pool[1] + pool[2]
                    if not found or _outranks(total, 1, worth, victim, bearer,
                                              top, kind, amount, last, card_key):
                        found = True
                        top, kind, amount, last, card_key = total, 1, worth, -victim, -bearer
                        pick_card, pick_victim, pick_option = bearer, victim, ability
                    continue
                for target in rivalry.exhaust_targets(state, victim, aimed[1]):
                    if found and total < top:
                        break
                    if crowded is None and state.card(target).is_troop:
                        crowded = _crowded(table, CRUSADE_ROUNDS)
                    worth = _exhaust_worth(table, seat, bearer, victim, ability, target,
                                           bool(crowded))
                    if worth <= 0:
                        continue
                    if not found or _outranks(total, 0, worth, victim, bearer,
                                              top, kind, amount, last, card_key):
                        found = True
                        top, kind, amount, last, card_key = total, 0, worth, -victim, -bearer
                        pick_card, pick_victim = bearer, victim
                        pick_option = rivalry.exhaust_option(ability, target)
    if not found:
        return None
    return Action("use_on", pick_card, pick_victim, pick_option)


def answer_choice(table: Table, seat: int, actions: Sequence[Action]) -> Action:
    """The greedy seat's answer in a reaction window: it answers when the action held back
    is the player nearest victory's (it would help him) or takes from this seat, with the
    cheapest answer; otherwise it declines."""
    window = table.window
    decline = next(a for a in actions if a.kind == "decline")
    if window is None:
        return decline
    state = table.state
    totals = {s: rulings.influence_total(state, s) for s in table.active()}
    leading = totals.get(window.seat, 0) >= max(totals.values())
    if not leading and not reactions.hurts(state, window.seat, window.action, seat):
        return decline

    def price(action: Action) -> int:
        if action.option == reactions.INTERRUPT:
            return state.card(action.card).total_cost
        if action.option == "persuade":
            return state.card(window.action.card).total_cost
        return 0
    answers = [a for a in actions if a.kind == "react"]
    return min(answers, key=lambda a: (price(a), a.card), default=decline)


def military_choice(table: Table, seat: int, actions: Sequence[Action]) -> Action:
    """The greedy seat's Military Phase choice (see the module docstring)."""
    state = table.state
    later = [s for s in table.queue[1:] if s != seat and s not in table.out]
    # Worked out once for the whole choice, and only when an attack or a hunt of another's
    # row is weighed: each player's influence total and the leader, the troops each player
    # still to act would send home_risk's way (the same whatever is weighed).
    totals: dict[int, int] | None = None
    leader = -1
    threats: list[tuple[int, list[int]]] | None = None
    lineups: list[list[int]] = []  # each threat's attackers past this seat's wall
    exposed = 0.0
    best: tuple[float, Action] | None = None
    # Held back or not: the troops sent and the risk at home of sending them, the same
    # whoever is attacked (locals, not dictionaries keyed by the option: compiled, a look-up
    # hashes and compares a string), worked out at the first attack weighed of each.
    sent_all: list[int] | None = None
    sent_hold: list[int] | None = None
    risk_all = risk_hold = 0.0
    risked_all = risked_hold = False
    ready: list[int] | None = None  # this seat's ready troops, for both options
    # Each target's troops at home, for both options.
    homes: list[list[int] | None] = [None] * table.players
    lined: dict[int, list[int]] = {}  # the attackers past a wall, by its room and option
    for action in actions:
        if action.kind != "attack" or action.option == "choose":
            continue  # (a troop-by-troop declaration is a person's: playtest)
        if leader < 0:
            # The opponents' totals (this seat's own is never read): with one opponent, he
            # is the leader, and attack_worth reads his total only when it may matter.
            others = [s for s in table.active() if s != seat]
            if len(others) == 1:
                leader = others[0]
            else:
                totals = {s: rulings.influence_total(state, s) for s in others}
                leader = _leader(table, seat, totals)
        hold = action.option == "hold"  # (attackers sends every ready troop otherwise)
        sent = sent_hold if hold else sent_all
        if sent is None:
            if ready is None:
                ready = seats.ready_troops(state, seat)
            sent = attackers(state, seat, action.option, ready)
            if hold:
                sent_hold = sent
            else:
                sent_all = sent
        if not sent:
            continue  # (attack_worth's -inf)
        # attack_worth, the target's troops at home worked out once for both options
        target = action.target
        home = homes[target]
        if home is None:
            home = _at_home(state, target, [])
            homes[target] = home
        # The attackers past his wall: the same for every target whose wall has the same
        # room (or who has none), worked out once for each option and room.
        room = _wall_room(state, target)
        key = 2 * room + 2 + hold  # (room -1 up, both options)
        free = lined.get(key)
        if free is None:
            free = lined[key] = _past_the_wall(state, sent, room)
        fight = _fight(state, free, target, home[:])
        worth = _fight_worth(table, target, fight, leader, totals)
        if not (risked_hold if hold else risked_all):
            if threats is None:  # (only when an attack is weighed: none is, most steps)
                threats = _threats(table, later)
                # Each threat's attackers past the wall, the same whatever this seat sends:
                # worked out once for the risks of keeping every troop home and of each option.
                lineups = [_lineup(state, troops, seat) for _, troops in threats]
                exposed = _home_risk(state, seat, threats, [], lineups)
            if worth + exposed < ATTACK_WORTH:
                # Its risk at home is at least 0, so the attack is worth less than
                # ATTACK_WORTH whatever it is: never played, and it cannot shadow an attack
                # that is (only the best attack of at least ATTACK_WORTH ever is).
                continue
            if best is not None and worth + exposed <= best[0]:
                # Nor can it beat the best so far (its risk is at least 0): its risk is left
                # to an attack that might (the same figure, worked out then).
                continue
            risk = _home_risk(state, seat, threats, sent, lineups) - exposed
            if hold:
                risk_hold, risked_hold = risk, True
            else:
                risk_all, risked_all = risk, True
        worth -= risk_hold if hold else risk_all
        if best is None or worth > best[0]:
            best = (worth, action)
    crowded = _crowded(table)
    if best is not None and best[0] >= URGENT and not crowded:
        return best[1]  # a knock-out, or the only way to stop a player about to win
    hunt = next((a for a in actions if a.kind == "hunt"), None)
    hunting: tuple[float, Action] | None = None
    # This seat's best offense among its ready troops, read once for every row.
    hunter = NO_HUNTER
    hunter_known = False
    # (the solo policy's test, on the state of the seat's Military Phase: its row)
    if hunt is not None and _worth_hunting(state):
        hunter, hunter_known = _best_hunter(state, seat), True
        hunting = (OWN_ROW + TOKEN * _row_bounty(state, hunter, seat), hunt)
    for action in actions:
        if action.kind == "hunt_row":
            if leader < 0:
                leader = _leader(table, seat)
            if not hunter_known:
                hunter, hunter_known = _best_hunter(state, seat), True
            bounty = _row_bounty(state, hunter, action.target)
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


class Fight:
    """An attack as the greedy seat foresees it, in expected values: the faction influence
    the defender loses (troops and guards killed, residents left homeless), the valor
    tokens taken from him, the influence the attacker loses (its troops killed, and the
    valor they give), and the chances its stronghold is wounded and destroyed."""

    # A plain class with slots rather than a frozen dataclass: compiled (rules/compiled.py),
    # it is built natively, where a dataclass's generated __init__ runs as interpreted Python
    # (a few times a seat's every Military Phase choice).
    __slots__ = ("breach", "cut", "knockout", "lost", "valor")

    def __init__(self, cut: float = 0.0, valor: float = 0.0, lost: float = 0.0,
                 breach: float = 0.0, knockout: float = 0.0) -> None:
        self.cut = cut
        self.valor = valor
        self.lost = lost
        self.breach = breach
        self.knockout = knockout

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Fight):
            return NotImplemented
        return (self.cut, self.valor, self.lost, self.breach, self.knockout) \
            == (other.cut, other.valor, other.lost, other.breach, other.knockout)

    def __hash__(self) -> int:
        return hash((self.cut, self.valor, self.lost, self.breach, self.knockout))

    def __repr__(self) -> str:
        return (f"Fight(cut={self.cut!r}, valor={self.valor!r}, lost={self.lost!r}, "
                f"breach={self.breach!r}, knockout={self.knockout!r})")


def hit_chance(offense: int, defense: int) -> float:
    """The chance an attack wounds: one die, 1 and 2 adding offense, 5 and 6 defense."""
    # The faces whose bonus (DIE_BONUS) takes the margin above 0, counted from the margin.
    margin = offense - defense
    hits = 6 if margin > 2 else 5 if margin == 2 else 4 if margin == 1 else 2 if margin == 0 \
        else 1 if margin == -1 else 0
    return hits / 6


def foresee(state: GameState, sent: Sequence[int], defender: int,
            away: Collection[int] = ()) -> Fight:
    """The expected fight when ``sent`` (one seat's troops) attack seat ``defender``'s
    holdings, ``away`` being the defender's troops not at home. As the rules count it: the
    weakest attackers fill the wall (climbers and flyers get over it); the others, strongest
    first, each engage the defending troop they beat by most, and it strikes back; each ready
    defender holds one attacker; the attackers left over pile on the structure or guard they
    beat by most (the wanderers' fixed rule, combat._wild_choice), the stronghold last."""
    return _fight(state, _lineup(state, sent if isinstance(sent, list) else list(sent),
                                 defender),
                  defender, _at_home(state, defender, away if isinstance(away, list)
                                     else list(away)))


def _at_home(state: GameState, seat: int, away: list[int]) -> list[int]:
    """``seat``'s ready troops at home (``away``: those sent away)."""
    # (``away`` read by native comparisons: compiled, "in" a list is the generic protocol)
    home: list[int] = []
    exhausted = state.exhausted
    for t in state.seats[seat].defensive:
        if state.card(t).is_troop and t not in exhausted:
            gone = False
            for a in away:
                if a == t:
                    gone = True
                    break
            if not gone:
                home.append(t)
    return home


def _lineup(state: GameState, sent: list[int], defender: int) -> list[int]:
    """The attackers ``sent`` past seat ``defender``'s wall, strongest first (min of
    (-offense, instance)): what :func:`foresee` works out before the defenders are counted
    (the same whoever is at home, so the Military choice works it out once per attacker)."""
    return _past_the_wall(state, sent, _wall_room(state, defender))


def _wall_room(state: GameState, defender: int) -> int:
    """The room of seat ``defender``'s first wall (only its room is read), -1 without a wall:
    all of the defender :func:`_lineup` reads."""
    for w in state.seats[defender].defensive:
        if state.card(w).subtype == "wall":
            return state.card(w).residencies
    return -1


def _past_the_wall(state: GameState, sent: list[int], room: int) -> list[int]:
    """:func:`_lineup` against a wall of ``room`` (-1: none)."""
    free: list[int] = []
    powers: list[int] = []  # each one's -offense: strongest first
    for t in sent:
        _insert(free, powers, t, -state.card(t).offense)
    if not free:
        return free
    if room >= 0:
        # The wall's room filled climbers first (they get over it), then the weakest others
        # (min of (offense, instance)): those others stay at the wall. By loops on plain
        # numbers, not a sorted list of key tuples and sets (the same attackers stay).
        slots = min(room, len(free))
        walkers: list[int] = []  # the attackers that do not climb, weakest first
        weights: list[int] = []
        for k in range(len(free)):
            t = free[k]
            if _climbs(state, t):
                slots -= 1
                continue
            _insert(walkers, weights, t, -powers[k])
        if slots > 0:
            stuck = walkers[:slots]
            over = []
            for t in free:
                held = False
                for s in stuck:
                    if s == t:
                        held = True
                        break
                if not held:
                    over.append(t)
            free = over
    return free


def _insert(items: list[int], keys: list[int], item: int, key: int) -> None:
    """``item`` put in ``items``, kept in ascending order of (key, item), ``keys`` beside it.
    By insertion, comparing plain numbers: compiled, a sort of key tuples is a tuple made and
    compared generically an item (the same order: instances are distinct)."""
    j = len(items)
    while j > 0 and (keys[j - 1] > key or (keys[j - 1] == key and items[j - 1] > item)):
        j -= 1
    items.insert(j, item)
    keys.insert(j, key)


def _fight(state: GameState, free: list[int], defender: int, home: list[int]) -> Fight:
    """:func:`foresee` of the attackers past the wall (:func:`_lineup`) against seat
    ``defender``'s troops at ``home`` (a list of the caller's own: the engaged are taken
    out)."""
    pool = 0
    # (a loop: compiled, sum() is a call to the builtin)
    for tokens in state.seats[defender].personal:
        pool += tokens
    cut = valor = lost = 0.0
    left = home
    rest = []
    for troop in free:
        if not left:
            rest.append(troop)
            continue
        power = state.card(troop).offense
        # The defender it beats by most (max of (margin, -instance)).
        target = left[0]
        most = power - state.card(target).defense
        for k in range(1, len(left)):
            d = left[k]
            margin = power - state.card(d).defense
            if margin > most or (margin == most and d < target):
                target, most = d, margin
        left.remove(target)
        killed = _kill_chance(state, troop, target)
        cut += killed * state.card(target).influence
        valor += killed * min(state.card(target).influence, pool)
        back = _kill_chance(state, target, troop)
        lost += back * state.card(troop).influence * (1 + TOKEN)
    if left and free:
        # The defenders no attacker engaged join the attacks on the weakest attacker (min
        # of (defense, instance)).
        weakest = free[0]
        least = state.card(weakest).defense
        for t in free:
            defense = state.card(t).defense
            if defense < least or (defense == least and t < weakest):
                weakest, least = t, defense
        power = 0
        for d in left:
            power += state.card(d).offense
        chance = hit_chance(power, state.card(weakest).defense)
        if state.card(weakest).vitality - state.wounds.get(weakest, 0) <= 1:
            lost += chance * state.card(weakest).influence * (1 + TOKEN)
    breach = knockout = 0.0
    if rest:
        cut, valor, breach, knockout = _past_the_defenders(state, rest, defender, cut, valor,
                                                           pool)
    return Fight(cut, valor, lost, breach, knockout)


def _past_the_defenders(state: GameState, rest: list[int], defender: int, cut: float,
                        valor: float, pool: int) -> tuple[float, float, float, float]:
    them = state.seats[defender]
    targets = [*them.private, *them.guards]
    if not targets:
        return cut, valor, 0.0, 0.0
    power = razes = 0
    for t in rest:
        power += state.card(t).offense
        if "raze" in rulings.keywords(state, t):
            razes += 3
    # The target they beat by most, the stronghold last (the first such: max's rule), with
    # its defense (a structure's guards' added).
    # (max of (margin, not the stronghold) by plain comparisons: compiled, a key tuple is made
    # and compared generically a target)
    # (``host.get(g, -1)``: an int, compared natively, where None would be compared
    # generically)
    guards = them.guards
    host = state.host
    target, best, later, wall = -1, 0, 0, 0
    for candidate in targets:
        card = state.card(candidate)
        value = card.defense
        bonus = 0
        if card.is_structure:
            for g in guards:
                if host.get(g, -1) == candidate:
                    value += state.card(g).defense
            bonus = razes
        margin = power + bonus - value
        rank = 0 if card.subtype == "stronghold" else 1
        if target < 0 or margin > best or (margin == best and rank > later):
            target, best, later, wall = candidate, margin, rank, value
    card = state.card(target)
    chance = hit_chance(power + (razes if card.is_structure else 0), wall)
    if card.subtype == "stronghold":
        doomed = card.vitality - state.wounds.get(target, 0) <= 1
        return cut, valor, chance, chance if doomed else 0.0
    if card.is_structure:
        # Residents are left homeless only when the structure houses some and may fall: the
        # other residences' room is worked out only then (otherwise the homeless add nothing).
        residents = [r for r in them.residents if host.get(r, -1) == target]
        if not residents or chance == 0.0:
            return cut + chance * STRUCTURE_WORTH, valor, 0.0, 0.0
        living: dict[int, int] = {}
        for resident in them.residents:
            home = host.get(resident, -1)
            living[home] = living.get(home, 0) + 1
        homes = 0
        for s in them.private:
            if s != target:
                homes += max(0, state.card(s).residencies - living.get(s, 0))
        homeless = sorted([state.card(r).influence for r in residents])[:max(
            0, len(residents) - homes)]
        return cut + chance * (sum(homeless) + STRUCTURE_WORTH), valor, 0.0, 0.0
    if card.vitality - state.wounds.get(target, 0) <= 1:
        return (cut + chance * card.influence, valor + chance * min(card.influence, pool),
                0.0, 0.0)
    return cut, valor, 0.0, 0.0


def _climbs(state: GameState, troop: int) -> bool:
    found = rulings.keywords(state, troop)
    return "climb" in found or "flight" in found


def _kill_chance(state: GameState, troop: int, enemy: int) -> float:
    """The chance ``troop`` kills ``enemy`` in one attack (Fierce: two wounds on a troop
    without Armor)."""
    if troop in state.exhausted:
        return 0.0
    enemy_card = state.card(enemy)
    life = enemy_card.vitality - state.wounds.get(enemy, 0)
    # Fierce matters only to an enemy with exactly two wounds' life left.
    if life > 2 or (life == 2 and not ("fierce" in rulings.keywords(state, troop)
                                       and "armor" not in rulings.keywords(state, enemy))):
        return 0.0
    return hit_chance(state.card(troop).offense, enemy_card.defense)


def attack_worth(table: Table, seat: int, target: int, sent: Sequence[int],
                 leader: int, totals: Mapping[int, int] | None = None) -> float:
    """What an attack of ``sent`` on ``target`` is worth to ``seat``, in faction influence:
    what it cuts from him (weighted by how near victory he is), the valor (tokens, at
    ``TOKEN``), less what the attackers may lose; ``URGENT`` and more for a likely knock-out
    or the attack that keeps a player about to win below the target (``leader``: the
    opponent nearest victory, :func:`_leader`; ``totals``: the players' influence totals,
    when already worked out)."""
    if not sent:
        return -math.inf
    return _fight_worth(table, target, foresee(table.state, sent, target), leader, totals)


def _fight_worth(table: Table, target: int, fight: Fight, leader: int,
                 totals: Mapping[int, int] | None) -> float:
    """:func:`attack_worth` of the fight foreseen."""
    weight = 1.0 if target == leader else OTHERS
    worth = fight.cut * weight + TOKEN * fight.valor - fight.lost + BREACH * fight.breach
    if fight.knockout >= KNOCKOUT_CHANCE:
        worth += URGENT
    if fight.cut >= 1.0:  # (the totals read only then: the same test, its cheap part first)
        total = totals[target] if totals is not None \
            else rulings.influence_total(table.state, target)
        if total >= table.config.target - LEADER_GAP and total == (
                total if target == leader else totals[leader] if totals is not None
                else rulings.influence_total(table.state, leader)):
            worth += URGENT
    return worth


def _leader(table: Table, seat: int, totals: Mapping[int, int] | None = None) -> int:
    """The opponent nearest victory: an influence cut off him counts in full (at two players,
    every cut), off the others ``OTHERS`` (``totals``: the players' influence totals, when
    already worked out)."""
    found = -1
    most = 0
    for s in table.active():  # (max of (total, -seat))
        if s == seat:
            continue
        total = totals[s] if totals is not None else rulings.influence_total(table.state, s)
        if found < 0 or total > most or (total == most and s < found):
            found, most = s, total
    if found < 0:
        raise ValueError("no opponent at the table")
    return found


def home_risk(table: Table, seat: int, later: Sequence[int], sent: Sequence[int]) -> float:
    """What the strongest attack of a player still to act could cut from ``seat`` at home
    while ``sent`` are away (influence and valor, the worst of them)."""
    return _home_risk(table.state, seat, _threats(table, later), sent)


def _threats(table: Table, later: Sequence[int]) -> list[tuple[int, list[int]]]:
    """The players of ``later`` who could attack, each with the troops he would send (every
    ready troop: seats.attackers' "all")."""
    state = table.state
    found = []
    for other in later:
        ready = _at_home(state, other, [])
        if ready:
            found.append((other, ready))
    return found


def _home_risk(state: GameState, me: int, threats: Sequence[tuple[int, list[int]]],
               sent: Sequence[int], lineups: list[list[int]] | None = None) -> float:
    """:func:`home_risk` of seat ``me``, the players still to act and their troops worked
    out (_threats; ``lineups``: each one's attackers past ``me``'s wall, :func:`_lineup`,
    when known)."""
    worst = 0.0
    # (the same troops at home whoever attacks)
    home = _at_home(state, me, sent if isinstance(sent, list) else list(sent))
    for k in range(len(threats)):
        ready = threats[k][1]
        free = lineups[k] if lineups is not None else _lineup(state, ready, me)
        fight = _fight(state, free, me, home[:])
        worst = max(worst, fight.cut + TOKEN * fight.valor + URGENT * fight.knockout)
    return worst


def _crowded(table: Table, rounds: int = 1) -> bool:
    """Whether the next ``rounds`` Wanderer Phases may overrun the city (each player still in
    draws a wanderer in each): then a hunt comes before any attack (one round), and no troop
    is exhausted by Crusade (:data:`CRUSADE_ROUNDS`)."""
    wanderers = 0
    for s in table.active():  # (a loop: compiled, a generator is an object more a call)
        wanderers += len(table.seat(s).zones["wanderers"])
    return wanderers + rounds * len(table.active()) > table.config.overrun_limit


def _relief(table: Table, leader: int, owner: int) -> float:
    """A hunt of the leader's row also rids him of his wanderers (their fines and raids):
    a little against hunting it."""
    return RELIEF if owner == leader and table.players > 2 else 0.0


def row_worth(state: GameState, me: int, owner: int) -> float:
    """The bounty a hunt of seat ``owner``'s row may bring: each wanderer by the chance its
    best match among seat ``me``'s ready troops wounds it (a die of 1 or 2 adds offense, 5 or
    6 defense)."""
    return _row_bounty(state, _best_hunter(state, me), owner)


def _best_hunter(state: GameState, me: int) -> int:
    """The best offense among seat ``me``'s ready troops (:data:`NO_HUNTER` when it has
    none)."""
    best = NO_HUNTER
    exhausted = state.exhausted
    for t in state.seats[me].defensive:
        card = state.card(t)
        if card.is_troop and t not in exhausted and card.offense > best:
            best = card.offense
    return best


def _row_bounty(state: GameState, best: int, owner: int) -> float:
    """:func:`row_worth` for a hunter whose best ready offense is ``best``."""
    if best == NO_HUNTER:
        return 0.0
    worth = 0.0
    for w in state.seats[owner].zones["wanderers"]:
        prey = state.card(w)
        margin = best - prey.defense
        chance = 1.0 if margin > 0 else 2 / 6 if margin > -2 else 1 / 6 if margin > -3 else 0.0
        worth += chance * rulings.bounty(state, w)
    return worth
