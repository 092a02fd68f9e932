"""The search language: a hand-written tokenizer and recursive-descent parser (docs/design.md §9).

Pure Python, no Django. ``parse(text)`` returns an immutable :class:`ParsedQuery` whose nodes
all carry their source span (``start``/``end`` offsets into the query), or raises
:class:`SearchError`, and nothing else, with a code, a message, the position and length of
the mistake, what was expected there and did-you-mean suggestions.

Grammar (``-`` binds tightest, then the implicit ``and``, then ``or``)::

    query    := or_expr?
    or_expr  := and_expr ("or" and_expr)*
    and_expr := unary ("and"? unary)*
    unary    := "-" unary | "(" or_expr? ")" | term | word | "phrase" | !name | !"name"
    term     := KEY OP (value | "quoted value" | /regex/)      OP := : = != < <= > >=

``order:`` and ``direction:`` (``dir:``) terms are lifted out of the tree into
``ParsedQuery.order``; only those reached from the top through plain ``and`` count, any inside
``or`` or a negation is dropped with a warning. Nesting (parentheses and negations) is limited
to 32 levels, checked before each descent, so no input reaches Python's recursion limit; the
query is limited to 1,024 UTF-8 bytes. Regular expressions are checked against a portable,
backtracking-safe subset (see :func:`check_regex` and ``fields.REGEX_HELP``).
"""

from __future__ import annotations

import re
import unicodedata
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from cards.search import fields as registry
from cards.search.fields import (
    DEFAULT_SORT,
    MAX_DEPTH,
    MAX_NUMBER,
    MAX_QUERY_BYTES,
    MAX_REGEX_CHARS,
    Field,
    Value,
    match_value,
)
from cards.search.suggest import closest_keys, closest_values

type ErrorCode = Literal[
    "too_long", "too_deep", "syntax", "unknown_key", "bad_value", "bad_operator", "bad_regex",
    "regex_too_long", "regex_unsafe", "needs_sign_in",
]
type Direction = Literal["asc", "desc"]


class SearchError(ValueError):
    """A query that cannot be searched: where (``position``, ``length``), why (``code``,
    ``message``), what would have been valid there (``expected``) and did-you-mean
    (``suggestions``)."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        position: int,
        length: int = 1,
        expected: str | None = None,
        suggestions: Iterable[str] = (),
    ) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.position = max(0, position)
        self.length = max(0, length)
        self.expected = expected
        self.suggestions: tuple[str, ...] = tuple(suggestions)

    def as_dict(self) -> dict[str, object]:
        return {
            "code": self.code, "message": self.message, "position": self.position,
            "length": self.length, "expected": self.expected,
            "suggestions": list(self.suggestions),
        }

    def __repr__(self) -> str:
        return f"SearchError({self.code!r}, {self.message!r}, position={self.position})"


# --- the AST ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """``key op value``. ``key`` is the canonical key; ``value`` is canonical too: the text as
    typed for text keys (the pattern for regexes), a decimal integer or, when ``value_is_key``,
    the canonical name of another number key for numbers, the canonical value for enumerated
    keys, ``is:``/``has:`` and ``kw:`` (an ability slug), the upper-case code for ``set:``."""

    key: str
    op: str
    value: str
    is_regex: bool = False
    start: int = 0
    end: int = 0
    value_is_key: bool = False


@dataclass(frozen=True)
class NameTerm:
    """A bare word or ``"phrase"`` the name must contain, or ``!name`` it must equal (both
    ignoring case)."""

    text: str
    exact: bool = False
    start: int = 0
    end: int = 0


@dataclass(frozen=True)
class Not:
    child: Node
    start: int = 0
    end: int = 0


@dataclass(frozen=True)
class And:
    children: tuple[Node, ...]
    start: int = 0
    end: int = 0


@dataclass(frozen=True)
class Or:
    children: tuple[Node, ...]
    start: int = 0
    end: int = 0


type Node = Term | NameTerm | Not | And | Or


@dataclass(frozen=True)
class ParsedQuery:
    """A parsed query: the filter (``None``: every card), the sort as ``(key, direction)``
    pairs (always one pair; ``("name", "asc")`` by default), warnings about ignored parts,
    and the query text."""

    root: Node | None
    order: tuple[tuple[str, Direction], ...] = ((DEFAULT_SORT, "asc"),)
    warnings: tuple[str, ...] = ()
    text: str = ""


# --- tokens ----------------------------------------------------------------------------------

type TokenKind = Literal["(", ")", "or", "and", "-", "term", "word", "phrase", "exact"]


@dataclass(frozen=True)
class _Token:
    kind: TokenKind
    start: int
    end: int
    text: str = ""  # word/phrase/exact: the name text; term: the value
    key: str = ""  # term: the key as typed
    op: str = ""
    value_start: int = 0
    quoted: bool = False
    regex: bool = False


_KEY_OP: Final = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(!=|<=|>=|[:=<>])")
_INTEGER: Final = re.compile(r"[+-]?[0-9]+")
# A number after one operator too many (off>>3, cost=>2): the key's operator and the rest.
_OPERATOR_TYPO: Final = re.compile(r"([<>=!]+)\s*([+-]?[0-9]+)")
_OPERATOR_FIXES: Final = {"=>": ">=", "=<": "<=", ">>": ">", "<<": "<", "==": "=",
                          "=!": "!=", ">==": ">=", "<==": "<=", "!==": "!=", ":>": ">",
                          ":<": "<", ":>=": ">=", ":<=": "<=", ":=": "=",
                          ">>=": ">=", "<<=": "<="}
_OPERATORS: Final = ("!=", "<=", ">=", ":", "=", "<", ">")
_SET_CODE: Final = re.compile(r"[A-Za-z0-9]{1,16}")
_STOP: Final = frozenset("()")


def _quote(text: str) -> str:
    return "'" + text + "'"


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)

    def _bare_end(self, i: int) -> int:
        text, n = self.text, self.n
        while i < n and not text[i].isspace() and text[i] not in _STOP:
            i += 1
        return i

    def _quoted(self, i: int) -> tuple[str, int]:
        """The text of the quoted string opening at ``i`` and the offset after it."""
        text, n = self.text, self.n
        out: list[str] = []
        j = i + 1
        while j < n:
            ch = text[j]
            if ch == "\\" and j + 1 < n and text[j + 1] in '"\\':
                out.append(text[j + 1])
                j += 2
            elif ch == '"':
                return "".join(out), j + 1
            else:
                out.append(ch)
                j += 1
        raise SearchError(
            "syntax", "This quote is never closed.", i, n - i, expected="a closing '\"'"
        )

    def _regex(self, i: int) -> tuple[str, int]:
        text, n = self.text, self.n
        out: list[str] = []
        j = i + 1
        while j < n:
            ch = text[j]
            if ch == "\\" and j + 1 < n:
                out.append("/" if text[j + 1] == "/" else text[j:j + 2])
                j += 2
            elif ch == "/":
                return "".join(out), j + 1
            else:
                out.append(ch)
                j += 1
        raise SearchError(
            "syntax", "This /pattern/ is never closed (write \\/ for a slash inside it).",
            i, n - i, expected="a closing '/'",
        )

    def tokens(self) -> list[_Token]:
        text, n = self.text, self.n
        found: list[_Token] = []
        i = 0
        while i < n:
            ch = text[i]
            if ch.isspace():
                i += 1
            elif ch in "()":
                found.append(_Token("(" if ch == "(" else ")", i, i + 1))
                i += 1
            elif ch == "-":
                if i + 1 >= n or text[i + 1].isspace() or text[i + 1] == ")":
                    raise SearchError(
                        "syntax", "A '-' must be written right before the term or '(' it "
                        "negates.", i, 1, expected="a term or '(' right after '-'",
                    )
                found.append(_Token("-", i, i + 1))
                i += 1
            elif ch == '"':
                phrase, end = self._quoted(i)
                found.append(_Token("phrase", i, end, phrase, quoted=True))
                i = end
            elif ch == "!" and not text.startswith("!=", i):
                found.append(self._exact(i))
                i = found[-1].end
            else:
                token = self._term(i) or self._word(i)
                found.append(token)
                i = token.end
        return found

    def _exact(self, i: int) -> _Token:
        text, n = self.text, self.n
        if i + 1 < n and text[i + 1] == '"':
            name, end = self._quoted(i + 1)
        else:
            end = self._bare_end(i + 1)
            name = text[i + 1:end]
        if not name.strip():
            raise SearchError(
                "syntax", "'!' must be followed by a card name.", i, max(1, end - i),
                expected="a name after '!', e.g. !\"Ashgate Spearman\"",
            )
        return _Token("exact", i, end, name, quoted=True)

    def _word(self, i: int) -> _Token:
        end = self._bare_end(i)
        word = self.text[i:end]
        lowered = word.casefold()
        if lowered in ("or", "and"):
            return _Token("or" if lowered == "or" else "and", i, end, word)
        return _Token("word", i, end, word)

    def _term(self, i: int) -> _Token | None:
        match = _KEY_OP.match(self.text, i)
        if match is None:
            return None
        key, op = match.group(1), match.group(2)
        j = match.end()
        text, n = self.text, self.n
        if j < n and text[j] == '"':
            value, end = self._quoted(j)
            return _Token("term", i, end, value, key, op, j, quoted=True)
        if j < n and text[j] == "/":
            value, end = self._regex(j)
            return _Token("term", i, end, value, key, op, j, regex=True)
        end = self._bare_end(j)
        if end == j:
            raise SearchError(
                "syntax", f"{_quote(key + op)} needs a value.", j, 0,
                expected=f"a value after {_quote(key + op)}",
            )
        return _Token("term", i, end, text[j:end], key, op, j)


# --- regular expressions ---------------------------------------------------------------------

# The backtracking estimate (see fields.REGEX_HELP): an unbounded repeat counts like a long
# card text, and the product along a sequence (sum across alternatives, or the largest of
# plain-word alternatives, which cannot both match) must stay under the budget, which allows
# two unbounded repeats and then nothing else optional.
REGEX_UNBOUNDED: Final = 300
REGEX_BUDGET: Final = 100_000
MAX_REPEAT: Final = 100


class _RegexProblem(Exception):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message


@dataclass
class _Atom:
    cost: int = 1
    quantified: bool = False  # is or contains a quantifier
    risky: bool = False  # contains an alternation whose branches may match the same text
    literal: str | None = None  # a single literal character
    anchor: bool = False
    group: bool = False


@dataclass
class _Group:
    branches: list[list[_Atom]] = field(default_factory=lambda: [[]])


def _seq_cost(atoms: Sequence[_Atom]) -> int:
    cost = 1
    for atom in atoms:
        cost = min(cost * atom.cost, REGEX_BUDGET + 1)
    return cost


def _distinct_words(branches: list[list[_Atom]]) -> bool:
    """Alternatives that are plain words with different first characters: at any position at
    most one of them can match, so trying them costs no more than trying one."""
    firsts: list[str] = []
    for branch in branches:
        if not branch or any(a.literal is None or a.quantified for a in branch):
            return False
        firsts.append((branch[0].literal or "").casefold())
    return len(set(firsts)) == len(firsts)


def _close(group: _Group) -> _Atom:
    branches = group.branches
    costs = [_seq_cost(b) for b in branches]
    quantified = any(a.quantified for b in branches for a in b)
    risky = any(a.risky for b in branches for a in b)
    if len(branches) > 1 and _distinct_words(branches):
        cost = max(costs)
    else:
        cost = min(sum(costs), REGEX_BUDGET + 1)
        risky = risky or len(branches) > 1
    return _Atom(cost, quantified, risky, None, False, True)


_LOOKAROUND: Final[tuple[tuple[str, ErrorCode, str], ...]] = (
    ("(?=", "bad_regex", "Lookahead (?=...) is not supported."),
    ("(?!", "bad_regex", "Negative lookahead (?!...) is not supported."),
    ("(?<=", "bad_regex", "Lookbehind (?<=...) is not supported (PostgreSQL lacks it)."),
    ("(?<!", "bad_regex", "Negative lookbehind (?<!...) is not supported (PostgreSQL lacks it)."),
    ("(?P=", "regex_unsafe", "Backreferences are not allowed: they can make a search very slow."),
    ("(?P<", "bad_regex", "Named groups are not supported; use (...) or (?:...)."),
    ("(?<", "bad_regex", "Named groups are not supported; use (...) or (?:...)."),
    ("(?>", "bad_regex", "Atomic groups (?>...) are not supported."),
    ("(?#", "bad_regex", "Comments (?#...) are not supported."),
    ("(?(", "bad_regex", "Conditional groups are not supported."),
)


class _RegexScanner:
    """Walks a pattern that Python's ``re`` accepts and enforces the portable, safe subset."""

    def __init__(self, pattern: str) -> None:
        self.p = pattern

    def at(self, i: int) -> str:
        return self.p[i] if 0 <= i < len(self.p) else ""

    def scan(self) -> int:
        p = self.p
        stack: list[_Group] = [_Group()]
        i = 0
        while i < len(p):
            ch = p[i]
            current = stack[-1].branches[-1]
            if ch == "\\":
                current.append(self._escape(i))
                i += 2
            elif ch == "[":
                i = self._class(i)
                current.append(_Atom())
            elif ch == "(":
                if p.startswith("(?:", i):
                    i += 3
                elif p.startswith("(?", i):
                    raise self._group_problem(i)
                else:
                    i += 1
                stack.append(_Group())
            elif ch == ")":
                if len(stack) == 1:
                    raise _RegexProblem("bad_regex", "Unbalanced ')'.")
                atom = _close(stack.pop())
                stack[-1].branches[-1].append(atom)
                i += 1
            elif ch == "|":
                stack[-1].branches.append([])
                i += 1
            elif ch in "*+?{":
                i = self._quantifier(i, current)
            elif ch == "}":
                raise _RegexProblem(
                    "bad_regex", "Write '\\}' for a literal '}' (it closes a repeat count).")
            elif ch in "^$":
                current.append(_Atom(anchor=True))
                i += 1
            elif ch == ".":
                current.append(_Atom())
                i += 1
            else:
                current.append(_Atom(literal=ch))
                i += 1
        if len(stack) != 1:
            raise _RegexProblem("bad_regex", "A '(' is never closed.")
        return _close(stack[0]).cost

    def _group_problem(self, i: int) -> _RegexProblem:
        for prefix, code, message in _LOOKAROUND:
            if self.p.startswith(prefix, i):
                return _RegexProblem(code, message)
        return _RegexProblem(
            "bad_regex",
            "Inline flags such as (?i) are not supported; searches already ignore case.",
        )

    def _escape(self, i: int) -> _Atom:
        d = self.at(i + 1)
        if d in ("d", "w", "s", "D", "W", "S"):
            return _Atom()
        if d in ("n", "r", "t", "f", "v"):
            return _Atom(literal="\\" + d)
        if d in ("A", "Z"):
            return _Atom(anchor=True)
        if d in ("b", "B"):
            raise _RegexProblem(
                "bad_regex", "\\b and \\B are not supported (\\b is a backspace in PostgreSQL).")
        if d.isdigit():
            if d == "0":
                raise _RegexProblem("bad_regex", "Octal escapes are not supported.")
            raise _RegexProblem(
                "regex_unsafe", "Backreferences are not allowed: they can make a search very slow.")
        if d in ("x", "u", "U", "N"):
            raise _RegexProblem(
                "bad_regex", "Character codes (\\x, \\u, \\N) are not supported; type the "
                "character itself.")
        if d == "" or d.isalnum():
            raise _RegexProblem("bad_regex", f"The escape \\{d} is not supported.")
        return _Atom(literal=d)

    def _class(self, i: int) -> int:
        """Checks the class opening at ``i``; returns the offset after it."""
        j = i + 1
        if self.at(j) == "^":
            j += 1
        if self.at(j) == "]":
            j += 1
        while True:
            ch = self.at(j)
            if ch == "":
                raise _RegexProblem("bad_regex", "A '[' is never closed.")
            if ch == "]":
                return j + 1
            if ch == "[":
                raise _RegexProblem(
                    "bad_regex", "Write '\\[' for a '[' inside [...] (PostgreSQL reads [: [. [= "
                    "there).")
            if ch == "\\":
                d = self.at(j + 1)
                if d in ("D", "W", "S"):
                    raise _RegexProblem(
                        "bad_regex", "\\D, \\W and \\S are not allowed inside [...].")
                if d.isalnum() and d not in ("d", "w", "s", "n", "r", "t", "f", "v"):
                    raise _RegexProblem("bad_regex", f"The escape \\{d} is not supported in [...].")
                if d == "":
                    raise _RegexProblem("bad_regex", "A '[' is never closed.")
                j += 2
            else:
                j += 1

    def _quantifier(self, i: int, current: list[_Atom]) -> int:
        p = self.p
        ch = p[i]
        low: int
        high: int | None
        if ch == "{":
            match = re.compile(r"\{([0-9]*)(,?)([0-9]*)\}").match(p, i)
            if match is None or not match.group(1):
                raise _RegexProblem(
                    "bad_regex", "Write '\\{' for a literal '{'; a repeat count is {m}, {m,} or "
                    "{m,n}.")
            low = int(match.group(1)) if len(match.group(1)) <= 4 else MAX_REPEAT + 1
            raw_high = match.group(3)
            if not match.group(2):
                high = low
            elif raw_high:
                high = int(raw_high) if len(raw_high) <= 4 else MAX_REPEAT + 1
            else:
                high = None
            end = match.end()
            if low > MAX_REPEAT or (high is not None and high > MAX_REPEAT):
                raise _RegexProblem(
                    "regex_unsafe", f"Repeat counts above {MAX_REPEAT} are not allowed.")
        else:
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[ch]
            end = i + 1
        if self.at(end) == "?":
            end += 1  # lazy: the same matches, so the same cost
        if self.at(end) == "+":
            raise _RegexProblem(
                "bad_regex", "Possessive quantifiers (*+, ++, ?+) are not supported.")
        if not current or current[-1].anchor:
            raise _RegexProblem("bad_regex", "A quantifier needs something to repeat.")
        atom = current[-1]
        repeats = high is None or high > 1
        if repeats and atom.group and atom.quantified:
            raise _RegexProblem(
                "regex_unsafe", "A repeated group may not contain another quantifier, as in "
                "(a+)+: such patterns can take exponential time.")
        if repeats and atom.risky:
            raise _RegexProblem(
                "regex_unsafe", "A repeated group may only contain alternatives that are plain "
                "words starting with different letters, as in (north|south)+; (a|ab)* can take "
                "exponential time.")
        factor = REGEX_UNBOUNDED if high is None else high - low + 1
        current[-1] = _Atom(
            min(atom.cost * max(factor, 1), REGEX_BUDGET + 1), True, atom.risky, None, False,
            atom.group,
        )
        return end


def check_regex(pattern: str) -> tuple[ErrorCode, str] | None:
    """Why a /pattern/ cannot be searched, as (code, message), or None when it can.

    The pattern must compile with Python's ``re`` (SQLite runs it), stay within the subset
    PostgreSQL's AREs read the same way, and pass a conservative static check against
    catastrophic backtracking: no repeated group containing a quantifier (``(a+)+``,
    ``(a*)*``, ``(a?){9}``), no repeated alternation unless its branches are plain words with
    different first characters (``(a|a)*`` is refused), no backreferences, and an estimated
    backtracking cost within ``REGEX_BUDGET`` (see ``fields.REGEX_HELP``).
    """
    if not pattern:
        return "bad_regex", "The pattern is empty."
    if len(pattern) > MAX_REGEX_CHARS:
        return (
            "regex_too_long",
            f"The pattern is {len(pattern)} characters long; the limit is {MAX_REGEX_CHARS}.",
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            re.compile(pattern)
    except (re.error, OverflowError, RecursionError, ValueError) as error:
        reason = getattr(error, "msg", None) or str(error)
        return "bad_regex", f"This is not a valid pattern: {reason}."
    try:
        cost = _RegexScanner(pattern).scan()
    except _RegexProblem as problem:
        return problem.code, problem.message
    except (IndexError, KeyError, ValueError):  # defensive: treat as unsupported
        return "bad_regex", "This pattern uses features that are not supported."
    if cost > REGEX_BUDGET:
        return (
            "regex_unsafe",
            "This pattern could take too long to run: it has too many open-ended repeats, "
            "optional parts and alternatives (at most two of *, + or {m,}, and then nothing "
            "else optional).",
        )
    return None


# --- the parser ------------------------------------------------------------------------------

_SORT_KEYS: Final = ("order", "direction")


def _values_list(values: Sequence[Value], limit: int = 12) -> str:
    shown = ", ".join(v.value for v in values[:limit])
    return shown + (", ..." if len(values) > limit else "")


def _and(items: Sequence[Node]) -> Node:
    """One node for items joined by 'and': nested and-nodes are flattened into it."""
    flat = [c for item in items for c in (item.children if isinstance(item, And) else (item,))]
    return flat[0] if len(flat) == 1 else And(tuple(flat), flat[0].start, flat[-1].end)


def _or(items: Sequence[Node]) -> Node:
    """One node for items joined by 'or': nested or-nodes are flattened into it."""
    flat = [c for item in items for c in (item.children if isinstance(item, Or) else (item,))]
    return flat[0] if len(flat) == 1 else Or(tuple(flat), flat[0].start, flat[-1].end)


class _Parser:
    """Recursive descent over the tokens. ``order:``/``direction:`` are parsed as ordinary
    terms here and lifted out afterwards by :class:`_Finisher`."""

    def __init__(self, text: str, tokens: list[_Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.i = 0
        self.depth = 0
        self.last_end = 0
        self.warnings: list[tuple[int, str]] = []

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> _Token:
        token = self.tokens[self.i]
        self.i += 1
        self.last_end = token.end
        return token

    def missing(self, message: str, expected: str) -> SearchError:
        token = self.peek()
        if token is None:
            return SearchError("syntax", message, len(self.text), 0, expected)
        return SearchError("syntax", message, token.start, token.end - token.start, expected)

    def parse(self) -> Node | None:
        node = self.or_expr()
        token = self.peek()
        if token is not None:  # only a ')' stops or_expr early
            raise SearchError(
                "syntax", "This ')' has no '(' to close.", token.start, 1,
                expected="a term, 'or' or the end of the query",
            )
        return node

    def or_expr(self) -> Node | None:
        token = self.peek()
        if token is not None and token.kind == "or":
            raise self.missing("'or' needs a term before it.", "a term before 'or'")
        branches = [self.and_expr()]
        while (token := self.peek()) is not None and token.kind == "or":
            self.take()
            after = self.peek()
            if after is None or after.kind in (")", "or", "and"):
                raise SearchError(
                    "syntax", "'or' needs a term after it.", token.start,
                    token.end - token.start, expected="a term after 'or'",
                )
            branches.append(self.and_expr())
            if branches[-1] is None or branches[0] is None:
                raise SearchError(
                    "syntax", "Empty parentheses cannot be one side of 'or'.", token.start,
                    token.end - token.start, expected="a term on both sides of 'or'",
                )
        items = [branch for branch in branches if branch is not None]
        return _or(items) if items else None

    def and_expr(self) -> Node | None:
        items: list[Node] = []
        while (token := self.peek()) is not None and token.kind not in (")", "or"):
            if token.kind == "and":
                self.take()
                after = self.peek()
                if not items or after is None or after.kind in (")", "or", "and"):
                    where = "before" if not items else "after"
                    raise SearchError(
                        "syntax", f"'and' needs a term {where} it.", token.start,
                        token.end - token.start, expected=f"a term {where} 'and'",
                    )
                continue
            node = self.unary()
            if node is not None:
                items.append(node)
        return _and(items) if items else None

    def descend(self, token: _Token) -> None:
        if self.depth >= MAX_DEPTH:
            raise SearchError(
                "too_deep", f"The query nests parentheses and negations more than {MAX_DEPTH} "
                "levels deep.", token.start, 1, expected=f"at most {MAX_DEPTH} levels of nesting",
            )
        self.depth += 1

    def unary(self) -> Node | None:
        token = self.peek()
        if token is None or token.kind in (")", "or", "and"):
            raise self.missing("A term is missing here.", "a term")
        self.take()
        if token.kind == "-":
            self.descend(token)
            after = self.peek()
            if after is None or after.kind in (")", "or", "and"):
                raise self.missing("'-' needs a term to negate.", "a term after '-'")
            child = self.unary()
            self.depth -= 1
            if child is None:
                raise SearchError(
                    "syntax", "'-' cannot negate empty parentheses.", token.start,
                    self.last_end - token.start, expected="a term inside the parentheses",
                )
            return Not(child, token.start, self.last_end)
        if token.kind == "(":
            self.descend(token)
            inner = self.or_expr()
            closing = self.peek()
            if closing is None or closing.kind != ")":
                raise SearchError(
                    "syntax", f"The '(' at position {token.start} is never closed.",
                    len(self.text), 0, expected="')'",
                )
            self.take()
            self.depth -= 1
            if inner is None:
                self.warnings.append((token.start, "Empty parentheses '()' were ignored."))
            return inner
        if token.kind == "term":
            return self.term(token)
        if token.kind == "phrase" and not token.text.strip():
            self.warnings.append((token.start, 'Empty quotes "" were ignored.'))
            return None
        return NameTerm(token.text, token.kind == "exact", token.start, token.end)

    # terms
    def term(self, token: _Token) -> Term:
        f = registry.lookup(token.key)
        if f is None:
            suggestions = closest_keys(token.key)
            raise SearchError(
                "unknown_key", f"{_quote(token.key)} is not a search key.{_hint(suggestions)}",
                token.start, len(token.key),
                expected="a search key such as t, f, o, off or cost (see the help page)",
                suggestions=suggestions,
            )
        if token.op not in f.operators:
            allowed = " ".join(f.operators)
            raise SearchError(
                "bad_operator", f"{_quote(token.key)} does not take {_quote(token.op)}; it "
                f"takes {allowed}.", token.start + len(token.key), len(token.op),
                expected=f"one of {allowed} after {_quote(token.key)}",
            )
        if token.regex and f.kind != "text":
            raise self.bad_value(
                token, f"{_quote(token.key)} does not take a /pattern/; only text keys do.",
                _expected_value(f),
            )
        if f.kind == "text":
            return self.text_term(token, f)
        if f.kind in ("number", "personal"):
            return self.number_term(token, f)
        if f.kind == "set":
            code = token.text.strip()
            if not _SET_CODE.fullmatch(code):
                raise self.bad_value(
                    token, f"{_quote(token.text)} is not a set code (letters and digits).",
                    _expected_value(f),
                )
            return Term(f.name, token.op, code.upper(), False, token.start, token.end)
        return self.value_term(token, f)

    def bad_value(
        self, token: _Token, message: str, expected: str, suggestions: Iterable[str] = ()
    ) -> SearchError:
        return SearchError(
            "bad_value", message, token.value_start, max(1, token.end - token.value_start),
            expected, suggestions,
        )

    def text_term(self, token: _Token, f: Field) -> Term:
        if token.regex:
            if token.op not in (":", "="):
                raise SearchError(
                    "bad_operator", "A /pattern/ takes ':' (anywhere in the text) or '=' (the "
                    "whole text).", token.start + len(token.key), len(token.op),
                    expected="':' or '='",
                )
            problem = check_regex(token.text)
            if problem is not None:
                code, message = problem
                raise SearchError(
                    code, message, token.value_start, token.end - token.value_start,
                    expected="a pattern in the supported subset (see the help page)",
                )
            return Term(f.name, token.op, token.text, True, token.start, token.end)
        if token.op == ":" and not token.text:
            raise self.bad_value(
                token, f"{_quote(token.key + ':')} needs some text to look for; "
                f"{token.key}=\"\" finds an empty {f.label}, has:{f.name} a known one.",
                _expected_value(f),
            )
        return Term(f.name, token.op, token.text, False, token.start, token.end)

    def number_term(self, token: _Token, f: Field) -> Term:
        raw = token.text.strip()
        if _INTEGER.fullmatch(raw):
            digits = raw.lstrip("+-").lstrip("0")
            if len(digits) > len(str(MAX_NUMBER)) or abs(int(raw)) > MAX_NUMBER:
                raise self.bad_value(
                    token, f"{raw} is out of range (at most {MAX_NUMBER} either way).",
                    _expected_value(f),
                )
            return Term(f.name, token.op, str(int(raw)), False, token.start, token.end)
        typo = _OPERATOR_TYPO.fullmatch(raw)
        if typo:  # the fix is the whole term, its operator mended
            typed = token.op + typo.group(1)
            term = token.key + typed + raw[len(typo.group(1)):]
            fixes = [f"{token.key}{op}{typo.group(2)}" for op in _operator_fixes(typed)]
            raise SearchError(
                "bad_value", f"{_quote(term)} has one comparison too many.{_hint(fixes)}",
                token.start, token.end - token.start, _expected_value(f), fixes,
            )
        if f.kind == "personal":  # counts are compared with numbers only
            raise self.bad_value(token, f"{_quote(token.text)} is not a whole number.",
                                 _expected_value(f))
        other = registry.lookup(raw)
        if other is not None and other.kind == "number":
            return Term(f.name, token.op, other.name, False, token.start, token.end, True)
        numbers = [Value(n.name, n.label, n.aliases) for n in registry.NUMBER_FIELDS]
        suggestions = closest_values(raw, numbers) if raw else []
        raise self.bad_value(
            token, f"{_quote(token.text)} is not a whole number (nor a number key)."
            f"{_hint(suggestions)}", _expected_value(f), suggestions,
        )

    def value_term(self, token: _Token, f: Field) -> Term:
        if not token.text.strip():
            raise self.bad_value(
                token, f"{_quote(token.key + token.op)} needs a value.", _expected_value(f)
            )
        found = match_value(f.values, token.text)
        if found.value is not None:
            return Term(f.name, token.op, found.value.value, False, token.start, token.end)
        after = _quote(token.key + token.op)
        if found.candidates:
            options = [v.value for v in found.candidates]
            raise self.bad_value(
                token, f"{_quote(token.text)} is ambiguous after {after}: it could be "
                f"{', '.join(map(_quote, options))}.", _expected_value(f), options,
            )
        suggestions = closest_values(token.text, f.values) if token.text else []
        raise self.bad_value(
            token, f"{_quote(token.text)} is not a value of {after}.{_hint(suggestions)}",
            _expected_value(f), suggestions,
        )


def _operator_fixes(typed: str) -> list[str]:
    """The comparisons a mistyped one most likely meant, best first: ``>>`` -> ``>``, ``>=``;
    ``=>`` -> ``>=``, ``=``."""
    first = typed[:1]
    candidates = [_OPERATOR_FIXES.get(typed, ""), first, first + "=" if first in "<>" else ""]
    return [op for op in dict.fromkeys(candidates) if op in _OPERATORS]


def _hint(suggestions: Sequence[str]) -> str:
    return f" Did you mean {' or '.join(map(_quote, suggestions))}?" if suggestions else ""


def _expected_value(f: Field) -> str:
    if f.kind == "number":
        return "a whole number such as 3, or another number key such as def"
    if f.kind == "personal":
        return "a whole number such as 1"
    if f.kind == "text":
        return "a word, a \"quoted phrase\" or a /pattern/"
    if f.kind == "keyword":
        return "a common ability such as fleetfoot or \"giant size\""
    if f.kind == "set":
        return "a set code such as wof"
    return "one of " + _values_list(f.values)


class _Finisher:
    """Lifts order:/direction: terms out of the tree, keeping those at the top level (reached
    through plain 'and' only) and warning about the others."""

    def __init__(self, text: str, warnings: list[tuple[int, str]]) -> None:
        self.text = text
        self.warnings = warnings
        self.sorts: list[Term] = []

    def source(self, node: Term) -> str:
        return self.text[node.start:node.end]

    def lift(self, node: Node | None, top: bool) -> Node | None:
        if node is None:
            return None
        if isinstance(node, Term) and node.key in _SORT_KEYS:
            if top:
                self.sorts.append(node)
            else:
                self.warnings.append((
                    node.start, f"{self.source(node)} inside 'or' or a negation was ignored: "
                    "sorting only works at the top level of the query.",
                ))
            return None
        if isinstance(node, Not):
            child = self.lift(node.child, False)
            return None if child is None else Not(child, node.start, node.end)
        if isinstance(node, And):
            kept = [c for c in (self.lift(c, top) for c in node.children) if c is not None]
            return _and(kept) if kept else None
        if isinstance(node, Or):
            kept = [c for c in (self.lift(c, False) for c in node.children) if c is not None]
            return _or(kept) if kept else None
        return node

    def order(self) -> tuple[tuple[str, Direction], ...]:
        chosen: dict[str, Term] = {}
        for sort in self.sorts:
            first = chosen.setdefault(sort.key, sort)
            if first is not sort:
                self.warnings.append((
                    sort.start, f"{self.source(sort)} was ignored: only the first {sort.key}: "
                    f"({self.source(first)}) is used.",
                ))
        key = chosen["order"].value if "order" in chosen else DEFAULT_SORT
        descending = "direction" in chosen and chosen["direction"].value == "desc"
        direction: Direction = "desc" if descending else "asc"
        return ((key, direction),)


def _check_text(text: str) -> None:
    """The query's size (in UTF-8 bytes) and characters: no control characters or lone
    surrogates, which no database column holds and PostgreSQL refuses."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_QUERY_BYTES:
        used, index = 0, 0
        while index < len(text):
            used += len(text[index].encode("utf-8", "surrogatepass"))
            if used > MAX_QUERY_BYTES:
                break
            index += 1
        raise SearchError(
            "too_long", f"The query is {size:,} bytes long; the limit is {MAX_QUERY_BYTES:,}.",
            index, len(text) - index, expected=f"a query of at most {MAX_QUERY_BYTES:,} bytes",
        )
    for index, ch in enumerate(text):
        category = unicodedata.category(ch)
        if category == "Cs" or (category == "Cc" and not ch.isspace()):
            raise SearchError(
                "syntax", f"The character U+{ord(ch):04X} is not allowed in a query.", index, 1,
                expected="printable text",
            )


def parse(text: str) -> ParsedQuery:
    """Parse a search query; raises :class:`SearchError` (and nothing else) when it cannot."""
    _check_text(text)
    parser = _Parser(text, _Lexer(text).tokens())
    tree = parser.parse()
    finisher = _Finisher(text, parser.warnings)
    root = finisher.lift(tree, True)
    order = finisher.order()
    ordered = sorted(finisher.warnings, key=lambda warning: warning[0])
    return ParsedQuery(root, order, tuple(message for _, message in ordered), text)


def personal_terms(node: Node | None) -> tuple[Term, ...]:
    """The terms that read the searcher's own data (the collection's ``own``, ``want``,
    ``trade``)."""
    if node is None:
        return ()
    if isinstance(node, Term):
        return (node,) if registry.field(node.key).kind == "personal" else ()
    if isinstance(node, NameTerm):
        return ()
    if isinstance(node, Not):
        return personal_terms(node.child)
    return tuple(term for child in node.children for term in personal_terms(child))


def refuse_personal_terms(parsed: ParsedQuery) -> None:
    """For a searcher who is not signed in: a query that reads their own data is refused at
    its first such term (there is nothing to read, and 0 of everything would mislead)."""
    found = personal_terms(parsed.root)
    if found:
        term = found[0]
        source = parsed.text[term.start:term.end]
        section = registry.field(term.key).section
        keys = [f.name for f in registry.FIELDS if f.section == section]
        listed = ", ".join(keys[:-1]) + f" and {keys[-1]}" if len(keys) > 1 else keys[0]
        raise SearchError(
            "needs_sign_in", f"{_quote(source)} searches your {section.lower()}: log in to use "
            f"the {section.lower()} keys {listed}.", term.start, term.end - term.start,
            expected="a key that does not need an account, or log in first",
        )
