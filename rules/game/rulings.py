"""The rules the phases and the combat share: paying, gaining, influence, leaving play, the
end of the game.

Pure Python. Each function applies one sentence (or a few) of the rulebook to a
:class:`~rules.game.state.GameState`; the docstrings quote or name the rule.
"""

from __future__ import annotations

from typing import Any, Final

from rules.game.actions import Action
from rules.game.effects import Effect
from rules.game.profile import PRIMARY, Ability, Profile
from rules.game.state import DISCARDS, GameState, Seat
from rules.game.vocabulary import KIND_INDEX as KIND_INDEX  # (rulings.KIND_INDEX)
from rules.game.vocabulary import EventType, Outcome

PERSONALITY_ZONES: Final = ("residents", "guards", "defensive")

__all__ = ["PRIMARY"]


def emit(state: GameState, event: EventType, **data: Any) -> None:
    """Log one event when the game is recorded, with the fields of its record
    (rules/game/events.py). Callers test ``state.events is not None`` first: in bulk runs,
    building the keyword arguments was the cost (so no argument may change the state)."""
    if state.events is not None:
        data["type"] = event
        data["round"] = state.round
        data["phase"] = state.phase
        if len(state.seats) > 1:  # (a table's seats tell one story: whose it is)
            data["whose"] = state.player
        state.events.append(data)


def end_game(state: GameState, outcome: Outcome) -> None:
    """The game is over: won ("victory"), or lost ("overrun", "stronghold", "timeout")."""
    me = state.player_seat()
    state.outcome = outcome
    state.final_round = state.round
    state.phase = "over"
    state.step = ""
    state.combat = None
    me.bounty_due = 0
    discard_homeless(state)
    if state.events is not None:
        emit(state, "game_over", outcome=outcome, round=state.round)


# --- tokens --------------------------------------------------------------------------------


def held(state: GameState, seat: int = -1) -> int:
    """The personal tokens of the seat deciding (or of ``seat``), every kind together
    (compiled, sum() of a list or a tuple calls the builtin by name: this adds the three)."""
    me = state.mover() if seat < 0 else state.seats[seat]
    personal = me.personal
    return personal[0] + personal[1] + personal[2]


def tokens(kinds: tuple[int, int, int]) -> int:
    """A cost's or a gain's tokens, every kind together (as :func:`held`)."""
    return kinds[0] + kinds[1] + kinds[2]


def affordable(state: GameState, cost: tuple[int, int, int], generic: int = 0,
               seat: int = -1) -> bool:
    """Whether the seat deciding (or ``seat``: a seat answering in another's combat) can pay
    ``cost`` and ``generic``."""
    me = state.mover() if seat < 0 else state.seats[seat]
    return covers(me.personal, cost, generic)


def covers(tokens: list[int], cost: tuple[int, int, int], generic: int = 0) -> bool:
    """Whether ``tokens`` (a personal pool, by kind) pay a typed ``cost`` and a ``generic``
    one: each kind its own, then any kind the rest (the engine's test, and greedy's on the
    tokens it plans to hold)."""
    economic, religious, political = tokens[0], tokens[1], tokens[2]
    if economic < cost[0] or religious < cost[1] or political < cost[2]:
        return False
    return economic + religious + political - cost[0] - cost[1] - cost[2] >= generic


def pay(state: GameState, cost: tuple[int, int, int], generic: int = 0,
        seat: int = -1) -> bool:
    """Pay typed costs with their own kind and the generic cost with any kind, all to the
    city's influence pool ("All influence token costs are paid to the city's influence
    pool"), from the seat deciding's pool (or ``seat``'s). False, and nothing paid, when it
    cannot be afforded."""
    me = state.mover() if seat < 0 else state.seats[seat]
    if not affordable(state, cost, generic, seat):
        return False
    # (Kind by kind with constant indices: compiled, a cost is a native tuple, and cost[k]
    # with a variable k made an object of it for every token kind.)
    personal, city = me.personal, state.city
    economic, religious, political = cost
    personal[0] -= economic
    city[0] += economic
    personal[1] -= religious
    city[1] += religious
    personal[2] -= political
    city[2] += political
    if generic:
        spend(state, generic, seat)
    return True


def spend(state: GameState, count: int, seat: int = -1) -> None:
    """Pay ``count`` tokens of any kind to the city, in :func:`take_any`'s order (the
    :func:`kept_kind` last), from the seat deciding's pool (or ``seat``'s)."""
    me = state.mover() if seat < 0 else state.seats[seat]
    personal, city = me.personal, state.city
    economic, religious, political = personal[0], personal[1], personal[2]
    take_any(personal, count, kept_kind(state, seat))
    city[0] += economic - personal[0]
    city[1] += religious - personal[1]
    city[2] += political - personal[2]


def kept_kind(state: GameState, seat: int = -1) -> int:
    """The kind a generic cost spares: the primary kind of a faction with five members or
    more in play (its tokens count toward victory now), else ``me.favour`` (that of the
    deck's most numerous faction: kept for its bonus to come). The same in a one-faction
    deck; in a mixed one, the favoured faction's bonus if it is on, else the one that is.
    Of the seat deciding (or ``seat``)."""
    me = state.mover() if seat < 0 else state.seats[seat]
    favour = me.favour
    kept = favour
    members, _ = seat_faction_counts(state, me)
    for faction, count in members.items():
        if count >= 5 and faction in PRIMARY:
            kind = PRIMARY[faction]
            if kind == favour:
                return favour
            kept = kind
    return kept


def take_any(tokens: list[int], count: int, kept: int) -> None:
    """Take ``count`` tokens of any kind from ``tokens`` (a personal pool, changed in place):
    the one order of a generic ("any combination") cost, which the engine pays by and greedy
    plans by (the rulebook lets the player pick; rules/COVERAGE.md): the kinds other than
    ``kept`` (the kind kept for the five-members bonus) first, the most plentiful first (the
    lowest kind on ties: the kinds stay even, for typed costs to come), then ``kept`` once the
    others are spent; fewer when every kind runs out."""
    for _ in range(count):
        # The highest (has a token, not the kept kind, how many, lowest kind): compared by
        # hand rather than by max() with a key (a closure and three tuples for every token).
        # A kind with no token never beats one with tokens: the kept kind pays what the
        # others cannot.
        kind = 0
        for k in (1, 2):
            held, best_held = tokens[k] > 0, tokens[kind] > 0
            spare, best_spare = k != kept, kind != kept
            if held != best_held:
                better = held
            elif spare != best_spare:
                better = spare
            else:
                better = tokens[k] > tokens[kind]
            if better:
                kind = k
        if tokens[kind] == 0:
            return
        tokens[kind] -= 1


def gain(state: GameState, gains: tuple[int, int, int]) -> list[int]:
    """Take tokens from the city's pool; "if no tokens remain ... they simply are not able"."""
    me = state.mover()
    # (Kind by kind, as in pay: no object made of the native tuple.)
    city, personal = state.city, me.personal
    economic, religious, political = gains
    got = [economic if economic < city[0] else city[0],
           religious if religious < city[1] else city[1],
           political if political < city[2] else city[2]]
    city[0] -= got[0]
    personal[0] += got[0]
    city[1] -= got[1]
    personal[1] += got[1]
    city[2] -= got[2]
    personal[2] += got[2]
    return got


# --- who is in play ------------------------------------------------------------------------


def personalities_in_play(state: GameState) -> list[int]:
    me = state.mover()
    found = [*me.residents, *me.guards]
    for i in me.defensive:  # (a loop: compiled, a generator is an object more)
        if state.card(i).type == "personality":
            found.append(i)
    return found


def faction_members(state: GameState, faction: str | None) -> int:
    """The members of ``faction`` in play: "(F)n ... only with n members of the faction in
    play among all players' cards", so at a table every seat's (solo, the player's). Counted
    without building a list: asked for every faction threshold of keywords and abilities."""
    if faction is None:
        return 0
    seats = state.seats
    if len(seats) == 1:
        return _seat_members(state, seats[0], faction)
    count = 0
    for seat in seats:
        count += _seat_members(state, seat, faction)
    return count


def _seat_members(state: GameState, seat: Seat, faction: str) -> int:
    """The members of ``faction`` among ``seat``'s personalities in play."""
    if faction:
        return seat_faction_counts(state, seat)[0].get(faction, 0)
    count = 0  # (a faction "": faction_counts leaves such cards out)
    for i in seat.residents:
        if state.card(i).faction == faction:
            count += 1
    for i in seat.guards:
        if state.card(i).faction == faction:
            count += 1
    for i in seat.defensive:
        card = state.card(i)
        if card.type == "personality" and card.faction == faction:
            count += 1
    return count


def influence_total(state: GameState, seat: int = -1) -> int:
    """"Add the faction influence of all your personalities together", plus, for each faction
    with five or more members in play, the personal tokens of its primary kind: the
    player's (whose phase or combat it is, even while another seat decides in it), or
    ``seat``'s (at a table, any seat's)."""
    me = state.player_seat() if seat < 0 else state.seats[seat]
    members, total = seat_faction_counts(state, me)
    for faction, count in members.items():
        if count >= 5 and faction in PRIMARY:
            total += me.personal[PRIMARY[faction]]
    return total


def faction_counts(state: GameState) -> tuple[dict[str, int], int]:
    """The personalities in play of each faction (those of none left out) and their printed
    influence together, of the seat that decides: asked for every faction threshold and at
    most decisions, so remembered until a card enters or leaves play
    (GameState.forget_derived). The dict is shared: read it, never change it."""
    return seat_faction_counts(state, state.mover())


def seat_faction_counts(state: GameState, me: Seat) -> tuple[dict[str, int], int]:
    """:func:`faction_counts` of the seat ``me``."""
    members = me.members_cache
    if members is None:
        members = {}
        total = 0
        # The zones of personalities_in_play read in place (no list of them made), each in
        # its own loop (compiled, a tuple of the lists would be iterated as objects).
        for instance in me.residents:
            card = state.card(instance)
            total += card.influence
            if card.faction:
                members[card.faction] = members.get(card.faction, 0) + 1
        for instance in me.guards:
            card = state.card(instance)
            total += card.influence
            if card.faction:
                members[card.faction] = members.get(card.faction, 0) + 1
        for instance in me.defensive:
            card = state.card(instance)
            if card.type == "personality":
                total += card.influence
                if card.faction:
                    members[card.faction] = members.get(card.faction, 0) + 1
        me.members_cache, me.influence_cache = members, total
    return members, me.influence_cache


def open_residence_count(state: GameState) -> int:
    """How many :func:`open_residences` there are (counted, no list made)."""
    return _open_homes(state, None, state.mover())


def open_residences(state: GameState, seat: int = -1) -> list[int]:
    """Structures of the player (``seat``'s, when given) with a free residency (walls have
    none)."""
    found: list[int] = []
    _open_homes(state, found, state.mover() if seat < 0 else state.seats[seat])
    return found


def _open_homes(state: GameState, found: list[int] | None, me: Seat) -> int:
    """How many of ``me``'s structures have a free residency, each appended to ``found``
    when a list is given (one loop for the count and the list)."""
    # (The citizens' hosts read once into a list, then counted per structure with a
    # residence: numbers compared, where a dictionary of counts boxed and hashed each.)
    homes: list[int] = []
    if me.residents:
        host = state.host
        homes = [host.get(citizen, -1) for citizen in me.residents]  # -1: being rehoused
    count = 0
    for structure in me.private:
        room = state.card(structure).residencies
        if room <= 0:
            continue
        for home in homes:
            if home == structure:
                room -= 1
        if room > 0:
            count += 1
            if found is not None:
                found.append(structure)
    return count


def keywords(state: GameState, instance: int) -> frozenset[str]:
    """The card's common abilities in effect now: printed, past their faction threshold, and
    from the items it carries (one weapon, one armor, one shield: the best of each)."""
    cache = state.keyword_cache
    if instance < len(cache):
        cached = cache[instance]
        if cached is not None:
            return cached
    else:  # dropped (GameState.forget_derived): room for
        # every card again
        cache.extend([None] * (len(state.cards) - len(cache)))
    card = state.card(instance)
    combat = state.combat
    # (the card's own seat: only its items can be attached to it)
    if not card.keyword_thresholds and not state.seat_of(instance).attached \
            and (combat is None or instance not in combat.granted):
        # Most cards, most of the time: nothing but the printed keywords (no threshold, no
        # item in play, no grant), so the profile's own set, without building a copy.
        cache[instance] = card.keywords
        return card.keywords
    found = set(card.keywords)
    for keyword, needed in card.keyword_thresholds.items():
        if faction_members(state, card.faction) >= needed:
            found.add(keyword)
    for item in items_used(state, instance):
        found |= state.card(item).keywords
    if state.combat is not None:
        found.update(state.combat.granted.get(instance, ()))
    if any(e.kind == "no_fleetfoot" for item in items_used(state, instance)
           for e in state.card(item).statics):
        found.discard("fleetfoot")
    result = cache[instance] = frozenset(found)
    return result


def items_used(state: GameState, instance: int) -> list[int]:
    """"A troop may only use one weapon, one armor, and one shield": the best of each kind
    by its printed bonus, and every other item."""
    cached = state.item_cache.get(instance)
    if cached is not None:
        return cached
    me = state.seat_of(instance)  # (only its owner's items can be attached to it)
    best: dict[str, int] = {}
    others = []
    for item in me.attached:
        if state.host.get(item) != instance:
            continue
        card = state.card(item)
        if card.type != "item":
            continue
        slot = card.subtype or "other"
        if slot in ("weapon", "armor", "shield"):
            current = best.get(slot)
            if current is None or _item_value(state.card(current)) < _item_value(card):
                best[slot] = item
        else:
            others.append(item)
    found = state.item_cache[instance] = [*best.values(), *others]
    return found


def _item_value(card: Profile) -> int:
    return card.offense + card.defense


def static_amounts(state: GameState, instance: int, kind: str) -> tuple[int, ...]:
    """The amounts of the static effects of ``kind`` on a card: its own and those of the
    items it uses (most cards have none: combat asks this for every attack)."""
    own = state.card(instance).statics
    items = items_used(state, instance)
    if not own and not items:
        return ()
    found = [e.amount for e in own if e.kind == kind]
    for item in items:
        found += [e.amount for e in state.card(item).statics if e.kind == kind]
    return tuple(found)


# --- leaving play --------------------------------------------------------------------------


def discard_from_play(state: GameState, instance: int, reason: str) -> None:
    """Put a card in play into its discard pile, with what depends on it."""
    _leave_play(state, instance, DISCARDS[state.card(instance).pile], reason)


def remove_killed(state: GameState, instance: int, reason: str) -> None:
    """"If the card is unique it is placed on the dead pile; otherwise the card is discarded
    to the appropriate pile.\""""
    card = state.card(instance)
    zone = "dead" if card.unique else DISCARDS[card.pile]
    _leave_play(state, instance, zone, reason)


def _leave_play(state: GameState, instance: int, zone: str, reason: str) -> None:
    # (The card's own seat: what hangs on it, and its citizens, are its owner's.)
    me = state.seat_of(instance)
    card = state.card(instance)
    # (Each entry looked up and deleted: compiled, pop() with a default is a method called
    # by name, a few hundred instructions each. The tokens on a card are a list, never None.)
    tokens = state.on_card.get(instance)
    if tokens is not None:
        del state.on_card[instance]
    _drop(state.hoarded, instance)
    if tokens:
        # "Influence tokens without an owner return to the city's influence pool."
        for k in range(3):
            state.city[k] += tokens[k]
    _drop(state.bounty_bonus, instance)
    state.exhausted.discard(instance)
    _drop(state.wounds, instance)
    state.move(instance, zone)
    if me.homeless and instance in me.homeless:
        me.homeless.remove(instance)
    if state.events is not None:
        emit(state, "leaves_play", card=instance, to=zone, reason=reason)
    # "If the card the item is attached to leaves play the item is discarded."
    for attached in [a for a in me.attached if state.host.get(a) == instance]:
        _leave_play(state, attached, DISCARDS[state.card(attached).pile], "host_left")
    if card.type == "structure":
        for guard in [g for g in me.guards if state.host.get(g) == instance]:
            state.move(guard, "defensive")
            if state.events is not None:
                emit(state, "guard_returns", card=guard)
        for citizen in [c for c in me.residents if state.host.get(c) == instance]:
            rehouse(state, citizen)


def _drop(numbers: dict[int, int], instance: int) -> None:
    """``numbers.pop(instance, None)``, without the method called by name (see _leave_play)."""
    if instance in numbers:
        del numbers[instance]  # noqa: RUF051 (see the docstring)


def rehouse(state: GameState, citizen: int) -> None:
    """"If a citizen loses his residence he must immediately be placed on an empty residence
    at no cost or into the discard pile. If no open residence remains the citizen can replace
    another citizen who will go to the discard pile instead." The first empty residence (a
    choice: any serves alike); with none, his fate is the player's choice at the next
    decision when another citizen has a residence (``me.homeless``: :func:`settle_homeless`,
    then :func:`take_residence`), else the discard pile. A citizen of another player than
    the one deciding (his structure destroyed by another's event) is not asked about: the
    discard pile when no residence of his owner's is open (a choice, as for a unique
    card replaced: :func:`discard_homeless`)."""
    me = state.mover()
    owner = state.owner[citizen]
    state.host.pop(citizen, None)
    homes = open_residences(state, owner)
    if homes:
        state.host[citizen] = homes[0]
        if state.events is not None:
            emit(state, "rehoused", card=citizen, structure=homes[0])
    elif owner == state.to_move and _housed(state, citizen):
        me.homeless.append(citizen)
        if state.events is not None:
            emit(state, "homeless", card=citizen)
    else:
        _leave_play(state, citizen, DISCARDS[state.card(citizen).pile], "homeless")


def _housed(state: GameState, citizen: int) -> list[int]:
    """The citizens with a residence that ``citizen`` could replace (the other homeless
    have none)."""
    me = state.mover()
    host = state.host
    return [r for r in me.residents if r != citizen and r in host]


def settle_homeless(state: GameState) -> bool:
    """Settle what needs no choice among the homeless citizens, first to last, up to the
    first whose fate is the player's choice (True then: :func:`homeless_choices`): one for
    whom a residence came open since takes it, one with no citizen left to replace goes to
    the discard pile. (One who left play otherwise left the list then: _leave_play.)"""
    me = state.mover()
    while me.homeless:
        citizen = me.homeless[0]
        homes = open_residences(state)
        if homes:
            take_residence(state, citizen, -1, homes[0])
        elif not _housed(state, citizen):
            take_residence(state, citizen, -1)
        else:
            return True
    return False


def homeless_choices(state: GameState) -> list[Action]:
    """The first homeless citizen's fate: replace a citizen with a residence (who goes to the
    discard pile), or go to the discard pile himself (last)."""
    me = state.mover()
    citizen = me.homeless[0]
    found = [Action("rehouse", citizen, r) for r in _housed(state, citizen)]
    found.append(Action("rehouse", citizen))
    return found


def discard_homeless(state: GameState) -> None:
    """Every homeless citizen to the discard pile, with no choice offered: at the game's end,
    and at a table when another seat's card drove them out outside this seat's decisions."""
    me = state.mover()
    for citizen in list(me.homeless):
        _leave_play(state, citizen, DISCARDS[state.card(citizen).pile], "homeless")


def take_residence(state: GameState, citizen: int, resident: int, home: int = -1) -> None:
    """A homeless citizen's fate: ``resident``'s residence (``resident`` goes to the discard
    pile, not the dead pile: he is not killed), an open residence ``home``, or, with neither,
    the discard pile."""
    me = state.mover()
    if citizen in me.homeless:
        me.homeless.remove(citizen)
    if resident >= 0:
        home = state.host[resident]
        _leave_play(state, resident, DISCARDS[state.card(resident).pile], "displaced")
    if home < 0:
        _leave_play(state, citizen, DISCARDS[state.card(citizen).pile], "homeless")
        return
    state.host[citizen] = home
    if state.events is not None:
        emit(state, "rehoused", card=citizen, structure=home)


def wound(state: GameState, instance: int, count: int, *, exhaust: bool = True) -> bool:
    """Put ``count`` wound counters on a card and exhaust it ("Place a wound counter on the
    target and exhaust it"), unless it has Endurance ("does not become exhausted for taking a
    wound": any wound, a combat's or an ability's) or ``exhaust`` is False (Hold the Line);
    True when it is killed or destroyed."""
    card = state.card(instance)
    state.wounds[instance] = state.wounds.get(instance, 0) + count
    if exhaust and "endurance" not in keywords(state, instance):
        state.exhausted.add(instance)
    if state.events is not None:
        emit(state, "wound", card=instance, count=count, wounds=state.wounds[instance])
    if card.type == "structure" and card.subtype != "stronghold":
        return True  # "If a structure (other than a stronghold) is wounded it is destroyed."
    return state.wounds[instance] >= card.vitality


def bounty(state: GameState, wanderer: int) -> int:
    """A wanderer's bounty now: printed (#21), plus a bounty bonus of this round, plus the
    tokens it hoarded ("as an additional bounty"); a bribe lying on it is not bounty."""
    return (state.card(wanderer).bounty + state.bounty_bonus.get(wanderer, 0)
            + state.hoarded.get(wanderer, 0))


def pay_bounty(state: GameState, wanderer: int) -> None:
    """A killed wanderer's bounty: the tokens lying on it (hoards, bribes) go to the player as
    they are; the rest comes from the city's pool, "of any token type": the player chooses the
    kinds, one token at a time, at the next decision (``me.bounty_due``)."""
    me = state.mover()
    due = state.card(wanderer).bounty + state.bounty_bonus.get(wanderer, 0)
    extra = state.on_card.pop(wanderer, None) or [0, 0, 0]
    state.hoarded.pop(wanderer, None)
    for k in range(3):
        me.personal[k] += extra[k]
    me.bounty_due += due
    if state.events is not None:
        emit(state, "bounty", card=wanderer, due=due, tokens=list(extra))


def take_bounty_token(state: GameState, kind: int) -> None:
    """One token of the bounty due, of the kind the player chose."""
    me = state.mover()
    me.bounty_due -= 1
    state.city[kind] -= 1
    me.personal[kind] += 1
    if state.events is not None:
        emit(state, "bounty_token", kind=kind)


# --- abilities and events ------------------------------------------------------------------


def usable_abilities(state: GameState, *, combat_step: bool) -> list[tuple[int, Ability, int]]:
    """(card holding the ability, ability, card that exhausts) for every ability that can be
    used now: not exhausted when it exhausts, faction threshold met, its price affordable."""
    me = state.mover()
    found: list[tuple[int, Ability, int]] = []
    # (Zone by zone without a tuple of them made at every call, and each card's abilities
    # of the one kind, Profile.plain_abilities or combat_abilities: the same in the same
    # order as every ability filtered by its kind.)
    _usable_in(state, me.private, combat_step, found)
    _usable_in(state, me.residents, combat_step, found)
    _usable_in(state, me.guards, combat_step, found)
    _usable_in(state, me.defensive, combat_step, found)
    _usable_in(state, me.attached, combat_step, found)
    return found


def _usable_in(state: GameState, zone: list[int], combat_step: bool,
               found: list[tuple[int, Ability, int]]) -> None:
    for instance in zone:
        card = state.card(instance)
        abilities = card.combat_abilities if combat_step else card.plain_abilities
        if not abilities:
            continue
        actor = _actor(state, instance, card)
        if actor < 0:
            continue
        for ability in abilities:
            if usable(state, ability, actor):
                found.append((instance, ability, actor))


def plain_usable(state: GameState, holders: list[int], abilities: list[Ability]) -> None:
    """:func:`usable_abilities` outside combat, side by side into ``holders`` (the card
    holding each ability) and ``abilities``: the same in the same order, without a tuple
    made per ability (the engine asks at every decision of the phases), and only the cards
    that hold such abilities looked at (remembered until a card enters, leaves or moves in
    play: GameState.forget_derived)."""
    me = state.mover()
    cards = me.holders_cache
    if cards is None:
        cards = me.holders_cache = plain_holders(state)
    for instance in cards:
        card = state.card(instance)
        actor = _actor(state, instance, card)
        if actor < 0:
            continue
        for ability in card.plain_abilities:
            if usable(state, ability, actor):
                holders.append(instance)
                abilities.append(ability)


def plain_holders(state: GameState) -> list[int]:
    """The cards in play with abilities used outside combat, in the order of
    :func:`usable_abilities`' zones."""
    me = state.mover()
    found: list[int] = []
    # (Zone by zone, as usable_abilities: a tuple of the zones is iterated as an object.)
    _holders_in(state, me.private, found)
    _holders_in(state, me.residents, found)
    _holders_in(state, me.guards, found)
    _holders_in(state, me.defensive, found)
    _holders_in(state, me.attached, found)
    return found


def _holders_in(state: GameState, zone: list[int], found: list[int]) -> None:
    for instance in zone:
        if state.card(instance).plain_abilities:
            found.append(instance)


def usable(state: GameState, ability: Ability, actor: int) -> bool:
    """Whether ``actor`` (see :func:`_actor`) may use ``ability`` now: not exhausted when it
    exhausts, faction threshold met, its price affordable."""
    if ability.exhausts and actor in state.exhausted:
        return False
    if ability.threshold and faction_members(
            state, state.card(actor).faction) < ability.threshold:
        return False
    return affordable(state, ability.effect.pay)


def _actor(state: GameState, instance: int, card: Profile) -> int:
    """Who uses the card's abilities (and is exhausted by them): the card itself, or for an
    invocation its bearer; -1 when nobody may. "Exhausted personalities may not use
    invocations"; Kalim invocations only by Glory of Kalim members."""
    if card.type != "invocation":
        return instance
    actor = state.host.get(instance, -1)
    if actor < 0 or actor in state.exhausted:
        return -1
    if card.subtype == "kalim" and state.card(actor).faction != "kalim":
        return -1
    return actor


def actor(state: GameState, instance: int) -> int:
    """Who uses the abilities of the card in play ``instance`` (:func:`_actor`)."""
    return _actor(state, instance, state.card(instance))


def find_ability(state: GameState, action: Action) -> tuple[Ability, int]:
    """The ability a legal "use" action names, and the card it exhausts."""
    card = state.card(action.card)
    return card.ability(action.option), _actor(state, action.card, card)


def pay_for_ability(state: GameState, action: Action) -> tuple[Effect, int]:
    """Use the ability a legal "use" action names: pay its price and exhaust the card it
    exhausts. Returns the effect and the card using it, whose effect is carried out by its
    kind's entry (rules/game/phase_effects.py, rules/game/battle_effects.py)."""
    ability, actor = find_ability(state, action)
    effect = ability.effect
    pay(state, effect.pay)
    if ability.exhausts:
        state.exhausted.add(actor)
    if state.events is not None:
        emit(state, "use", card=action.card, ability=ability.text, target=action.target)
    return effect, actor


def seat_order(state: GameState) -> list[int]:
    """Every seat, from the one deciding to his left (solo: his own)."""
    n = len(state.seats)
    if n == 1:
        return [0]
    me = state.to_move
    return [(me + k) % n for k in range(n)]


def row_wanderers(state: GameState) -> list[int]:
    """The wanderers of every player's row ("target wanderer": a text that names no owner
    reaches any), the deciding player's row first, then the others' from his left."""
    if len(state.seats) == 1:
        return state.mover().zones["wanderers"]
    return [w for seat in seat_order(state) for w in state.seats[seat].zones["wanderers"]]


def cheapest_citizen(state: GameState, seat: int) -> int:
    """The citizen of ``seat`` not yet exhausted whose exhaustion costs him least (-1: none):
    one with no ability that exhausts him first (he loses no use of it), then the least
    income, then the least influence, then the first played."""
    best, best_key = -1, (0, 0, 0)
    for citizen in state.seats[seat].residents:
        if citizen in state.exhausted:
            continue
        card = state.card(citizen)
        key = (int(any(a.exhausts for a in card.abilities)), card.income, card.influence)
        if best < 0 or key < best_key:
            best, best_key = citizen, key
    return best
