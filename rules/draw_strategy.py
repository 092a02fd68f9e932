"""Draw strategies and hand conditions: a tiny language, its parser and its evaluator.

Pure Python, no Django. The hand is drawn to seven one card at a time, each card from the
Structure Pile or the Personality Pile at the player's choice, seeing every card before choosing
the next (rulebook, "City Maintenance Phase"). A *strategy* makes that choice. The dealer
(:mod:`rules.draws`) and the exact odds (:mod:`rules.odds`) ask the same strategy object, through
the same :class:`Tally` interface, so the odds are the odds of exactly what the dealer does.

Strategies
----------

``structures=K`` (``K`` in 0..7; ``personalities=K`` means ``structures=7-K``)
    A fixed split, structures first: draw from the Structure Pile while the hand holds fewer
    than ``K`` cards drawn from it, then from the Personality Pile. The order does not change
    the odds of the final hand, only the dealing log. It is the same as
    ``structures until K, then personalities``.

Rules, read left to right: ``step (", then" | "," | "then") step ...``, where a step is
``structures``, ``personalities`` or ``alternate``, optionally followed by ``until CONDITION``::

    structures until 2 structures with residencies, then personalities
    personalities until 1 citizen, then structures until 1 structure with residencies,
        then personalities
    structures until 3, then personalities
    alternate
    personalities until 2 troops or 1 citizen, then alternate
    structures until at least 1 open residence and a wall

(``s`` and ``p`` are short for the two piles.) Before every draw, the first step whose
condition does not hold (or that has no ``until``) names the pile. Conditions count the cards
*in the hand* (every card held, not only this round's draws). The rule is read afresh before
every draw, with no memory of the step used before: that is what lets the odds be computed over
hand contents alone. A hand only grows while it is drawn, so with "at least" conditions a step,
once passed, stays passed; with ``at most``, ``exactly``, ``no`` or ``not`` an earlier step can
apply again: in ``personalities until exactly 1 citizen, then alternate``, a second citizen
drawn while alternating sends every later draw back to the Personality Pile. When every step
has passed, the pile the last step did *not* use is drawn (``structures until 3`` therefore
means ``structures until 3, then personalities``). ``alternate`` draws from the Structure Pile
when the hand holds no more cards from it than from the Personality Pile, else from the
Personality Pile: S, P, S, P, S, P, S for an opening hand. ``until N`` with no noun counts the
cards in the hand drawn from the step's own pile (any card, for ``alternate``).

Whatever the strategy says, an empty pile is never drawn from: the other pile is; when both are
empty the hand stays short (see :mod:`rules.draws`).

Interactive play is :class:`PickStrategy`: the caller's picks, one per draw, in order (``s``/
``p``, or the pile names). The same seed and the same picks give the same hand. When the picks
run out the deal waits (the strategy answers None) unless a strategy to continue with is given.

Conditions (``until`` in a strategy; the goals of :mod:`rules.odds` use the same language)
-------------------------------------------------------------------------------------------

::

    condition  := or
    or         := and ("or" and)*
    and        := unary ("and" unary)*
    unary      := "not" unary | "(" or ")" | "citizens housed" | count
    count      := quantity subject
    quantity   := (">=" | ">" | "<=" | "<" | "=" | "==" | "!=") N | "at least" N | "at most" N
                | "exactly" N | "no" | "a" | "an" | N            (a bare N means at least N)
    subject    := "open residence(s)" | "card" "NAME OR ID" | "matching" "SEARCH QUERY"
                | adjective* [noun] ["with residencies"] ["from" ["the"] pile ["pile"]]
    adjective  := kalim | mosfin | guild | "faction" FACTION | general | battle | interrupt
    noun       := card(s) | structure(s) | personality/personalities | citizen(s) | troop(s)
                | wall(s) | stronghold(s) | item(s) | event(s) | invocation(s) | weapon(s)
                | armor/armour(s) | shield(s) | interrupt(s) | wanderer(s)

Words are case-insensitive. Examples: ``>= 2 structures with residencies``, ``1 citizen``,
``at least 2 guild troops``, ``no walls``, ``a card "Ember Templar"``, ``exactly 1 kalim
invocation``, ``>= 2 matching "t:troop off>=3"``, ``2 cards from the structure pile``.

What the words mean:

* ``structure``, ``personality`` … are card *types*; ``citizen``/``troop`` use the rulebook's
  identification (the printed subtype, else offense and defense); ``wall``, ``stronghold`` and
  ``general structure`` the structure's kind. ``kalim invocation`` is the invocation subtype
  (Kalim invocations have no faction); ``kalim``/``mosfin``/``guild`` before anything else is
  the card's faction.
* ``with residencies``: a structure, not a wall (a wall's number is how many attackers it
  blocks), whose residencies are at least 1.
* ``from the structure pile`` / ``from the personality pile``: cards drawn from that pile.
* ``card "X"``: copies of the card whose id is ``X`` or whose name is ``X`` (ignoring case).
* ``matching "Q"``: cards the search query ``Q`` matches; the caller resolves the query (this
  package knows no catalogue) by passing ``resolve``; without it, a ``matching`` is an error.
* ``open residences``: the residencies of the Initial Holdings plus those of the structures in
  the hand (walls excluded). Nothing lives in them before the first round, so they are all open;
  whether the hand's structures can be paid for is not checked (nor, in later rounds, what was
  played: the deal does not follow the cards in play). ``citizens housed``: the open
  residences are at least the citizens in the hand (every citizen held has a home).

Errors are :class:`StrategyError` (a ``ValueError``) with the 0-based ``position`` of the
mistake in the text, its ``length`` and what was ``expected`` there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, Protocol

from rules.cards import CardFacts

type Pile = Literal["structures", "personalities"]
type Action = Literal["structures", "personalities", "alternate"]
type Op = Literal[">=", ">", "<=", "<", "==", "!="]
type Resolver = Callable[[str], Iterable[str]]

PILES: Final[tuple[Pile, Pile]] = ("structures", "personalities")
PILE_TITLES: Final = {"structures": "Structure Pile", "personalities": "Personality Pile"}
HAND_SIZE: Final = 7
MAX_SPEC: Final = 1000
MAX_NUMBER: Final = 99
MAX_DEPTH: Final = 32


def other_pile(pile: Pile) -> Pile:
    return "personalities" if pile == "structures" else "structures"


# --- errors --------------------------------------------------------------------------------


class SpecError(ValueError):
    """A strategy or goal text that cannot be read: where (``position``, ``length``, 0-based
    offsets into the text), why (``message``) and what would have been valid there
    (``expected``)."""

    code = "bad_spec"

    def __init__(self, message: str, position: int, length: int = 1,
                 expected: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = max(0, position)
        self.length = max(0, length)
        self.expected = expected

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "position": self.position,
                "length": self.length, "expected": self.expected}

    def pointer(self, text: str) -> str:
        """The text and a caret line under the mistake, for terminals."""
        return f"{text}\n{' ' * self.position}{'^' * max(1, self.length)}"

    def __str__(self) -> str:
        where = f" (at position {self.position}"
        where += f"; expected {self.expected})" if self.expected else ")"
        return self.message + where


class StrategyError(SpecError):
    code = "bad_strategy"


# --- card tests ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardTest:
    """Which cards a count counts. Every feature that is set must hold (they are ANDed);
    a test with nothing set counts every card. ``label`` is the phrase as English."""

    type: str | None = None
    subtype: str | None = None
    faction: str | None = None
    residencies: bool = False
    pile: Pile | None = None
    card: str | None = None  # an id or a name, case-folded
    ids: frozenset[str] | None = None  # the cards a search query matched
    label: str = field(default="cards", compare=False)

    def matches(self, card: CardFacts | None, card_id: str, pile: Pile) -> bool:
        """Does this test count ``card_id`` (facts ``card``, drawn from ``pile``)?"""
        if self.pile is not None and pile != self.pile:
            return False
        if self.ids is not None and card_id not in self.ids:
            return False
        if self.card is not None and card_id.casefold() != self.card and (
            card is None or card.name.casefold() != self.card
        ):
            return False
        if self.type is None and self.subtype is None and self.faction is None:
            return not self.residencies or residencies_of(card) > 0
        if card is None:
            return False
        if self.type is not None and card.type != self.type:
            return False
        if self.subtype is not None and _subtype(card) != self.subtype:
            return False
        if self.faction is not None and card.faction != self.faction:
            return False
        return not self.residencies or residencies_of(card) > 0


def _subtype(card: CardFacts) -> str | None:
    if card.type == "personality":
        return card.personality_kind
    if card.type == "structure":
        return card.structure_kind
    return card.subtype


def residencies_of(card: CardFacts | None) -> int:
    """The citizens a card can house: a structure's residencies, 0 for walls (their number is
    how many attackers they block), for anything else and when unknown."""
    if card is None or card.type != "structure" or card.is_wall:
        return 0
    return card.residencies or 0


CITIZENS: Final = CardTest(type="personality", subtype="citizen", label="citizens")
FROM_STRUCTURES: Final = CardTest(pile="structures", label="cards from the Structure Pile")
FROM_PERSONALITIES: Final = CardTest(pile="personalities",
                                     label="cards from the Personality Pile")


# --- conditions ----------------------------------------------------------------------------


class Tally(Protocol):
    """What a strategy or a condition may look at: the hand, the holdings, the draws so far."""

    def count(self, test: CardTest) -> int:
        """How many cards in the hand the test counts."""
        ...

    def residencies(self) -> int:
        """Open residences: those of the holdings plus the hand's structures (walls excluded)."""
        ...

    @property
    def draws(self) -> int:
        """How many cards have been drawn in the whole deal so far (every round)."""
        ...


_OPS: Final[dict[Op, Callable[[int, int], bool]]] = {
    ">=": lambda a, b: a >= b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}
_OP_WORDS: Final[dict[Op, str]] = {
    ">=": "at least", ">": "more than", "<=": "at most", "<": "fewer than", "==": "exactly",
    "!=": "not exactly",
}


@dataclass(frozen=True, slots=True)
class Count:
    """``op number test``: the hand holds (op) ``number`` cards the test counts."""

    test: CardTest
    op: Op
    number: int


@dataclass(frozen=True, slots=True)
class Residences:
    """``op number open residences``."""

    op: Op
    number: int


@dataclass(frozen=True, slots=True)
class Housed:
    """``citizens housed``: open residences >= citizens in the hand."""


@dataclass(frozen=True, slots=True)
class AllOf:
    parts: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class AnyOf:
    parts: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class Negation:
    part: Condition


type Condition = Count | Residences | Housed | AllOf | AnyOf | Negation


def holds(condition: Condition, tally: Tally) -> bool:
    """Does the condition hold for the hand the tally describes?"""
    match condition:
        case Count(test, op, number):
            return _OPS[op](tally.count(test), number)
        case Residences(op, number):
            return _OPS[op](tally.residencies(), number)
        case Housed():
            return tally.residencies() >= tally.count(CITIZENS)
        case AllOf(parts):
            return all(holds(part, tally) for part in parts)
        case AnyOf(parts):
            return any(holds(part, tally) for part in parts)
        case Negation(part):
            return not holds(part, tally)


def condition_tests(condition: Condition) -> tuple[CardTest, ...]:
    """Every card test the condition counts with, once each, in order of appearance."""
    found: dict[CardTest, None] = {}
    _collect(condition, found)
    return tuple(found)


def _collect(condition: Condition, found: dict[CardTest, None]) -> None:
    match condition:
        case Count(test, _, _):
            found[test] = None
        case Housed():
            found[CITIZENS] = None
        case AllOf(parts) | AnyOf(parts):
            for part in parts:
                _collect(part, found)
        case Negation(part):
            _collect(part, found)
        case Residences():
            pass


def uses_residencies(condition: Condition) -> bool:
    match condition:
        case Residences() | Housed():
            return True
        case AllOf(parts) | AnyOf(parts):
            return any(uses_residencies(part) for part in parts)
        case Negation(part):
            return uses_residencies(part)
        case Count():
            return False


def describe(condition: Condition) -> str:
    """The condition in English."""
    match condition:
        case Count(test, op, number):
            if op == "==" and number == 0:
                return f"no {test.label}"
            return f"{_OP_WORDS[op]} {number} {_noun(test.label, number)}"
        case Residences(op, number):
            return f"{_OP_WORDS[op]} {number} open residence{'' if number == 1 else 's'}"
        case Housed():
            return "a residence for every citizen in the hand"
        case AllOf(parts):
            return " and ".join(_grouped(part) for part in parts)
        case AnyOf(parts):
            return " or ".join(_grouped(part) for part in parts)
        case Negation(part):
            return f"not ({describe(part)})"


def _grouped(condition: Condition) -> str:
    text = describe(condition)
    return f"({text})" if isinstance(condition, AllOf | AnyOf) else text


def _noun(label: str, number: int) -> str:
    """Labels are plural; a count of one reads better with the noun in the singular."""
    if number != 1:
        return label
    words = label.split(" ")
    for index, word in enumerate(words):
        if word in _SINGULARS:
            words[index] = _SINGULARS[word]
            return " ".join(words)
    return label


# --- strategies ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    action: Action
    until: Condition | None = None


@dataclass(frozen=True, slots=True)
class RuleStrategy:
    """A fixed split or a list of steps (see the module docstring). ``spec`` is the text it
    was read from, normalised for the fixed split (``structures=K``)."""

    spec: str
    steps: tuple[Step, ...]
    split: int | None = None  # K for a fixed split

    def choose(self, tally: Tally) -> Pile | None:
        """The pile to draw from next (before the empty-pile rule)."""
        for step in self.steps:
            if step.until is None or not holds(step.until, tally):
                return _act(step.action, tally)
        last = self.steps[-1].action
        return _act(last, tally) if last == "alternate" else other_pile(last)

    def tests(self) -> tuple[CardTest, ...]:
        found: dict[CardTest, None] = {}
        for step in self.steps:
            if step.action == "alternate":
                found[FROM_STRUCTURES] = None
                found[FROM_PERSONALITIES] = None
            if step.until is not None:
                _collect(step.until, found)
        return tuple(found)

    def uses_residencies(self) -> bool:
        return any(s.until is not None and uses_residencies(s.until) for s in self.steps)

    def describe(self) -> str:
        if self.split is not None:
            k = self.split
            return (f"{k} from the Structure Pile first, then {HAND_SIZE - k} from the "
                    "Personality Pile (a fixed split)")
        parts: list[str] = []
        for step in self.steps:
            what = ("alternately from the Structure and the Personality Pile"
                    if step.action == "alternate" else f"from the {PILE_TITLES[step.action]}")
            parts.append(what if step.until is None
                         else f"{what} until the hand holds {describe(step.until)}")
        last = self.steps[-1]
        if last.until is not None:
            parts.append("alternately from the Structure and the Personality Pile"
                         if last.action == "alternate"
                         else f"from the {PILE_TITLES[other_pile(last.action)]}")
        return "Draw " + ", then ".join(parts)


def _act(action: Action, tally: Tally) -> Pile:
    if action != "alternate":
        return action
    if tally.count(FROM_STRUCTURES) <= tally.count(FROM_PERSONALITIES):
        return "structures"
    return "personalities"


@dataclass(frozen=True, slots=True)
class PickStrategy:
    """The caller's own choices, one per draw of the deal (every round), in order; after the
    last pick, ``then`` decides (or, without it, the deal waits for more picks)."""

    picks: tuple[Pile, ...]
    then: RuleStrategy | None = None

    @property
    def spec(self) -> str:
        text = "picks=" + ",".join("s" if p == "structures" else "p" for p in self.picks)
        return f"{text}; then {self.then.spec}" if self.then is not None else text

    @property
    def split(self) -> int | None:
        return None

    def choose(self, tally: Tally) -> Pile | None:
        if tally.draws < len(self.picks):
            return self.picks[tally.draws]
        return self.then.choose(tally) if self.then is not None else None

    def tests(self) -> tuple[CardTest, ...]:
        return self.then.tests() if self.then is not None else ()

    def uses_residencies(self) -> bool:
        return self.then is not None and self.then.uses_residencies()

    def describe(self) -> str:
        letters = ", ".join("S" if p == "structures" else "P" for p in self.picks)
        text = f"Draw as picked: {letters}" if self.picks else "Draw as picked (no picks yet)"
        if self.then is not None:
            rest = self.then.describe()
            return f"{text}; then {rest[0].lower()}{rest[1:]}"
        return text


type Strategy = RuleStrategy | PickStrategy


def split_strategy(structures: int) -> RuleStrategy:
    """``structures=K``: K cards from the Structure Pile first, then the Personality Pile."""
    if not 0 <= structures <= HAND_SIZE:
        raise ValueError(f"a split draws 0..{HAND_SIZE} structures, not {structures}")
    return RuleStrategy(
        f"structures={structures}",
        (Step("structures", Count(FROM_STRUCTURES, ">=", structures)), Step("personalities")),
        structures,
    )


_PICK_WORDS: Final[dict[str, Pile]] = {
    "s": "structures", "structure": "structures", "structures": "structures",
    "p": "personalities", "personality": "personalities", "personalities": "personalities",
}


def parse_picks(picks: str | Sequence[str], then: RuleStrategy | None = None) -> PickStrategy:
    """Picks as ``"s,p,p"`` or a list of ``s``/``p``/``structures``/``personalities``; a bad
    pick is a :class:`StrategyError` at its offset in the text (its index, for a list)."""
    if isinstance(picks, str):
        items: list[tuple[int, str]] = []
        offset = 0
        if picks.strip():
            for raw in picks.split(","):
                items.append((offset + len(raw) - len(raw.lstrip()), raw.strip()))
                offset += len(raw) + 1
    else:
        items = [(index, str(item).strip()) for index, item in enumerate(picks)]
    chosen: list[Pile] = []
    for position, item in items:
        pile = _PICK_WORDS.get(item.casefold())
        if pile is None:
            raise StrategyError(f"{item!r} is not a pile", position, max(1, len(item)),
                                "s, p, structures or personalities")
        chosen.append(pile)
    return PickStrategy(tuple(chosen), then)


# --- the parser ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Token:
    kind: Literal["word", "number", "string", "op", "punct", "end"]
    text: str
    start: int
    end: int
    value: str = ""  # the string's contents, the word case-folded


_TOKEN: Final = re.compile(
    r"""(?P<space>\s+)|(?P<number>\d+)|(?P<word>[^\W\d_][\w'-]*)|(?P<op>>=|<=|==|!=|=|>|<)"""
    r"""|(?P<punct>[,()])|(?P<string>")""",
)
_PLURALS: Final[dict[str, tuple[str, str | None, str]]] = {
    # word -> (type, subtype, plural label)
    "card": ("", None, "cards"), "cards": ("", None, "cards"),
    "structure": ("structure", None, "structures"),
    "structures": ("structure", None, "structures"),
    "personality": ("personality", None, "personalities"),
    "personalities": ("personality", None, "personalities"),
    "citizen": ("personality", "citizen", "citizens"),
    "citizens": ("personality", "citizen", "citizens"),
    "troop": ("personality", "troop", "troops"), "troops": ("personality", "troop", "troops"),
    "wall": ("structure", "wall", "walls"), "walls": ("structure", "wall", "walls"),
    "stronghold": ("structure", "stronghold", "strongholds"),
    "strongholds": ("structure", "stronghold", "strongholds"),
    "item": ("item", None, "items"), "items": ("item", None, "items"),
    "event": ("event", None, "events"), "events": ("event", None, "events"),
    "invocation": ("invocation", None, "invocations"),
    "invocations": ("invocation", None, "invocations"),
    "weapon": ("item", "weapon", "weapons"), "weapons": ("item", "weapon", "weapons"),
    "armor": ("item", "armor", "armors"), "armors": ("item", "armor", "armors"),
    "armour": ("item", "armor", "armors"), "armours": ("item", "armor", "armors"),
    "shield": ("item", "shield", "shields"), "shields": ("item", "shield", "shields"),
    "interrupt": ("event", "interrupt", "interrupts"),
    "interrupts": ("event", "interrupt", "interrupts"),
    "wanderer": ("wanderer", None, "wanderers"), "wanderers": ("wanderer", None, "wanderers"),
}
# plural -> singular (the first singular listed wins: "armors" -> "armor", not "armour")
_SINGULARS: Final[dict[str, str]] = {
    entry[2]: word for word, entry in reversed(_PLURALS.items())
    if word != entry[2] and not word.endswith("s")
}
_FACTIONS: Final = ("kalim", "mosfin", "guild")
# Subtype adjectives and the types they describe.
_KINDS: Final[dict[str, tuple[str, ...]]] = {
    "general": ("structure", "event", "invocation"),
    "battle": ("event",),
    "interrupt": ("event",),
}
_ACTIONS: Final[dict[str, Action]] = {
    "structures": "structures", "structure": "structures", "s": "structures",
    "personalities": "personalities", "personality": "personalities", "p": "personalities",
    "alternate": "alternate", "alternating": "alternate", "alternately": "alternate",
}
_OP_TOKENS: Final[dict[str, Op]] = {
    ">=": ">=", ">": ">", "<=": "<=", "<": "<", "=": "==", "==": "==", "!=": "!=",
}
_NOUN_HINT: Final = ("a noun such as cards, structures, citizens, troops, walls, items, "
                     "events, invocations, 'open residences', card \"NAME\" or "
                     "matching \"QUERY\"")
_QUANTITY_HINT: Final = "a number, >= N, at least N, at most N, exactly N, no, a or an"


def _tokens(text: str, error: type[SpecError]) -> list[_Token]:
    found: list[_Token] = []
    at = 0
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None:
            raise error(f"unexpected character {text[at]!r}", at, 1,
                        "a word, a number, a comparison, a comma or a parenthesis")
        kind = match.lastgroup
        if kind == "string":
            end, value = _string(text, at, error)
            found.append(_Token("string", text[at:end], at, end, value))
            at = end
            continue
        end = match.end()
        if kind in ("word", "number", "op", "punct"):
            word = match.group()
            found.append(_Token(kind, word, at, end, word.casefold()))  # type: ignore[arg-type]
        at = end
    found.append(_Token("end", "", len(text), len(text)))
    return found


def _string(text: str, start: int, error: type[SpecError]) -> tuple[int, str]:
    chars: list[str] = []
    at = start + 1
    while at < len(text):
        char = text[at]
        if char == "\\" and at + 1 < len(text) and text[at + 1] in '"\\':
            chars.append(text[at + 1])
            at += 2
            continue
        if char == '"':
            return at + 1, "".join(chars)
        chars.append(char)
        at += 1
    raise error("unterminated quoted text", start, len(text) - start, 'a closing "')


class _Parser:
    def __init__(self, text: str, error: type[SpecError], resolve: Resolver | None) -> None:
        if len(text) > MAX_SPEC:
            raise error(f"the text is longer than {MAX_SPEC} characters", MAX_SPEC,
                        len(text) - MAX_SPEC)
        self.text = text
        self.error = error
        self.resolve = resolve
        self.tokens = _tokens(text, error)
        self.at = 0
        self.depth = 0

    # -- tokens --------------------------------------------------------------------------

    @property
    def token(self) -> _Token:
        return self.tokens[self.at]

    def peek(self, ahead: int = 1) -> _Token:
        return self.tokens[min(self.at + ahead, len(self.tokens) - 1)]

    def advance(self) -> _Token:
        token = self.token
        if token.kind != "end":
            self.at += 1
        return token

    def is_word(self, *words: str) -> bool:
        return self.token.kind == "word" and self.token.value in words

    def fail(self, message: str, expected: str, token: _Token | None = None) -> SpecError:
        token = token or self.token
        if token.kind == "end":
            message = f"{message}: the text ended"
        else:
            message = f"{message}: found {token.text!r}"
        return self.error(message, token.start, max(1, token.end - token.start), expected)

    def expect_end(self, expected: str) -> None:
        if self.token.kind != "end":
            raise self.fail("unexpected text", expected)

    # -- strategies ----------------------------------------------------------------------

    def strategy(self) -> RuleStrategy:
        if self.token.kind == "end":
            raise self.fail("empty strategy", "structures=K, structures, personalities or "
                            "alternate")
        split = self.split()
        if split is not None:
            return split
        starts = [self.token.start]
        steps = [self.step()]
        while True:
            if self.token.kind == "punct" and self.token.text == ",":
                self.advance()
                if self.is_word("then"):
                    self.advance()
            elif self.is_word("then"):
                self.advance()
            else:
                break
            starts.append(self.token.start)
            steps.append(self.step())
        self.expect_end("'until', ', then' and another step, or the end"
                        if steps[-1].until is None else
                        "', then' and another step, 'and'/'or' and another condition, or the end")
        for index, step in enumerate(steps[:-1]):
            if step.until is None:
                raise self.error(
                    f"step {index + 1} has no 'until', so the steps after it are never used",
                    starts[index], starts[index + 1] - starts[index],
                    "'until CONDITION' after every step but the last")
        return RuleStrategy(" ".join(self.text.split()), tuple(steps))

    def split(self) -> RuleStrategy | None:
        if not (self.is_word("structures", "personalities", "structure", "personality", "s",
                             "p") and self.peek().kind == "op"
                and self.peek().text in ("=", "==")):
            return None
        pile = _ACTIONS[self.advance().value]
        self.advance()
        number = self.token
        if number.kind != "number" or int(number.text) > HAND_SIZE:
            raise self.fail("a split needs a number of cards", f"a number from 0 to {HAND_SIZE}")
        self.advance()
        self.expect_end("the end of the strategy")
        k = int(number.text)
        return split_strategy(k if pile == "structures" else HAND_SIZE - k)

    def step(self) -> Step:
        token = self.token
        action = _ACTIONS.get(token.value) if token.kind == "word" else None
        if action is None:
            raise self.fail("expected a pile to draw from", "structures, personalities or "
                            "alternate")
        self.advance()
        if not self.is_word("until"):
            return Step(action)
        self.advance()
        return Step(action, self.condition(step=action))

    # -- conditions ----------------------------------------------------------------------

    def condition(self, step: Action | None = None) -> Condition:
        return self.disjunction(step)

    def disjunction(self, step: Action | None) -> Condition:
        parts = [self.conjunction(step)]
        while self.is_word("or"):
            self.advance()
            parts.append(self.conjunction(step))
        return parts[0] if len(parts) == 1 else AnyOf(tuple(parts))

    def conjunction(self, step: Action | None) -> Condition:
        parts = [self.unary(step)]
        while self.is_word("and"):
            self.advance()
            parts.append(self.unary(step))
        return parts[0] if len(parts) == 1 else AllOf(tuple(parts))

    def unary(self, step: Action | None) -> Condition:
        if self.depth >= MAX_DEPTH:
            raise self.fail(f"nested more than {MAX_DEPTH} levels deep", "a simpler condition")
        self.depth += 1
        try:
            if self.is_word("not"):
                self.advance()
                return Negation(self.unary(step))
            if self.token.kind == "punct" and self.token.text == "(":
                opening = self.advance()
                inner = self.disjunction(step)
                if not (self.token.kind == "punct" and self.token.text == ")"):
                    raise self.fail(f"the '(' at position {opening.start} is not closed",
                                    "')', 'and' or 'or'")
                self.advance()
                return inner
            if self.is_word("citizens", "citizen") and self.peek().kind == "word" and (
                    self.peek().value == "housed"):
                self.advance()
                self.advance()
                return Housed()
            return self.count(step)
        finally:
            self.depth -= 1

    def quantity(self) -> tuple[Op, int]:
        token = self.token
        if token.kind == "op":
            self.advance()
            return _OP_TOKENS[token.text], self.number()
        if token.kind == "number":
            return ">=", self.number()
        if token.kind == "word":
            if token.value == "at" and self.peek().kind == "word" and self.peek().value in (
                    "least", "most"):
                self.advance()
                word = self.advance().value
                return (">=" if word == "least" else "<="), self.number()
            if token.value == "exactly":
                self.advance()
                return "==", self.number()
            if token.value == "no":
                self.advance()
                return "==", 0
            if token.value in ("a", "an"):
                self.advance()
                return ">=", 1
        raise self.fail("expected how many", _QUANTITY_HINT)

    def number(self) -> int:
        token = self.token
        if token.kind != "number" or int(token.text) > MAX_NUMBER:
            raise self.fail("expected a number", f"a whole number from 0 to {MAX_NUMBER}")
        self.advance()
        return int(token.text)

    def count(self, step: Action | None) -> Condition:
        op, number = self.quantity()
        if self.is_word("open", "residence", "residences"):
            if self.is_word("open"):
                self.advance()
            if not self.is_word("residence", "residences"):
                raise self.fail("expected 'residences' after 'open'", "residences")
            self.advance()
            return Residences(op, number)
        if step is not None and self._subject_ends():
            test = (CardTest(label="cards") if step == "alternate" else
                    CardTest(pile=step, label=f"cards from the {PILE_TITLES[step]}"))
            return Count(test, op, number)
        return Count(self.subject(), op, number)

    def _subject_ends(self) -> bool:
        token = self.token
        return token.kind == "end" or (token.kind == "punct" and token.text in ",)") or (
            token.kind == "word" and token.value in ("then", "and", "or"))

    def subject(self) -> CardTest:
        if self.is_word("card", "cards") and self.peek().kind == "string":
            self.advance()
            token = self.advance()
            if not token.value.strip():
                raise self.fail("a card needs a name or an id", 'card "NAME OR ID"', token)
            return CardTest(card=token.value.strip().casefold(), label=f'cards "{token.value}"')
        if self.is_word("matching"):
            self.advance()
            return self.matching()
        start = self.token
        faction: str | None = None
        kind: tuple[str, _Token] | None = None
        while self.token.kind == "word":
            token = self.token
            if token.value == "faction":
                self.advance()
                if not self.is_word(*_FACTIONS):
                    raise self.fail("expected a faction", "kalim, mosfin or guild")
                token = self.token
            elif token.value not in _FACTIONS and token.value not in _KINDS:
                break
            if token.value in _FACTIONS:
                if faction is not None:
                    raise self.fail("a card has one faction", "a noun", token)
                faction = token.value
            else:
                if kind is not None:
                    raise self.fail("a card has one kind", "a noun", token)
                if token.value == "interrupt" and not (
                        self.peek().kind == "word" and self.peek().value in ("event", "events")):
                    break  # "interrupt" on its own is the noun
                kind = (token.value, token)
            self.advance()
        noun = self.token
        described = faction is not None or kind is not None
        if noun.kind == "word" and noun.value in _PLURALS:
            self.advance()
            card_type, subtype, label = _PLURALS[noun.value]
        elif described:
            card_type, subtype, label = "", None, "cards"
        else:
            raise self.fail("expected what to count", _NOUN_HINT, start)
        subtype_out = subtype
        if kind is not None:
            word, token = kind
            allowed = _KINDS[word]
            if card_type not in allowed or subtype is not None:
                raise self.fail(f"'{word}' describes {' and '.join(t + 's' for t in allowed)}",
                                f"{word} {allowed[0]}s", token)
            subtype_out = word
            label = f"{word} {label}"
        if faction == "kalim" and card_type == "invocation" and subtype is None and kind is None:
            # Kalim invocations are a subtype: they have no faction.
            subtype_out, faction = "kalim", None
            label = f"kalim {label}"
        elif faction is not None:
            label = f"{faction} {label}"
        residencies = False
        if self.is_word("with"):
            self.advance()
            if not self.is_word("residencies", "residency", "residences", "residence"):
                raise self.fail("expected 'residencies' after 'with'", "residencies")
            self.advance()
            residencies = True
            label += " with residencies"
        pile: Pile | None = None
        if self.is_word("from"):
            self.advance()
            if self.is_word("the"):
                self.advance()
            named = self.token
            if not self.is_word("structure", "structures", "personality", "personalities"):
                raise self.fail("expected a pile", "the structure pile or the personality pile")
            self.advance()
            pile = "structures" if named.value.startswith("structure") else "personalities"
            if self.is_word("pile"):
                self.advance()
            label += f" from the {PILE_TITLES[pile]}"
        return CardTest(card_type or None, subtype_out, faction, residencies, pile, label=label)

    def matching(self) -> CardTest:
        token = self.token
        if token.kind != "string":
            raise self.fail("expected a quoted search query", 'matching "QUERY"')
        self.advance()
        if self.resolve is None:
            raise self.error("search queries need the catalogue, which is not available here",
                             token.start, token.end - token.start, "a card phrase")
        try:
            ids = frozenset(self.resolve(token.value))
        except ValueError as exc:
            inner = getattr(exc, "position", 0)
            length = getattr(exc, "length", 1)
            position = min(token.start + 1 + (inner if isinstance(inner, int) else 0),
                           token.end - 1)
            message = getattr(exc, "message", None) or str(exc)
            expected = getattr(exc, "expected", None)
            raise self.error(f"in the query {token.value!r}: {message}", position,
                             min(length if isinstance(length, int) else 1,
                                 token.end - 1 - position),
                             expected if isinstance(expected, str) else None) from exc
        return CardTest(ids=ids, label=f'cards matching "{token.value}"')


def parse_strategy(spec: str, resolve: Resolver | None = None) -> RuleStrategy:
    """A strategy from its text (see the module docstring); raises :class:`StrategyError`.
    ``resolve`` turns a search query into the ids of the cards it matches (for ``matching``)."""
    return _Parser(spec, StrategyError, resolve).strategy()


def parse_condition(text: str, error: type[SpecError] = SpecError,
                    resolve: Resolver | None = None) -> Condition:
    """A condition on its own (the goals of :mod:`rules.odds`); raises ``error``."""
    parser = _Parser(text, error, resolve)
    if parser.token.kind == "end":
        raise parser.fail("empty condition", _QUANTITY_HINT)
    condition = parser.condition()
    parser.expect_end("'and' or 'or' and another condition, or the end")
    return condition
