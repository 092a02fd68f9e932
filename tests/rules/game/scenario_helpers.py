"""Builders for the rule scenarios of test_scenarios.py: synthetic cards, small games, dice.

Pure Python (no Django, no database). Cards are card data dicts with the keys of docs/design.md §4,
turned into :class:`rules.cards.CardFacts` by :func:`rules.cards.facts_by_id`. A scenario
either plays a whole game with a policy, or builds a game with :func:`make_game`, puts cards
where it wants them with :func:`place`, and drives it with ``engine.legal_actions`` /
``engine.apply`` from a step chosen with :func:`at_step`.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from rules.cards import CardFacts, facts_by_id
from rules.decklist import DeckEntry, Decklist
from rules.game import engine
from rules.game.actions import Action, Result
from rules.game.config import GameConfig
from rules.game.policies import GreedyPolicy
from rules.game.state import GameState
from rules.game.vocabulary import Phase, Step
from rules.rng import GameRng

type Card = dict[str, Any]


# --- synthetic cards (docs/design.md §4 keys) -----------------------------------------------------


def _card(card_id: str, card_type: str, subtype: str | None, **fields: Any) -> Card:
    data: Card = {"id": card_id, "name": card_id.replace("-", " ").title(), "type": card_type,
                  "subtype": subtype, "unique": False, "abilities": ""}
    data.update(fields)
    return data


def stronghold(card_id: str = "keep", *, cost: int = 0, residencies: int = 2,
               offense: int = 0, defense: int = 5, vitality: int = 10, **fields: Any) -> Card:
    return _card(card_id, "structure", "stronghold", unique=True, cost_generic=cost,
                 residencies=residencies, offense=offense, defense=defense, vitality=vitality,
                 **fields)


def structure(card_id: str = "house", *, cost: int = 0, residencies: int = 1,
              **fields: Any) -> Card:
    return _card(card_id, "structure", "general", cost_generic=cost, residencies=residencies,
                 **fields)


def wall(card_id: str = "palisade", *, cost: int = 0, blocks: int = 1, offense: int = 0,
         defense: int = 3, **fields: Any) -> Card:
    """A wall: ``residencies`` is its block capacity (anatomy #19)."""
    return _card(card_id, "structure", "wall", cost_generic=cost, residencies=blocks,
                 offense=offense, defense=defense, **fields)


def _personality(card_id: str, subtype: str, faction: str | None, offense: int, defense: int,
                 influence: int, vitality: int, cost: tuple[int, int, int],
                 strength: tuple[int, int, int], **fields: Any) -> Card:
    return _card(card_id, "personality", subtype, faction=faction, offense=offense,
                 defense=defense, faction_influence=influence, vitality=vitality,
                 cost_economic=cost[0], cost_religious=cost[1], cost_political=cost[2],
                 strength_economic=strength[0], strength_religious=strength[1],
                 strength_political=strength[2], **fields)


def citizen(card_id: str = "clerk", *, faction: str | None = "kalim", influence: int = 1,
            cost: tuple[int, int, int] = (0, 0, 0), strength: tuple[int, int, int] = (0, 0, 0),
            **fields: Any) -> Card:
    return _personality(card_id, "citizen", faction, 0, 0, influence, 1, cost, strength,
                        **fields)


def troop(card_id: str = "soldier", *, faction: str | None = "guild", offense: int = 2,
          defense: int = 2, vitality: int = 2, influence: int = 0,
          cost: tuple[int, int, int] = (0, 0, 0), strength: tuple[int, int, int] = (0, 0, 0),
          **fields: Any) -> Card:
    return _personality(card_id, "troop", faction, offense, defense, influence, vitality, cost,
                        strength, **fields)


def wanderer(card_id: str = "wolf", *, offense: int = 2, defense: int = 2, vitality: int = 2,
             aggression: int = 0, bounty: int = 1, **fields: Any) -> Card:
    return _card(card_id, "wanderer", None, offense=offense, defense=defense,
                 vitality=vitality, aggression=aggression, bounty=bounty, **fields)


def item(card_id: str = "sword", *, subtype: str = "weapon", offense: int = 1, defense: int = 0,
         cost: tuple[int, int, int] = (0, 0, 0), **fields: Any) -> Card:
    return _card(card_id, "item", subtype, offense=offense, defense=defense,
                 cost_economic=cost[0], cost_religious=cost[1], cost_political=cost[2], **fields)


def invocation(card_id: str = "blessing", *, subtype: str = "general", requirement: int = 1,
               cost: tuple[int, int, int] = (0, 0, 0), **fields: Any) -> Card:
    return _card(card_id, "invocation", subtype, strength_religious=requirement,
                 cost_economic=cost[0], cost_religious=cost[1], cost_political=cost[2], **fields)


def event(card_id: str = "windfall", *, subtype: str = "general", requirement: int = 0,
          cost: tuple[int, int, int] = (0, 0, 0), **fields: Any) -> Card:
    return _card(card_id, "event", subtype, strength_economic=requirement,
                 cost_economic=cost[0], cost_religious=cost[1], cost_political=cost[2], **fields)


# --- games ---------------------------------------------------------------------------------


def deck_of(holdings: Sequence[Card], structures: Sequence[Card] = (),
            personalities: Sequence[Card] = (), wanderers: Sequence[Card] = ()
            ) -> tuple[Decklist, dict[str, CardFacts]]:
    """A deck (one entry per listed card; list a card twice for two copies) and its facts."""

    def entries(cards: Iterable[Card]) -> tuple[DeckEntry, ...]:
        return tuple(DeckEntry(c["id"], 1) for c in cards)

    every = [*holdings, *structures, *personalities, *wanderers]
    deck = Decklist("Scenario", 2, "", entries(holdings), entries(structures),
                entries(personalities), entries(wanderers))
    return deck, facts_by_id({c["id"]: c for c in every}.values())


def make_game(holdings: Sequence[Card] = (), structures: Sequence[Card] = (),
              personalities: Sequence[Card] = (), wanderers: Sequence[Card] = (), *,
              seed: int = 1, record: bool = True, **config: Any) -> GameState:
    """A new recorded game (at its first decision), holdings defaulting to a free stronghold."""
    deck, facts = deck_of(holdings or [stronghold()], structures, personalities, wanderers)
    return engine.new_game(deck, facts, seed, GameConfig(**config), record=record)


def instances(state: GameState, card_id: str) -> list[int]:
    """The instances of one card, in deck order."""
    return [i for i, cid in enumerate(state.cards) if cid == card_id]


def first(state: GameState, card_id: str) -> int:
    return instances(state, card_id)[0]


def place(state: GameState, instance: int, zone: str, host: int = -1) -> int:
    """Put a card in a zone (and on a host: a residence, a guarded structure, a bearer)."""
    state.move(instance, zone)
    if host >= 0:
        state.host[instance] = host
    state.pending = None
    for cache in ("keyword_cache", "item_cache"):  # derived from the hosts just changed
        getattr(state, cache, {}).clear()
    return instance


def clear_hand(state: GameState) -> None:
    """Put the hand back on the bottom of its draw piles (so scenarios start from nothing)."""
    for instance in list(state.mover().zones["hand"]):
        pile = state.card(instance).pile
        state.move(instance, {"structures": "structure_pile", "personalities": "personality_pile",
                              "wanderers": "wanderer_pile"}[pile])
    state.pending = None


def at_step(state: GameState, phase: Phase, step: Step) -> GameState:
    """Jump to a step of the round (the cached legal actions are dropped)."""
    state.phase, state.step = phase, step
    state.combat = None
    state.pending = None
    state.keyword_cache.clear()
    return state


def act(state: GameState, action: Action) -> Result:
    """Apply an action that must be legal."""
    result = engine.apply(state, action)
    assert result.ok, (action, result.reason, engine.legal_actions(state))
    return result


def to_wanderer_phase(state: GameState) -> GameState:
    """From the Action and Development Phase, pass (no hunt is offered without troops, or the
    hunt is passed) into the Wanderer Phase, which runs until its next decision."""
    at_step(state, "action", "act")
    act(state, Action("pass"))
    if state.step == "military" and state.combat is None:
        act(state, Action("pass"))
    return state


def events(state: GameState, kind: str) -> list[dict[str, Any]]:
    assert state.events is not None
    return [e for e in state.events if e["type"] == kind]


def kinds(actions: Iterable[Action]) -> list[str]:
    return [a.kind for a in actions]


# --- dice ----------------------------------------------------------------------------------


_RNG_CACHE: dict[tuple[int, ...], int] = {}


def rng_for(rolls: Sequence[int]) -> int:
    """An RNG state whose next dice are ``rolls`` (found by search; cached)."""
    key = tuple(rolls)
    if key not in _RNG_CACHE:
        seed = 0
        while True:
            rng = GameRng(seed)
            if all(rng.die() == roll for roll in key):
                break
            seed += 1
        _RNG_CACHE[key] = seed
    return _RNG_CACHE[key]


def set_dice(state: GameState, rolls: Sequence[int]) -> None:
    """The next dice of the game (of the seat that decides) will be ``rolls``."""
    state.mover().rng = rng_for(rolls)


# --- whole games ---------------------------------------------------------------------------


type Policy = Callable[[GameState, Sequence[Action]], Action]


def play_out(state: GameState, policy: Policy | None = None, limit: int = 5000) -> GameState:
    """Play ``state`` to its end with ``policy`` (the greedy policy by default)."""
    chooser = policy or GreedyPolicy()
    for _ in range(limit):
        if state.over:
            return state
        result = engine.apply(state, chooser(state, engine.legal_actions(state)))
        assert result.ok, result.reason
    raise AssertionError("the game did not end")


def snapshot(state: GameState) -> Mapping[str, Any]:
    return state.to_dict()


# --- combat --------------------------------------------------------------------------------


def battle_game(troops: Sequence[Card] = (), wanderers: Sequence[Card] = (),
                holdings: Sequence[Card] = (), others: Sequence[Card] = (),
                **config: Any) -> tuple[GameState, list[int], list[int]]:
    """A game with ``troops`` in the defensive holdings and ``wanderers`` in the wanderer row
    (``others`` stay in the personality pile); returns the state and the two instance lists,
    in the order given."""
    state = make_game(holdings, [], [*troops, *others], wanderers, **config)
    taken: set[int] = set()

    def put(cards: Sequence[Card], zone: str) -> list[int]:
        placed = []
        for card in cards:
            instance = next(i for i in instances(state, card["id"]) if i not in taken)
            taken.add(instance)
            placed.append(place(state, instance, zone))
        return placed

    return state, put(troops, "defensive"), put(wanderers, "wanderers")


def hunt(state: GameState, engage: Sequence[int], send: Sequence[int]) -> GameState:
    """Declare a hunt, engage ``engage``, send ``send`` (paying for exhausted troops): the
    combat is then at its first assignment."""
    at_step(state, "military", "military")
    act(state, Action("hunt"))
    for wanderer_ in engage:
        act(state, Action("engage", wanderer_))
    act(state, Action("done"))
    muster(state, send)
    return state


def muster(state: GameState, send: Sequence[int]) -> GameState:
    """Send ``send`` to the battlefield (the combat's movement) and end the movement."""
    for troop_ in send:
        act(state, Action("send", troop_, option="pay" if troop_ in state.exhausted else ""))
    if state.combat is not None and state.combat.step == "muster":
        act(state, Action("done"))
    return state


def resolve(state: GameState, dice: Sequence[int] | None = None) -> GameState:
    """End the modification step and resolve the combat with ``dice`` (one per attack group,
    in order; by default 3s, which change nothing)."""
    assert state.combat is not None and state.combat.step == "modify", state.combat
    groups = len(state.combat.groups)
    set_dice(state, list(dice) if dice is not None else [3] * groups)
    act(state, Action("done"))
    return state


def take_bounty(state: GameState, kind: str = "economic") -> GameState:
    """Choose the kinds of the bounty due: ``kind`` while the city's pool has it."""
    while state.mover().bounty_due and not state.over:
        options = engine.legal_actions(state)
        act(state, next((a for a in options if a.option == kind), options[0]))
    return state


def attacks(state: GameState) -> list[dict[str, Any]]:
    """The logged attacks (one per resolved attack group), in resolution order."""
    return events(state, "attack")


def attack_on(state: GameState, target: int) -> dict[str, Any]:
    found = [e for e in attacks(state) if e["target"] == target]
    assert len(found) == 1, found
    return found[0]


def attack_by(state: GameState, attacker: int) -> dict[str, Any]:
    found = [e for e in attacks(state) if e["attackers"] == [attacker]]
    assert len(found) == 1, found
    return found[0]


# --- guards --------------------------------------------------------------------------------


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the block after ``seconds`` (turns an endless loop into a
    failure instead of a hung test run)."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
