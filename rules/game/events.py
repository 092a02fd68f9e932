"""The events of a recorded game, one typed record per event type: the schema of a game log.

Pure Python. With recording on, every change of the state and every random outcome is an
event (``rulings.emit``): a JSON object with its ``type``, the ``round`` and ``phase`` it
happened in, and the fields its record below names. The records are ``TypedDict``s, so an
event stays the plain dict a game log stores and ``narrate`` reads, while its fields are
written down once: ``tests/rules/game/test_events.py`` checks every event of whole games
(solo and at tables) against its record, so a misspelt or forgotten field fails a test rather
than vanishing from a log. A new event type is added here, in ``vocabulary.EventType``, and
in ``narrate`` if a reader needs it.

Cards are instances (``GameState.cards``); ``tokens``, ``personal``, ``paid``, ``city`` count
economic, religious and political tokens in that order; ``kind`` (of a token) indexes them.
"""

# (No postponed annotations: the records' fields are read at run time by problems().)
from typing import Any, Final, NotRequired, TypedDict, get_args, get_origin, get_type_hints


class Event(TypedDict):
    type: str
    round: int
    phase: str
    # At a table (one list for every seat): the seat whose phase, turn or combat it is.
    whose: NotRequired[int]


class Card(Event):
    """An event about one card: draw, discard, engage, charge, climbs, heal, ..."""

    card: int


class CardOnTarget(Card):
    """One card acting on another: battle_event, fear, separate_attack, strikes_back."""

    target: int


class Cards(Event):
    """An event about several cards: unexhaust, counters_expire, followers_join,
    wanderers_attack."""

    cards: list[int]


class Count(Event):
    """A number of tokens or fines: fines_due, fines_waived, bounty_short."""

    count: int


class TokenKind(Event):
    """One token of a kind: bounty_token, fine_token."""

    kind: int


class Setup(Event):
    seed: int
    rules_version: str
    target: int
    players: int
    city: list[int]
    personal: list[int]


class Holding(Card):
    paid: list[int]


class Shuffle(Event):
    pile: str
    order: list[int]


class VictoryCheck(Event):
    influence: int
    target: int


class Hoard(Card):
    kind: int


class AggressionRoll(Card):
    roll: int
    rating: int
    aggressive: bool


class Overrun(Event):
    wanderers: int


class Recycle(Event):
    pile: str
    free: bool
    order: list[int]


class ActionTaken(Event):
    """A decision: the action as JSON (``Action.to_dict``); at a table, a decision of another
    seat than the player in his combat names its ``seat`` and the combat ``step``."""

    action: dict[str, Any]
    seat: NotRequired[int]
    step: NotRequired[str]


class Draw(Card):
    pile: str


class Guard(Card):
    structure: int


class MoveItem(Card):
    to: int


class Play(Card):
    target: int
    personal: list[int]


class GameOver(Event):
    outcome: str


class LeavesPlay(Card):
    to: str
    reason: str


class Wound(Card):
    count: int
    wounds: int


class Bounty(Card):
    due: int
    tokens: list[int]


class Use(Card):
    ability: str
    target: int


class Tokens(Card):
    """Tokens a card took or was given: collect, bribe."""

    tokens: list[int]


class BountyBonus(Card):
    amount: int


class Search(Card):
    order: list[int]


class Send(Card):
    paid: bool


class Strengthen(CardOnTarget):
    """Pray and Fervor: ``amount`` more of ``stat`` (offense or defense) for ``target``."""

    stat: str
    amount: int


class WallMoves(Card):
    blocks: int


class Battlefield(Event):
    player: list[int]
    wanderers: list[int]


class JointAttack(CardOnTarget):
    lead: int


class Die(Event):
    lead: int
    target: int
    roll: int
    effect: str


class Attack(Event):
    """One attack resolved: its step's name, the attackers, offense against defense, the
    wounds; ``out_of_reach`` when they cannot hit a ranged flyer."""

    step: str
    attackers: list[int]
    target: int
    offense: int
    defense: int
    wounds: int
    out_of_reach: NotRequired[bool]


class CombatOver(Event):
    kind: str


# The record of every event type (vocabulary.EventType lists the same names).
RECORDS: Final[dict[str, type]] = {
    "action": ActionTaken, "aggression_roll": AggressionRoll, "attack": Attack,
    "battle_event": CardOnTarget, "battlefield": Battlefield, "berserk_round": Event,
    "bounty": Bounty, "bounty_bonus": BountyBonus, "bounty_short": Count,
    "bounty_token": TokenKind, "bribe": Tokens, "charge": Card, "climbs": Card,
    "collect": Tokens, "combat_over": CombatOver, "counters_expire": Cards, "die": Die,
    "discard": Card, "draw": Draw, "engage": Card, "exhaust": Card, "fear": CardOnTarget,
    "fervor": Strengthen, "fine_token": TokenKind, "fines_due": Count, "fines_waived": Count,
    "followers_join": Cards, "game_over": GameOver, "guard": Guard, "guard_returns": Card,
    "heal": Card, "hoard": Hoard, "holding": Holding, "homeless": Card,
    "hunt_abandoned": Event, "hunt_declared": Event, "joint_attack": JointAttack,
    "leaves_play": LeavesPlay, "military_pass": Event, "move_item": MoveItem,
    "new_wanderer": Card, "no_wanderer": Event, "overrun": Overrun, "play": Play,
    "pray": Strengthen, "recycle": Recycle, "rehoused": Guard, "round": Event,
    "search": Search, "send": Send, "separate_attack": CardOnTarget, "setup": Setup,
    "shuffle": Shuffle, "strikes_back": CardOnTarget, "stronghold_destroyed": Card,
    "unexhaust": Cards, "unguard": Card, "unique_dead": Card, "use": Use,
    "victory_check": VictoryCheck, "wall_moves": WallMoves, "wanderers_attack": Cards,
    "wound": Wound, "wound_ignored": Card,
}


def problems(event: dict[str, Any]) -> list[str]:
    """What is wrong with ``event`` against its record: an unknown type, a field missing,
    one the record does not name, or a value of another type ([] when it is right)."""
    record = RECORDS.get(event.get("type", ""))
    if record is None:
        return [f"unknown event type {event.get('type')!r}"]
    hints = get_type_hints(record)
    kind = event["type"]
    found = [f"{kind}: no {name!r}" for name in sorted(record.__required_keys__)  # type: ignore[attr-defined]
             if name not in event]
    for name, value in event.items():
        if name not in hints:
            found.append(f"{kind}: {name!r} is not a field of {record.__name__}")
        elif not _fits(value, hints[name]):
            found.append(f"{kind}: {name!r} is {value!r}, not {hints[name]}")
    return found


def _fits(value: object, expected: Any) -> bool:
    """Whether a JSON value is of the annotated type (int, bool, str, list[int], dict)."""
    origin = get_origin(expected)
    if origin is list:
        (item,) = get_args(expected)
        return isinstance(value, list) and all(_fits(x, item) for x in value)
    if origin is dict:
        return isinstance(value, dict)
    if expected is int:  # (a bool is an int to Python, not to a log)
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(expected, type) and isinstance(value, expected)
