"""Test draws and exact odds against the catalogue: the adapter between the database and the
pure dealer (rules.draws), strategies (rules.strategy) and odds (rules.odds).

The ``draw`` and ``odds`` commands and ``POST /api/draws/`` / ``POST /api/odds/`` all build
their JSON here, so the same deck, seed and strategy give the same document everywhere. Search
queries (``--query``, and ``matching "..."`` inside a strategy or a goal) are turned into the
ids of the cards they match with the search language (:func:`cards.card_search.card_search`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cards.card_search import CardSearch, card_search
from cards.models import Card
from decks.validation import catalogue_facts
from rules.decklist import Deck
from rules.draws import Setup, deal_setup, prepare
from rules.odds import (
    advise_split,
    card_table,
    goal_odds,
    group_goal,
    group_odds,
    parse_goal,
)
from rules.strategy import (
    Strategy,
    StrategyError,
    parse_picks,
    parse_strategy,
    split_strategy,
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


def deck_setup(deck: Deck) -> Setup:
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


def deal_document(deck: Deck, seed: int, strategy: Strategy, table: bool = False
                  ) -> dict[str, Any]:
    """The ``draw`` command's JSON: the deal, and the per-card odds table if asked."""
    setup = deck_setup(deck)
    document: dict[str, Any] = {"deck": deck.name, **deal_setup(setup, seed, strategy).to_dict()}
    if table:
        document["table"] = card_table(setup, strategy).to_dict()
    return document


def odds_document(deck: Deck, strategy: Strategy, query: str | None = None, at_least: int = 1,
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
    if goal is not None:
        parsed = parse_goal(goal, resolve_query)
        document: dict[str, Any] = {**goal_odds(setup, strategy, parsed).to_dict(), **common}
    elif query is not None:
        search, ids = query_ids(query)
        parsed = group_goal(ids, at_least, f'cards matching "{query}"')
        document = {
            **group_odds(setup, strategy, ids, at_least).to_dict(),
            "query": search.text, "explained": search.explained,
            "warnings": list(search.warnings), **common,
        }
    else:
        raise ValueError("give a query (and how many) or a goal")
    if advise:
        document["advice"] = advise_split(setup, parsed).to_dict()
    return document
