"""The API's request parsers: DRF's, with a body nested too deeply refused as bad input.

Python's JSON decoder recurses once per level: 100,000 ``[`` exhaust the interpreter's
recursion limit, a RecursionError that DRF does not catch (a 500). Here it is a 400 problem
like any other body that is not JSON.
"""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply.") from None
