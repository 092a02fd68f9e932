"""The rules engine: a solo game of Allegiance, round by round, by the rulebook (v0.80).

Pure Python, no Django. Three functions drive a game:

* :func:`new_game` sets up (starting tokens, Initial Holdings paid to the city's pool, three
  shuffled piles) and runs to the first decision;
* :func:`legal_actions` lists the choices of the moment in a stable order;
* :func:`apply` carries one out and runs every automatic step after it (dice, aggression
  rolls, the end of a phase) up to the next decision. An illegal action is refused with the
  reason in the :class:`~rules.game.actions.Result`; the state is then unchanged.

Everything random comes from the RNG whose state is in the game state. With recording on,
every state change and random outcome is an event, and :func:`replay` rebuilds a game from its
log. Rule choices where the rulebook is silent or ambiguous are listed in rules/COVERAGE.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rules.cards import CardFacts
from rules.deck_rules import WANDERERS_PER_PLAYER, Problem, holdings_problems, validate_deck
from rules.decklist import Decklist
from rules.game import combat, phase_effects, rulings
from rules.game.actions import (
    BOUNTIES,
    DONE,
    DRAWS,
    FINE_TOKENS,
    HUNT,
    PASS,
    RECYCLES,
    Action,
    ActionBook,
    Result,
)
from rules.game.config import RULES_VERSION, GameConfig
from rules.game.profile import Profile, UnknownCardError, build_profile
from rules.game.rulings import (
    affordable,
    emit,
    end_game,
    pay,
    spend,
)
from rules.game.state import DISCARDS, DRAW_PILES, DRAWN, OFFERED, OPENING, PLAYED, GameState, Seat
from rules.holdings import advise_holdings, apply_advice, deck_structures
from rules.rng import GameRng, keyed_state

HAND_SIZE: Final = 7
RECYCLE_COST: Final = 5
DISCARD_LIMIT: Final = 3
MOVE_COST: Final = 3
STARTING_TOKENS: Final = (4, 4, 4)
# Steps of a seat at a table of 2 to 6 (never solo): waiting for the other seats, and a combat
# on this seat's cards started by the table on another seat's turn.
WAIT: Final = "wait"
HOSTING: Final = "hosting"


class DeckNotPlayable(ValueError):
    """The deck cannot be played by the engine (unknown card numbers, no stronghold...).
    ``problems``: the deck validator's problems when its Initial Holdings break the rules."""

    def __init__(self, message: str, problems: tuple[Problem, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems


# --- setup -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    """A deck made ready for the engine once, for any number of games: the card profiles,
    the card facts a saved state carries, and the deck's sections (holdings chosen)."""

    deck: Decklist
    by_id: Mapping[str, Profile]  # each card's profile by its id
    facts: dict[str, dict[str, Any]]
    config: GameConfig
    # The deal before the shuffles (deal_layout), laid out at the first game and copied by
    # the next ones: not compared, not shown.
    deal: _Deal | None = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "deal", None)


class _Deal:
    """Every game's cards before the shuffles, the same for every game of a deck: each
    instance's card and zone in the deck's order, the zones' lists and the favoured kind."""

    __slots__ = ("book", "cards", "favour", "where", "zones")

    def __init__(self, cards: list[str], where: list[str], zones: list[tuple[str, list[int]]],
                 favour: int) -> None:
        self.cards = cards
        self.where = where
        self.zones = zones
        self.favour = favour
        self.book = ActionBook(cards)  # every game's actions, made once


_DEAL_SECTIONS: Final = (("holdings", "private"), ("structures", "structure_pile"),
                         ("personalities", "personality_pile"), ("wanderers", "wanderer_pile"))


def deal_layout(prepared: Prepared) -> _Deal:
    """The deal of ``prepared``'s games (worked out once, then kept on it)."""
    if prepared.deal is not None:
        return prepared.deal
    cards: list[str] = []
    where: list[str] = []
    zones: list[tuple[str, list[int]]] = []
    for section, zone in _DEAL_SECTIONS:
        instances: list[int] = []
        for entry in prepared.deck.section(section):  # type: ignore[arg-type]
            for _ in range(entry.count):
                instances.append(len(cards))
                cards.append(entry.card_id)
                where.append(zone)
        zones.append((zone, instances))
    counts: dict[str, int] = {}
    for card_id in cards:
        card = prepared.by_id[card_id]
        if card.type == "personality" and card.faction in rulings.PRIMARY:
            counts[card.faction] = counts.get(card.faction, 0) + 1
    favour = rulings.PRIMARY[max(sorted(counts), key=lambda f: counts[f])] if counts else -1
    deal = _Deal(cards, where, zones, favour)
    object.__setattr__(prepared, "deal", deal)
    return deal


def prepare(deck: Decklist, cards: Mapping[str, CardFacts],
            config: GameConfig | None = None) -> Prepared:
    """Check that the engine can play ``deck`` and read its cards; raises
    :class:`DeckNotPlayable` with every problem (unknown card numbers; Initial Holdings that
    break the rules, with the validator's problems, unless the advisor chooses them: holdings
    without a stronghold are the advisor's to choose)."""
    problems: list[str] = []
    by_id: dict[str, Profile] = {}
    for _, entry in deck.all_entries():
        facts = cards.get(entry.card_id)
        if facts is None:
            problems.append(f"{entry.card_id}: not in the catalogue")
            continue
        try:
            by_id[entry.card_id] = build_profile(facts)
        except UnknownCardError as error:
            problems.append(str(error))
    if problems:
        raise DeckNotPlayable("The engine cannot play this deck: " + "; ".join(problems))
    holdings = deck
    _check_holdings(deck, cards, by_id)
    if not any(by_id[e.card_id].subtype == "stronghold" for e in deck.holdings):
        advice = advise_holdings(deck_structures(deck), cards)
        if not advice.holdings:
            raise DeckNotPlayable("The deck has no Initial Holdings with a stronghold, and no "
                                  "affordable set of holdings with one could be chosen.")
        holdings = apply_advice(deck, advice)
    facts_data = {cid: _facts_dict(cards[cid]) for cid in sorted(by_id)}
    return Prepared(holdings, by_id, facts_data, config or GameConfig())


def check_seating(decks: Sequence[Prepared], players: int) -> None:
    """Refuse a table of ``players`` where a deck's Wanderer Pile is short: "each wanderer
    draw pile must consist of no less than three wanderers multiplied by the number of
    players" (a solo game asks three). Raises :class:`DeckNotPlayable` naming the seat's
    deck, with the validator's ``wanderer_pile_too_small`` problem."""
    need = WANDERERS_PER_PLAYER * players
    for number, prepared in enumerate(decks, 1):
        by_id = prepared.by_id
        held = sum(e.count for e in prepared.deck.wanderers
                   if e.card_id in by_id and by_id[e.card_id].type == "wanderer")
        if held >= need:
            continue
        cards = {cid: CardFacts.from_data(f) for cid, f in prepared.facts.items()}
        problems = tuple(p for p in validate_deck(prepared.deck, cards, players).problems
                         if p.code == "wanderer_pile_too_small")
        name = prepared.deck.name or "unnamed"
        raise DeckNotPlayable(
            f"Deck {number} ({name}): its Wanderer Pile holds {held} wanderers; a table of "
            f"{players} needs at least {need} (three per player).", problems)


def _check_holdings(deck: Decklist, cards: Mapping[str, CardFacts],
                    by_id: Mapping[str, Profile]) -> None:
    """Refuse Initial Holdings that break the rules, with the deck validator's own problems.
    Holdings without a stronghold are left to the advisor, which chooses among the deck's
    structures (holdings and pile alike) by the same rules: only a card of another type placed
    in them is refused then (the advisor only moves structures)."""
    problems = holdings_problems(deck, cards)
    if not any(by_id[e.card_id].subtype == "stronghold" for e in deck.holdings):
        problems = tuple(p for p in problems if p.code == "wrong_pile")
    if problems:
        raise DeckNotPlayable("The Initial Holdings break the rules: "
                              + " ".join(p.message for p in problems), problems)


def new_game(deck: Decklist | Prepared, cards: Mapping[str, CardFacts] | None, seed: int,
             config: GameConfig | None = None, *, record: bool = False) -> GameState:
    """A new game of ``deck`` with ``seed``, advanced to the first decision. ``deck`` may be
    :func:`prepare`'s result (then ``cards`` and ``config`` are not needed). The state of a
    table of one (:func:`new_table_state`), played on by the engine alone."""
    prepared = deck if isinstance(deck, Prepared) else prepare(deck, cards or {}, config)
    state = new_table_state([prepared], [seed], prepared.config, deal_layout(prepared).book,
                            record=record)
    _advance(state)
    return state


def new_table_state(decks: Sequence[Prepared], seeds: Sequence[int], config: GameConfig,
                    book: ActionBook | None = None, *, record: bool = False) -> GameState:
    """The one state of a new table (rules/game/seats.py), each seat set up and at the start
    of its first round (the table runs each seat's City Maintenance at its turn). Every card
    is a global instance (the decks' cards numbered one deck after another, ``owner`` saying
    whose): a combat between seats names the cards where they are, and moves or copies none.
    ``player`` walks the seats (the table sets it for the seat whose part or turn it is).
    ``seeds``: each seat's RNG stream (a table of one: the solo game's seed); ``book``: the
    table's actions when the caller keeps them (made for these decks in this order)."""
    deals = [deal_layout(prepared) for prepared in decks]
    cards: list[str] = []
    owner: list[int] = []
    where: list[str] = []
    seats = [Seat() for _ in decks]
    by_id: dict[str, Profile] = {}
    for number, deal in enumerate(deals):
        offset = len(cards)
        cards.extend(deal.cards)
        owner.extend([number] * len(deal.cards))
        where.extend(deal.where)
        for zone, instances in deal.zones:
            seats[number].zones[zone].extend([offset + i for i in instances])
        by_id.update(decks[number].by_id)
    # Read-only, like the profiles: one deck's shared by the run's games, several merged.
    facts = decks[0].facts if len(decks) == 1 \
        else {card: data for deck in decks for card, data in deck.facts.items()}
    if book is None:
        book = ActionBook(cards)
    state = GameState(
        cards=cards, seed=seeds[0], config=config, rng=GameRng(seeds[0]).state, seats=seats,
        owner=owner, where=where, city=list(config.city_pool), flags=[0] * len(cards),
        facts=facts, by_id=by_id, profiles=[by_id[card_id] for card_id in cards],
        action_book=book, events=[] if record else None)
    for number in range(len(decks)):
        seats[number].rng = GameRng(seeds[number]).state
        state.player = state.to_move = number
        _set_up_seat(state, deals[number].favour, seeds[number])
    for number in range(len(decks)):
        state.player = state.to_move = number
        _begin_round(state, 1)  # (each seat's maintenance runs at its turn: seats._settle)
    return state


def _set_up_seat(state: GameState, favour: int, seed: int) -> None:
    """The player's starting tokens, Initial Holdings paid to the city's pool, and his three
    piles shuffled by his own stream (``seed``: its seed, told in the setup event)."""
    me = state.player_seat()
    me.personal = list(STARTING_TOKENS)
    me.favour = favour
    config = state.config
    if state.events is not None:
        emit(state, "setup", seed=seed, rules_version=RULES_VERSION,
             target=config.target, players=config.players, city=list(state.city),
             personal=list(me.personal))
    for instance in list(me.private):
        card = state.card(instance)
        if card.subtype == "wall":
            state.move(instance, "defensive")
        if not pay(state, card.cost, card.generic):
            raise DeckNotPlayable("The Initial Holdings cost more than the 12 starting tokens.")
        if state.events is not None:
            emit(state, "holding", card=instance, paid=list(me.personal))
    if not any(state.card(i).subtype == "stronghold" for i in me.private):
        raise DeckNotPlayable("The Initial Holdings have no stronghold.")
    rng = GameRng(me.rng)
    for zone in ("structure_pile", "personality_pile", "wanderer_pile"):
        rng.shuffle(me.zones[zone])
        if state.events is not None:
            emit(state, "shuffle", pile=zone, order=list(me.zones[zone]))
    me.rng = rng.state


def _facts_dict(card: CardFacts) -> dict[str, Any]:
    return {name: getattr(card, name) for name in CardFacts.__dataclass_fields__
            if name not in ("structure_kind", "personality_kind", "pile")}


# --- the round ---------------------------------------------------------------------------


def _begin_round(state: GameState, number: int) -> None:
    state.round = number
    state.phase = "maintenance"
    if state.reseed:
        state.player_seat().rng = keyed_state(state.reseed, number, 0)
    if state.events is not None:
        emit(state, "round", round=number)
    total = rulings.influence_total(state)
    if state.events is not None:
        emit(state, "victory_check", influence=total, target=state.config.target)
    if total >= state.config.target:
        end_game(state, "victory")
        return
    if number > state.config.round_cap:
        end_game(state, "timeout")
        return
    if state.exhausted:
        if state.events is not None:
            emit(state, "unexhaust", cards=sorted(state.exhausted))
        state.exhausted.clear()
    state.ignored_wound.clear()
    state.step = "arrange"
    state.pending = None  # (the step changed: a table runs a seat's maintenance later)


def _next_step(state: GameState) -> None:
    """The current step has no decision left: move on by the Order of Play."""
    me = state.player_seat()
    step = state.step
    if step == "arrange":
        state.step = "draw"
    elif step == "draw":
        if state.round == 1:
            for instance in me.hand:
                state.flags[instance] |= OPENING
        state.phase, state.step = "action", "act"
    elif step == "act":
        state.phase, state.step = "military", "military"
    elif step == "military":
        if state.config.seated:  # the table runs the Wanderer Phase seat by seat
            state.phase, state.step = "wanderer", WAIT
            return
        _wanderer_phase(state)
    elif step == "fine":
        if me.fines_due > 0:  # nothing left to pay with
            if state.events is not None:
                emit(state, "fines_waived", count=me.fines_due)
            me.fines_due = 0
        _new_wanderer(state)
        if state.config.seated and not state.outcome:  # the others' Wanderer Phases
            state.step = WAIT
            return
        if not state.outcome:
            state.phase, state.step = "discard", "discard"
            me.discards_left = DISCARD_LIMIT
    elif step == "discard":
        if state.config.seated:  # the victory check waits for every seat's discards
            _expire_counters(state)
            state.step = WAIT
            return
        _end_round(state)


def _end_round(state: GameState) -> None:
    _expire_counters(state)
    _begin_round(state, state.round + 1)


def _expire_counters(state: GameState) -> None:
    if state.bounty_bonus:
        if state.events is not None:
            emit(state, "counters_expire", cards=sorted(state.bounty_bonus))
        state.bounty_bonus.clear()


def _wanderer_phase(state: GameState) -> None:
    raiders = wanderer_rolls(state)
    if raiders:
        combat.start_raid(state, raiders)
    else:
        _begin_fines(state)


def wanderer_rolls(state: GameState) -> list[int]:
    """Steps 1 and 2 of the seat's Wanderer Phase up to the attack: hoarding, then each ready
    wanderer's aggression roll; the wanderers that attack (the aggressive ones and their
    followers), none when none rolled under its rating. At a table the seat whose wanderers
    they are chooses nothing here; the table picks whom they attack (seats.py)."""
    me = state.player_seat()
    state.phase = "wanderer"
    if state.reseed:
        me.rng = keyed_state(state.reseed, state.round, 1)
    rng = GameRng(me.rng)
    row = me.zones["wanderers"]
    for instance in list(row):
        # Hoarding has no "if unexhausted" (unlike Follower): exhausted hoarders hoard too.
        if state.card(instance).has("hoarding"):
            kind = max(range(3), key=lambda k: (state.city[k], -k))
            if state.city[kind]:
                state.city[kind] -= 1
                state.on_card.setdefault(instance, [0, 0, 0])[kind] += 1
                state.hoarded[instance] = state.hoarded.get(instance, 0) + 1
                if state.events is not None:
                    emit(state, "hoard", card=instance, kind=kind)
    aggressive = []
    for instance in list(row):
        if instance in state.exhausted:
            continue
        roll = rng.die()
        rating = state.card(instance).aggression
        if state.events is not None:
            emit(state, "aggression_roll", card=instance, roll=roll, rating=rating,
                 aggressive=roll <= rating)
        if roll <= rating:
            aggressive.append(instance)
    me.rng = rng.state
    if not aggressive:
        return aggressive
    followers = [i for i in row if i not in aggressive and i not in state.exhausted
                 and state.card(i).has("follower")]
    if followers and state.events is not None:
        emit(state, "followers_join", cards=followers)
    return aggressive + followers


def _begin_fines(state: GameState) -> None:
    me = state.player_seat()
    state.phase, state.step = "wanderer", "fine"
    me.fines_due = sum(1 for i in me.zones["wanderers"] if i not in state.exhausted)
    if me.fines_due and state.events is not None:
        emit(state, "fines_due", count=me.fines_due)


def _after_combat(state: GameState, kind: str) -> None:
    """The combat is over (its step is "over"): back to the Wanderer Phase after a hunt (the
    wanderers still roll for aggression), on to the fines after the wanderers' attack."""
    state.combat = None
    state.forget_derived()
    if state.outcome:
        return
    if state.config.seated and (kind == "hunt" or state.step in (WAIT, HOSTING)):
        # At a table a hunt ends the seat's Military Phase, and a combat fought on another
        # seat's turn (this seat attacked, or hunting elsewhere) hands the game back to it.
        if state.step != HOSTING:
            state.phase, state.step = "wanderer", WAIT
        return
    if kind == "hunt":
        _wanderer_phase(state)
    else:
        _begin_fines(state)


def _new_wanderer(state: GameState) -> None:
    me = state.player_seat()
    recycled = False
    while not state.outcome:
        pile = me.wanderer_pile
        if not pile:
            # Recycle at most once per new wanderer: a pile holding only dead or clashing
            # uniques would otherwise go round for ever.
            if recycled or not me.wanderer_discard:
                if state.events is not None:
                    emit(state, "no_wanderer")
                return
            _recycle(state, "wanderers", free=True)
            recycled = True
            pile = me.wanderer_pile
        instance = pile[0]
        card = state.card(instance)
        state.move(instance, "wanderers")
        state.flags[instance] |= DRAWN
        if state.events is not None:
            emit(state, "new_wanderer", card=instance)
        if card.unique:
            if any(state.cards[i] == card.id for i in me.dead):
                if state.events is not None:
                    emit(state, "unique_dead", card=instance)
                state.move(instance, "wanderer_discard")
                continue
            older = [i for i in me.zones["wanderers"]
                     if i != instance and state.cards[i] == card.id]
            if older:
                rulings.discard_from_play(state, older[0], "unique_replaced")
                continue  # "a replacement must be drawn for the discarded wanderer"
        break
    if len(me.zones["wanderers"]) > state.config.overrun_limit:
        if state.events is not None:
            emit(state, "overrun", wanderers=len(me.zones["wanderers"]))
        end_game(state, "overrun")


def _recycle(state: GameState, pile: str, *, free: bool = False) -> None:
    me = state.player_seat()
    if not free:
        spend(state, RECYCLE_COST)
    discard = me.zones[DISCARDS[pile]]
    for instance in list(discard):
        state.move(instance, DRAW_PILES[pile])
    rng = GameRng(me.rng)
    rng.shuffle(me.zones[DRAW_PILES[pile]])
    me.rng = rng.state
    if state.events is not None:
        emit(state, "recycle", pile=pile, free=free, order=list(me.zones[DRAW_PILES[pile]]))


# --- decisions -----------------------------------------------------------------------------


def legal_actions(state: GameState) -> list[Action]:
    """The legal actions now, in a stable order (empty once the game is over)."""
    if state.pending is not None:
        return state.pending
    state.pending = _legal_actions(state)
    return state.pending


def _legal_actions(state: GameState) -> list[Action]:
    state.to_move = state.player
    me = state.player_seat()
    if state.outcome:
        return []
    if me.homeless:
        return rulings.homeless_choices(state)
    if me.bounty_due:
        return _bounty_options(state)
    if state.combat is not None:
        state.to_move = combat.decider(state)
        return combat.options(state)
    step = state.step
    if step == "arrange":
        return _arrange_options(state)
    if step == "draw":
        return _draw_options(state)
    # (Each kind of option added to one list: no list made per kind and copied.)
    if step == "act":
        options: list[Action] = []
        _add_play_options(options, state)
        phase_effects.add_uses(options, state)
        _add_recycle_options(options, state)
        options.append(PASS)
        return options
    if step == "military":
        return [HUNT, PASS] if combat.can_hunt(state) else []
    if step == "fine":
        return _fine_options(state)
    if step == "discard":
        options = []
        if me.discards_left:
            book = state.book()
            first, marks, mark = book.first, book.marks, book.hand_mark()
            for instance in me.hand:
                # (A card's copies offered once, the first in hand: see ActionBook.marks.)
                mine = first[instance]
                if marks[mine] is not mark:
                    marks[mine] = mark
                    options.append(book.discard(instance))
        phase_effects.add_uses(options, state)
        options.append(DONE)
        return options
    return []


def apply(state: GameState, action: Action) -> Result:
    """Carry out ``action`` and every automatic step after it (see the module docstring)."""
    if state.outcome:
        return Result(False, "The game is over.")
    if not _offered(legal_actions(state), action):
        return Result(False, _why_illegal(state, action))
    state.pending = None
    start = len(state.events) if state.events is not None else 0
    state.decisions += 1
    if state.events is not None:
        if state.to_move == state.player:
            emit(state, "action", action=action.to_dict())
        else:  # another seat's decision in this state's combat (the attacker's)
            step = state.combat.step if state.combat is not None else ""
            emit(state, "action", action=action.to_dict(), seat=state.to_move, step=step)
    if action.kind == "rehouse":
        rulings.take_residence(state, action.card, action.target)
    elif action.kind == "bounty":
        rulings.take_bounty_token(state, rulings.KIND_INDEX[action.option])
    elif state.combat is not None:
        combat.apply(state, action)  # (as the seat deciding: to_move)
    else:
        _apply(state, action)
    _advance(state)
    if state.events is None:
        return _DONE
    return Result(True, events=state.events[start:])


def _offered(legal: list[Action], action: Action) -> bool:
    # A policy hands back one of the offered actions itself: find it by identity before
    # comparing values (an action rebuilt from JSON, as playtest and replays send them).
    for candidate in legal:
        if candidate is action:
            return True
    return action in legal


# What apply returns for a game that is not recorded (it has no events to carry).
_DONE: Final = Result(True)


def _why_illegal(state: GameState, action: Action) -> str:
    where = f"the {state.step} step of the {state.phase} phase"
    if state.combat is not None:
        where = f"the {state.combat.step} step of the combat"
    if action.card >= len(state.cards) or action.target >= len(state.cards):
        return f"There is no card number {max(action.card, action.target)} in this game."
    return f"{action.kind!r} with these cards is not a legal action in {where}."


def _advance(state: GameState) -> None:
    # What follows a decision is the player's (his combat's steps, his phase); the seat
    # deciding is set again at the next decision (combat.decider).
    state.to_move = state.player
    me = state.player_seat()
    state.pending = None
    while not state.outcome:
        # Chosen before anything else goes on: a homeless citizen's fate ("immediately"),
        # then the bounty's token kinds.
        if me.homeless and rulings.settle_homeless(state):
            state.pending = rulings.homeless_choices(state)
            return
        if me.bounty_due:
            found = _bounty_options(state)
            if found:
                state.pending = found
                return
            if state.events is not None:
                emit(state, "bounty_short", count=me.bounty_due)
            me.bounty_due = 0  # the city's pool is empty: "not able to do so"
            continue
        fight = state.combat
        if fight is not None:
            if fight.step == "over":
                _after_combat(state, fight.kind)
                continue
            if combat.step_automatic(state):
                continue
            # (the options of the seat that decides: his hand, pool and abilities)
            state.to_move = combat.decider(state)
            found = combat.options(state)
            if found:
                state.pending = found
                return
            state.to_move = state.player
            combat.skip_step(state)
            continue
        if state.step == "act":
            # A decision always (its options end with the pass), worked out when asked: at a
            # table the action may end the player's turn, and his options are worked out
            # afresh at his next (seats._next_turn).
            state.pending = None
            return
        found = _legal_actions(state)
        if found:
            state.pending = found
            return
        if state.step in (WAIT, HOSTING):  # a seat waiting for the table (rules/game/seats.py)
            state.pending = found
            return
        _next_step(state)
    state.pending = []


def _apply(state: GameState, action: Action) -> None:
    me = state.mover()
    kind = action.kind
    if kind in ("done", "pass"):
        if state.step == "military" and kind == "pass" and state.events is not None:
            emit(state, "military_pass")
        _next_step(state)
    elif kind == "draw":
        instance = me.zones[DRAW_PILES[action.option]][0]
        state.move(instance, "hand")
        state.flags[instance] |= DRAWN
        if state.events is not None:
            emit(state, "draw", card=instance, pile=action.option)
    elif kind == "recycle":
        _recycle(state, action.option)
    elif kind == "play":
        _play(state, action)
    elif kind == "use":
        phase_effects.use_ability(state, action)
    elif kind == "hunt":
        combat.start_hunt(state)
    elif kind == "guard":
        state.move(action.card, "guards")
        state.host[action.card] = action.target
        if state.events is not None:
            emit(state, "guard", card=action.card, structure=action.target)
    elif kind == "unguard":
        state.move(action.card, "defensive")
        if state.events is not None:
            emit(state, "unguard", card=action.card)
    elif kind == "move_item":
        state.host[action.card] = action.target
        state.forget_derived()
        if state.events is not None:
            emit(state, "move_item", card=action.card, to=action.target)
    elif kind == "fine":
        me.fines_due -= 1
        if action.card >= 0:
            rulings.discard_from_play(state, action.card, "fine")
        else:
            kind_index = rulings.KIND_INDEX[action.option]
            me.personal[kind_index] -= 1
            state.city[kind_index] += 1
            if state.events is not None:
                emit(state, "fine_token", kind=kind_index)
    elif kind == "discard":
        me.discards_left -= 1
        card = state.card(action.card)
        state.move(action.card, DISCARDS[card.pile])
        if state.events is not None:
            emit(state, "discard", card=action.card)


def _play(state: GameState, action: Action) -> None:
    me = state.mover()
    instance, target = action.card, action.target
    card = state.card(instance)
    pay(state, card.cost, card.generic)
    state.flags[instance] |= PLAYED
    if state.events is not None:
        emit(state, "play", card=instance, target=target, personal=list(me.personal))
    if card.unique:
        # (The player's own copies: another seat's are the table's to replace,
        # seats._check_uniques. Solo every card is the player's.)
        owner, seat = state.owner, state.to_move
        for other in [i for i in range(len(state.cards))
                      if i != instance and owner[i] == seat and state.cards[i] == card.id
                      and state.in_play(i)]:
            rulings.discard_from_play(state, other, "unique_replaced")
    if card.type == "structure":
        state.move(instance, "defensive" if card.subtype == "wall" else "private")
    elif card.is_citizen:
        state.move(instance, "residents")
        state.host[instance] = target
    elif card.is_troop:
        state.move(instance, "guards" if target >= 0 else "defensive")
        if target >= 0:
            state.host[instance] = target
    elif card.type in ("item", "invocation"):
        state.move(instance, "attached")
        state.host[instance] = target
    elif card.type == "event":
        phase_effects.resolve_event(state, instance, target)


# --- options -------------------------------------------------------------------------------


def _arrange_options(state: GameState) -> list[Action]:
    me = state.mover()
    options: list[Action] = []
    book = state.book()
    structures = me.private
    for troop in me.defensive:
        if state.card(troop).is_troop:
            for s in structures:
                options.append(book.guard(troop, s))
    for g in me.guards:
        options.append(book.unguard(g))
    if me.attached:
        personalities = rulings.personalities_in_play(state)
        for item in me.attached:
            if state.card(item).type == "item":
                host = state.host.get(item, -1)
                for p in personalities:
                    if p != host:
                        options.append(book.move_item(item, p))
    if not options:
        return []
    options.append(DONE)
    return options


def _draw_options(state: GameState) -> list[Action]:
    me = state.mover()
    if len(me.hand) >= HAND_SIZE:
        return []
    options: list[Action] = []
    if me.structure_pile:
        options.append(DRAWS["structures"])
    if me.personality_pile:
        options.append(DRAWS["personalities"])
    _add_recycle_options(options, state)
    return options


def _add_recycle_options(options: list[Action], state: GameState) -> None:
    me = state.mover()
    if rulings.held(state) < RECYCLE_COST:
        return
    # (the piles by attribute: see GameState.bind_zones)
    if not me.structure_pile and me.structure_discard:
        options.append(RECYCLES["structures"])
    if not me.personality_pile and me.personality_discard:
        options.append(RECYCLES["personalities"])


class _Table:
    """Where cards from the hand may go, worked out at most once per decision."""

    def __init__(self, state: GameState) -> None:
        me = state.mover()
        self.state = state
        self.wall_in_play = any(state.card(i).subtype == "wall" for i in me.defensive)
        self._homes: list[int] | None = None
        self._people: list[int] | None = None

    @property
    def homes(self) -> list[int]:
        if self._homes is None:
            self._homes = rulings.open_residences(self.state)
        return self._homes

    @property
    def people(self) -> list[int]:
        if self._people is None:
            self._people = rulings.personalities_in_play(self.state)
        return self._people


def _play_options(state: GameState) -> list[Action]:
    options: list[Action] = []
    _add_play_options(options, state)
    return options


def _add_play_options(options: list[Action], state: GameState) -> None:
    me = state.mover()
    cards, book = state.cards, state.book()
    first, marks, mark = book.first, book.marks, book.hand_mark()
    table: _Table | None = None
    for instance in me.hand:
        # (A card's copies are offered once, the first in hand: its first instance's entry
        # of ActionBook.marks set in this pass, no set made and no loop over the cards
        # before it; the dead pile, nearly always empty, read by a loop.)
        mine = first[instance]
        if marks[mine] is mark:
            continue
        marks[mine] = mark
        card = state.card(instance)
        if _is_dead(state, cards[instance]) or not affordable(state, card.cost, card.generic):
            continue
        if table is None:
            table = _Table(state)
        before = len(options)
        _add_placements(options, state, instance, card, table)
        if len(options) > before:
            state.flags[instance] |= OFFERED


def _is_dead(state: GameState, card_id: str) -> bool:
    """Whether a copy of the card is on the dead pile."""
    me = state.mover()
    cards = state.cards
    return any(cards[i] == card_id for i in me.dead)


def _add_placements(options: list[Action], state: GameState, instance: int, card: Profile,
                    table: _Table) -> None:
    """Add the ways ``card`` can be played now to ``options``."""
    me = state.mover()
    book = state.book()
    if card.type == "structure":
        if card.subtype != "stronghold" and not (card.subtype == "wall" and table.wall_in_play):
            options.append(book.play(instance))
    elif card.is_citizen:
        for home in table.homes:
            options.append(book.play(instance, home))
    elif card.is_troop:
        options.append(book.play(instance))
        for structure in me.private:
            options.append(book.play(instance, structure))
    elif card.type == "item":
        for person in table.people:
            options.append(book.play(instance, person))
    elif card.type == "invocation":
        need = card.strength[1]
        for person in table.people:
            bearer = state.card(person)
            if bearer.strength[1] >= need and (card.subtype != "kalim"
                                                or bearer.faction == "kalim"):
                options.append(book.play(instance, person))
    elif card.type == "event" and card.subtype == "general":
        options += phase_effects.event_options(state, instance, card)


def _use_options(state: GameState) -> list[Action]:
    options: list[Action] = []
    phase_effects.add_uses(options, state)
    return options


def _fine_options(state: GameState) -> list[Action]:
    """A fine's ways of payment, and the abilities of the moment ("Abilities may be used in
    any phase"): with nothing to pay with, only the income abilities, which could bring the
    token (with none of those either, the fine is waived)."""
    me = state.mover()
    if me.fines_due <= 0:
        return []
    options = [FINE_TOKENS[k] for k in range(3) if me.personal[k]]
    book = state.book()
    for zone in (me.private, me.residents, me.guards, me.defensive,
                 me.attached):
        options += [book.fine(i) for i in zone if state.card(i).subtype != "stronghold"]
    uses = _use_options(state)
    if not options:
        return [a for a in uses if state.card(a.card).ability(a.option).effect.kind
                == "collect"]
    return [*options, *uses]


def _bounty_options(state: GameState) -> list[Action]:
    """One token of the bounty due: "The bounty can be made of any token type" the city's
    pool still has."""
    return [BOUNTIES[k] for k in range(3) if state.city[k]]


# --- replay --------------------------------------------------------------------------------


def replay(log: Mapping[str, Any], deck: Decklist, cards: Mapping[str, CardFacts]) -> GameState:
    """The game rebuilt from its log: the same deck and seed, then the logged actions.

    Raises ValueError when an action of the log is refused or the events differ (a log of
    another rules version, or an edited one).
    """
    config = GameConfig.from_dict(dict(log["config"]))
    state = new_game(prepare(deck, cards, config), None, int(log["seed"]), record=True)
    for number, data in enumerate(log["actions"], start=1):
        result = apply(state, Action.from_dict(data))
        if not result.ok:
            raise ValueError(f"action {number} of the log was refused: {result.reason}")
    if "events" in log and state.events != list(log["events"]):
        raise ValueError("the replayed events differ from the log's")
    return state


def game_log(state: GameState) -> dict[str, Any]:
    """The log of a recorded game: everything :func:`replay` needs, and the events."""
    if state.events is None:
        raise ValueError("this game was not recorded")
    actions = [e["action"] for e in state.events if e["type"] == "action"]
    return {"rules_version": RULES_VERSION, "seed": state.seed,
            "config": state.config.to_dict(),
            "actions": actions, "events": list(state.events)}
