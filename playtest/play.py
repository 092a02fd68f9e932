"""Playing one game by hand, refereed by the engine: start, apply, replay, let the policy play.

Pure Python (no Django). A playtest game is its :class:`GameSource` (the deck as played, the
card facts the engine read at the start, the options and the seed) plus the list of actions
applied so far. The engine is deterministic, so that list *is* the game: replaying it from the
seed rebuilds every state, which is how undo and the shared replay viewer work. The card facts
travel with the game, so a replay never depends on later edits to the catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from rules.cards import CardFacts
from rules.decklist import Decklist
from rules.game import engine
from rules.game.actions import Action, describe
from rules.game.config import GameConfig
from rules.game.narrate import narrate
from rules.game.policies import GreedyPolicy
from rules.game.profile import profiles_from_facts
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


@dataclass(frozen=True)
class GameSource:
    """Everything a game is replayed from."""

    deck: Decklist  # the deck as played: Initial Holdings chosen when the list had none
    facts: Mapping[str, Mapping[str, Any]]  # card id -> the facts the engine read
    config: GameConfig
    seed: int

    def prepared(self) -> engine.Prepared:
        facts = {cid: dict(f) for cid, f in self.facts.items()}
        return engine.Prepared(self.deck, profiles_from_facts(facts), facts, self.config)

    def replay(self, actions: Sequence[Mapping[str, Any]], upto: int | None = None, *,
               record: bool = True) -> GameState:
        """The state after the first ``upto`` actions (all of them by default)."""
        state = engine.new_game(self.prepared(), None, self.seed, record=record)
        for number, data in enumerate(actions[:upto], start=1):
            result = engine.apply(state, Action.from_dict(dict(data)))
            if not result.ok:  # only an edited database or another rules version gets here
                raise ValueError(f"action {number} of the game was refused: {result.reason}")
        return state


def game_start(deck: Decklist, catalogue: Mapping[str, CardFacts], config: GameConfig,
               seed: int) -> tuple[GameSource, GameState]:
    """A new game; raises :class:`rules.game.engine.DeckNotPlayable` with every problem."""
    prepared = engine.prepare(deck, catalogue, config)
    source = GameSource(prepared.deck, prepared.facts, config, seed)
    return source, engine.new_game(prepared, None, seed)


@dataclass
class Move:
    """What one request did: the actions applied and the game's story of them."""

    actions: list[Action] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # describe() of each action
    lines: list[str] = field(default_factory=list)  # narrate() of their events


def check_decision(state: GameState, decision: int | None) -> None:
    """A request names the decision it was made at; any other one is stale (409)."""
    if decision is not None and decision != state.decisions:
        raise Refused(
            "stale_decision",
            f"This move was chosen at decision {decision}, but the game is at decision "
            f"{state.decisions} (another tab or request moved on). Nothing was changed; "
            "here is the game as it is now.",
            status=409, current_decision=state.decisions,
        )


def chosen_action(state: GameState, *, index: int | None = None,
                  action: Mapping[str, Any] | None = None) -> Action:
    """The legal action a request names by its ``index`` in :func:`engine.legal_actions` or
    by its value; an illegal or unknown one is refused with the engine's reason (400)."""
    if state.over:
        raise Refused("game_over", f"The game is over ({state.outcome}).", status=409,
                      current_decision=state.decisions)
    return named_action(engine.legal_actions(state), state.decisions, index=index,
                        action=action,
                        # The engine words the refusal (and changes nothing).
                        refusal=lambda wanted: engine.apply(state, wanted).reason)


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


def apply_recorded(state: GameState, action: Action, move: Move) -> None:
    """Apply a legal action and add it, worded, and its narrated events to ``move``."""
    text = describe(state, action)
    before = state.events
    state.events = []  # record only this move's events, for its story
    result = engine.apply(state, action)
    events = state.events
    lines = narrate(state) if result.ok else []
    state.events = None if before is None else before + events
    if not result.ok:
        raise Refused("illegal_action", result.reason, current_decision=state.decisions)
    move.actions.append(action)
    move.texts.append(text)
    # narrate opens with the heading of the phase the move was made in: not news.
    if lines and lines[0].startswith("-- "):
        lines = lines[1:]
    move.lines += [line.strip().removeprefix("> ") for line in lines if line.strip()]


def play_policy(state: GameState, until: Until, move: Move) -> None:
    """Let the greedy policy play: one action, to the end of the current phase (the round and
    phase change) or to the end of the game."""
    policy = GreedyPolicy()
    start = (state.round, state.phase)
    while not state.over and len(move.actions) < MAX_POLICY_ACTIONS:
        apply_recorded(state, policy(state, engine.legal_actions(state)), move)
        if until == "action" or (until == "phase" and (state.round, state.phase) != start):
            return


def policy_index(state: GameState) -> int | None:
    """The index of the action the greedy policy would take now (None when the game is over)."""
    legal = engine.legal_actions(state)
    if not legal:
        return None
    return legal.index(GreedyPolicy()(state, legal))


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
