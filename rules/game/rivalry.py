"""The abilities a lord uses on another lord's personal pool: Extort, Tithe and Sap.

Pure Python. Solo they have no effect (``Profile.no_solo_effect``); at a table of 2 to 6
(rules/game/seats.py) they are actions of the Action and Development cycle,
``Action("use_on", bearer, target=seat, option=ability)``:

* Extort (G): "Collect economic influence from another player's personal pool up to bearer's
  economic/military strength";
* Tithe (R): "Move religious influence up to bearer's religious strength from another player's
  personal pool to the city's influence pool";
* Sap (P): "Move influence tokens up to bearer's political strength from another player's
  personal pool to the city's influence pool. Lord using sap chooses the tokens lost" (choice:
  the target's most plentiful kinds first).

An "E" exhausts the bearer; "(F)n" needs n members of the bearer's faction in play among all
players' cards. Choice: each bearer uses them once a round, "E" or not (the rulebook sets no
limit on one without "E", but two lords extorting each other at every action would never end
the phase).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Final

from rules.game.actions import Action
from rules.game.profile import Profile
from rules.game.rulings import PERSONALITY_ZONES
from rules.game.state import GameState

# ability -> (index of the strength that bounds it, kind taken or -1 for any, to the city?)
RIVAL_ABILITIES: Final = {"extort": (0, 0, False), "tithe": (1, 1, True), "sap": (2, -1, True)}
_CLAUSE: Final = re.compile(r"^(e )?(?:\(f\)\s*(\d) )?(extort|tithe|sap)\.?$")


# Each clause read once: options() asks at every Action Phase decision of every seat.
_PARSED: Final[dict[str, tuple[str, bool, int] | None]] = {}


def parse(clause: str) -> tuple[str, bool, int] | None:
    """(ability, exhausts, faction members needed) of a clause like "E (F)3 Extort.", or None."""
    if clause in _PARSED:
        return _PARSED[clause]
    found = _CLAUSE.match(clause.strip().lower())
    parsed = None if found is None else (found.group(3), bool(found.group(1)),
                                         int(found.group(2) or 0))
    _PARSED[clause] = parsed
    return parsed


def faction_members(seats: Sequence[GameState], faction: str | None) -> int:
    """Members of ``faction`` in play among all players' cards."""
    if not faction:
        return 0
    return sum(1 for state in seats for zone in PERSONALITY_ZONES for i in state.zones[zone]
               if state.card(i).faction == faction)


def bearers(state: GameState, own: int) -> list[int]:
    """The seat's own cards (the first ``own`` instances) with a rival ability: worked out
    once per table, so a seat without one is offered none at no cost (:func:`options` would
    find none)."""
    return [i for i in range(own)
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


def options(seats: list[GameState], seat: int, others: list[int],
            used: Collection[int] = (), bearers: list[int] | None = None) -> list[Action]:
    """The seat's rival abilities usable now on each other seat still in the game (``used``:
    the bearers that used one this round; ``bearers``: the seat's cards with a rival ability,
    :func:`bearers`, when known: only those are read, not every personality in play).
    (Lists, not any Sequence: compiled, a list is read natively, a Sequence by the generic
    protocol at every item; asked at most passes of the greedy seat.)"""
    state = seats[seat]
    found: list[Action] = []
    if bearers is None:
        candidates = [b for zone in PERSONALITY_ZONES for b in state.zones[zone]]
    else:
        where = state.where
        # (``used`` is asked only when not empty: a generic "in" is a call more a bearer.)
        unused: list[int] = []
        for b in bearers:
            # (PERSONALITY_ZONES spelt out: compiled, "in" a tuple of another module is the
            # generic protocol, three string comparisons are native)
            at = where[b]
            if (at == "residents" or at == "guards" or at == "defensive") \
                    and (not used or b not in used):
                unused.append(b)
        candidates = unused
        if len(unused) > 1:
            # In the order of the personalities in play: the zones read in turn (no sort,
            # no index look-ups: the zones hold a few cards each).
            candidates = []
            for zone in (state.residents, state.guards, state.defensive):
                for b in zone:
                    if b in unused:
                        candidates.append(b)
    members_of: dict[str | None, int] | None = None  # faction_members, once per faction
    for bearer in candidates:
        if used and bearer in used:
            continue
        card = state.card(bearer)
        for ability, exhausts, members in rival_abilities(card):
            if exhausts and bearer in state.exhausted:
                continue
            if members:
                if members_of is None:
                    members_of = {}
                if card.faction not in members_of:
                    members_of[card.faction] = faction_members(seats, card.faction)
                if members_of[card.faction] < members:
                    continue
            strength, kind, _ = RIVAL_ABILITIES[ability]
            if not card.strength[strength]:
                continue
            for other in others:
                pool = seats[other].personal
                if (pool[kind] if kind >= 0 else sum(pool)) > 0:
                    found.append(Action("use_on", bearer, other, ability))
    return found


def apply(seats: Sequence[GameState], seat: int, action: Action) -> int:
    """Carry out a rival ability; the number of tokens it moved."""
    state, victim = seats[seat], seats[action.target]
    card = state.card(action.card)
    strength, kind, to_city = RIVAL_ABILITIES[action.option]
    clause = next(c for c in card.no_solo_effect
                  if (p := parse(c)) is not None and p[0] == action.option)
    parsed = parse(clause)
    if parsed is not None and parsed[1]:
        state.exhausted.add(action.card)
    moved = 0
    for _ in range(card.strength[strength]):
        k = kind if kind >= 0 else max(range(3), key=lambda i: (victim.personal[i], -i))
        if not victim.personal[k]:
            break
        victim.personal[k] -= 1
        if to_city:
            state.city[k] += 1
        else:
            state.personal[k] += 1
        moved += 1
    state.pending = None
    return moved
