"""Actions (the player's choices), results, and the sentence that names each action.

Pure Python. An :class:`Action` is a small value: a ``kind`` and up to three operands (the card
instance acting or played, its target instance, and an option such as a pile or a token kind).
:func:`describe` words it for people: "Play Bishop of Kalim on Bell Tower (2 religious)".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from rules.game.effects import strip_markers
from rules.game.profile import Profile
from rules.game.vocabulary import ACTION_KINDS, TOKEN_KINDS, ActionKind


class Described(Protocol):
    """What :func:`describe` reads of a game (a rules.game.state.GameState): named here so
    that this module, which the state's imports (ActionBook), does not import it back."""

    where: list[str]

    def card(self, instance: int) -> Profile: ...



class Action:
    """A value: equal kinds and operands are equal actions, usable as dict keys."""

    # A plain class with slots rather than a named tuple: games make thousands of these a
    # second, and compiled by mypyc (rules/compiled.py) it is built and read natively, where a
    # named tuple's constructor runs as interpreted Python.
    __slots__ = ("card", "kind", "option", "target")

    def __init__(self, kind: ActionKind, card: int = -1, target: int = -1,
                 option: str = "") -> None:
        self.kind: ActionKind = kind
        self.card = card
        self.target = target
        self.option = option

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return (self.kind == other.kind and self.card == other.card
                and self.target == other.target and self.option == other.option)

    def __hash__(self) -> int:
        return hash((self.kind, self.card, self.target, self.option))

    def __repr__(self) -> str:
        return (f"Action(kind={self.kind!r}, card={self.card}, target={self.target}, "
                f"option={self.option!r})")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "card": self.card, "target": self.target,
                "option": self.option}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """The action saved by :meth:`to_dict`; a ValueError for a kind the engine does not
        know (a typo in a request is refused, not taken for an action no one may take)."""
        kind = str(data["kind"])
        if kind not in ACTION_KINDS:
            raise ValueError(f"unknown action kind {kind!r}")
        return cls(kind, int(data.get("card", -1)),  # type: ignore[arg-type]
                   int(data.get("target", -1)), str(data.get("option", "")))


class ActionBook:
    """The actions of one deck's games, each made once and handed out again: a decision's
    legal actions are rebuilt at every decision, and making and freeing thousands of equal
    actions a game cost more than finding them here (actions are values, never changed, so
    one object serves every game and every state of the deck, clones included). Instances
    numbered beyond ``size`` get a new action. ``first``:
    for each instance, the first instance of the same card (its copies share it)."""

    __slots__ = ("_discards", "_fines", "_guards", "_moves", "_plays", "_unguards", "_uses",
                 "first", "marks", "size", "stamp")

    def __init__(self, cards: list[str]) -> None:
        size = self.size = len(cards)
        firsts: dict[str, int] = {}
        self.first = [firsts.setdefault(card_id, i) for i, card_id in enumerate(cards)]
        # By first instance: the mark of the last hand read that held the card (hand_mark),
        # so that a card's copies are offered once in one pass over the hand, no set made.
        self.marks: list[object] = [None] * size
        self.stamp = 0
        # Per instance: its actions by target + 1 (kinds with a target), or its one action.
        self._plays: list[list[Action | None] | None] = [None] * size
        self._guards: list[list[Action | None] | None] = [None] * size
        self._moves: list[list[Action | None] | None] = [None] * size
        self._discards: list[Action | None] = [None] * size
        self._unguards: list[Action | None] = [None] * size
        self._fines: list[Action | None] = [None] * size
        # Per instance: its "use" actions without a target, by the ability's option.
        self._uses: list[dict[str, Action] | None] = [None] * size

    def hand_mark(self) -> object:
        """A mark no entry of ``marks`` holds yet, for one pass over a hand: a card whose
        first instance's entry ``is`` it was seen before in this pass (a number boxed once
        per pass, compared by identity: the numbers only grow, so an older mark is another
        object)."""
        self.stamp += 1
        mark: object = self.stamp
        return mark

    def play(self, card: int, target: int = -1) -> Action:
        return self._targeted(self._plays, "play", card, target)

    def guard(self, card: int, target: int) -> Action:
        return self._targeted(self._guards, "guard", card, target)

    def move_item(self, card: int, target: int) -> Action:
        return self._targeted(self._moves, "move_item", card, target)

    def discard(self, card: int) -> Action:
        return self._single(self._discards, "discard", card)

    def unguard(self, card: int) -> Action:
        return self._single(self._unguards, "unguard", card)

    def fine(self, card: int) -> Action:
        return self._single(self._fines, "fine", card)

    def use(self, card: int, option: str) -> Action:
        if not 0 <= card < self.size:
            return Action("use", card, option=option)
        row = self._uses[card]
        if row is None:
            row = self._uses[card] = {}
        found = row.get(option)
        if found is None:
            found = row[option] = Action("use", card, option=option)
        return found

    def _targeted(self, rows: list[list[Action | None] | None], kind: ActionKind, card: int,
                  target: int) -> Action:
        size = self.size
        if not 0 <= card < size or not -1 <= target < size:
            return Action(kind, card, target)
        row = rows[card]
        if row is None:
            row = rows[card] = [None] * (size + 1)
        found = row[target + 1]
        if found is None:
            found = row[target + 1] = Action(kind, card, target)
        return found

    def _single(self, rows: list[Action | None], kind: ActionKind, card: int) -> Action:
        if not 0 <= card < self.size:
            return Action(kind, card)
        found = rows[card]
        if found is None:
            found = rows[card] = Action(kind, card)
        return found


# The actions without a card, made once (see ActionBook).
PASS: Final = Action("pass")
DONE: Final = Action("done")
HUNT: Final = Action("hunt")
DRAWS: Final = {"structures": Action("draw", option="structures"),
                "personalities": Action("draw", option="personalities")}
RECYCLES: Final = {"structures": Action("recycle", option="structures"),
                   "personalities": Action("recycle", option="personalities")}
# By token kind (economic, religious, political).
BOUNTIES: Final = [Action("bounty", option=k) for k in TOKEN_KINDS]
FINE_TOKENS: Final = [Action("fine", option=k) for k in TOKEN_KINDS]


@dataclass(slots=True)
class Result:
    """What :func:`rules.game.engine.apply` did: ``ok`` and the events, or the refusal."""

    ok: bool
    reason: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)


def cost_text(cost: tuple[int, int, int], generic: int = 0) -> str:
    parts = [f"{n} {TOKEN_KINDS[k]}" for k, n in enumerate(cost) if n]
    if generic:
        parts.append(f"{generic} any")
    return ", ".join(parts) if parts else "free"


def describe(state: Described, action: Action) -> str:
    """The action as a sentence."""
    name = state.card(action.card).name if action.card >= 0 else ""
    target = state.card(action.target).name if action.target >= 0 else ""
    kind = action.kind
    if kind == "draw":
        pile = "Structure" if action.option == "structures" else "Personality"
        return f"Draw from the {pile} Pile"
    if kind == "recycle":
        return f"Recycle the {action.option} discard pile into a new draw pile (5 tokens)"
    if kind == "play":
        card = state.card(action.card)
        cost = cost_text(card.cost, card.generic)
        if action.target >= 0 and state.where[action.target] == "structure_pile":
            return f"Play {name}, taking {target} from the Structure Pile ({cost})"
        if action.target >= 0:
            verb = "as a guard on" if card.is_troop else "on"
            return f"Play {name} {verb} {target} ({cost})"
        return f"Play {name} ({cost})"
    if kind == "use":
        card = state.card(action.card)
        ability = card.ability(action.option)
        # The "E" and "(F)n" markers are for the card, not the sentence.
        text = strip_markers(ability.text).rstrip(".")
        text = text[:1].upper() + text[1:]
        on = f" on {target}" if action.target >= 0 else ""
        return f"Use {name}: {text}{on}"
    simple = {
        "pass": "Pass", "done": "Done", "hunt": "Declare a hunt against your wanderer row",
        "engage": f"Hunt {name}", "send": f"Send {name} to the battlefield"
        + (" (3 tokens: exhausted)" if action.option == "pay" else ""),
        "bribe": f"Bribe {name} to go home", "separate": f"{name} attacks {target}",
        "joint": f"{name} joins the attack on {target}",
        "climb": f"{name} climbs the wall and attacks {target}",
        "guard": f"Move {name} to guard {target}", "unguard": f"Move {name} back to the "
        "defensive holdings", "move_item": f"Move {name} to {target}",
        "fine": f"Pay the fine with {name}" if action.card >= 0
        else f"Pay the fine with 1 {action.option} token",
        "discard": f"Discard {name} from your hand",
        "charge": f"{name} charges: -1 defense, +1 offense",
        "fervor": f"{name} spends religious tokens in fervor",
        "pray": f"{name} prays for {target} (+{action.option})",
        "fear": f"{name} frightens {target} (-3 offense)",
        "berserk": f"{name} goes berserk against {target}",
        "bounty": f"Take 1 {action.option} token of the bounty",
        "rehouse": f"{name} takes the residence of {target}, who goes to the discard pile"
        if action.target >= 0 else f"Let {name} go to the discard pile (no open residence)",
        "react": f"Answer with {name} ({action.option})",
        "decline": "Let it be (no answer)",
    }
    return simple.get(kind, kind)
