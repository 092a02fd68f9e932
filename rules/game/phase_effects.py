"""The effects of abilities used and general events played outside a combat's modification
step, one entry per effect kind: which actions offer it, what it does, and what the greedy
player thinks it is worth.

Pure Python. An ability used as an action (an income, wounding a wanderer: in the Action and
Development and Discard steps, while paying fines, or in a combat) or a general event played
in the Action and Development Phase has one of the effect kinds below; the card text that
makes it is recognised by its pattern in rules/game/effects.py (named in each entry's
docstring). ``engine`` asks :data:`KINDS` for the actions to offer and carries them out
through :func:`use_ability` and :func:`resolve_event`; ``policies._score`` and
``policies._play_bound`` weigh them through the entry, the forecasts greedy alone can make
passed in as a :class:`Valuer`. The effects of the modification step are in
rules/game/battle_effects.py, built the same way. A new effect kind is one more entry here or
there (docs/engine.md, "Adding a card ability").
"""

from __future__ import annotations

from typing import Final, Protocol

from rules.game import rulings
from rules.game.actions import Action
from rules.game.effects import Effect
from rules.game.profile import Ability, Profile
from rules.game.rulings import emit
from rules.game.state import DISCARDS, DRAWN, GameState
from rules.rng import GameRng

# What greedy gives an event that draws or searches a pile; and a bounty event (Bounty
# Proclamation) before a hunt expected to kill its target, besides the tokens it is expected
# to gain: after the personalities (policies._score; issue 39: scored 0 before).
DRAW_EVENT: Final = 7.0
BOUNTY_EVENT: Final = 10.0


class Valuer(Protocol):
    """What greedy can foresee for a phase effect's worth (policies)."""

    def bounty_gain(self, state: GameState, target: int, amount: int) -> float: ...


class PhaseEffect:
    """An effect kind used outside the modification step. An ability (``use``) or a general
    event (``play``) of the kind: the actions that offer it (none: not offered), what it
    does, its worth to the greedy player now, and the most that worth can be (``bound``:
    greedy skips the plays that cannot beat an ability's use)."""

    def add_uses(self, options: list[Action], state: GameState, instance: int,
                 ability: Ability) -> None:
        return None

    def event_options(self, state: GameState, instance: int, effect: Effect) -> list[Action]:
        return []

    def use(self, state: GameState, action: Action, effect: Effect) -> None:
        return None

    def play(self, state: GameState, instance: int, target: int, effect: Effect) -> None:
        return None

    def use_worth(self, state: GameState, action: Action, effect: Effect) -> float:
        return 0.0

    def play_worth(self, valuer: Valuer, state: GameState, action: Action, card: Profile,
                   effect: Effect) -> float:
        return 0.0

    def play_bound(self, card: Profile, effect: Effect) -> float:
        return DRAW_EVENT


class Collect(PhaseEffect):
    """"[<pay>:] collect N <kind> tokens ..." (effects: ``_collect``, ``_pay_collect``), an
    ability or an event: offered while the city's pool holds a kind it gives."""

    def add_uses(self, options: list[Action], state: GameState, instance: int,
                 ability: Ability) -> None:
        gains, city = ability.effect.gains, state.city
        if (gains[0] and city[0]) or (gains[1] and city[1]) or (gains[2] and city[2]):
            options.append(state.book().use(instance, ability.option))

    def event_options(self, state: GameState, instance: int, effect: Effect) -> list[Action]:
        return [Action("play", instance)] if any(
            g and state.city[k] for k, g in enumerate(effect.gains)) else []

    def use(self, state: GameState, action: Action, effect: Effect) -> None:
        self.play(state, action.card, -1, effect)

    def play(self, state: GameState, instance: int, target: int, effect: Effect) -> None:
        got = rulings.gain(state, effect.gains)
        if state.events is not None:
            emit(state, "collect", card=instance, tokens=got)

    def use_worth(self, state: GameState, action: Action, effect: Effect) -> float:
        # Income first: it may pay for this round's personality.
        return 100 + rulings.tokens(effect.gains) - rulings.tokens(effect.pay)

    def play_worth(self, valuer: Valuer, state: GameState, action: Action, card: Profile,
                   effect: Effect) -> float:
        # One that brings more tokens than it costs is income: played first, with the
        # income abilities (its tokens may pay for this round's personality).
        net = rulings.tokens(effect.gains) - card.total_cost
        return (100 if net > 0 else 12) + net

    def play_bound(self, card: Profile, effect: Effect) -> float:
        net = rulings.tokens(effect.gains) - card.total_cost
        return max(DRAW_EVENT, (100 if net > 0 else 12) + net)


class WoundWanderer(PhaseEffect):
    """"<pay>: target wanderer takes one wound" (effects: ``_pay_wound_wanderer``), an ability:
    on any player's wanderer (the text names no owner), its bounty paid when it dies."""

    def add_uses(self, options: list[Action], state: GameState, instance: int,
                 ability: Ability) -> None:
        options += [Action("use", instance, w, ability.option)
                    for w in rulings.row_wanderers(state)]

    def use(self, state: GameState, action: Action, effect: Effect) -> None:
        if rulings.wound(state, action.target, effect.amount):
            rulings.pay_bounty(state, action.target)
            rulings.remove_killed(state, action.target, "killed")

    def use_worth(self, state: GameState, action: Action, effect: Effect) -> float:
        # Only a kill is worth it: its bounty.
        target = action.target
        left = state.card(target).vitality - state.wounds.get(target, 0)
        return 50 + state.card(target).bounty if left <= effect.amount else 0


class Draw(PhaseEffect):
    """"Draw N cards from your personality (structure) draw pile" (effects: ``_draw_cards``), an
    event: offered while that pile has a card."""

    def event_options(self, state: GameState, instance: int, effect: Effect) -> list[Action]:
        return [Action("play", instance)] if state.mover().zones[_pile(effect)] else []

    def play(self, state: GameState, instance: int, target: int, effect: Effect) -> None:
        zone = state.mover().zones[_pile(effect)]
        for _ in range(effect.amount):
            if not zone:
                break
            drawn = zone[0]
            state.move(drawn, "hand")
            state.flags[drawn] |= DRAWN
            if state.events is not None:
                emit(state, "draw", card=drawn, pile=effect.keyword)

    def play_worth(self, valuer: Valuer, state: GameState, action: Action, card: Profile,
                   effect: Effect) -> float:
        return DRAW_EVENT


def _pile(effect: Effect) -> str:
    return "personality_pile" if effect.keyword == "personalities" else "structure_pile"


class SearchResidence(PhaseEffect):
    """"Search your structure draw pile for a structure with residencies and put it in your
    hand" (effects: ``_search_residence``), an event: the player looks through the pile and
    chooses, one action per card found, naming its copy with the lowest number (whatever the
    pile's order, which is hidden); the pile is shuffled after (a documented choice)."""

    def event_options(self, state: GameState, instance: int, effect: Effect) -> list[Action]:
        found: dict[str, int] = {}
        for i in sorted(state.mover().structure_pile):
            card_i = state.card(i)
            if card_i.residencies and card_i.subtype == "general":
                found.setdefault(card_i.id, i)
        return [Action("play", instance, i) for i in found.values()]

    def play(self, state: GameState, instance: int, target: int, effect: Effect) -> None:
        me = state.mover()
        pile = me.structure_pile
        state.move(target, "hand")
        state.flags[target] |= DRAWN
        rng = GameRng(me.rng)
        rng.shuffle(pile)
        me.rng = rng.state
        if state.events is not None:
            emit(state, "search", card=target, order=list(pile))

    def play_worth(self, valuer: Valuer, state: GameState, action: Action, card: Profile,
                   effect: Effect) -> float:
        return DRAW_EVENT


class BountyBonus(PhaseEffect):
    """"Target wanderer gains +N bounty until the end of the round" (effects: ``_bounty_bonus``;
    Bounty Proclamation), an event: on any player's wanderer; greedy plays it before a hunt
    for what the extra bounty on a wanderer it expects to kill brings."""

    def event_options(self, state: GameState, instance: int, effect: Effect) -> list[Action]:
        return [Action("play", instance, w) for w in rulings.row_wanderers(state)]

    def play(self, state: GameState, instance: int, target: int, effect: Effect) -> None:
        state.bounty_bonus[target] = state.bounty_bonus.get(target, 0) + effect.amount
        if state.events is not None:
            emit(state, "bounty_bonus", card=target, amount=effect.amount)

    def play_worth(self, valuer: Valuer, state: GameState, action: Action, card: Profile,
                   effect: Effect) -> float:
        expected = valuer.bounty_gain(state, action.target, effect.amount) - card.total_cost
        return BOUNTY_EVENT + expected if expected > 0 else 0

    def play_bound(self, card: Profile, effect: Effect) -> float:
        return BOUNTY_EVENT + effect.amount


class WoundStructure(PhaseEffect):
    """"Target structure other than a stronghold takes one wound" (effects: ``_wound_structure``;
    Rooftop Fire), an event: on any player's structure but a stronghold, his own first, then
    the others' from his left. Greedy does not weigh it (worth 0)."""

    def event_options(self, state: GameState, instance: int, effect: Effect) -> list[Action]:
        return [Action("play", instance, s) for seat in rulings.seat_order(state)
                for s in state.seats[seat].private if state.card(s).subtype != "stronghold"]

    def play(self, state: GameState, instance: int, target: int, effect: Effect) -> None:
        if rulings.wound(state, target, 1):
            rulings.remove_killed(state, target, "destroyed")


class ExhaustCitizens(PhaseEffect):
    """"Each player exhausts one of his citizens" (effects: ``_exhaust_citizen``; Bread
    Riot), an event: the player his choice (the action's target, or none when he has no
    ready citizen), each other player the one that costs him least (a choice made for him:
    rulings.cheapest_citizen), from the player's left. Greedy does not weigh it."""

    def event_options(self, state: GameState, instance: int, effect: Effect) -> list[Action]:
        targets = [c for c in state.mover().residents if c not in state.exhausted]
        return [Action("play", instance, c) for c in targets] or [Action("play", instance)]

    def play(self, state: GameState, instance: int, target: int, effect: Effect) -> None:
        chosen = [target] if target >= 0 else []
        for seat in rulings.seat_order(state)[1:]:
            citizen = rulings.cheapest_citizen(state, seat)
            if citizen >= 0:
                chosen.append(citizen)
        for citizen in chosen:
            state.exhausted.add(citizen)
            if state.events is not None:
                emit(state, "exhaust", card=citizen)


# Each effect kind used outside the modification step (effects.Effect.kind) and its entry.
KINDS: Final[dict[str, PhaseEffect]] = {
    "collect": Collect(), "wound_wanderer": WoundWanderer(), "draw": Draw(),
    "search_residence": SearchResidence(), "bounty_bonus": BountyBonus(),
    "wound_structure": WoundStructure(), "exhaust_citizens": ExhaustCitizens(),
}


def add_uses(options: list[Action], state: GameState) -> None:
    """Add the abilities the deciding player may use now outside the modification step."""
    holders: list[int] = []
    abilities: list[Ability] = []
    rulings.plain_usable(state, holders, abilities)
    for index in range(len(holders)):
        ability = abilities[index]
        entry = KINDS.get(ability.effect.kind)
        if entry is not None:
            entry.add_uses(options, state, holders[index], ability)


def use_ability(state: GameState, action: Action) -> tuple[Effect, int]:
    """Use the ability a legal "use" action names: pay its price, exhaust the card it
    exhausts, and carry out its effect when it is one of :data:`KINDS`. Returns the effect
    and the card using it: the effects of the modification step are the combat's to carry
    out (combat.apply, rules/game/battle_effects.py)."""
    effect, actor = rulings.pay_for_ability(state, action)
    entry = KINDS.get(effect.kind)
    if entry is not None:
        entry.use(state, action, effect)
    return effect, actor


def event_options(state: GameState, instance: int, card: Profile) -> list[Action]:
    """How a general event can be played now (no action when it would do nothing)."""
    if not card.abilities:
        return []
    effect = card.abilities[0].effect
    entry = KINDS.get(effect.kind)
    return [] if entry is None else entry.event_options(state, instance, effect)


def resolve_event(state: GameState, instance: int, target: int) -> None:
    """Carry out a general event's text, then discard it ("Events generally are discarded
    after use")."""
    card = state.card(instance)
    effect = card.abilities[0].effect
    state.move(instance, DISCARDS[card.pile])
    entry = KINDS.get(effect.kind)
    if entry is not None:
        entry.play(state, instance, target, effect)
