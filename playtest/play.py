"""What every game played by hand shares: a refused move, what one request did, the log's lines.

Pure Python (no Django). A game played by hand, solo or at a table, is played by
:mod:`playtest.table_play` (solo is a table of one): its source (each deck as played, the card
facts the engine read at the start, the options and the seed) plus the people's actions. The
engine is deterministic, so those actions *are* the game: replaying them from the seed rebuilds
every state, which is how undo and the shared replay viewer work. The card facts travel with the
game, so a replay never depends on later edits to the catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from rules.game.actions import Action
from rules.game.narrate import narrate
from rules.game.state import GameState

type Until = Literal["action", "phase", "game"]
UNTIL: Final[tuple[Until, ...]] = ("action", "phase", "game")
# A safety net for "play to the end": the round cap ends every game long before this.
MAX_POLICY_ACTIONS: Final = 20_000


class Refused(Exception):
    """A move the referee refuses; nothing was changed. ``status`` is the HTTP status."""

    def __init__(self, code: str, detail: str, status: int = 400, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status
        self.extra = extra


@dataclass
class Move:
    """What one request did: the actions applied and the game's story of them."""

    actions: list[Action] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # describe() of each action
    lines: list[str] = field(default_factory=list)  # narrate() of their events


def named_action(legal: Sequence[Action], decision: int, *, index: int | None,
                 action: Mapping[str, Any] | None,
                 refusal: Callable[[Action], str] | None = None) -> Action:
    """The one of ``legal`` a request names by ``index`` or by value (solo and at a table);
    ``refusal`` words why a readable action is not legal."""
    if index is not None:
        if not 0 <= index < len(legal):
            raise Refused("illegal_action",
                          f"There is no action number {index + 1} now: there are "
                          f"{len(legal)} legal actions, numbered 1 to {len(legal)}.",
                          current_decision=decision)
        return legal[index]
    if action is None:
        raise Refused("illegal_action", "Name the action: its `index` or the `action` itself.")
    try:
        wanted = Action.from_dict(dict(action))
    except (KeyError, TypeError, ValueError) as error:
        raise Refused("illegal_action", f"The action cannot be read: {error}.") from None
    if wanted not in legal:
        reason = refusal(wanted) if refusal else f"{wanted!r} is not a legal action now."
        raise Refused("illegal_action", reason, current_decision=decision)
    return wanted


@dataclass(frozen=True)
class LogLine:
    """One line of the game's story. ``decision`` numbers the player's actions (1 = the first
    action of the game); ``kind`` is round, phase, action, die, attack, roll or event;
    ``seat`` the seat it tells of at a table (None in a solo game, and for the table's own
    lines)."""

    text: str
    kind: str
    decision: int | None = None
    seat: int | None = None


GAME_OVER: Final = re.compile(r"Game over in round (\d+): (\w+)")


def outcome_sentence(outcome: str, round_number: int, winner: str = "", *,
                     at_table: bool = False) -> str:
    """The end of the game as the player reads it, from their own seat: ``outcome`` is the
    player's (victory, defeat, stronghold, overrun, timeout), ``winner`` the seat that won when
    it is another's ("Seat 2 (Mosfin Senate)")."""
    by = f" in round {round_number}"
    if outcome == "victory":
        return f"Victory{by}: " + ("you won the game." if at_table
                                   else "your faction influence reached the target.")
    if outcome == "defeat":
        return f"Defeat: {winner or 'another seat'} wins{by}."
    if outcome == "stronghold":
        if winner:
            return f"Defeat: your stronghold was destroyed; {winner} wins{by}."
        return f"Defeat{by}: your stronghold was destroyed."
    if outcome == "surrendered":
        return f"Defeat: you surrendered; {winner} wins{by}." if winner \
            else f"Defeat{by}: you surrendered."
    if outcome == "overrun":
        return f"Defeat{by}: the wanderers overran the city" + (
            " (every player loses)." if at_table else ".")
    if outcome == "timeout":
        return f"Out of time{by}: the round cap was reached."
    return ""


def log_lines(state: GameState) -> list[LogLine]:
    """The recorded game told by :func:`rules.game.narrate.narrate`, line by line, each action
    numbered with the decision it made (narrate writes every action as one " > " line)."""
    lines: list[LogLine] = []
    decision = 0
    for raw in narrate(state):
        text = raw.strip()
        if not text:
            continue
        if over := GAME_OVER.match(text.strip("= ")):  # the engine's words: from the seat's
            lines.append(LogLine(outcome_sentence(over.group(2).lower(), int(over.group(1))),
                                 "round"))
        elif raw.startswith("== "):
            lines.append(LogLine(text.strip("= "), "round"))
        elif raw.startswith("-- "):
            lines.append(LogLine(text.removeprefix("-- "), "phase"))
        elif raw.startswith(" > "):
            decision += 1
            lines.append(LogLine(text.removeprefix("> "), "action", decision))
        else:
            lines.append(LogLine(text, _event_kind(text)))
    return lines


def _event_kind(text: str) -> str:
    if text.startswith("Die for "):
        return "die"
    if text.startswith("["):
        return "attack"
    if " rolls " in text:
        return "roll"
    return "event"
