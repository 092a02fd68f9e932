"""The card search language (docs/design.md §9).

Pure modules: ``fields`` (the key registry and help data), ``parser`` (text -> AST, or a
SearchError), ``explain`` (AST -> English) and ``suggest`` (did-you-mean). The one Django-aware
module, ``compile`` (AST -> ``Q`` and ordering), is imported explicitly as
``cards.search.compile`` so that importing this package never needs Django.
"""

from cards.search.explain import explain
from cards.search.fields import FIELDS, help_markdown, help_sections
from cards.search.parser import (
    And,
    NameTerm,
    Node,
    Not,
    Or,
    ParsedQuery,
    SearchError,
    Term,
    check_regex,
    parse,
)
from cards.search.suggest import closest_names

__all__ = [
    "FIELDS",
    "And",
    "NameTerm",
    "Node",
    "Not",
    "Or",
    "ParsedQuery",
    "SearchError",
    "Term",
    "check_regex",
    "closest_names",
    "explain",
    "help_markdown",
    "help_sections",
    "parse",
]
