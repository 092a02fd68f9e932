"""A parsed query in plain English (docs/design.md §9): "every response includes the query
explained".

Pure Python, no Django. The style is one sentence, always of the form "cards where CONDITION,
sorted by KEY[, direction]" ("all cards, sorted by name" for an empty query). Each term is a
clause about the card ("the offense is at least 2", "the card is a troop"); terms joined by
and/or read as such, and an and-group inside an or (or the reverse) is parenthesised. A negated
term reads as its own negative clause ("the faction is not House Mosfin"); a negated group
reads "not (...)". Regular expressions read "matches the pattern /.../". How unknown
(untranscribed) values behave is the help page's business, not the explanation's.
"""

from __future__ import annotations

from typing import Final

from cards.search import fields as registry
from cards.search.fields import PERSONALITY_KINDS, SORTS
from cards.search.parser import And, NameTerm, Node, Not, Or, ParsedQuery, Term
from rules.card_anatomy import CARD_TYPES

_COMPARISONS: Final = {
    ":": "is", "=": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
    ">": "is greater than", ">=": "is at least",
}

_IS_PHRASES: Final = {
    "unique": ("the card is unique", "the card is not unique"),
    "citizen": ("the card is a citizen", "the card is not a citizen"),
    "troop": ("the card is a troop", "the card is not a troop"),
    "exhausting": ("the card has an exhausting ability", "the card has no exhausting ability"),
    "reaction": ("the card has a reaction ability", "the card has no reaction ability"),
    "official": ("the card is official", "the card is not official"),
    "demo": ("the card is a demo card", "the card is not a demo card"),
    "unknown": ("the card has untranscribed fields", "the card has no untranscribed fields"),
    "complete": ("the card is fully transcribed", "the card is not fully transcribed"),
}


def explain(parsed: ParsedQuery) -> str:
    """The whole query, its sort included, as one English phrase."""
    sort = _sort(parsed.order)
    if parsed.root is None:
        return f"all cards, {sort}"
    return f"cards where {_node(parsed.root, None)}, {sort}"


def explain_matching(parsed: ParsedQuery) -> str:
    """Which cards the query matches, as one English phrase, without its sort: what the odds
    of drawing them say (the order of a search's results means nothing there)."""
    return "all cards" if parsed.root is None else f"cards where {_node(parsed.root, None)}"


def _sort(order: tuple[tuple[str, str], ...]) -> str:
    phrases = []
    for key, direction in order:
        spec = SORTS[key]
        phrases.append(f"sorted by {spec.label}{spec.desc if direction == 'desc' else spec.asc}")
    return "; ".join(phrases) or "sorted by name"


def _node(node: Node, parent: type[And] | type[Or] | None) -> str:
    if isinstance(node, Term | NameTerm):
        return _clause(node, negated=False)
    if isinstance(node, Not):
        child = node.child
        if isinstance(child, Term | NameTerm):
            return _clause(child, negated=True)
        return f"not ({_node(child, None)})"
    joiner = " and " if isinstance(node, And) else " or "
    text = joiner.join(_node(child, type(node)) for child in node.children)
    return f"({text})" if parent is not None and parent is not type(node) else text


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _pattern(text: str) -> str:
    return "/" + text.replace("/", "\\/") + "/"


def _clause(term: Term | NameTerm, negated: bool) -> str:
    if isinstance(term, NameTerm):
        if term.exact:
            verb = "is not exactly" if negated else "is exactly"
        else:
            verb = "does not contain" if negated else "contains"
        return f"the name {verb} {_quoted(term.text)}"
    if negated and term.op == "!=":
        return f"not ({_clause(term, False)})"
    f = registry.field(term.key)
    if f.kind == "text":
        return _text(term, f.label, negated)
    if f.kind in ("number", "personal"):
        value = f"the {registry.field(term.value).label}" if term.value_is_key else term.value
        comparison = _COMPARISONS[term.op]
        if negated:
            comparison = "is not" if term.op in (":", "=") else "is not" + comparison[2:]
        return f"the {f.label} {comparison} {value}"
    negative = negated or term.op == "!="
    if f.kind == "flag":
        return _flag(term, negative)
    if f.kind == "keyword":
        ability = next(v.label for v in f.values if v.value == term.value)
        verb = "does not have" if negative else "has"
        return f"the card {verb} the ability {ability}"
    if f.kind == "set":
        return f"the set is {'not ' if negative else ''}{term.value}"
    return _enum(term, negative)


def _text(term: Term, label: str, negated: bool) -> str:
    if term.is_regex:
        verb = "does not match" if negated else "matches"
        whole = "whole " if term.op == "=" else ""
        return f"the {whole}{label} {verb} the pattern {_pattern(term.value)}"
    if term.op == ":":
        verb = "does not contain" if negated else "contains"
        return f"the {label} {verb} {_quoted(term.value)}"
    negative = negated != (term.op == "!=")
    if term.value == "":
        return f"the {label} is {'not ' if negative else ''}empty"
    return f"the {label} is {'not ' if negative else ''}{_quoted(term.value)}"


def _flag(term: Term, negative: bool) -> str:
    if term.key == "is":
        return _IS_PHRASES[term.value][negative]
    if term.value == "image":
        return "the card has no scan" if negative else "the card has a scan"
    label = registry.field(term.value).label
    return f"the {label} is {'not yet ' if negative else ''}transcribed"


def _enum(term: Term, negative: bool) -> str:
    f = registry.field(term.key)
    value = term.value
    neg = "not " if negative else ""
    if term.key == "type" and value in PERSONALITY_KINDS:
        return f"the card is {neg}a {value}"
    if term.key == "type":
        what = "type" if value in CARD_TYPES else "subtype"
        return f"the {what} is {neg}{value}"
    if term.key == "faction" and value == "none":
        return "the card has a faction" if negative else "the card has no faction"
    label = next(v.label for v in f.values if v.value == value)
    if term.key == "rarity":
        label = label.lower()
    return f"the {f.label} is {neg}{label}"
