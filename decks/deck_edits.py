"""Edits of a deck as a page asks for them: pure operations on the decklist dataclass
(:class:`rules.decklist.Decklist`), and the :class:`Change` objects a builder form becomes.
Each change returns the edited deck and what was done in a sentence, or raises
:class:`EditRefused`; saving it is :func:`decks.builder_services.deck_edit`'s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol

from decks.formats.json_format import deck_from_dict
from decks.validation import deck_advise_holdings, deck_validate
from rules.cards import CardFacts
from rules.deck_rules import Fix, Problem
from rules.deck_rules import apply_fixes as rules_apply_fixes
from rules.deck_rules import describe_fix as rules_describe_fix
from rules.decklist import SECTION_TITLES, Decklist, SectionName
from rules.holdings import apply_advice as rules_apply_advice

MAX_ENTRY_COUNT: Final = 99  # the text format's largest count on one line


class EditRefused(Exception):
    """An edit that cannot be made to the deck as it is (nothing is saved)."""


def own_pile(card: CardFacts | None) -> SectionName:
    """The pile a card is added to: structures and wanderers to theirs, the rest (and cards
    of unknown type) to the Personality Pile."""
    if card is not None and card.pile is not None:
        return card.pile
    return "personalities"


def move_target(card: CardFacts | None, section: SectionName) -> SectionName | None:
    """Where a card's "move" button sends it: structures between the Initial Holdings and the
    Structure Pile; a misplaced card to the pile of its type; nowhere otherwise."""
    if card is None or card.pile is None:
        return None
    if card.pile == "structures":
        if section == "structures":
            return "holdings"
        return "structures"
    return None if card.pile == section else card.pile


def copies_in(deck: Decklist, card_id: str, section: SectionName) -> int:
    return sum(e.count for e in deck.section(section) if e.card_id == card_id)


def deck_add(deck: Decklist, card_id: str, section: SectionName, count: int = 1) -> Decklist:
    if copies_in(deck, card_id, section) + count > MAX_ENTRY_COUNT:
        raise EditRefused(f"A part of a deck holds at most {MAX_ENTRY_COUNT} copies of a card.")
    return rules_apply_fixes(deck, [Fix("add", card_id, count, section)])


def deck_change_count(deck: Decklist, card_id: str, section: SectionName, delta: int
                      ) -> Decklist:
    """One more (delta > 0) or fewer (delta < 0) copies; the last copy removes the card."""
    have = copies_in(deck, card_id, section)
    if have == 0:
        raise EditRefused(f"The {SECTION_TITLES[section]} has no such card.")
    if delta > 0:
        return deck_add(deck, card_id, section, delta)
    return rules_apply_fixes(deck, [Fix("remove", card_id, min(-delta, have), section)])


def deck_move(deck: Decklist, card_id: str, section: SectionName, to: SectionName,
              count: int = 1) -> Decklist:
    have = copies_in(deck, card_id, section)
    if have == 0:
        raise EditRefused(f"The {SECTION_TITLES[section]} has no such card.")
    if section == to:
        raise EditRefused("The card is already there.")
    return rules_apply_fixes(deck, [Fix("move", card_id, min(count, have), section, to)])


def deck_remove(deck: Decklist, card_id: str, section: SectionName) -> Decklist:
    have = copies_in(deck, card_id, section)
    if have == 0:
        raise EditRefused(f"The {SECTION_TITLES[section]} has no such card.")
    return rules_apply_fixes(deck, [Fix("remove", card_id, have, section)])


def problem_key(problem: Problem) -> str:
    """A problem's identity as one form value (codes, fields and card ids have no "|")."""
    return "|".join(problem.key)


def fix_label(problem: Problem, facts: Mapping[str, CardFacts]) -> str:
    return "Fix: " + "; ".join(rules_describe_fix(f, facts) for f in problem.fixes)


class Change(Protocol):
    def apply(self, deck: Decklist, facts: Mapping[str, CardFacts]) -> tuple[Decklist, str]:
        """The edited deck and what was done, in a sentence; raises EditRefused."""
        ...


@dataclass(frozen=True)
class AddCard:
    card: str
    section: SectionName

    def apply(self, deck: Decklist, facts: Mapping[str, CardFacts]) -> tuple[Decklist, str]:
        edited = deck_add(deck, self.card, self.section)
        return edited, (f"Added 1 {card_name(self.card, facts)} to the "
                        f"{SECTION_TITLES[self.section]}.")


@dataclass(frozen=True)
class ChangeCount:
    card: str
    section: SectionName
    delta: int

    def apply(self, deck: Decklist, facts: Mapping[str, CardFacts]) -> tuple[Decklist, str]:
        edited = deck_change_count(deck, self.card, self.section, self.delta)
        left = copies_in(edited, self.card, self.section)
        verb = "Added" if self.delta > 0 else "Removed"
        return edited, (f"{verb} 1 {card_name(self.card, facts)}: {left} in the "
                        f"{SECTION_TITLES[self.section]}.")


@dataclass(frozen=True)
class MoveCard:
    card: str
    section: SectionName
    to: SectionName
    count: int = 1

    def apply(self, deck: Decklist, facts: Mapping[str, CardFacts]) -> tuple[Decklist, str]:
        moved = min(self.count, copies_in(deck, self.card, self.section))
        edited = deck_move(deck, self.card, self.section, self.to, self.count)
        return edited, (f"Moved {moved} {card_name(self.card, facts)} from the "
                        f"{SECTION_TITLES[self.section]} to the {SECTION_TITLES[self.to]}.")


@dataclass(frozen=True)
class RemoveCard:
    card: str
    section: SectionName

    def apply(self, deck: Decklist, facts: Mapping[str, CardFacts]) -> tuple[Decklist, str]:
        edited = deck_remove(deck, self.card, self.section)
        return edited, (f"Removed {card_name(self.card, facts)} from the "
                        f"{SECTION_TITLES[self.section]}.")


@dataclass(frozen=True)
class FixProblem:
    """Apply a problem's whole fix plan, or (``item``) one card of a plan of adds, accepted
    card by card. The problem is found again on the saved deck (by its key), so the page never
    sends the edits themselves."""

    key: str
    item: int | None = None

    def apply(self, deck: Decklist, facts: Mapping[str, CardFacts]) -> tuple[Decklist, str]:
        found = [p for p in deck_validate(deck).problems if problem_key(p) == self.key]
        if not found:
            raise EditRefused("That problem is already gone.")
        problem = found[0]
        if not problem.fixes:
            raise EditRefused("This problem has no fix that can be applied automatically.")
        if self.item is not None:
            if not one_by_one(problem) or not 0 <= self.item < len(problem.fixes):
                raise EditRefused("That part of the fix is no longer offered.")
            fix = problem.fixes[self.item]
            return rules_apply_fixes(deck, [fix]), f"{rules_describe_fix(fix, facts)}."
        edited = rules_apply_fixes(deck, problem.fixes)
        done = "; ".join(rules_describe_fix(f, facts) for f in problem.fixes)
        return edited, f"Fixed: {done}."


def one_by_one(problem: Problem) -> bool:
    """A plan of several adds (a short pile filled from the deck's own cards) may be accepted
    card by card: each add alone breaks nothing the whole plan would not."""
    return len(problem.fixes) > 1 and all(f.action == "add" for f in problem.fixes)


@dataclass(frozen=True)
class UseAdvisedHoldings:
    def apply(self, deck: Decklist, facts: Mapping[str, CardFacts]) -> tuple[Decklist, str]:
        advice = deck_advise_holdings(deck)
        if not advice.found:
            raise EditRefused("The advisor found no legal Initial Holdings in this deck.")
        try:
            edited = rules_apply_advice(deck, advice)
        except ValueError as error:
            raise EditRefused(str(error)) from error
        return edited, "The Initial Holdings are now the advised ones."


@dataclass(frozen=True)
class EditSettings:
    name: str
    players: int
    description: str
    visibility: str

    def apply(self, deck: Decklist, facts: Mapping[str, CardFacts]) -> tuple[Decklist, str]:
        edited = replace(deck, name=self.name, players=self.players,
                         description=self.description)
        return edited, "Saved the deck's settings."


@dataclass(frozen=True)
class RestoreVersion:
    number: int
    snapshot: Mapping[str, Any]

    def apply(self, deck: Decklist, facts: Mapping[str, CardFacts]) -> tuple[Decklist, str]:
        return deck_from_dict(dict(self.snapshot)), f"Restored version {self.number}."


def card_name(card_id: str, facts: Mapping[str, CardFacts]) -> str:
    card = facts.get(card_id)
    return card.name if card else card_id
