"""Deck validation against the catalogue: the adapter between the database and the pure
validator (rules.deck_rules) and holdings advisor (rules.holdings)."""

from __future__ import annotations

from typing import Any

from cards.models import Card
from cards.revision_cache import PerRevision
from rules.cards import CardFacts, facts_by_id
from rules.deck_rules import Validation, validate_deck
from rules.decklist import Decklist
from rules.holdings import HoldingsAdvice, advise_holdings, deck_structures

_FIELDS = (
    "id", "name", "type", "subtype", "faction", "unique", "offense", "defense",
    "cost_economic", "cost_religious", "cost_political", "cost_generic", "faction_influence",
    "vitality", "strength_economic", "strength_religious", "strength_political", "aggression",
    "residencies", "bounty", "abilities",
)
def _read_facts() -> dict[str, CardFacts]:
    rows: list[dict[str, Any]] = list(Card.objects.values(*_FIELDS))
    return facts_by_id(rows)


_facts = PerRevision(_read_facts)


def catalogue_facts() -> dict[str, CardFacts]:
    """Every card as rule facts, read once per catalogue revision and kept in memory."""
    return _facts.get()


def deck_validate(deck: Decklist, players: int | None = None) -> Validation:
    """Every problem of the deck at once; fixes may add cards from the whole catalogue."""
    facts = catalogue_facts()
    return validate_deck(deck, facts, players=players, catalogue=facts)


def deck_advise_holdings(deck: Decklist) -> HoldingsAdvice:
    return advise_holdings(deck_structures(deck), catalogue_facts())
