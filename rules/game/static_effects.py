"""The static effects: always on while their card is in play, never used as an action. One
function per effect kind, read by the combat (rules/game/combat.py) and by the greedy
player's forecasts (rules/game/policies.py) alike, so the two never disagree about a number.

Pure Python. The card text that makes each is recognised by its pattern in
rules/game/effects.py (``static=True``; the builder named in each docstring), and
``profile.build_profile`` keeps it in the card's ``statics``. A card's own static effects and
those of the items it uses count (``rulings.static_amounts``). The effects used as actions
are in rules/game/phase_effects.py and rules/game/battle_effects.py.

One static kind is read where it acts, not here: ``no_fleetfoot`` (effects:
``_no_fleetfoot``, "bearer cannot use fleetfoot while using this shield") is applied by
``rulings.keywords``, which works out a troop's keywords, and which this module's own
functions need.
"""

from __future__ import annotations

from typing import Final

from rules.game import rulings
from rules.game.profile import Profile
from rules.game.state import GameState

# Every static effect kind (effects.Effect.kind with static=True).
KINDS: Final = frozenset({"guard_offense", "guard_defense", "offense_vs_wanderers",
                          "defense_malus", "ignore_wanderer_wound", "no_fleetfoot"})


def guard_bonus(structure: Profile, kind: str) -> int:
    """"Troops guarding this structure gain +N offense (defense)" (effects: ``_guard_bonus``;
    Ashgate Barracks, Guildhall of Veterans): what ``structure`` adds to each of its guards,
    ``kind`` ``guard_offense`` or ``guard_defense``, or both when ``kind`` is empty (what
    greedy weighs a barracks by)."""
    bonus = 0
    for effect in structure.statics:
        if effect.kind == kind or (not kind and effect.kind in _GUARD):
            bonus += effect.amount
    return bonus


_GUARD: Final = ("guard_offense", "guard_defense")


def offense_against_wanderers(state: GameState, troop: int) -> int:
    """"Bearer gains +N (additional) offense against wanderers" (effects:
    ``_offense_vs_wanderers``): what ``troop`` adds to its offense on a wanderer."""
    total = 0
    for amount in rulings.static_amounts(state, troop, "offense_vs_wanderers"):
        total += amount
    return total


def has_defense_malus(state: GameState, attacker: int) -> bool:
    """Whether ``attacker`` lowers its target's defense (:func:`defense_malus`)."""
    return bool(rulings.static_amounts(state, attacker, "defense_malus"))


def defense_malus(state: GameState, attackers: list[int]) -> int:
    """"Troops defending against this wanderer get -N defense" (effects: ``_defense_malus``):
    the largest malus among ``attackers`` (0 with none; they do not add up)."""
    malus, found = 0, False
    # (A loop: compiled, max() of a generator is a call to the builtin and an object more.)
    for attacker in attackers:
        for amount in rulings.static_amounts(state, attacker, "defense_malus"):
            if not found or amount > malus:
                malus, found = amount, True
    return malus


def ignores_wanderer_wound(state: GameState, card: int) -> bool:
    """"Bearer may ignore the first wound from a wanderer each round" (effects:
    ``_ignore_first_wound``; Boiled Leather Jerkin): whether ``card`` has it (combat keeps
    which cards used it this round, ``GameState.ignored_wound``)."""
    return bool(rulings.static_amounts(state, card, "ignore_wanderer_wound"))
