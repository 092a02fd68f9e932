"""The abilities a lord uses on another lord: Extort, Tithe and Sap on his personal pool;
Crusade, Discredit and Influence on one of his cards.

Pure Python. Solo they have no effect (``Profile.no_solo_effect``); at a table of 2 to 6
(rules/game/seats.py) they are actions of the Action and Development cycle,
``Action("use_on", bearer, target=seat, option=ability)``:

* Extort (G): "Collect economic influence from another player's personal pool up to bearer's
  economic/military strength";
* Tithe (R): "Move religious influence up to bearer's religious strength from another player's
  personal pool to the city's influence pool";
* Sap (P): "Move influence tokens up to bearer's political strength from another player's
  personal pool to the city's influence pool. Lord using sap chooses the tokens lost" (choice:
  the target's most plentiful kinds first);
* Crusade (R): "Exhaust target troop"; Discredit (P): "Exhaust target citizen"; Influence (P):
  "Exhaust target structure"; the custom text "E Pay N <kind> influence: exhaust target
  personality" (Censure of the Faithless, an invocation: its bearer uses it, ``"exhaust"``),
  its price paid from its user's pool. ``option`` names the ability and the other seat's
  target card (an instance of the table), ``"crusade:17"`` (:func:`exhaust_option`). The
  functions take the table's state and seat numbers: each seat's cards and pool are
  ``state.seats[seat]``, whoever's phase it is. Choices: only another player's cards that are
  not exhausted already are targets (exhausting one's own card or an exhausted one changes
  nothing); the bearer needs no strength (the text sets no amount, and structures bear them:
  Hall of Whispers, Bell of Judgement); the bearer may be a personality in play or a
  structure in play.

An "E" exhausts the bearer; "(F)n" needs n members of the bearer's faction in play among all
players' cards. Choice: each bearer uses them once a round, "E" or not (the rulebook sets no
limit on one without "E", but two lords extorting each other at every action would never end
the phase).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Final

from rules.game import rulings
from rules.game.actions import Action
from rules.game.narrate import counted
from rules.game.profile import Profile
from rules.game.rulings import PERSONALITY_ZONES
from rules.game.state import GameState
from rules.game.vocabulary import KIND_INDEX

# ability -> (index of the strength that bounds it, kind taken or -1 for any, to the city?)
RIVAL_ABILITIES: Final = {"extort": (0, 0, False), "tithe": (1, 1, True), "sap": (2, -1, True)}
# ability -> (the index of its category among the strengths: economic/military, religious,
# political; what its target is), for the abilities that exhaust another player's card.
EXHAUSTING: Final = {"crusade": (1, "troop"), "discredit": (2, "citizen"),
                     "influence": (2, "structure"), "exhaust": (-1, "personality")}
# The political (P) ones, which Debate may answer.
POLITICAL_RIVALS: Final = frozenset({"sap", "discredit", "influence"})
_CLAUSE: Final = re.compile(
    r"^(e )?(?:\(f\)\s*(\d) )?(extort|tithe|sap|crusade|discredit|influence)\.?$")
# A custom text with a price: "E Pay 2 religious influence: exhaust target personality."
_PRICED: Final = re.compile(
    r"^(e )?pay (\d+) (economic|religious|political) influence: exhaust target personality\.?$")


# Each clause read once: options() asks at every Action Phase decision of every seat.
_PARSED: Final[dict[str, tuple[str, bool, int] | None]] = {}


def parse(clause: str) -> tuple[str, bool, int] | None:
    """(ability, exhausts, faction members needed) of a clause like "E (F)3 Extort.", or None."""
    if clause in _PARSED:
        return _PARSED[clause]
    text = clause.strip().lower()
    found = _CLAUSE.match(text)
    parsed = None if found is None else (found.group(3), bool(found.group(1)),
                                         int(found.group(2) or 0))
    priced = _PRICED.match(text)
    if priced is not None:
        parsed = ("exhaust", bool(priced.group(1)), 0)
        pay = [0, 0, 0]
        pay[KIND_INDEX[priced.group(3)]] = int(priced.group(2))
        _PRICES[clause] = (pay[0], pay[1], pay[2])
    _PARSED[clause] = parsed
    return parsed


# The price of each priced clause (tokens of each kind), read by parse().
_PRICES: Final[dict[str, tuple[int, int, int]]] = {}


def price(card: Profile, ability: str) -> tuple[int, int, int]:
    """What using ``card``'s rival ``ability`` costs from the player's pool (most cost
    nothing)."""
    for clause in card.no_solo_effect:
        parsed = parse(clause)
        if parsed is not None and parsed[0] == ability:
            return _PRICES.get(clause, (0, 0, 0))
    return (0, 0, 0)


def faction_members(state: GameState, faction: str | None) -> int:
    """Members of ``faction`` in play among all players' cards (every seat of ``state``)."""
    if not faction:
        return 0
    # (loops, not sum() of a generator: compiled, the generator is an object and a call an item)
    found = 0
    for me in state.seats:
        for zone in (me.residents, me.guards, me.defensive):
            for i in zone:
                if state.card(i).faction == faction:
                    found += 1
    return found


def bearers(state: GameState, own: Iterable[int]) -> list[int]:
    """The seat's own cards (``own``: its instances) with a rival ability: worked out
    once per table, so a seat without one is offered none at no cost (:func:`options` would
    find none)."""
    return [i for i in own
            if any(parse(clause) is not None for clause in state.card(i).no_solo_effect)]


_ABILITIES: Final[dict[tuple[str, ...], tuple[tuple[str, bool, int], ...]]] = {}


def rival_abilities(card: Profile) -> tuple[tuple[str, bool, int], ...]:
    """The rival abilities printed on ``card``, each clause read by :func:`parse` (once per
    text: asked at every Action Phase decision of a seat with a bearer in play)."""
    clauses = card.no_solo_effect
    known = _ABILITIES.get(clauses)
    if known is None:
        found = []
        for clause in clauses:
            parsed = parse(clause)
            if parsed is not None:
                found.append(parsed)
        known = _ABILITIES[clauses] = tuple(found)
    return known


# Each exhausting option's text made once, and what it names read once: the options are
# listed at every pass of a seat with a bearer, for every card of every other seat.
_OPTIONS: Final[dict[str, list[str]]] = {}
_READ: Final[dict[str, tuple[str, int]]] = {}


def exhaust_option(ability: str, target: int) -> str:
    """The ``option`` of an exhausting ability aimed at the other seat's card ``target``."""
    texts = _OPTIONS.get(ability)
    if texts is None:
        texts = _OPTIONS[ability] = []
    while len(texts) <= target:
        text = f"{ability}:{len(texts)}"
        texts.append(text)
        _READ[text] = (ability, len(texts) - 1)
    return texts[target]


def ability_of(option: str) -> str:
    """The ability an ``option`` of a rival ability names: ``"crusade:17"`` is Crusade."""
    read = _READ.get(option)
    return option.split(":", 1)[0] if read is None else read[0]


def target_of(option: str) -> int:
    """The other seat's card an exhausting ability aims at (``"crusade:17"``: 17), or -1."""
    read = _READ.get(option)
    if read is not None:
        return read[1]
    tail = option.partition(":")[2]
    return int(tail) if tail else -1


def exhaust_targets(state: GameState, victim: int, what: str) -> list[int]:
    """Seat ``victim``'s cards in play of kind ``what`` ("troop", "citizen", "structure",
    "personality") that an exhausting ability would exhaust: those not exhausted already."""
    exhausted = state.exhausted
    them = state.seats[victim]
    if what == "citizen":
        return [i for i in them.residents if i not in exhausted]
    found: list[int] = []
    if what == "personality":
        for zone in (them.residents, them.guards, them.defensive):
            for i in zone:
                if i not in exhausted:
                    found.append(i)
        return found
    if what == "troop":
        for zone in (them.guards, them.defensive):
            for i in zone:
                if i not in exhausted and state.card(i).is_troop:
                    found.append(i)
        return found
    for zone in (them.private, them.defensive):
        for i in zone:
            if i not in exhausted and state.card(i).is_structure:
                found.append(i)
    return found


def ready_abilities(state: GameState, seat: int, bearer: int, card: Profile,
                    members_of: dict[str | None, int]) -> list[str]:
    """The rival abilities of ``card`` (``bearer``, of ``seat``) that may be used now, before
    any victim is looked at: an exhausting one only while the bearer is ready, one with a
    price only while ``seat`` can pay it, one that asks for faction members only while that
    many of its faction are in play over all seats (``members_of``: the counts worked out so
    far, filled in as asked)."""
    ready: list[str] = []
    # (An invocation's abilities are its bearer's to use: rulings.actor.)
    actor = bearer if card.type != "invocation" else rulings.actor(state, bearer)
    if actor < 0:
        return ready
    for ability, exhausts, members in rival_abilities(card):
        if exhausts and actor in state.exhausted:
            continue
        if ability == "exhaust" \
                and not rulings.affordable(state, price(card, ability), 0, seat):
            continue
        if members:
            if card.faction not in members_of:
                members_of[card.faction] = faction_members(state, card.faction)
            if members_of[card.faction] < members:
                continue
        ready.append(ability)
    return ready


def options(state: GameState, seat: int, others: list[int],
            used: Collection[int] = (), bearers: list[int] | None = None) -> list[Action]:
    """``seat``'s rival abilities usable now on each seat of ``others`` (those still in the
    game; ``used``: the bearers that used one this round; ``bearers``: the seat's cards with a
    rival ability, :func:`bearers`, when known: only those are read, not every card in play).
    (Lists, not any Sequence: compiled, a list is read natively, a Sequence by the generic
    protocol at every item; asked at most passes of the greedy seat.)"""
    found: list[Action] = []
    candidates = usable_bearers(state, seat, used, bearers)
    members_of: dict[str | None, int] = {}  # faction_members, once per faction
    for bearer in candidates:
        if used and bearer in used:
            continue
        card = state.card(bearer)
        for ability in ready_abilities(state, seat, bearer, card, members_of):
            aimed = EXHAUSTING.get(ability)
            if aimed is not None:
                for other in others:
                    for target in exhaust_targets(state, other, aimed[1]):
                        found.append(Action("use_on", bearer, other,
                                            exhaust_option(ability, target)))
                continue
            strength, kind, _ = RIVAL_ABILITIES[ability]
            if not card.strength[strength]:
                continue
            for other in others:
                pool = state.seats[other].personal
                if (pool[kind] if kind >= 0 else sum(pool)) > 0:
                    found.append(Action("use_on", bearer, other, ability))
    return found


def usable_bearers(state: GameState, seat: int, used: Collection[int] = (),
                   bearers: list[int] | None = None) -> list[int]:
    """The bearers :func:`options` reads, in its order: ``seat``'s cards in play (``bearers``,
    when known, those of them in play and not in ``used``)."""
    me = state.seats[seat]
    if bearers is None:
        candidates = [b for zone in (*PERSONALITY_ZONES, "private", "attached")
                      for b in me.zones[zone]]
    else:
        where = state.where
        # (``used`` is asked only when not empty: a generic "in" is a call more a bearer.)
        unused: list[int] = []
        for b in bearers:
            # (the zones spelt out: compiled, "in" a tuple of another module is the generic
            # protocol, four string comparisons are native)
            at = where[b]
            if (at == "residents" or at == "guards" or at == "defensive" or at == "private"
                    or at == "attached") and (not used or b not in used):
                unused.append(b)
        candidates = unused
        if len(unused) > 1:
            # In the order of the cards in play: the zones read in turn (no sort, no index
            # look-ups: the zones hold a few cards each).
            # (Each card matched against the few bearers by native comparisons: compiled,
            # "in" a list is the generic protocol, a call a card in play.)
            candidates = []
            for zone in (me.residents, me.guards, me.defensive, me.private, me.attached):
                for b in zone:
                    for u in unused:
                        if u == b:
                            candidates.append(b)
                            break
    return candidates


def apply(state: GameState, seat: int, action: Action) -> int:
    """Carry out ``seat``'s rival ability; the number of tokens it moved (none for an
    exhausting one: the target card is exhausted). The state's pending decision is dropped
    (the action changed it)."""
    me, victim = state.seats[seat], state.seats[action.target]
    card = state.card(action.card)
    ability = ability_of(action.option)
    clause = next(c for c in card.no_solo_effect
                  if (p := parse(c)) is not None and p[0] == ability)
    parsed = parse(clause)
    if parsed is not None and parsed[1]:
        state.exhausted.add(action.card if card.type != "invocation"
                            else rulings.actor(state, action.card))
    cost = price(card, ability)
    if cost[0] or cost[1] or cost[2]:
        rulings.pay(state, cost, seat=seat)
    if ability in EXHAUSTING:
        state.exhausted.add(target_of(action.option))
        state.pending = None
        return 0
    strength, kind, to_city = RIVAL_ABILITIES[ability]
    moved = 0
    pool = victim.personal
    for _ in range(card.strength[strength]):
        k = kind if kind >= 0 else max(range(3), key=lambda i: (pool[i], -i))
        if not pool[k]:
            break
        pool[k] -= 1
        if to_city:
            state.city[k] += 1
        else:
            me.personal[k] += 1
        moved += 1
    state.pending = None
    return moved


def sentence(state: GameState, action: Action, moved: int) -> str:
    """The story's words for a rival ability carried out (``moved``: :func:`apply`'s)."""
    name = state.card(action.card).name
    ability = ability_of(action.option)
    target = target_of(action.option)
    if ability == "exhaust":
        return (f"{name} exhausts seat {action.target + 1}'s "
                f"{state.card(target).name}.")
    if target >= 0:
        return (f"{name} uses {ability.capitalize()} on seat {action.target + 1}'s "
                f"{state.card(target).name}: exhausted.")
    return (f"{name} uses {ability.capitalize()} on seat {action.target + 1}: "
            f"{counted(moved, 'token')}.")
