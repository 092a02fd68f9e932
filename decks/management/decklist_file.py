"""What every decklist command shares: reading FILE and reporting input it cannot use."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

from django.core.management.base import BaseCommand
from django.db import DatabaseError

from decks.deck_input import DeckInputError, deck_from_text
from rules.decklist import Decklist


def read_deck(command: BaseCommand, file: str) -> Decklist:
    """The decklist FILE ('-' = stdin) in any supported format, or exit 1 with the problems."""
    try:
        raw = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        command.stderr.write(f"{file}: cannot read: {exc}")
        sys.exit(1)
    try:
        return deck_from_text(raw)
    except DeckInputError as error:
        command.stderr.write(f"{file}: {error.detail}")
        for problem in error.errors():
            where = f"line {problem['line']}: " if "line" in problem else ""
            close = problem.get("suggestions")
            hint = f" (did you mean: {', '.join(close)})" if close else ""
            command.stderr.write(f"  {where}{problem['message']}{hint}")
        sys.exit(1)
    except DatabaseError as error:
        # The names are read against the catalogue's tables: on a fresh clone they exist only
        # after `make data` (or `make run`), and a traceback would not say so.
        command.stderr.write(f"{file}: the card catalogue cannot be read ({error}); set it up "
                             "first with `make data` (migrate, import both catalogues)")
        sys.exit(1)


def spec_failure(command: BaseCommand, label: str, text: str, error: Any) -> NoReturn:
    """A strategy, goal or query that cannot be read: the text, a caret, the message; exit 1."""
    pointer = " " * error.position + "^" * max(1, error.length)
    expected = f" Expected {error.expected}." if error.expected else ""
    hint = (f" Did you mean: {', '.join(error.suggestions)}?"
            if getattr(error, "suggestions", None) else "")
    message = error.message if error.message.endswith((".", "?", "!")) else f"{error.message}."
    command.stderr.write(f"bad {label}:\n  {text}\n  {pointer}\n{message}{expected}{hint}")
    sys.exit(1)
