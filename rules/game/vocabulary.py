"""The engine's words, as types: what a phase, a step, an action's kind or an outcome may be.

Pure Python. Each is a ``Literal`` of the strings the engine saves and compares, with the set
of its values beside it. They are types, not enums, on purpose: mypy (``strict_equality``)
refuses a comparison with a string that is none of them (``action.kind == "atack"`` is an
error, not a silent no-op), while at run time they stay the plain strings the saved games, the
event logs and the API carry, compared natively by the compiled engine (an enum member is a
Python object looked up at each comparison). docs/decisions/typed-vocabulary.md says more.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

# The three kinds of influence token, in the order every pool lists its counts (a personal
# pool, the city's, the tokens on a card: [economic, religious, political]).
TokenKind = Literal["economic", "religious", "political"]
TOKEN_KINDS: Final[tuple[TokenKind, ...]] = get_args(TokenKind)
KIND_INDEX: Final[dict[str, int]] = {kind: index for index, kind in enumerate(TOKEN_KINDS)}

# The kinds of Action (rules/game/actions.py): the player's choices.
ActionKind = Literal[
    # Maintenance, Action and Development, discards
    "draw", "recycle", "play", "use", "guard", "unguard", "move_item", "discard", "pass",
    "done",
    # Paying and choosing: fines, bounty tokens, a homeless citizen's fate
    "fine", "bounty", "rehouse",
    # Military: a hunt of one's own row, another's row, an attack on another's holdings
    "hunt", "hunt_row", "attack",
    # Combat steps (rules/game/combat.py)
    "engage", "bribe", "send", "separate", "joint", "climb", "charge", "fervor", "fear",
    "pray", "berserk",
    # At a table: rival abilities, reactions, ending an attack by agreement
    "use_on", "react", "decline", "truce",
    # The playtest's surrender (not a legal action: rules/game/seats.surrender)
    "surrender",
]
ACTION_KINDS: Final[frozenset[str]] = frozenset(get_args(ActionKind))

# The phases of a round, and the game's before and after.
Phase = Literal["setup", "maintenance", "action", "military", "wanderer", "discard", "over"]
PHASES: Final[frozenset[str]] = frozenset(get_args(Phase))

# The steps of the Order of Play the engine stops at ("" before the first and after the
# last); "wait" and "hosting": a seat waiting for the table (rules/game/seats.py).
Step = Literal["", "arrange", "draw", "act", "military", "fine", "discard", "raid", "wait",
               "hosting"]
STEPS: Final[frozenset[str]] = frozenset(get_args(Step))

# A combat's kind and its steps (rules/game/combat.py).
CombatKind = Literal["hunt", "raid"]
CombatStep = Literal["engage", "bribe", "bribe_back", "muster", "assign", "modify", "resolve",
                     "berserk", "over"]
COMBAT_STEPS: Final[frozenset[str]] = frozenset(get_args(CombatStep))

# How a game (or a seat of a table) ended; "" while it goes on.
Outcome = Literal["", "victory", "overrun", "stronghold", "timeout", "surrendered"]
OUTCOMES: Final[frozenset[str]] = frozenset(get_args(Outcome))

# The types of the events a recorded game logs (rulings.emit; narrate.py tells each one).
EventType = Literal[
    "action", "aggression_roll", "attack", "battle_event", "battlefield", "berserk_round",
    "bounty", "bounty_bonus", "bounty_short", "bounty_token", "bribe", "charge",
    "climbs", "collect", "combat_over", "counters_expire", "die", "discard",
    "draw", "engage", "exhaust", "fear", "fervor", "fine_token",
    "fines_due", "fines_waived", "followers_join", "game_over", "guard", "guard_returns",
    "heal", "hoard", "holding", "homeless", "hunt_abandoned", "hunt_declared",
    "joint_attack", "leaves_play", "military_pass", "move_item", "new_wanderer", "no_wanderer",
    "overrun", "play", "pray", "recycle", "rehoused", "round",
    "search", "send", "separate_attack", "setup", "shuffle", "strikes_back",
    "stronghold_destroyed", "unexhaust", "unguard", "unique_dead", "use", "victory_check",
    "wall_moves", "wanderers_attack", "wound", "wound_ignored",
]
EVENT_TYPES: Final[frozenset[str]] = frozenset(get_args(EventType))
