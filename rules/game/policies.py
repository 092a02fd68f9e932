"""Policies: who makes the player's choices. Separate from the rules, which only say what is
legal.

Pure Python. A policy is a callable ``(state, legal_actions) -> action``.

* :class:`RandomPolicy` picks uniformly among the legal actions with its own seeded RNG (for
  fuzzing the engine: every legal path gets taken sooner or later).
* :class:`GreedyPolicy` is the default heuristic, playing to reach the influence target fast:

  - **draws** a structure when the citizens in hand would not all find a residence (open
    residences plus the residences of structures in hand), otherwise a personality; it
    recycles a discard pile only when both draw piles are empty;
  - **acts** by using every income ability of citizens, structures, items and invocations
    first (troops keep theirs for the Discard Phase so that they fight unexhausted), then
    plays the best card it can afford, by this score: personalities by faction influence
    (troops only while it has fewer troops than wanderers in play plus one), structures when
    residences are short, income structures and events, a first wall, items on troops that
    lack that kind of item, income invocations; it never plays a card that only hurts itself;
  - **hunts** every wanderer that one of its unexhausted troops beats alone (else the one with
    the biggest bounty that they all beat together by 2), sends every unexhausted troop;
    each attacks alone when its offense beats the target's defense, otherwise it joins the
    attack where it adds most (offense minus defense, before the die);
  - **defends** with every unexhausted troop, assigning by the same rule, and uses Fear on
    the strongest wanderer;
  - **pays fines** with a token of the kind it holds most of (ties: not the kind it keeps for
    the five-members bonus) while it has tokens, otherwise with its cheapest card in play;
  - **discards** cards it can never play (interrupts and other no-effect events, a second
    wall, a dead or duplicate unique), after using its troops' income abilities.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.game import combat, rulings
from rules.game.actions import Action
from rules.game.profile import Profile
from rules.game.state import GameState
from rules.rng import GameRng

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
        if state.bounty_due:
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
        return _find(actions, "done") or actions[-1]


POLICIES: dict[str, Callable[[int], Policy]] = {"greedy": GreedyPolicy, "random": RandomPolicy}


def _find(actions: Sequence[Action], kind: str) -> Action:
    for action in actions:
        if action.kind == kind:
            return action
    return actions[-1]


def _draw_choice(state: GameState, actions: Sequence[Action]) -> Action:
    draws = {a.option: a for a in actions if a.kind == "draw"}
    if not draws:
        return actions[0]
    hand = [state.card(i) for i in state.zones["hand"]]
    citizens = sum(1 for c in hand if c.is_citizen)
    homes = len(rulings.open_residences(state)) + sum(
        c.residencies for c in hand if c.type == "structure" and c.subtype == "general")
    want = "structures" if citizens + 1 > homes else "personalities"
    return draws.get(want) or next(iter(draws.values()))


def _act_choice(state: GameState, actions: Sequence[Action]) -> Action:
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
    # A play's score depends on the card, and on its target only for items (a citizen
    # scores the same on any residence, a troop on any structure it guards): the placements
    # of one card come together, so each card is scored once (a second copy of a card is
    # never offered). Uses and items are scored one by one.
    last_card, last_guard, last_score = -1, False, 0.0
    for action in actions:
        if action.kind == "play" and state.card(action.card).type != "item":
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
    return best or _find(actions, "pass")


class _Context:
    """Figures every candidate of one decision shares, worked out at most once."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._troops: int | None = None
        self._short: int | None = None
        self._slots: dict[int, list[str | None]] | None = None

    @property
    def troops(self) -> int:
        if self._troops is None:
            state = self.state
            self._troops = sum(1 for t in state.zones["defensive"] if state.card(t).is_troop)
        return self._troops

    def slots(self, host: int) -> list[str | None]:
        """The subtypes of the cards attached to ``host``."""
        if self._slots is None:
            state = self.state
            self._slots = {}
            for attached in state.zones["attached"]:
                self._slots.setdefault(state.host.get(attached, -1), []).append(
                    state.card(attached).subtype)
        return self._slots.get(host, [])

    @property
    def short_of_homes(self) -> int:
        """Citizens in hand beyond the open residences."""
        if self._short is None:
            state = self.state
            citizens = sum(1 for i in state.zones["hand"] if state.card(i).is_citizen)
            self._short = citizens - len(rulings.open_residences(state))
        return self._short


def _score(state: GameState, action: Action, context: _Context) -> float:
    if action.kind == "use":
        holder = state.card(action.card)
        if holder.is_troop:
            return 0  # troops use their income after the fighting (Discard Phase)
        ability = holder.ability(action.option)
        if ability.effect.kind == "wound_wanderer":
            target = action.target
            left = state.card(target).vitality - state.wounds.get(target, 0)
            return 50 + state.card(target).bounty if left <= ability.effect.amount else 0
        return 100 + sum(ability.effect.gains) - sum(ability.effect.pay)
    if action.kind != "play":
        return 0
    card = state.card(action.card)
    cost = card.total_cost * 0.1
    if card.type == "personality":
        if card.is_troop:
            if action.target >= 0 or context.troops > len(state.zones["wanderers"]):
                return 0
            return 10 + card.influence * 3 + (card.offense + card.defense) * 0.5 - cost
        return 20 + card.influence * 4 + card.income - cost
    if card.type == "structure":
        if card.subtype == "wall":
            return 6 - cost
        value = 8 * min(max(context.short_of_homes, 0), card.residencies) + 2 * card.income
        return value + (1 if card.residencies else 0) - cost if value else 0
    if card.type == "item":
        host = state.card(action.target)
        if card.abilities and host.type == "personality" and card.income:
            return 5
        if not host.is_troop:
            return 0
        slot = card.subtype or "other"
        return 0 if slot in context.slots(action.target) else \
            3 + card.offense + card.defense - cost
    if card.type == "invocation":
        return 5 + card.income if card.income else 0
    if card.type == "event":
        effect = card.abilities[0].effect
        if effect.kind == "collect":
            return 12 + sum(effect.gains) - card.total_cost
        if effect.kind in ("draw", "search_residence"):
            return 7
    return 0



def _play_bound(card: Profile) -> float:
    """The most :func:`_score` gives for playing ``card``, whatever the table (a test checks
    it against every play of many games)."""
    cost = card.total_cost * 0.1
    if card.type == "personality":
        if card.is_troop:
            return 10 + card.influence * 3 + (card.offense + card.defense) * 0.5 - cost
        return 20 + card.influence * 4 + card.income - cost
    if card.type == "structure":
        if card.subtype == "wall":
            return 6 - cost
        return max(0, 8 * card.residencies + 2 * card.income + 1 - cost)
    if card.type == "item":
        return max(5, 3 + card.offense + card.defense - cost)
    if card.type == "invocation":
        return 5 + card.income
    if card.type == "event" and card.abilities:
        effect = card.abilities[0].effect
        if effect.kind == "collect":
            return max(7, 12 + sum(effect.gains) - card.total_cost)
        return 7
    return 0


def _ready_offense(state: GameState) -> int:
    return sum(state.card(t).offense for t in state.zones["defensive"]
               if state.card(t).is_troop and t not in state.exhausted)


def _toughness(state: GameState, wanderer: int) -> int:
    card = state.card(wanderer)
    return card.defense + (2 if "flight" in card.keywords else 0)


def _huntable(state: GameState) -> list[int]:
    """The wanderers to hunt: each that a ready troop of its own beats (strongest wanderers
    matched first, each with the weakest troop that beats it), else the one with the biggest
    bounty that all ready troops together beat by 2."""
    ready = sorted(state.card(t).offense for t in state.zones["defensive"]
                   if state.card(t).is_troop and t not in state.exhausted)
    row = sorted(state.zones["wanderers"], key=lambda w: (-_toughness(state, w), w))
    chosen = []
    for wanderer in row:
        match = next((o for o in ready if o > _toughness(state, wanderer)), None)
        if match is not None:
            ready.remove(match)
            chosen.append(wanderer)
    if chosen:
        return chosen
    total = _ready_offense(state)
    together = [w for w in row if total >= _toughness(state, w) + 2]
    return [max(together, key=lambda w: (state.card(w).bounty, -w))] if together else []


def _worth_hunting(state: GameState) -> bool:
    return bool(_huntable(state))


def _combat_choice(state: GameState, actions: Sequence[Action]) -> Action:
    assert state.combat is not None
    step = state.combat.step
    if step == "engage":
        wanted = _huntable(state)
        for action in actions:
            if action.kind == "engage" and action.card in wanted:
                return action
        return _find(actions, "done")
    if step == "muster":
        sends = [a for a in actions if a.kind == "send" and a.option != "pay"]
        return sends[0] if sends else _find(actions, "done")
    if step in ("assign", "berserk"):
        choices = [a for a in actions if a.kind in ("separate", "joint", "berserk")]
        if not choices:
            return _find(actions, "done")
        # Alone when it beats the target (each separate attack is one more chance to wound,
        # and a ranged attacker keeps striking first); otherwise the joint attack it helps most.
        best: Action | None = None
        best_key = (False, False, 0)
        for action in choices:
            margin = combat.margin(state, action)
            key = (margin >= 1, action.kind != "joint", margin)
            if best is None or key > best_key:  # the first of equals, as max() picks
                best, best_key = action, key
        assert best is not None
        return best
    if step == "modify":
        fears = [a for a in actions if a.kind == "fear"]
        if fears:
            return max(fears, key=lambda a: (state.card(a.target).offense, -a.target))
        return _find(actions, "done")
    return _find(actions, "done")


def _fine_choice(state: GameState, actions: Sequence[Action]) -> Action:
    for action in actions:  # income first: it may bring the token that pays
        if action.kind == "use" and state.card(action.card).ability(
                action.option).effect.kind == "collect":
            return action
    tokens = [a for a in actions if a.kind == "fine" and a.card < 0]
    if tokens:
        favour = state.favour
        return max(tokens, key=lambda a: (state.personal[rulings.KIND_INDEX[a.option]],
                                          rulings.KIND_INDEX[a.option] != favour))
    cards = [a for a in actions if a.kind == "fine"]
    return min(cards, key=lambda a: (state.card(a.card).influence * 3
                                     + state.card(a.card).total_cost, a.card))


def _bounty_choice(state: GameState, actions: Sequence[Action]) -> Action:
    """The kind that counts most: the kind kept for the five-members bonus, else the kind
    held fewest of."""
    favour = state.favour
    return min(actions, key=lambda a: (rulings.KIND_INDEX[a.option] != favour,
                                       state.personal[rulings.KIND_INDEX[a.option]]))


def _discard_choice(state: GameState, actions: Sequence[Action]) -> Action:
    for action in actions:
        if action.kind == "use" and state.card(action.card).is_troop:
            holder = state.card(action.card)
            ability = holder.ability(action.option)
            if ability.effect.kind == "collect":
                return action
    for action in actions:
        if action.kind == "discard" and _dead_card(state, action.card):
            return action
    return _find(actions, "done")


def _dead_card(state: GameState, instance: int) -> bool:
    card = state.card(instance)
    if card.type == "event":
        return card.subtype == "interrupt" or not card.abilities or card.abilities[0].effect.kind \
            in ("no_solo_effect", "wound_own_structure", "exhaust_own_citizen")
    if card.subtype == "wall":
        return any(state.card(i).subtype == "wall" for i in state.zones["defensive"])
    if card.unique:
        return any(state.cards[i] == card.id and (state.in_play(i) or state.where[i] == "dead")
                   for i in range(len(state.cards)))
    return card.subtype == "stronghold"
