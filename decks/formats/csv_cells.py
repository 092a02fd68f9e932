"""CSV cells that a spreadsheet would not read as a formula (CSV injection).

A cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a formula
to Excel, LibreOffice and Google Sheets (``=HYPERLINK(...)`` in a deck name runs when the
file is opened). Every CSV this site writes passes its cells through :func:`cell_out`, which
puts a ``'`` before such a cell (the spreadsheets' own sign for "text"), and every CSV it
reads passes them through :func:`cell_in`, which takes it off again. Cells that already begin
with quotes before such a character get one more, so any text makes the round trip exactly,
and a hand-written ``'Tis`` is left alone.
"""

from __future__ import annotations

import re

TRIGGERS = "=+-@\t\r"
_NEEDS_QUOTE = re.compile(r"'*[=+\-@\t\r]")
_QUOTED = re.compile(r"'+[=+\-@\t\r]")


def cell_out(value: object) -> str:
    """The cell as written: text a spreadsheet reads as text."""
    text = str(value)
    return f"'{text}" if _NEEDS_QUOTE.match(text) else text


def cell_in(text: str) -> str:
    """The cell as read: what :func:`cell_out` was given."""
    return text[1:] if _QUOTED.match(text) else text
