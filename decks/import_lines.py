"""The import page's lines in error and the edits of its text their buttons make
("replace with", "apply all", "drop this line"): pure text operations."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from decks.formats.text import LineError


@dataclass(frozen=True)
class LineErrorView:
    line: int
    text: str
    message: str
    code: str
    replacements: tuple[tuple[str, str], ...]  # (suggested name, the line it would become)


_LEADING_COUNT: Final = re.compile("^\\s*(\\d+)\\s*[xX\u00d7]?\\s+")


_TRAILING_COUNT: Final = re.compile("\\s+[xX\u00d7]\\s*(\\d+)\\s*$")


def replace_line(text: str, number: int, name: str) -> str:
    """``text`` with line ``number`` (from 1, as the importer counts) naming ``name`` instead,
    keeping the line's count."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not 1 <= number <= len(lines):
        return text
    lines[number - 1] = _replacement(lines[number - 1], name)
    return "\n".join(lines)


def drop_line(text: str, number: str) -> str:
    """``text`` with line ``number`` made a comment ("// dropped: ..."): out of the deck, still
    in view, and every other line keeps its number (the buttons on the page name them)."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not number.isdigit() or not 1 <= int(number) <= len(lines):
        return text
    lines[int(number) - 1] = f"// dropped: {lines[int(number) - 1].strip()}"
    return "\n".join(lines)


def apply_all_suggestions(text: str, choices: Iterable[str]) -> str:
    """``text`` with every line's first suggestion applied (``"<line>|<name>"`` each)."""
    for choice in choices:
        text = apply_suggestion(text, choice)
    return text


def apply_suggestion(text: str, choice: str) -> str:
    """``text`` with a suggestion button's choice, ``"<line>|<name>"``, applied."""
    line, _, name = choice.partition("|")
    if not line.isdigit() or not name:
        return text
    return replace_line(text, int(line), name)


def _replacement(line: str, name: str) -> str:
    count = _LEADING_COUNT.match(line) or _TRAILING_COUNT.search(line)
    return f"{count.group(1)} {name}" if count else name


def line_error_view(error: LineError) -> LineErrorView:
    return LineErrorView(
        line=error.line, text=error.text, message=error.message, code=error.code,
        replacements=tuple((s, _replacement(error.text, s)) for s in error.suggestions),
    )
