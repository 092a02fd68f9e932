"""Test draws and exact odds against the catalogue: the adapter between the database and the
pure dealer (rules.draws), strategies (rules.draw_strategy) and odds (rules.odds).

The ``draw`` and ``odds`` commands and ``POST /api/draws/`` / ``POST /api/odds/`` all build
their JSON here, so the same deck, seed and strategy give the same document everywhere. Search
queries (``--query``, and ``matching "..."`` inside a strategy or a goal) are turned into the
ids of the cards they match with the search language (:func:`cards.card_search.card_search`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from cards.card_search import CardSearch, card_search
from cards.models import Card
from decks.formats.card_refs import CardRef
from decks.formats.text import CatalogueResolver
from decks.services import catalogue_resolver
from decks.validation import catalogue_facts, deck_validate
from rules.decklist import Decklist
from rules.draw_strategy import (
    AllOf,
    AnyOf,
    Condition,
    Count,
    Negation,
    Strategy,
    StrategyError,
    parse_picks,
    parse_strategy,
    split_strategy,
)
from rules.draws import Setup, deal_setup, prepare
from rules.odds import (
    Goal,
    GoalError,
    advise_split,
    card_table,
    goal_odds,
    group_goal,
    group_odds,
    parse_goal,
)

#: The strategy when none is given: three structures, then four personalities.
DEFAULT_STRUCTURES: Final = 3


def query_ids(text: str) -> tuple[CardSearch, frozenset[str]]:
    """The parsed query and the ids of every card it matches; raises ``SearchError``."""
    search = card_search(text)
    ids = frozenset(search.apply(Card.objects.all()).values_list("id", flat=True))
    return search, ids


def resolve_query(text: str) -> frozenset[str]:
    """For ``matching "QUERY"`` in strategies and goals."""
    return query_ids(text)[1]


_HINTS: Final = re.compile(r"(.*?)\s*(?:\(([^()]+)\))?\s*(?:\[([^\[\]]+)\])?\s*")


def parse_deck_goal(text: str) -> Goal:
    """A goal whose ``card "..."`` names a card of the catalogue, read as the importer reads
    a decklist's names (forgivingly, with a ``(faction)`` or ``[id]`` hint): a name that
    matches no card is a GoalError with the closest names, never a silent 0%."""
    goal = parse_goal(text, resolve_query)
    resolve = catalogue_resolver()
    return replace(goal, condition=_named(goal.condition, text, resolve))


def _named(condition: Condition, text: str, resolve: CatalogueResolver) -> Condition:
    match condition:
        case Count(test, op, number) if test.card is not None:
            written = test.label.removeprefix('cards "').removesuffix('"')
            ids = _card_ids(written, text, resolve)
            return Count(replace(test, card=None, ids=ids), op, number)
        case AllOf(parts):
            return AllOf(tuple(_named(part, text, resolve) for part in parts))
        case AnyOf(parts):
            return AnyOf(tuple(_named(part, text, resolve) for part in parts))
        case Negation(part):
            return Negation(_named(part, text, resolve))
    return condition


def _card_ids(written: str, text: str, resolve: CatalogueResolver) -> frozenset[str]:
    hints = _HINTS.fullmatch(written)
    name, faction, card_id = hints.groups() if hints else (written, None, None)
    if not (faction or card_id) and Card.objects.filter(pk=written).exists():
        return frozenset({written})  # an id, as written
    outcome = resolve(name or written, faction, card_id)
    if isinstance(outcome, CardRef):
        return frozenset({outcome.id})
    if outcome.reason == "ambiguous":  # a name several cards share: every one of them
        return frozenset(card.id for card in outcome.candidates)
    names = list(dict.fromkeys(
        f"{c.name} ({c.faction})" if sum(o.name == c.name for o in outcome.candidates) > 1
        and c.faction else c.name for c in outcome.candidates))[:MAX_GOAL_SUGGESTIONS]
    hint = f"; did you mean {_or([f'“{n}”' for n in names])}?" if names else "."
    start = max(text.find(f'"{written}"'), 0) + 1
    raise GoalError(f"no card is named “{written}”{hint}", start, len(written),
                    "the name of a card (as in a decklist) or its id")


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


MAX_GOAL_SUGGESTIONS: Final = 4
_HOLDINGS_ERRORS: Final = frozenset({
    "no_stronghold", "too_many_strongholds", "too_many_zero_cost_structures",
    "unique_structure_in_holdings", "holdings_over_budget", "too_many_walls",
})


def holdings_warnings(deck: Decklist, setup: Setup) -> list[str]:
    """When the odds are dealt from the deck's own Initial Holdings and those break a rule."""
    if setup.holdings_source != "deck":
        return []
    codes = sorted({p.code for p in deck_validate(deck).problems
                    if p.severity == "error" and p.code in _HOLDINGS_ERRORS})
    if not codes:
        return []
    return [f"The deck's Initial Holdings are not legal ({', '.join(codes)}): these odds are "
            "for the piles those holdings leave, which a legal deck would not."]


def deck_setup(deck: Decklist) -> Setup:
    """Holdings, tokens and piles of the deck, with the catalogue's card facts."""
    return prepare(deck, catalogue_facts())


def read_strategy(structures: int | None = None, strategy: str | None = None,
                  picks: str | Sequence[str] | None = None) -> Strategy:
    """The strategy from the options: a split, a rule text, picks (continued by the split or
    the rule, if one is given too), or the default split. Raises ``StrategyError``."""
    if structures is not None and strategy is not None:
        raise StrategyError("give a split or a strategy, not both", 0, 0,
                            "structures=K or a strategy text")
    rule = None
    if strategy is not None:
        rule = parse_strategy(strategy, resolve_query)
    elif structures is not None:
        if not 0 <= structures <= 7:
            raise StrategyError(f"a split draws 0 to 7 structures, not {structures}", 0, 0,
                                "a number from 0 to 7")
        rule = split_strategy(structures)
    if picks is not None:
        return parse_picks(picks, rule)
    return rule or split_strategy(DEFAULT_STRUCTURES)


def deal_document(deck: Decklist, seed: int, strategy: Strategy, table: bool = False
                  ) -> dict[str, Any]:
    """The ``draw`` command's JSON: the deal, and the per-card odds table if asked."""
    setup = deck_setup(deck)
    document: dict[str, Any] = {"deck": deck.name, **deal_setup(setup, seed, strategy).to_dict()}
    if table:
        document["table"] = card_table(setup, strategy).to_dict()
    return document


def odds_document(deck: Decklist, strategy: Strategy, query: str | None = None, at_least: int = 1,
                  goal: str | None = None, advise: bool = False) -> dict[str, Any]:
    """The ``odds`` command's JSON (``{"probability", "exact", ...}``) for a query and a count,
    or for a goal; with ``advise``, the split advisor's table too. Raises ``SearchError``,
    ``GoalError`` or ``ValueError`` (neither a query nor a goal)."""
    setup = deck_setup(deck)
    common = {
        "deck": deck.name,
        "strategy_explained": strategy.describe(),
        "holdings_source": setup.holdings_source,
        "piles": {"structures": len(setup.structures),
                  "personalities": len(setup.personalities)},
    }
    warnings = holdings_warnings(deck, setup)
    if goal is not None:
        parsed = parse_deck_goal(goal)
        document: dict[str, Any] = {**goal_odds(setup, strategy, parsed).to_dict(), **common,
                                    "warnings": warnings}
    elif query is not None:
        search, ids = query_ids(query)
        parsed = group_goal(ids, at_least, f'cards matching "{query}"')
        document = {
            **group_odds(setup, strategy, ids, at_least).to_dict(),
            "query": search.text, "explained": search.matching,
            "warnings": [*search.warnings, *warnings], **common,
        }
    else:
        raise ValueError("give a query (and how many) or a goal")
    if advise:
        document["advice"] = advise_split(setup, parsed).to_dict()
    return document
