"""The effects used in a combat's modification step, one entry per effect kind: which cards it
is offered on, what it does, and what the greedy player thinks it is worth.

Pure Python. An ability used in the modification step (Fervor and Pray aside, which are
keywords: rules/game/combat.py) or a battle event played there has one of the effect kinds
below; the card text that makes it is recognised by its pattern in rules/game/effects.py
(named in each entry's docstring). ``combat._modify_options`` asks :data:`KINDS` which actions
to offer, ``combat`` carries them out through the entry, and ``policies._weigh_modification``
weighs them through it, with the fight's forecast as a :class:`Valuer`. A new battle effect is
one more entry here (docs/engine.md, "Adding a card ability").
"""

from __future__ import annotations

from typing import Final, Protocol

from rules.game import rulings
from rules.game.effects import Effect
from rules.game.rulings import emit
from rules.game.state import Combat, GameState

NO_TARGET: Final = [-1]  # offered once, with no target
PLAYER_SIDE: Final = 0  # (combat.PLAYER: side 0 is the player's, 1 the wanderers')


class Valuer(Protocol):
    """What a modification adds to the fight's expected value (policies.Fight)."""

    def boost_gain(self, boost_off: dict[int, int] | None, boost_def: dict[int, int] | None,
                   feared: int = -1) -> float: ...

    def grant_gain(self, actor: int, keyword: str) -> float: ...

    def held_line(self, mine: list[int]) -> float: ...

    def rallied(self, mine: list[int]) -> float: ...


class BattleEffect:
    """An effect kind of the modification step. An ability (``use``) or a battle event
    (``play``) of the kind: the targets it is offered on (empty: not offered), what it does,
    and its worth to the greedy player (None: it does not weigh it)."""


    def ability_targets(self, state: GameState, effect: Effect, actor: int,
                        mine: list[int]) -> list[int]:
        return []

    def event_targets(self, state: GameState, effect: Effect, mine: list[int]) -> list[int]:
        return []

    def use(self, state: GameState, c: Combat, effect: Effect, actor: int,
            target: int) -> None:
        return None

    def play(self, state: GameState, c: Combat, effect: Effect, target: int, mine: list[int],
             side: int) -> None:
        return None

    def use_worth(self, fight: Valuer, effect: Effect, actor: int,
                  target: int) -> float | None:
        return None

    def play_worth(self, fight: Valuer, effect: Effect, target: int,
                   mine: list[int]) -> float | None:
        return None


class Grant(BattleEffect):
    """"<pay>: bearer gains Flight (Fleetfoot, Ranged, Armor, Endurance) ..." (effects:
    ``_pay_keyword``): an ability of a troop in the fight that has not the keyword already."""


    def ability_targets(self, state: GameState, effect: Effect, actor: int,
                        mine: list[int]) -> list[int]:
        if actor not in mine or effect.keyword in rulings.keywords(state, actor):
            return []
        return NO_TARGET

    def use(self, state: GameState, c: Combat, effect: Effect, actor: int,
            target: int) -> None:
        c.granted.setdefault(actor, []).append(effect.keyword)
        state.forget_derived()

    def use_worth(self, fight: Valuer, effect: Effect, actor: int,
                  target: int) -> float | None:
        return fight.grant_gain(actor, effect.keyword)


class SelfDefense(BattleEffect):
    """"<pay>: bearer gains +N defense until the end of the combat" (effects:
    ``_pay_defense``): an ability of a troop in the fight."""


    def ability_targets(self, state: GameState, effect: Effect, actor: int,
                        mine: list[int]) -> list[int]:
        return NO_TARGET if actor in mine else []

    def use(self, state: GameState, c: Combat, effect: Effect, actor: int,
            target: int) -> None:
        c.bonus_def[actor] = c.bonus_def.get(actor, 0) + effect.amount

    def use_worth(self, fight: Valuer, effect: Effect, actor: int,
                  target: int) -> float | None:
        return fight.boost_gain(None, {actor: effect.amount})


class TroopOffense(BattleEffect):
    """"<pay>: target troop gains +N offense until the end of the combat" (effects:
    ``_pay_target_offense``), an ability; "target troop of yours (with ranged) gains +N
    offense ..." (``_own_troop_offense``, ``_ranged_troop_offense``), a battle event: on each
    of the player's troops in the fight (an event's keyword, if it names one, on the troops
    that have it)."""


    def ability_targets(self, state: GameState, effect: Effect, actor: int,
                        mine: list[int]) -> list[int]:
        return list(mine)

    def event_targets(self, state: GameState, effect: Effect, mine: list[int]) -> list[int]:
        return [t for t in mine
                if not effect.keyword or effect.keyword in rulings.keywords(state, t)]

    def use(self, state: GameState, c: Combat, effect: Effect, actor: int,
            target: int) -> None:
        c.bonus_off[target] = c.bonus_off.get(target, 0) + effect.amount

    def play(self, state: GameState, c: Combat, effect: Effect, target: int, mine: list[int],
             side: int) -> None:
        c.bonus_off[target] = c.bonus_off.get(target, 0) + effect.amount

    def use_worth(self, fight: Valuer, effect: Effect, actor: int,
                  target: int) -> float | None:
        return fight.boost_gain({target: effect.amount}, None)

    def play_worth(self, fight: Valuer, effect: Effect, target: int,
                   mine: list[int]) -> float | None:
        return fight.boost_gain({target: effect.amount}, None)


class AllDefense(BattleEffect):
    """"Each of your troops in this combat gains +N defense" (effects: ``_all_defense``): a
    battle event."""


    def event_targets(self, state: GameState, effect: Effect, mine: list[int]) -> list[int]:
        return NO_TARGET if mine else []

    def play(self, state: GameState, c: Combat, effect: Effect, target: int, mine: list[int],
             side: int) -> None:
        for troop in mine:
            c.bonus_def[troop] = c.bonus_def.get(troop, 0) + effect.amount

    def play_worth(self, fight: Valuer, effect: Effect, target: int,
                   mine: list[int]) -> float | None:
        return fight.boost_gain(None, dict.fromkeys(mine, effect.amount))


class HoldTheLine(BattleEffect):
    """"Your troops in this combat do not become exhausted for taking a wound" (effects:
    ``_hold_the_line``; Hold the Line): a battle event."""


    def event_targets(self, state: GameState, effect: Effect, mine: list[int]) -> list[int]:
        return NO_TARGET if mine else []

    def play(self, state: GameState, c: Combat, effect: Effect, target: int, mine: list[int],
             side: int) -> None:
        if side == PLAYER_SIDE:
            c.hold_line = True
        else:
            c.hold_wild = True

    def play_worth(self, fight: Valuer, effect: Effect, target: int,
                   mine: list[int]) -> float | None:
        return fight.held_line(mine)


class HealTroops(BattleEffect):
    """"Remove one wound counter from each of your troops in this combat" (effects:
    ``_rally``; Rally the Veterans): a battle event, offered while one of the player's troops
    in the fight is wounded."""


    def event_targets(self, state: GameState, effect: Effect, mine: list[int]) -> list[int]:
        if not mine or not any(state.wounds.get(t) for t in mine):
            return []
        return NO_TARGET

    def play(self, state: GameState, c: Combat, effect: Effect, target: int, mine: list[int],
             side: int) -> None:
        for troop in mine:
            if state.wounds.get(troop):
                state.wounds[troop] -= 1
                if state.events is not None:
                    emit(state, "heal", card=troop)

    def play_worth(self, fight: Valuer, effect: Effect, target: int,
                   mine: list[int]) -> float | None:
        return fight.rallied(mine)


# Each effect kind of the modification step (effects.Effect.kind) and its entry.
KINDS: Final[dict[str, BattleEffect]] = {
    "grant": Grant(), "self_defense": SelfDefense(), "troop_offense": TroopOffense(),
    "all_defense": AllDefense(), "no_wound_exhaustion": HoldTheLine(),
    "heal_troops": HealTroops(),
}
