"""Combat by the rulebook's "Combat" section: the hunt and the wanderers' attack (the raid).

Pure Python. A combat runs through steps, each a decision of the player or automatic:

``engage`` (hunt: pick the wanderers to hunt) or ``bribe`` (raid: pay a Bribery wanderer to go
home) → ``muster`` (send troops; an exhausted one costs 3 tokens; a raid brings the wall) →
``assign`` (raid: attackers fill the wall first; then the sides take turns, the attacker first,
each assigning one card: a separate attack, or joining its side's attack as a joint attack) →
``modify`` (abilities and battle events) → resolution (one die per attack; ranged attacks, then
fleetfoot attacks, then the rest) → ``berserk`` (a second, berserk-only round) → ``over``.

The combat knows nothing of the phases around it: once it is ``over`` the engine takes the
game on (the Wanderer Phase after a hunt, the fines after a raid). A destroyed stronghold ends
the game there and then (:func:`rules.game.rulings.end_game`).

In solo play nobody controls the wanderers, so they follow a fixed rule, written in
:func:`_wild_choice` and in rules/COVERAGE.md: fill the wall with the weakest, then each
wanderer (strongest first) attacks the target it beats by most, else joins the attack it can
tip over, else attacks the weakest target.
"""

from __future__ import annotations

from typing import Final, Literal

from rules.game import battle_effects, phase_effects, rulings, static_effects
from rules.game.actions import Action
from rules.game.effects import Effect
from rules.game.rulings import emit
from rules.game.state import OFFERED, PLAYED, Combat, GameState
from rules.rng import GameRng, keyed_state

PLAYER: Final = 0
WILD: Final = 1
# The step after the defender's muster in which an attacking lord may bribe a defending troop
# with Bribery ("bribes should be paid before assignments are made").
BRIBE_BACK: Final = "bribe_back"
MOVE_EXHAUSTED_COST: Final = 3
DIE_OFFENSE: Final = {1: 1, 2: 2}
DIE_DEFENSE: Final = {5: 1, 6: 2}


class Attack:
    """An attack as policies foresee it (forecast): side, target, attackers, each attacker's
    offense, whether each is ready, the target's defense, resolution step, wounds per hit.
    A small class rather than a tuple: compiled, each read of a tuple from a list unpacked
    all eight of its items again (the fight's value reads every attack four times), where an
    attribute is read natively."""

    __slots__ = ("defense", "group", "members", "offenses", "ready", "side", "size", "step",
                 "target", "wounds")

    def __init__(self, side: int, target: int, members: list[int], offenses: list[int],
                 ready: list[bool], defense: int, step: int, wounds: int) -> None:
        self.side = side
        self.target = target
        self.members = members
        self.offenses = offenses
        self.ready = ready
        self.defense = defense
        self.step = step
        self.wounds = wounds
        # The group it was made from and the group's size then (forecast while assigning).
        self.group: list[int] = _NO_GROUP
        self.size = 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Attack):
            return NotImplemented
        return self.fields() == other.fields()

    def __repr__(self) -> str:
        return f"Attack{self.fields()!r}"

    def fields(self) -> tuple[int, int, list[int], list[int], list[bool], int, int, int]:
        """(side, target, members, offenses, ready, defense, step, wounds)."""
        return (self.side, self.target, self.members, self.offenses, self.ready, self.defense,
                self.step, self.wounds)


_NO_GROUP: Final[list[int]] = []


# --- starting ------------------------------------------------------------------------------


def can_hunt(state: GameState) -> bool:
    me = state.player_seat()
    return bool(me.zones["wanderers"]) and bool(_available_troops(state))


def _available_troops(state: GameState) -> list[int]:
    me = state.player_seat()
    can_pay = rulings.held(state) >= MOVE_EXHAUSTED_COST
    return [t for t in me.defensive if state.card(t).is_troop
            and (t not in state.exhausted or can_pay)]


def start_hunt(state: GameState, row: int = -1) -> None:
    """The player hunts his own wanderer row, or ``row``'s (another seat's)."""
    state.combat = Combat(kind="hunt", step="engage", row=row)
    if state.events is not None:
        emit(state, "hunt_declared")


def start_raid(state: GameState, wanderers: list[int]) -> None:
    combat = Combat(kind="raid", step="bribe", wild=list(wanderers), turn=WILD)
    state.combat = combat
    if state.events is not None:
        emit(state, "wanderers_attack", cards=list(wanderers))


# --- options -------------------------------------------------------------------------------


def options(state: GameState) -> list[Action]:
    me = state.player_seat()
    c = _combat(state)
    step = c.step
    if step == "engage":
        return [*(Action("engage", w) for w in state.row() if not listed(c.wild, w)),
                Action("done")]
    if step == "bribe":
        bribes = [Action("bribe", w) for w in c.wild if "bribery" in rulings.keywords(state, w)
                  and rulings.held(state) >= _bribe_cost(state, w)]
        return [*bribes, Action("done")] if bribes else []
    if step == BRIBE_BACK:
        # The attacking lord (the seat deciding) bribes a defending troop with Bribery, from
        # his own pool.
        bribes = [Action("bribe", t) for t in c.player
                  if "bribery" in rulings.keywords(state, t)
                  and rulings.held(state) >= _bribe_cost(state, t)]
        return [*bribes, Action("done")] if bribes else []
    if step == "muster":
        can_pay = rulings.held(state) >= MOVE_EXHAUSTED_COST
        sends = [Action("send", t, option="pay" if t in state.exhausted else "")
                 for t in me.defensive if state.card(t).is_troop
                 and not listed(c.player, t) and (t not in state.exhausted or can_pay)]
        return [*sends, Action("done")] if sends else []
    if step == "assign":
        if c.turn != PLAYER:
            # An attacking lord's own assignments, or the wanderers' controller's
            # (Combat.asks_wild); else the wanderers' fixed rule (step_automatic).
            return _assign_options(state, WILD, _engaged(c)) if c.asks_wild else []
        engaged = _engaged(c)  # (its keys: every card in an attack)
        found = _assign_options(state, PLAYER, engaged)
        # Defender: "Bearer *may* fight two enemies": once each card left has made one
        # assignment, the player may stop ("done").
        if found and all(a.card in engaged for a in found):
            found.append(Action("done"))
        return found
    if step == "modify":
        seat = modifier(state)
        if seat == state.player:
            return [*_modify_options(state, PLAYER), Action("done")]
        if not _modifies_wild(c, seat):
            # Another player: only a rival ability of his may modify this combat (the table
            # offers it, rules/game/seats.py); without one he passes at once.
            return [Action("done")] if seat in c.rivals else []
        return [*_modify_options(state, WILD), Action("done")]  # (he is the mover)
    if step == "berserk":
        found = _berserk_options(state, PLAYER)
        return [*found, Action("done")] if found else []
    return []


def listed(items: list[int], card: int) -> bool:
    """``card in items``, for the short lists of card numbers of a combat: compiled, ``in``
    on a list compares boxed numbers one by one through the generic protocol; ``any`` of
    a generator is compiled into a loop that compares them natively
    (tests/rules/game/test_engine_shortcuts.py checks they agree)."""
    return any(item == card for item in items)


def _combat(state: GameState) -> Combat:
    assert state.combat is not None
    return state.combat


def _bribe_cost(state: GameState, card: int) -> int:
    """"The influence cost to bribe a wanderer is its bounty" (with a bonus of this round and
    what it hoarded: rulings.bounty), "while a troop's cost is his faction influence (or one
    token, if he has no faction influence)": a troop is only in ``wild`` as another lord's
    attacker at a table. At least one token."""
    profile = state.card(card)
    if profile.is_troop:
        return max(1, profile.influence)
    return max(1, rulings.bounty(state, card))


def bribe_cost(state: GameState, card: int) -> int:
    """What bribing ``card`` costs now (for policies)."""
    return _bribe_cost(state, card)


# --- applying the player's choices ---------------------------------------------------------


def modifier(state: GameState) -> int:
    """The seat whose turn of the modification step it is (the state's own player, solo)."""
    c = _combat(state)
    return c.modifiers[c.modifier] if c.modifiers else state.player


def _lord_attacks(state: GameState) -> bool:
    """Whether the wild side is a lord's troops attacking (not wanderers), asked by him."""
    c = _combat(state)
    return c.asks_wild and bool(c.modifiers) and bool(c.wild) \
        and state.card(c.wild[0]).type != "wanderer"


def decider(state: GameState) -> int:
    """The seat that decides the combat now: the state's own player, or an attacking lord at
    his turn (his assignments, his turn of the modification step)."""
    c = _combat(state)
    if not c.modifiers:
        return state.player
    if c.step == "modify":
        return c.modifiers[c.modifier]
    if not c.asks_wild:
        return state.player
    if (c.step == "assign" and c.turn == WILD) or c.step == BRIBE_BACK:
        return c.modifiers[0]
    return state.player


def _modifies_wild(c: Combat, seat: int) -> bool:
    """Whether ``seat`` is the lord of the wild side (the attacker: first in the rotation)."""
    return c.asks_wild and bool(c.modifiers) and c.modifiers[0] == seat


def modified(state: GameState) -> None:
    """A modification made outside the combat (a rival ability at the table): the turn goes
    on to the next seat of the rotation."""
    _next_modifier(_combat(state), False)


def _next_modifier(c: Combat, passed: bool) -> None:
    """The modification step's turn goes left; it ends once every seat passed in a row."""
    rotation = len(c.modifiers) or 1
    c.passes = c.passes + 1 if passed else 0
    if c.passes >= rotation:
        c.step = "resolve"
        return
    c.modifier = (c.modifier + 1) % rotation


def apply(state: GameState, action: Action) -> None:
    c = _combat(state)
    if c.step == BRIBE_BACK:
        if action.kind == "done":
            skip_step(state)
            return
        _bribe(state, action.card, PLAYER)  # (the attacker, deciding, pays)
        return
    if c.step == "modify":
        seat = modifier(state)
        if seat == state.player:
            _modify(state, action, PLAYER)
        elif action.kind != "done":
            _modify(state, action, WILD)  # (the attacker, deciding, pays from his pool)
        _next_modifier(c, action.kind == "done")
        return
    kind = action.kind
    if kind == "done":
        if c.step == "assign":
            c.declined = True
        skip_step(state)
    elif kind == "engage":
        c.wild.append(action.card)
        if state.events is not None:
            emit(state, "engage", card=action.card)
    elif kind == "bribe":
        _bribe(state, action.card, WILD)
    elif kind == "send":
        if action.option == "pay":
            rulings.spend(state, MOVE_EXHAUSTED_COST)
        c.player.append(action.card)
        if state.events is not None:
            emit(state, "send", card=action.card, paid=action.option == "pay")
    elif kind in ("separate", "joint"):
        side = c.turn  # the player's, or the wild side's controller's (Combat.asks_wild)
        _assign(state, side, action)
        _pass_turn(state, side)
    elif kind == "berserk":
        c.berserked.append(action.card)
        _new_group(state, PLAYER, action.card, action.target)


def _modify(state: GameState, action: Action, side: int) -> None:
    """One modification by ``side``'s lord (the state's mover while he makes it)."""
    c = _combat(state)
    kind = action.kind
    if kind == "use":
        effect, actor = phase_effects.use_ability(state, action)
        _use_combat_effect(state, actor, effect, action.target)
    elif kind == "play":
        _battle_event(state, action, side)
    elif kind == "charge":
        c.charged[action.card] = c.charged.get(action.card, 0) + 1
        if state.events is not None:
            emit(state, "charge", card=action.card)
    elif kind == "fervor":
        _spend_religious(state, action.card, action.card, "offense", "fervor")
    elif kind == "pray":
        _spend_religious(state, action.card, action.target, action.option, "pray")
        c.prayed.append(action.target)
    elif kind == "fear":
        c.feared[side] = action.target
        _exhaust_if_printed(state, action.card, "fear")
        if state.events is not None:
            emit(state, "fear", card=action.card, target=action.target)


def _bribe(state: GameState, card: int, side: int) -> None:
    """The mover bribes ``card`` of ``side`` home: "Bearer returns home immediately from the
    combat ... Bribes remain on bearer" (collected with its bounty or by its killer's lord),
    not in the city."""
    me = state.mover()
    c = _combat(state)
    cost = _bribe_cost(state, card)
    before = list(me.personal)
    rulings.spend(state, cost)
    paid = [before[k] - me.personal[k] for k in range(3)]
    for k in range(3):
        state.city[k] -= paid[k]
    tokens = state.on_card.setdefault(card, [0, 0, 0])
    for k in range(3):
        tokens[k] += paid[k]
    (c.player if side == PLAYER else c.wild).remove(card)
    if state.events is not None:
        emit(state, "bribe", card=card, tokens=paid)


def _spend_religious(state: GameState, bearer: int, target: int, stat: str,
                     how: Literal["pray", "fervor"]) -> None:
    me = state.mover()
    c = _combat(state)
    amount = min(state.card(bearer).strength[1], me.personal[1])
    me.personal[1] -= amount
    state.city[1] += amount
    bonus = c.bonus_off if stat == "offense" else c.bonus_def
    bonus[target] = bonus.get(target, 0) + amount
    c.granted.setdefault(bearer, []).append(f"used-{how}")
    _exhaust_if_printed(state, bearer, how)
    if state.events is not None:
        emit(state, how, card=bearer, target=target, stat=stat, amount=amount)


def _exhaust_if_printed(state: GameState, card: int, keyword: str) -> None:
    if keyword in state.card(card).exhausting:
        state.exhausted.add(card)


def skip_step(state: GameState) -> None:
    """The step has no decision left (or the player said done): go on to the next one."""
    c = _combat(state)
    step = c.step
    if step == "engage":
        if not c.wild:
            _end(state)
            return
        c.step = "muster"
    elif step == "bribe":
        c.step = "muster"
    elif step == "muster":
        if c.kind == "hunt" and not c.player:
            if state.events is not None:
                emit(state, "hunt_abandoned")
            _end(state)
            return
        if _lord_attacks(state) and any("bribery" in rulings.keywords(state, t)
                                        for t in c.player):
            c.step = BRIBE_BACK  # "Bribes should be paid before assignments are made."
            return
        _begin_assignments(state)
    elif step == BRIBE_BACK:
        _begin_assignments(state)
    elif step == "assign":
        if c.turn == PLAYER and _can_assign(state, WILD):
            c.turn = WILD
        else:
            c.step = "modify"
            _wild_modifies(state)
    elif step == "modify":
        _next_modifier(c, True)  # a seat with nothing to modify with passes
    elif step == "berserk":
        c.step = "resolve"
        c.berserk = True


def step_automatic(state: GameState) -> bool:
    """Carry out one automatic part of the combat (the wanderers' turn, the resolution);
    False when the player has to decide."""
    c = _combat(state)
    if c.step == "assign" and c.turn == WILD:
        if c.asks_wild:
            if _can_assign(state, WILD):
                return False  # the attacking lord assigns (options)
            choice = None
        else:
            choice = _wild_choice(state)
        if choice is None:
            if _can_assign(state, PLAYER):
                c.turn = PLAYER
            else:
                c.step = "modify"
                _wild_modifies(state)
            return True
        _assign(state, WILD, choice)
        _pass_turn(state, WILD)
        return True
    if c.step == "resolve":
        _resolve(state)
        if state.outcome:
            return True
        if not c.berserk and _start_berserk(state):
            return True
        _end(state)
        return True
    return False


def _pass_turn(state: GameState, side: int) -> None:
    c = _combat(state)
    # (The wanderers have a choice exactly when they have an option: _wild_choice.)
    if side == WILD and c.wall_left > 0 and _can_assign(state, WILD):
        return  # the wall is filled before any other assignment
    other = 1 - side
    if other == WILD:
        if _can_assign(state, WILD):
            c.turn = WILD
        elif not _can_assign(state, PLAYER):
            c.step = "modify"
            _wild_modifies(state)
    else:
        c.turn = PLAYER if _can_assign(state, PLAYER) else WILD


# --- assignments ---------------------------------------------------------------------------


def _begin_assignments(state: GameState) -> None:
    me = state.player_seat()
    c = _combat(state)
    c.step = "assign"
    if c.kind == "raid":
        walls = [w for w in me.defensive if state.card(w).subtype == "wall"]
        if walls:
            c.wall = walls[0]
            c.wall_left = min(state.card(c.wall).residencies, len(c.wild))
            if state.events is not None:
                emit(state, "wall_moves", card=c.wall, blocks=state.card(c.wall).residencies)
        c.turn = WILD
    else:
        c.turn = PLAYER
    if state.events is not None:
        emit(state, "battlefield", player=list(c.player), wanderers=list(c.wild))


def _side_cards(state: GameState, side: int) -> list[int]:
    c = _combat(state)
    return c.player if side == PLAYER else c.wild


def _slots(state: GameState, card: int) -> int:
    return 2 if "defender" in rulings.keywords(state, card) else 1


def _used(state: GameState, card: int) -> int:
    count = 0
    for group in _combat(state).groups:
        if _member(group, card):
            count += 1
    return count


def _member(group: list[int], card: int) -> bool:
    """Whether ``card`` attacks in ``group`` ([side, target, lead, joiners...]), without
    slicing the group: this is asked for every card and group at every assignment."""
    return any(group[index] == card for index in range(2, len(group)))


def _unassigned(state: GameState, side: int,
                engaged: dict[int, list[int]] | None = None) -> list[int]:
    """The side's cards that may still make an assignment (``engaged``: :func:`_engaged`,
    when the caller has it)."""
    if engaged is None:
        engaged = _engaged(_combat(state))
    if side == PLAYER and _combat(state).declined:
        return [x for x in _side_cards(state, side) if _alive(state, x) and x not in engaged]
    found: list[int] = []
    for x in _side_cards(state, side):
        if _alive(state, x):
            targets = engaged.get(x)
            if targets is None or len(targets) < _slots(state, x):
                found.append(x)
    return found


def _engaged(c: Combat) -> dict[int, list[int]]:
    """The targets of the attacks each card is in, in one pass over the groups (what _used
    and _member ask card by card): the assignment options need it for every card, several
    times a decision, so it is remembered (Combat.engaged_memo: read it, never change it),
    brought up to date by a new group (:func:`_engage_last`) and dropped by any other change
    of the groups."""
    known = c.engaged_memo
    if known is not None:
        return known
    engaged: dict[int, list[int]] = {}
    c.engaged_memo = engaged
    for group in c.groups:
        target = group[1]
        for index in range(2, len(group)):
            member = group[index]
            found = engaged.get(member)
            if found is None:
                engaged[member] = [target]
            else:
                found.append(target)
    return engaged


def _alive(state: GameState, card: int) -> bool:
    zone = state.where[card]
    return zone in ("defensive", "wanderers", "private", "guards")


def _targets(state: GameState, side: int, card: int,
             engaged: dict[int, list[int]] | None = None) -> list[int]:
    """Legal targets of ``card`` of ``side`` (rulebook, "Assignments", Flight, Walls;
    ``engaged``: :func:`_engaged`, when the caller has it)."""
    me = state.player_seat()
    c = _combat(state)
    if side == WILD and c.wall_left > 0 and c.wall >= 0:
        return [c.wall]
    mine = rulings.keywords(state, card)
    reaches_flyers = "ranged" in mine or "flight" in mine
    # (In one pass: the living enemies, then the wall, that it can reach.)
    enemies = [e for e in _side_cards(state, 1 - side) if _alive(state, e)
               and (reaches_flyers or "flight" not in rulings.keywords(state, e))]
    wall = c.wall
    if side == WILD and wall >= 0 and _alive(state, wall) \
            and (reaches_flyers or "flight" not in rulings.keywords(state, wall)):
        enemies.append(wall)
    attacker = WILD if c.kind == "raid" else PLAYER
    if side == attacker and c.kind == "raid":
        if engaged is None:
            engaged = _engaged(c)
        free_defenders = [t for t in c.player if _alive(state, t) and t not in engaged]
        flyer_free = "flight" in mine and not any(
            _reaches_flyers(state, t) for t in free_defenders)
        if not free_defenders or flyer_free:
            enemies += me.private
            enemies += me.guards
    return enemies


def _assign_options(state: GameState, side: int,
                    engaged: dict[int, list[int]] | None = None) -> list[Action]:
    c = _combat(state)
    if engaged is None:
        engaged = _engaged(c)
    found: list[Action] = []
    for card in _unassigned(state, side, engaged):
        _card_options(state, side, card, engaged, found)
    return found


def _card_options(state: GameState, side: int, card: int, engaged: dict[int, list[int]],
                  found: list[Action] | None = None) -> list[Action]:
    """The assignment options of one unassigned ``card`` of ``side``, added to ``found`` if
    given (:func:`_assign_options` lists them card after card in one list)."""
    c = _combat(state)
    # A Defender fights two *different* enemies.
    busy = engaged.get(card)
    if side == PLAYER and c.step == "assign":
        # The player's targets (the living enemies it can reach) do not change while the
        # assignments are made (only the raiders' depend on the attacks made): kept.
        known = _kept(c).targets
        targets = known.get(card)
        if targets is None:
            targets = known[card] = _targets(state, side, card, engaged)
    else:
        targets = _targets(state, side, card, engaged)
    if busy is not None:
        # A Defender's second fight: "one additional troop/wanderer", never a structure.
        targets = [t for t in targets if not listed(busy, t) and not _structure(state, t)]
    if found is None:
        found = []
    for t in targets:
        found.append(Action("separate", card, t))
    if c.wall_left > 0 and side == WILD:
        return found
    for group in c.groups:
        if group[0] == side and listed(targets, group[1]) and not _member(group, card):
            found.append(Action("joint", card, group[1], lead_text(group[2])))
    return found


_NOBODY: Final[list[int]] = []

# A joint attack's option names its lead by number, written out: the texts of the numbers of
# a game's cards are made once (str() made a new string at every option listed, int() parsed
# it again at every option weighed).
_LEAD_TEXTS: Final[list[str]] = [str(number) for number in range(512)]
_LEAD_NUMBERS: Final[dict[str, int]] = {text: n for n, text in enumerate(_LEAD_TEXTS)}


def lead_text(card: int) -> str:
    """``str(card)``, for a joint attack's option."""
    if 0 <= card < len(_LEAD_TEXTS):
        return _LEAD_TEXTS[card]
    return str(card)


def lead_of(option: str) -> int:
    """``int(option)``: the lead of a joint attack's option."""
    found = _LEAD_NUMBERS.get(option)
    return int(option) if found is None else found


def engaged(state: GameState) -> dict[int, list[int]]:
    """The targets of the attacks each card is in (cards in no attack are left out)."""
    return _engaged(_combat(state))


def _can_assign(state: GameState, side: int) -> bool:
    """Whether ``side`` has an assignment to make (``bool(_assign_options(...))`` without
    building the options: asked several times at every turn). A joint attack needs a target
    the card could also attack separately, so a separate one is enough to look for."""
    engaged = _engaged(_combat(state))
    for card in _unassigned(state, side, engaged):
        if _has_target(state, side, card, engaged, engaged.get(card, _NOBODY)):
            return True
    return False


def _has_target(state: GameState, side: int, card: int, engaged: dict[int, list[int]],
                busy: list[int]) -> bool:
    """Whether :func:`_targets` has a target not in ``busy``, without building the list
    (the same tests in the same order)."""
    me = state.player_seat()
    c = _combat(state)
    wall = c.wall
    second = bool(busy)  # a Defender's second fight: a troop or a wanderer only
    if side == WILD and c.wall_left > 0 and wall >= 0:
        return not second
    mine = rulings.keywords(state, card)
    reaches_flyers = "ranged" in mine or "flight" in mine
    for enemy in _side_cards(state, 1 - side):
        if _alive(state, enemy) and not listed(busy, enemy) \
                and (reaches_flyers or "flight" not in rulings.keywords(state, enemy)):
            return True
    if side == WILD and wall >= 0 and not second and _alive(state, wall) \
            and (reaches_flyers or "flight" not in rulings.keywords(state, wall)):
        return True
    if side == WILD and c.kind == "raid":  # the attacker of a raid
        free = False
        flyer_free = "flight" in mine
        for defender in c.player:
            if _alive(state, defender) and defender not in engaged:
                free = True
                if not flyer_free:
                    break
                if _reaches_flyers(state, defender):
                    flyer_free = False
                    break
        if not free or flyer_free:
            if not second and me.private:
                return True
            for target in me.guards:
                if not listed(busy, target):
                    return True
    return False


def _structure(state: GameState, card: int) -> bool:
    return state.card(card).type == "structure"


def _assign(state: GameState, side: int, action: Action) -> None:
    c = _combat(state)
    if action.kind == "joint":
        lead = lead_of(action.option)
        for group in c.groups:
            if group[0] == side and group[1] == action.target and group[2] == lead:
                group.append(action.card)
                c.engaged_memo = None
                break
        if state.events is not None:
            emit(state, "joint_attack", card=action.card, target=action.target, lead=lead)
    else:
        _new_group(state, side, action.card, action.target)
    if c.wall_left > 0 and action.target == c.wall and side == WILD:
        c.wall_left -= 1
        if c.wall_left == 0:
            _climb_over(state)


def _new_group(state: GameState, side: int, card: int, target: int) -> None:
    c = _combat(state)
    c.groups.append([side, target, card])
    _engage_last(c, card, target)
    if state.events is not None:
        emit(state, "separate_attack", card=card, target=target)
    # "If a card is assigned to an unassigned card these cards are considered to be assigned
    # to each other." Guards may be targeted but never assign.
    reaches_flyers = bool({"ranged", "flight"} & rulings.keywords(state, target))
    ranged_flyer = {"ranged", "flight"} <= rulings.keywords(state, card)
    if state.where[target] != "guards" and _used(state, target) == 0 \
            and (reaches_flyers or not ranged_flyer):
        # "Ranged flyers may only be hit by those with ranged or flight."
        c.groups.append([1 - side, card, target])
        _engage_last(c, target, card)
        if state.events is not None:
            emit(state, "strikes_back", card=target, target=card)


def _engage_last(c: Combat, card: int, target: int) -> None:
    """Combat.engaged_memo after a new group (``card`` attacking ``target``) was added last:
    the memo rebuilt would list the same, ``target`` last among the card's (the groups are
    read in order), so it is brought up to date rather than dropped (it was rebuilt after
    every assignment, and asked again at once)."""
    known = c.engaged_memo
    if known is None:
        return
    found = known.get(card)
    if found is None:
        known[card] = [target]
    else:
        found.append(target)


def _climb_over(state: GameState) -> None:
    """Climb and Flight: once the wall assignments are made, a climber or flyer on the wall
    makes a new assignment (the wanderers always do when they have another target)."""
    c = _combat(state)
    for group in list(c.groups):
        if group[0] != WILD or group[1] != c.wall:
            continue
        for member in list(group[2:]):
            if not {"climb", "flight"} & rulings.keywords(state, member):
                continue
            others = [t for t in _targets(state, WILD, member) if t != c.wall]
            if not others:
                continue
            group.remove(member)
            c.engaged_memo = None
            c.assign_memo = None  # (a group that shrinks may grow back to its size)
            c.climbed.append(member)
            target = min(others, key=lambda t: (_defense(state, t, []), t))
            if state.events is not None:
                emit(state, "climbs", card=member)
            _new_group(state, WILD, member, target)
        if len(group) == 2:
            c.groups.remove(group)
            c.engaged_memo = None


def wild_choice(state: GameState) -> Action | None:
    """The assignment the fixed rule makes for the wild side now (what an AI lord attacking
    another player chooses too: rules/game/table_policy.py)."""
    return _wild_choice(state)


def _wild_choice(state: GameState) -> Action | None:
    """The wanderers' assignment by the fixed rule (module docstring)."""
    c = _combat(state)
    engaged = _engaged(c)
    wall = c.wall_left > 0
    # The card that assigns, from the cards with an option (those with a target:
    # _has_target, as _can_assign asks), by loops rather than key functions (compiled, each
    # call of one is a Python call): on the wall, the weakest, climbers and flyers first
    # since they can get past it (the least (0 for a climber or flyer else 1, offense,
    # card)); else the card of most offense (the lowest instance of those). Only its
    # options are listed (_assign_options lists every card's).
    # (the keys held as plain numbers and compared in turn: compiled, a key tuple is made and
    # compared generically a card)
    card = -1
    most = rank = 0
    for x in _unassigned(state, WILD, engaged):
        if not _has_target(state, WILD, x, engaged, engaged.get(x, _NOBODY)):
            continue
        offense = state.card(x).offense
        if wall:
            keys = rulings.keywords(state, x)
            climbs = 0 if "climb" in keys or "flight" in keys else 1
            if card < 0 or climbs < rank or (climbs == rank and (
                    offense < most or (offense == most and x < card))):
                card, rank, most = x, climbs, offense
        elif card < 0 or offense > most or (offense == most and x < card):
            card, most = x, offense
    if card < 0:
        return None
    mine = _card_options(state, WILD, card, engaged)
    if wall or len(mine) == 1:
        return mine[0]  # (on the wall its one option; else whatever the rule below weighs)
    # The most of (margin, separate, the stronghold), the first of equals.
    chosen: Action | None = None
    top = apart = strong = 0
    for action in mine:
        # (_pair_offense and _pair_defense: _offense and _defense, remembered during the
        # assignments)
        if action.kind == "separate":
            margin = _pair_offense(state, card, action.target) \
                - _pair_defense(state, action.target, card)
        else:
            group = _group(state, WILD, action.target, lead_of(action.option))
            members = [*group[2:], card]
            margin = 0
            for m in members:
                margin += _pair_offense(state, m, action.target)
            margin -= _defense(state, action.target, members)
        separate = 1 if action.kind == "separate" else 0
        stronghold = 1 if state.card(action.target).subtype == "stronghold" else 0
        if chosen is None or margin > top or (margin == top and (
                separate > apart or (separate == apart and stronghold > strong))):
            chosen, top, apart, strong = action, margin, separate, stronghold
    return chosen


def _group(state: GameState, side: int, target: int, lead: int) -> list[int]:
    for group in _combat(state).groups:
        if group[0] == side and group[1] == target and group[2] == lead:
            return group
    raise LookupError((side, target, lead))


# --- modification --------------------------------------------------------------------------


def _modify_options(state: GameState, side: int) -> list[Action]:
    """The modifications of ``side``'s lord, the state's mover while they are listed."""
    me = state.mover()
    c = _combat(state)
    found: list[Action] = []
    mine = [t for t in _side_cards(state, side) if _alive(state, t)]
    enemies = [w for w in _side_cards(state, 1 - side) if _alive(state, w)]
    for troop in mine:
        keys = rulings.keywords(state, troop)
        if "charge" in keys and c.charged.get(troop, 0) < state.card(troop).strength[0]:
            found.append(Action("charge", troop))
        if "fervor" in keys and "used-fervor" not in c.granted.get(troop, []) \
                and me.personal[1] and troop not in state.exhausted:
            found.append(Action("fervor", troop))
        if "fear" in keys and c.feared[side] < 0 and _usable(state, troop, "fear"):
            found += [Action("fear", troop, w) for w in enemies]
    if me.personal[1]:
        for bearer in rulings.personalities_in_play(state):
            if "pray" in rulings.keywords(state, bearer) and _usable(state, bearer, "pray") \
                    and "used-pray" not in c.granted.get(bearer, []):
                for target in mine:
                    if target != bearer and target not in c.prayed:
                        found += [Action("pray", bearer, target, "offense"),
                                  Action("pray", bearer, target, "defense")]
    for instance, ability, actor in rulings.usable_abilities(state, combat_step=True):
        entry = battle_effects.KINDS.get(ability.effect.kind)
        if entry is not None:
            found += [Action("use", instance, t, ability.option)
                      for t in entry.ability_targets(state, ability.effect, actor, mine)]
    # Battle events reach a lord's own troops ("target troop of yours"), never the wanderers
    # a player controls.
    lords = [t for t in mine if state.card(t).type != "wanderer"]
    if not lords:
        return found
    strongest = max((state.card(t).strength[0] for t in mine), default=-1)
    seen: set[str] = set()
    for card in me.hand:
        profile = state.card(card)
        if profile.type != "event" or profile.subtype != "battle" or profile.id in seen:
            continue
        seen.add(profile.id)
        if profile.strength[0] > strongest or not rulings.affordable(
                state, profile.cost, profile.generic) or not profile.abilities:
            continue
        effect = profile.abilities[0].effect
        entry = battle_effects.KINDS.get(effect.kind)
        if entry is not None:
            before = len(found)
            found += [Action("play", card, t)
                      for t in entry.event_targets(state, effect, mine)]
            if len(found) > before:
                state.flags[card] |= OFFERED
    return found


def _usable(state: GameState, card: int, keyword: str) -> bool:
    return keyword not in state.card(card).exhausting or card not in state.exhausted


def _battle_event(state: GameState, action: Action, side: int) -> None:
    c = _combat(state)
    card = state.card(action.card)
    rulings.pay(state, card.cost, card.generic)
    state.flags[action.card] |= PLAYED
    state.move(action.card, "personality_discard")
    effect = card.abilities[0].effect
    if state.events is not None:
        emit(state, "battle_event", card=action.card, target=action.target)
    mine = [t for t in _side_cards(state, side) if _alive(state, t)]
    entry = battle_effects.KINDS.get(effect.kind)
    if entry is not None:
        entry.play(state, c, effect, action.target, mine, side)


def _use_combat_effect(state: GameState, actor: int, effect: Effect, target: int) -> None:
    """What an ability used in the modification step does (phase_effects.use_ability has paid for
    it and exhausted ``actor``)."""
    entry = battle_effects.KINDS.get(effect.kind)
    if entry is not None:
        entry.use(state, _combat(state), effect, actor, target)


def _wild_modifies(state: GameState) -> None:
    """A wanderer with Fear frightens the player's strongest attacker (a lord attacking, or
    the wanderers' controller at a table, chooses his own modifications: Combat.asks_wild)."""
    c = _combat(state)
    if c.feared[WILD] >= 0 or c.asks_wild:
        return
    if any("fear" in rulings.keywords(state, w) for w in c.wild if _alive(state, w)):
        target = fear_target(state)
        if target >= 0:
            c.feared[WILD] = target
            if state.events is not None:
                emit(state, "fear", card=-1, target=target)


def fear_target(state: GameState) -> int:
    """Whom the wanderers' fixed rule frightens: the player's strongest engaged troop (-1:
    none)."""
    c = _combat(state)
    engaged = [t for t in c.player if _alive(state, t) and _used(state, t)]
    if not engaged:
        return -1
    return max(engaged, key=lambda t: (state.card(t).offense, -t))


# --- resolution ----------------------------------------------------------------------------


def _offense(state: GameState, card: int, target: int) -> int:
    """One attacker's offense against ``target`` (before the die)."""
    c = _combat(state)
    if card in state.exhausted:
        guards = _guard_offense(state, card) if state.card(card).is_structure else 0
        return guards  # "its offense is 0 and may not be increased" (guards still add)
    profile = state.card(card)
    value = profile.offense
    # (Most combats have no bonus nor charge: the empty dictionaries are not asked.)
    if c.bonus_off:
        value += c.bonus_off.get(card, 0)
    if c.charged:
        value += c.charged.get(card, 0)
    keys = rulings.keywords(state, card)
    for item in rulings.items_used(state, card):
        value += state.card(item).offense
    target_card = state.card(target)
    if target_card.is_structure:
        if "raze" in keys:
            value += 3
    elif "giant-size" in keys and "giant-size" not in rulings.keywords(state, target):
        value += 3
    if target_card.type == "wanderer":
        value += static_effects.offense_against_wanderers(state, card)
    if profile.is_structure:
        value += _guard_offense(state, card)
    if listed(c.feared, card):
        value -= 3
    return max(0, value)


def _guard_offense(state: GameState, structure: int) -> int:
    me = state.player_seat()
    bonus = static_effects.guard_bonus(state.card(structure), "guard_offense")
    return sum(state.card(g).offense + bonus for g in me.guards
               if state.host.get(g) == structure and g not in state.exhausted)


def _defense(state: GameState, card: int, attackers: list[int]) -> int:
    me = state.player_seat()
    c = _combat(state)
    profile = state.card(card)
    value = profile.defense
    if c.bonus_def:
        value += c.bonus_def.get(card, 0)
    if c.charged:
        value -= c.charged.get(card, 0)
    for item in rulings.items_used(state, card):
        value += state.card(item).defense
    if profile.is_structure:
        bonus = static_effects.guard_bonus(profile, "guard_defense")
        value += sum(state.card(g).defense + bonus for g in me.guards
                     if state.host.get(g) == card)
    if state.where[card] == "guards":
        host = state.host.get(card, -1)
        if host >= 0:
            value += static_effects.guard_bonus(state.card(host), "guard_defense")
    if profile.is_troop:
        value -= static_effects.defense_malus(state, attackers)
    return max(0, value)


def _phase_of(state: GameState, group: list[int]) -> int:
    """0 when every attacker of the group has Ranged, 1 Fleetfoot, else 2."""
    ranged = fleet = True
    for index in range(2, len(group)):
        keys = rulings.keywords(state, group[index])
        ranged = ranged and "ranged" in keys
        fleet = fleet and "fleetfoot" in keys
    return 0 if ranged else 1 if fleet else 2


def _resolve(state: GameState) -> None:
    c = _combat(state)
    if not c.berserk:
        _remember_first_targets(state)
    # The dice are the stream of the seat whose cards are at stake (the defender's, the
    # hunter's).
    dicer = state.player_seat()
    if state.reseed:  # a lookahead rollout (GameState.reseed)
        dicer.rng = keyed_state(state.reseed, state.round,
                                2 + int(c.berserk) + (2 if c.kind == "raid" else 0))
    rng = GameRng(dicer.rng)
    dice = [rng.die() for _ in c.groups]
    dicer.rng = rng.state
    # (By index, without slices of the groups nor zip(strict=True), which compiled is a
    # call of the builtin by name: the same members in the same order.)
    die_of: dict[int, int] = {}
    for index, group in enumerate(c.groups):
        die = dice[index]
        for position in range(2, len(group)):
            die_of.setdefault(group[position], die)
        if state.events is not None:
            emit(state, "die", lead=group[2], target=group[1], roll=die,
                 effect=_die_effect(die))
    phases = [_phase_of(state, g) for g in c.groups]
    # "Ranged flyers may only be hit by those with ranged or flight unless they elect to make a
    # non-ranged attack": judged now, so Flight granted after the assignments counts.
    non_ranged: set[int] = set()
    for index, group in enumerate(c.groups):
        if phases[index]:
            for position in range(2, len(group)):
                non_ranged.add(group[position])
    for phase, name in ((0, "ranged"), (1, "fleetfoot"), (2, "other")):
        hits: list[tuple[int, int]] = []
        troops: list[bool] = []  # whether each hit's attack had a troop in it
        for index, group in enumerate(c.groups):
            if phases[index] != phase:
                continue
            side, target = group[0], group[1]
            members = [group[position] for position in range(2, len(group))
                       if _alive(state, group[position])]
            if not members or not _alive(state, target):
                continue
            if target not in non_ranged and _ranged_flyer(state, target):
                hitters = [m for m in members if _reaches_flyers(state, m)]
                if not hitters:
                    if state.events is not None:
                        emit(state, "attack", step=name, attackers=members, target=target,
                             offense=0, defense=_defense(state, target, members), wounds=0,
                             out_of_reach=True)
                    continue
                members = hitters
            offense = 0
            for member in members:
                offense += _offense(state, member, target)
            # An exhausted card's offense "is 0 and may not be increased": the die adds only
            # when some attacker is ready.
            if any(m not in state.exhausted for m in members):
                offense += DIE_OFFENSE.get(dice[index], 0)
            defense = _defense(state, target, members) + DIE_DEFENSE.get(
                die_of.get(target, 0), 0)
            wounds = 0
            if offense > defense:
                fierce = all("fierce" in rulings.keywords(state, m) for m in members)
                armored = "armor" in rulings.keywords(state, target)
                wounds = 2 if fierce and not armored and not state.card(target).is_structure \
                    else 1
                if side == WILD and _ignores_wound(state, target, members):
                    wounds -= 1
            if state.events is not None:
                emit(state, "attack", step=name, attackers=members, target=target,
                     offense=offense, defense=defense, wounds=wounds)
            if wounds:
                hits.append((target, wounds))
                by_troop = False
                for member in members:
                    if state.card(member).is_troop:
                        by_troop = True
                        break
                troops.append(by_troop)
        for index in range(len(hits)):
            target, wounds = hits[index]
            if _alive(state, target):
                _take_wounds(state, target, wounds)
                if state.outcome:
                    dicer.rng = rng.state
                    return
                if troops[index] and not _alive(state, target):
                    c.troop_kills.append(target)


def _ranged_flyer(state: GameState, card: int) -> bool:
    keys = rulings.keywords(state, card)
    return "ranged" in keys and "flight" in keys


def _reaches_flyers(state: GameState, card: int) -> bool:
    keys = rulings.keywords(state, card)
    return "ranged" in keys or "flight" in keys


def _remember_first_targets(state: GameState) -> None:
    """Each card's first target and whether it was in the private holdings, noted before any
    wound (Berserk's new target must be where the first one was, destroyed or not)."""
    c = _combat(state)
    c.previous = {}
    c.first_private = []
    for group in c.groups:
        place = state.where[group[1]]
        for index in range(2, len(group)):
            member = group[index]
            if member not in c.previous:
                c.previous[member] = group[1]
                if place in ("private", "guards"):
                    c.first_private.append(member)


def _die_effect(die: int) -> str:
    if die in DIE_OFFENSE:
        return f"+{DIE_OFFENSE[die]} offense"
    if die in DIE_DEFENSE:
        return f"+{DIE_DEFENSE[die]} defense"
    return "no change"


def _ignores_wound(state: GameState, card: int, attackers: list[int]) -> bool:
    """Whether ``card`` ignores the wound of an attack by ``attackers``: "the first wound
    from a wanderer each round" (Boiled Leather Jerkin), so not from another lord's troops
    attacking at a table."""
    if card in state.ignored_wound:
        return False
    wanderer = False
    for attacker in attackers:
        if state.card(attacker).type == "wanderer":
            wanderer = True
            break
    if not wanderer:
        return False
    if static_effects.ignores_wanderer_wound(state, card):
        state.ignored_wound.append(card)
        if state.events is not None:
            emit(state, "wound_ignored", card=card)
        return True
    return False


def _take_wounds(state: GameState, card: int, count: int) -> None:
    me = state.player_seat()
    c = _combat(state)
    # Endurance: rulings.wound; Hold the Line, each side's own troops
    exhaust = not ((c.hold_line and card in c.player) or (c.hold_wild and card in c.wild))
    profile = state.card(card)
    if not rulings.wound(state, card, count, exhaust=exhaust):
        return
    if profile.subtype == "stronghold":
        if state.events is not None:
            emit(state, "stronghold_destroyed", card=card)
        rulings.end_game(state, "stronghold")
        return
    if profile.type == "wanderer":
        rulings.pay_bounty(state, card)
    if profile.is_structure:
        # "If their structure is destroyed in combat they take a wound and return to the
        # defensive holdings."
        for guard in [g for g in me.guards if state.host.get(g) == card]:
            if rulings.wound(state, guard, 1):
                rulings.remove_killed(state, guard, "killed")
    rulings.remove_killed(state, card, "destroyed" if profile.is_structure else "killed")


# --- berserk and the end -------------------------------------------------------------------


def _berserk_options(state: GameState, side: int) -> list[Action]:
    """New targets for the side's surviving berserk cards: "If bearer's first combat was on
    the battlefield the new target must also be on the battlefield", and likewise for the
    private holdings. "Treat this new round as a completely new combat": a target it may
    assign to as a first one, so a flyer (the wall too, as in :func:`_targets`) only for a
    card with Ranged or Flight."""
    me = state.player_seat()
    c = _combat(state)
    found = []
    for card in _side_cards(state, side):
        if card in c.berserked or not _alive(state, card) \
                or "berserk" not in rulings.keywords(state, card):
            continue
        first = c.previous.get(card, -1)
        if first < 0:
            continue
        if card in c.first_private:
            pool = me.private + me.guards  # (not filtered for flyers, as in _targets)
        else:
            reaches_flyers = _reaches_flyers(state, card)
            pool = [e for e in _side_cards(state, 1 - side)
                    if reaches_flyers or "flight" not in rulings.keywords(state, e)]
            if side == WILD and c.wall >= 0 \
                    and (reaches_flyers or "flight" not in rulings.keywords(state, c.wall)):
                pool.append(c.wall)
        found += [Action("berserk", card, t) for t in pool if t != first and _alive(state, t)]
    return found


def _start_berserk(state: GameState) -> bool:
    """"Treat this new round as a completely new combat in which only troops with berserk can
    make assignments": the berserk cards (the wanderers' by the fixed rule) pick new targets."""
    c = _combat(state)
    wild = _berserk_options(state, WILD)
    player = _berserk_options(state, PLAYER)
    if not wild and not player:
        return False
    c.groups = []
    c.engaged_memo = None
    c.assign_memo = None
    if state.events is not None:
        emit(state, "berserk_round")
    for card in dict.fromkeys(a.card for a in wild):
        same = [a for a in wild if a.card == card]
        best = max(same, key=lambda a: (_offense(state, a.card, a.target)
                                        - _defense(state, a.target, [a.card]), -a.target))
        c.berserked.append(card)
        _new_group(state, WILD, best.card, best.target)
    if player:
        c.step = "berserk"
    else:
        c.step, c.berserk = "resolve", True
    return True


def cease(state: GameState) -> None:
    """The combat ends where it stands, by its players' agreement ("a combat not involving
    wanderers may be ended at any time if both players agree to cease combat"): what was
    killed stays dead, nothing more is fought."""
    _end(state)


def _end(state: GameState) -> None:
    """"All remaining troops (except guards) return to the defensive holdings; wanderers
    return to the wanderer row." (They never left those zones here.) The engine goes on with
    the phase as soon as it sees the step "over"."""
    c = _combat(state)
    if state.events is not None:
        emit(state, "combat_over", kind=c.kind)
    c.step = "over"


def forecast(state: GameState, grants: dict[int, str] | None = None) -> list[Attack]:
    """The attacks the combat would resolve now, for policies weighing a modification: each as
    (side, target, attackers, each attacker's offense against the target, whether each is
    ready, the target's defense, the resolution step, wounds a hit deals): the resolution's
    numbers before its dice (``grants``: a keyword more on some cards, as a modification would
    give them; attackers that cannot reach a ranged flyer are left out)."""
    c = _combat(state)
    if grants is None and c.step == "assign":
        return _forecast_assigning(state, c)
    found: list[Attack] = []
    groups = c.groups
    if grants is None:
        steps = [_phase_of(state, g) for g in groups]
    else:
        steps = [_phase_with(state, g, grants) for g in groups]
    non_ranged = _non_ranged(groups, steps)
    for index, group in enumerate(groups):
        attack = _group_attack(state, group, steps[index], non_ranged, grants)
        if attack is not None:
            found.append(attack)
    return found


def _forecast_assigning(state: GameState, c: Combat) -> list[Attack]:
    """:func:`forecast` while the assignments are made: a group's attack changes only with
    its members (nothing it reads changes in this step, as for :func:`_pair_offense`), so each
    is kept (:class:`Kept`, by the group's place, with the group and its size) and made
    again only for a new or grown group. The attacks are read, never changed. An attack on a
    ranged flyer depends on the other groups too (who attacks without range): never kept."""
    groups = c.groups
    memo = _kept(c).attacks
    found: list[Attack] = []
    non_ranged: set[int] | None = None
    for index, group in enumerate(groups):
        if index < len(memo):
            kept: Attack | None = memo[index]
            if kept is not None and kept.group is group and kept.size == len(group):
                found.append(kept)
                continue
        else:
            memo.append(None)
        target_keys = rulings.keywords(state, group[1])
        if "flight" in target_keys and "ranged" in target_keys:
            if non_ranged is None:
                non_ranged = _non_ranged(groups, [_phase_of(state, g) for g in groups])
            attack = _group_attack(state, group, _phase_of(state, group), non_ranged, None)
            memo[index] = None
        else:
            attack = _group_attack(state, group, _phase_of(state, group), _NO_CARDS, None)
            if attack is not None:
                attack.group, attack.size = group, len(group)
            memo[index] = attack
        if attack is not None:
            found.append(attack)
    return found


_NO_CARDS: Final[set[int]] = set()


class Kept:
    """What is kept while the assignments are made (Combat.assign_memo; nothing these read
    changes in that step): each group's attack (:func:`forecast`) and the targets of each of
    the player's cards (:func:`_card_options`); a reader never changes them."""

    __slots__ = ("attacks", "targets")

    def __init__(self) -> None:
        self.attacks: list[Attack | None] = []
        self.targets: dict[int, list[int]] = {}


def _kept(c: Combat) -> Kept:
    kept = c.assign_memo
    if kept is None:
        kept = c.assign_memo = Kept()
    assert isinstance(kept, Kept)
    return kept


def _non_ranged(groups: list[list[int]], steps: list[int]) -> set[int]:
    """The cards in a group that does not attack in the ranged step."""
    non_ranged: set[int] = set()
    for index, group in enumerate(groups):
        if steps[index]:
            for position in range(2, len(group)):
                non_ranged.add(group[position])
    return non_ranged


def _group_attack(state: GameState, group: list[int], step: int, non_ranged: set[int],
                  grants: dict[int, str] | None) -> Attack | None:
    """One group's attack for :func:`forecast` (None: it would not be resolved)."""
    side, target = group[0], group[1]
    if not _alive(state, target):
        return None
    members = [group[i] for i in range(2, len(group)) if _alive(state, group[i])]
    if not members:
        return None
    target_keys = _keys_with(state, target, grants)
    if "flight" in target_keys and "ranged" in target_keys and target not in non_ranged:
        members = [m for m in members if _reaches_flyers_with(state, m, grants)]
        if not members:
            return None
    fierce = True
    offenses: list[int] = []
    ready: list[bool] = []
    for member in members:
        if "fierce" not in _keys_with(state, member, grants):
            fierce = False
        offenses.append(_pair_offense(state, member, target))
        ready.append(member not in state.exhausted)
    wounds = 2 if fierce and "armor" not in target_keys \
        and not state.card(target).is_structure else 1
    defense = _pair_defense(state, target, members[0]) if len(members) == 1 \
        else _defense(state, target, members)
    return Attack(side, target, members, offenses, ready, defense, step, wounds)


def _keys_with(state: GameState, card: int, grants: dict[int, str] | None) -> frozenset[str]:
    have = rulings.keywords(state, card)
    if grants is not None and card in grants:
        return have | {grants[card]}
    return have


def _reaches_flyers_with(state: GameState, card: int, grants: dict[int, str] | None) -> bool:
    keys = _keys_with(state, card, grants)
    return "ranged" in keys or "flight" in keys


def _phase_with(state: GameState, group: list[int], grants: dict[int, str]) -> int:
    ranged = fleet = True
    for index in range(2, len(group)):
        keys = _keys_with(state, group[index], grants)
        ranged = ranged and "ranged" in keys
        fleet = fleet and "fleetfoot" in keys
    return 0 if ranged else 1 if fleet else 2


def assignment_attacks(state: GameState, attacks: list[Attack], action: Action
                       ) -> tuple[int, list[Attack]]:
    """What the assignment ``action`` (separate, joint or berserk) would change in
    ``attacks`` (:func:`forecast`'s): (the index of the attack it replaces or -1, the new
    attacks: the attack on its target, then the target's strike-back if it strikes back). For
    policies choosing an assignment (weighed for every option: kept lean)."""
    card, target = action.card, action.target
    side = PLAYER if listed(_combat(state).player, card) else WILD
    mine = rulings.keywords(state, card)
    offense = _pair_offense(state, card, target)
    ready = card not in state.exhausted
    if action.kind == "joint":
        lead = lead_of(action.option)
        for index, attack in enumerate(attacks):
            if attack.side != side or attack.target != target or not attack.members \
                    or attack.members[0] != lead:
                continue
            members = [*attack.members, card]
            step = attack.step
            if step == 0 and "ranged" not in mine:
                step = _phase_of(state, [side, target, *members])
            elif step == 1 and "fleetfoot" not in mine:
                step = 2
            # A new attacker changes the target's defense only by its own riders.
            defense = _defense(state, target, members) \
                if static_effects.has_defense_malus(state, card) else attack.defense
            wounds = 2 if attack.wounds == 2 and "fierce" in mine else 1
            return index, [Attack(side, target, members, [*attack.offenses, offense],
                                  [*attack.ready, ready], defense, step, wounds)]
    found: list[Attack] = [Attack(side, target, [card], [offense], [ready],
                                  _pair_defense(state, target, card), _step_of_keys(mine),
                                  2 if "fierce" in mine and _fierce_hurts(state, target) else 1)]
    if action.kind == "berserk" or state.where[target] == "guards" or _used(state, target):
        return -1, found
    theirs = rulings.keywords(state, target)
    ranged_flyer = "ranged" in mine and "flight" in mine
    if ranged_flyer and "ranged" not in theirs and "flight" not in theirs:
        return -1, found  # "Ranged flyers may only be hit by those with ranged or flight"
    found.append(Attack(1 - side, card, [target], [_pair_offense(state, target, card)],
                        [target not in state.exhausted], _pair_defense(state, card, target),
                        _step_of_keys(theirs), 2 if "fierce" in theirs
                        and _fierce_hurts(state, card) else 1))
    return -1, found


NO_STRIKE_BACK: Final = -1000  # assignment_numbers' strike-back margin when there is none


def assignment_numbers(state: GameState, attacks: list[Attack], action: Action,
                       engaged: dict[int, list[int]] | None = None
                       ) -> tuple[int, int, int, int, int, int, int, int, int]:
    """:func:`assignment_attacks` as plain numbers, for weighing every option without
    building lists: (the index of the attack replaced or -1, the target, the attack's offense
    (its ready attackers' together), the target's defense, the attack's step, wounds a hit
    deals, the strike-back's margin or :data:`NO_STRIKE_BACK`, its step, its wounds).
    ``engaged``: :func:`engaged`, when the caller weighs several options."""
    card, target = action.card, action.target
    side = PLAYER if listed(_combat(state).player, card) else WILD
    mine = rulings.keywords(state, card)
    offense = max(0, _pair_offense(state, card, target))
    if action.kind == "joint":
        lead = lead_of(action.option)
        for index, attack in enumerate(attacks):
            members = attack.members
            if attack.side != side or attack.target != target or not members \
                    or members[0] != lead:
                continue
            step = attack.step
            if step == 0 and "ranged" not in mine:
                step = _phase_of(state, [side, target, *members, card])
            elif step == 1 and "fleetfoot" not in mine:
                step = 2
            defense = _defense(state, target, [*members, card]) \
                if static_effects.has_defense_malus(state, card) else attack.defense
            for value in attack.offenses:
                offense += max(0, value)
            wounds = 2 if attack.wounds == 2 and "fierce" in mine else 1
            return index, target, offense, defense, step, wounds, NO_STRIKE_BACK, 0, 0
    defense = _pair_defense(state, target, card)
    step = _step_of_keys(mine)
    wounds = 2 if "fierce" in mine and _fierce_hurts(state, target) else 1
    if action.kind == "berserk" or state.where[target] == "guards" \
            or (target in engaged if engaged is not None else _used(state, target)):
        return -1, target, offense, defense, step, wounds, NO_STRIKE_BACK, 0, 0
    theirs = rulings.keywords(state, target)
    if "ranged" in mine and "flight" in mine and "ranged" not in theirs \
            and "flight" not in theirs:
        return -1, target, offense, defense, step, wounds, NO_STRIKE_BACK, 0, 0
    back = max(0, _pair_offense(state, target, card)) - _pair_defense(state, card, target)
    return (-1, target, offense, defense, step, wounds, back, _step_of_keys(theirs),
            2 if "fierce" in theirs and _fierce_hurts(state, card) else 1)


def _pair_offense(state: GameState, card: int, target: int) -> int:
    """:func:`_offense`, remembered while the assignments are made (they change nothing it
    reads: bonuses, keywords and exhaustion only change from the modification step on)."""
    c = _combat(state)
    if c.step != "assign":
        return _offense(state, card, target)
    known = _known_pair(c.odds, card, target)  # (a pair known: read at once)
    if known >= 0:
        return known
    row = _pair_row(c.odds, len(state.cards), card, target)
    if row is None:
        return _offense(state, card, target)
    found = row[target]
    if found < 0:
        found = row[target] = _offense(state, card, target)
    return found


def _pair_defense(state: GameState, card: int, attacker: int) -> int:
    """``card``'s defense against ``attacker`` alone (:func:`_defense`), remembered likewise."""
    c = _combat(state)
    if c.step != "assign":
        return _defense(state, card, [attacker])
    known = _known_pair(c.guard_odds, card, attacker)
    if known >= 0:
        return known
    row = _pair_row(c.guard_odds, len(state.cards), card, attacker)
    if row is None:
        return _defense(state, card, [attacker])
    found = row[attacker]
    if found < 0:
        found = row[attacker] = _defense(state, card, [attacker])
    return found


def _known_pair(rows: list[list[int]], card: int, other: int) -> int:
    """The figure of the pair (``card``, ``other``) kept in ``rows``, or -1 when there is
    none yet (:func:`_pair_offense`, :func:`_pair_defense`)."""
    if 0 <= card < len(rows):
        kept = rows[card]
        if 0 <= other < len(kept):
            return kept[other]
    return -1


_NO_ROW: Final[list[int]] = []


def _pair_row(rows: list[list[int]], size: int, card: int, other: int) -> list[int] | None:
    """``card``'s row of a pair table (Combat.odds, Combat.guard_odds), made on its first
    question (every entry -1, not known); None for a number outside the game's cards (never
    expected: then the caller works the pair out every time)."""
    if not rows:
        rows.extend([_NO_ROW] * size)
    if card >= len(rows) or other >= size or card < 0 or other < 0:
        return None
    row = rows[card]
    if not row:
        row = rows[card] = [-1] * size
    elif other >= len(row):
        return None
    return row


def _step_of_keys(keys: frozenset[str]) -> int:
    return 0 if "ranged" in keys else 1 if "fleetfoot" in keys else 2


def _fierce_hurts(state: GameState, target: int) -> bool:
    return "armor" not in rulings.keywords(state, target) and not state.card(target).is_structure


def strike(state: GameState, attacker: int, target: int) -> int:
    """How far ``attacker`` alone would beat ``target``'s defense, before the dice."""
    return _offense(state, attacker, target) - _defense(state, target, [attacker])


def margin(state: GameState, action: Action) -> int:
    """How far an assignment's attack would beat its target's defense, before the die
    (policies use it to pick assignments)."""
    side = PLAYER if listed(_combat(state).player, action.card) else WILD
    members = [action.card]
    if action.kind == "joint":
        members = [*_group(state, side, action.target, lead_of(action.option))[2:], action.card]
    return sum(_offense(state, m, action.target) for m in members) \
        - _defense(state, action.target, members)
