"""Reactions and interrupt events: another player's answer to a seat's action, at a table.

Pure Python. "A player may, if appropriate, use an ability marked as a reaction to interrupt
another player's action—this does not count as their action. Following this the cycle
continues where it left off." At a table (rules/game/seats.py) an action one of these can
answer is held back and a *window* opens: each other seat in turn from the acting one's left
that has an answer may give one, ``Action("react", card, target=acting seat, option=how)``,
or decline, ``Action("decline")``. The first answer stops the action; if none comes, the
action is carried out. Solo no window ever opens. The functions take the table's state
and seat numbers (each seat's cards and pool: ``state.seats[seat]``).

* **Debate** (P): "Negate a political ability just played. Bearer must have a political
  strength equal to or greater than the personality who used the political ability": a
  political ability used (Campaign, Sap, custom political texts) is negated, its price paid
  and its user exhausted as if used, with no effect.
* **Persuade** (P): "When a card is brought into play immediately pay the same number of
  tokens as were just paid to stop that card from being played ... The card is discarded and
  all costs are still paid ... cannot be used on invocations" (choice: nor on events, which
  are played, not brought into play).
* **Retain** (G): "Stop a unique card, which is already in play, from being played. All costs
  are still paid, but the new copy is discarded instead. A personality cannot retain itself."
* **Interrupt events**: "in response to another player's event": "Cancel target [general /
  battle] event just played; its costs are still paid". The interrupt's own cost is paid and
  it goes to its owner's discard pile.

Choices (rules/COVERAGE.md): one answer per action (a debate is not debated, an interrupt not
interrupted); Protection (R) has nothing to answer, since no action at a table casts an
invocation on another player's personality; Debate and Retain cost nothing, as printed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from rules.abilities import parse_abilities
from rules.game import rivalry, rulings
from rules.game.actions import Action
from rules.game.profile import Profile
from rules.game.state import DISCARDS, IN_PLAY, OFFERED, PLAYED, GameState

REACTIONS: Final = ("debate", "persuade", "retain")
INTERRUPT: Final = "interrupt"
_INTERRUPT_TEXT: Final = re.compile(r"cancel target (general |battle )?event", re.IGNORECASE)
# Where an answering card can answer from (holds_answer).
_ANSWER_FROM: Final = frozenset({"hand", *IN_PLAY})
_ZONES_IN_PLAY: Final = ("private", "residents", "guards", "defensive", "wanderers", "attached")


@dataclass
class Window:
    """A seat's action held back while the other seats may answer it."""

    seat: int  # the acting seat
    action: Action  # its action, carried out when nobody answers
    asked: list[int] = field(default_factory=list)  # seats still to ask, the next first


# Each card's reactions read once: asked for every answering card at every window.
_SLUGS: Final[dict[str, tuple[str, ...]]] = {}


def reaction_slugs(card: Profile) -> tuple[str, ...]:
    """The reaction abilities printed on ``card`` that a table answers with."""
    known = _SLUGS.get(card.id)
    if known is not None:
        return known
    found = []
    for clause in card.no_solo_effect:
        for parsed in parse_abilities(clause):
            if parsed.ability is not None and parsed.ability.slug in REACTIONS:
                found.append(parsed.ability.slug)
    _SLUGS[card.id] = tuple(found)
    return _SLUGS[card.id]


_CANCELS: Final[dict[str, str]] = {}


def cancels(card: Profile) -> str:
    """For an interrupt event: the events it cancels ("general", "battle", "any"), else ""."""
    known = _CANCELS.get(card.id)
    if known is not None:
        return known
    found = ""
    if card.type == "event" and card.subtype == "interrupt":
        for text in (*card.no_solo_effect, *card.unmodelled, *[a.text for a in card.abilities]):
            match = _INTERRUPT_TEXT.search(text)
            if match is not None:
                found = (match.group(1) or "any ").strip()
                break
    _CANCELS[card.id] = found
    return found


def answering_cards(state: GameState, own: Iterable[int]) -> list[int]:
    """The seat's own cards (``own``: its instances) that can ever answer: worked out
    once per table, so an action no seat can answer opens no window at no cost."""
    return [i for i in own if reaction_slugs(state.card(i)) or cancels(state.card(i))]


# Whether an ability's text is a political one, read once per text.
_POLITICAL: Final[dict[str, bool]] = {}


def political(state: GameState, action: Action) -> int:
    """The political strength of the personality using a political ability in ``action``,
    or -1 when ``action`` is not the use of a political ability."""
    if action.kind == "use_on":
        # Sap, Discredit and Influence are political (P); Extort, Tithe and Crusade are not.
        return state.card(action.card).strength[2] \
            if rivalry.ability_of(action.option) in rivalry.POLITICAL_RIVALS else -1
    if action.kind != "use":
        return -1
    ability, actor = rulings.find_ability(state, action)
    known = _POLITICAL.get(ability.text)
    if known is None:
        known = _POLITICAL[ability.text] = any(
            p.ability is not None and p.ability.category == "P"
            for p in parse_abilities(ability.text))
    return state.card(actor).strength[2] if known else -1


# What answering cards can answer (answer_kinds, answered_by): bits.
ANSWERS_EVENT: Final = 1  # an interrupt event: an event played
ANSWERS_POLITICAL: Final = 2  # Debate: a political ability used
ANSWERS_CARD: Final = 4  # Persuade: a card brought into play (not an event)
ANSWERS_UNIQUE: Final = 8  # Retain: a unique card played


def answer_kinds(state: GameState, cards: Sequence[int]) -> int:
    """What the answering ``cards`` (:func:`answering_cards`) can answer, as bits: worked out
    once a table, so that an action none of a seat's cards could answer (most: a Retain
    answers only a unique played) is passed over before its cards are read."""
    found = 0
    for card in cards:
        profile = state.card(card)
        if cancels(profile):
            found |= ANSWERS_EVENT
        for slug in reaction_slugs(profile):
            found |= ANSWERS_POLITICAL if slug == "debate" else ANSWERS_CARD \
                if slug == "persuade" else ANSWERS_UNIQUE
    return found


def answered_by(state: GameState, action: Action) -> int:
    """The kinds of answer (bits, :func:`answer_kinds`) that could answer ``action`` of
    ``state``'s seat; 0 when none could (:func:`answerable` is false)."""
    if action.kind == "play":
        played = state.card(action.card)
        if played.type == "invocation":
            return 0
        found = ANSWERS_EVENT if played.type == "event" else ANSWERS_CARD
        return found | ANSWERS_UNIQUE if played.unique else found
    if (action.kind == "use" or action.kind == "use_on") and political(state, action) >= 0:
        return ANSWERS_POLITICAL
    return 0


def answerable(state: GameState, action: Action) -> bool:
    """Whether some reaction or interrupt could answer ``action`` (cheap: asked at every
    action of a seat whose opponents hold an answering card)."""
    if action.kind == "play":
        return state.card(action.card).type != "invocation"
    return action.kind in ("use", "use_on") and political(state, action) >= 0


def holds_answer(state: GameState, cards: Sequence[int]) -> bool:
    """Whether one of the seat's answering ``cards`` is where it could answer from (in hand
    or in play): :func:`answers` finds none otherwise, whatever the action."""
    where = state.where
    for card in cards:  # (a loop: compiled, a generator is an object more a call)
        zone = where[card]
        # (a frozenset of the hand and state.IN_PLAY: one hashed look-up, not a string
        # comparison and one)
        if zone in _ANSWER_FROM:
            return True
    return False


def answers(state: GameState, actor: int, action: Action, seat: int,
            cards: Sequence[int]) -> list[Action]:
    """The answers ``seat`` (holding the answering ``cards``) may give to ``actor``'s
    ``action``, in a stable order."""
    found: list[Action] = []
    strength = political(state, action)
    played = state.card(action.card) if action.kind == "play" else None
    for card in cards:
        where = state.where[card]
        profile = state.card(card)
        if where == "hand":
            kind = cancels(profile)
            if played is not None and played.type == "event" and kind \
                    and kind in ("any", played.subtype) \
                    and rulings.affordable(state, profile.cost, profile.generic, seat):
                found.append(Action("react", card, actor, INTERRUPT))
                state.flags[card] |= OFFERED
            continue
        if where not in IN_PLAY:
            continue
        for slug in reaction_slugs(profile):
            if _may(state, actor, seat, card, slug, strength, played):
                found.append(Action("react", card, actor, slug))
    return found


def _may(state: GameState, actor: int, seat: int, card: int, slug: str, strength: int,
         played: Profile | None) -> bool:
    """Whether ``card`` of ``seat`` may answer ``actor``'s action with the reaction ``slug``
    (``strength``: the political strength of a political ability's user, else -1;
    ``played``: the card a play brings, else None)."""
    me = state.seats[seat]
    profile = state.card(card)
    if slug == "debate":
        return strength >= 0 and profile.strength[2] >= strength
    if played is None:
        return False
    if slug == "persuade":
        return played.type != "event" and sum(me.personal) >= played.total_cost
    return slug == "retain" and played.unique and state.cards[card] != played.id \
        and _in_play_elsewhere(state, actor, played.id)


def _in_play_elsewhere(state: GameState, actor: int, card_id: str) -> bool:
    """A copy of the unique ``card_id`` is in play at a seat other than ``actor``."""
    for seat, them in enumerate(state.seats):
        if seat == actor:
            continue
        for zone in _ZONES_IN_PLAY:
            for i in them.zones[zone]:
                if state.cards[i] == card_id:
                    return True
    return False


def hurts(state: GameState, actor: int, action: Action, seat: int) -> bool:
    """Whether ``action`` of ``actor`` takes from ``seat``: a rival ability on his pool, or a
    unique whose copy he has in play (it would go to his discard pile)."""
    if action.kind == "use_on":
        return action.target == seat
    if action.kind == "play":
        played = state.card(action.card)
        zones = state.seats[seat].zones
        return played.unique and any(state.cards[i] == played.id for zone in _ZONES_IN_PLAY
                                     for i in zones[zone])
    return False


def answer(state: GameState, seat: int, reply: Action, held: Action) -> str:
    """The answering ``seat``'s part: its price paid (Persuade: as many tokens as the card
    held back cost; an interrupt: its own cost, then to the discard pile). A sentence for
    the story."""
    card = state.card(reply.card)
    if reply.option == INTERRUPT:
        rulings.pay(state, card.cost, card.generic, seat)
        state.flags[reply.card] |= PLAYED  # (a report counts it: played in answer)
        state.move(reply.card, DISCARDS[card.pile])
        return f"plays {card.name} in answer."
    if reply.option == "persuade":
        rulings.spend(state, state.card(held.card).total_cost, seat)
    return f"{card.name} answers with {reply.option.capitalize()}."


def stop(state: GameState, action: Action, actor: int) -> str:
    """The acting seat ``actor``'s stopped action: its costs paid, the card discarded (a play)
    or the ability spent without effect (a use). A sentence for the story (the state's
    pending decision is dropped: the action changed it)."""
    card = state.card(action.card)
    if action.kind == "play":
        rulings.pay(state, card.cost, card.generic, actor)
        state.flags[action.card] |= PLAYED
        state.move(action.card, DISCARDS[card.pile])
        state.pending = None
        return f"{card.name} is stopped and discarded; its costs are paid."
    if action.kind == "use":
        ability, user = rulings.find_ability(state, action)
        rulings.pay(state, ability.effect.pay, seat=actor)
        if ability.exhausts:
            state.exhausted.add(user)
    elif action.kind == "use_on":
        for clause in card.no_solo_effect:
            parsed = parse_abilities(clause)
            if parsed and parsed[0].ability is not None \
                    and parsed[0].ability.slug == rivalry.ability_of(action.option) \
                    and parsed[0].exhausts:
                state.exhausted.add(action.card)
    state.pending = None
    return f"{card.name}'s ability is negated."
