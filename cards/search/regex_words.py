"""Words that every match of a search regex contains, for a cheap test to run before it.

SQLite runs a ``/regex/`` term by calling Python's ``re`` on every card's text; a plain
``LIKE '%word%'`` (in C) on a word that every match must contain skips most cards first
(cards.search.compile). The words must never drop a card the regex matches:

- only characters outside any group, class, alternation or quantified atom count, and a
  pattern with a top-level ``|`` has no such words;
- the regex ignores case the Unicode way, LIKE the ASCII way: ``i``, ``k`` and ``s`` also
  match U+0130, U+0131, the Kelvin sign U+212A and the long s U+017F, and letters outside
  ASCII their own capitals, so words are cut at those three letters and at any character
  outside ASCII.

Patterns reach this module already checked by ``parser.check_regex``.
"""

from __future__ import annotations

MIN_LENGTH = 3  # shorter words rule out too few cards to pay for their LIKE
MAX_WORDS = 2
_UNSAFE = frozenset("iksIKS")


def required_words(pattern: str) -> tuple[tuple[str, ...], ...]:
    """At most ``MAX_WORDS`` tests, each a tuple of words of which every match of ``pattern``
    contains one: a lone word outside any group, or one word per branch of a group of plain
    alternatives such as ``(collect|pay)``. Lone words first, the longest first."""
    runs, choices = _literal_runs(pattern)
    words = [w for run in runs for w in _safe_pieces(run) if len(w) >= MIN_LENGTH]
    tests: list[tuple[str, ...]] = [(w,) for w in sorted(words, key=len, reverse=True)]
    for branches in choices:
        longest = [max(_safe_pieces(b), key=len) for b in branches]
        if all(len(w) >= MIN_LENGTH for w in longest):
            tests.append(tuple(longest))
    return tuple(tests[:MAX_WORDS])


def _safe_pieces(run: str) -> list[str]:
    pieces, current = [], ""
    for ch in run:
        if ch in _UNSAFE or not (" " <= ch <= "~"):
            pieces.append(current)
            current = ""
        else:
            current += ch
    pieces.append(current)
    return pieces


def _literal_runs(p: str) -> tuple[list[str], list[list[str]]]:
    """The runs of plain characters outside groups, and the groups of plain alternatives."""
    runs: list[str] = []
    run: list[str] = []
    choices: list[list[str]] = []

    def end_run() -> None:
        if run:
            runs.append("".join(run))
            run.clear()

    i = 0
    while i < len(p):
        ch = p[i]
        if ch == "\\":
            escaped = p[i + 1: i + 2]
            if escaped.isalnum() or not escaped:  # \d \w \s \n \A \Z ...: not a literal
                end_run()
            else:
                run.append(escaped)
            i += 2
        elif ch == "[":
            end_run()
            i = _after_class(p, i)
        elif ch == "(":
            end_run()
            end = _after_group(p, i)
            if p[end: end + 1] not in ("?", "*", "+", "{"):
                branches = _plain_branches(p[i + 1: end - 1].removeprefix("?:"))
                if branches:
                    choices.append(branches)
            i = end
        elif ch == "|":
            return [], []  # a top-level alternative: no word is required
        elif ch in "*+?{":
            if run:
                run.pop()  # the repeated character may be absent or repeated
            end_run()
            i = p.index("}", i) + 1 if ch == "{" else i + 1
            if p[i: i + 1] == "?":
                i += 1  # lazy
        elif ch in ".^$":
            end_run()
            i += 1
        else:
            run.append(ch)
            i += 1
    end_run()
    return runs, choices


def _plain_branches(inside: str) -> list[str] | None:
    """The branches of a group that holds only plain characters and ``|``, else None."""
    if any(c in inside for c in "\\[](){}.*+?^$"):
        return None
    return inside.split("|")


def _after_class(p: str, i: int) -> int:
    j = i + 1
    if p[j: j + 1] == "^":
        j += 1
    if p[j: j + 1] == "]":
        j += 1
    while j < len(p) and p[j] != "]":
        j += 2 if p[j] == "\\" else 1
    return j + 1


def _after_group(p: str, i: int) -> int:
    depth, j = 0, i
    while j < len(p):
        ch = p[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "[":
            j = _after_class(p, j)
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return j
