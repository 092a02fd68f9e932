"""A deck's history (each version's changes) and the compare page (two decks or
versions side by side, part by part)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from cards.card_urls import card_url
from decks.deck_display import ValidationView, problem_views
from decks.deck_edits import card_name
from decks.formats.json_format import deck_from_dict
from decks.models import Deck, DeckVersion
from decks.services import deck_data
from decks.validation import catalogue_facts, deck_validate
from rules.decklist import SECTION_TITLES, SECTIONS, Decklist


@dataclass(frozen=True)
class CardChange:
    name: str
    url: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class VersionView:
    version: DeckVersion
    fields: tuple[tuple[str, Any, Any], ...]
    parts: tuple[tuple[str, tuple[CardChange, ...]], ...]  # (part title, changes)
    previous: int | None = None  # the number of the version before (numbers have gaps)


def history_views(versions: Iterable[DeckVersion]) -> list[VersionView]:
    """Newest first (``versions`` in that order)."""
    facts = catalogue_facts()
    views: list[VersionView] = []
    for version in versions:
        if views:
            views[-1] = replace(views[-1], previous=version.number)
        diff = version.diff or {}
        fields = tuple(  # a new deck's fields were set, not changed: its page shows them
            (key, before, after) for key, (before, after) in diff.get("fields", {}).items()
            if before is not None
        )
        by_part: dict[str, list[CardChange]] = {}
        for change in diff.get("cards", []):
            by_part.setdefault(change["section"], []).append(CardChange(
                card_name(change["card"], facts), card_url(change["card"], "page"),
                change["before"], change["after"],
            ))
        parts = tuple(
            (SECTION_TITLES[s], tuple(by_part[s])) for s in SECTIONS if s in by_part
        )
        views.append(VersionView(version, fields, parts))
    return views


@dataclass(frozen=True)
class CompareSide:
    deck: Deck
    number: int | None  # None: the current version
    data: Decklist
    validation: ValidationView

    @property
    def label(self) -> str:
        version = self.number if self.number is not None else self.deck.version
        return f"{self.data.name} (v{version}{'' if self.number else ', current'})"

    @property
    def token(self) -> str:
        return f"{self.deck.pk}:{self.number}" if self.number else str(self.deck.pk)


@dataclass(frozen=True)
class CompareRow:
    name: str
    url: str
    a: int
    b: int

    @property
    def state(self) -> str:
        if self.a == self.b:
            return "same"
        if not self.a:
            return "only-b"
        return "only-a" if not self.b else "changed"

    @property
    def delta(self) -> int:
        return self.b - self.a


def parse_side(value: str) -> tuple[int, int | None]:
    """``"12"`` or ``"12:3"`` (deck 12, version 3); raises ValueError."""
    deck, _, version = value.strip().partition(":")
    return int(deck), int(version) if version else None


def compare_side(deck: Deck, number: int | None) -> CompareSide:
    """A deck at one version (None: current); raises DeckVersion.DoesNotExist."""
    if number is None or number == deck.version:
        data = deck_data(deck)
        number = None
    else:
        data = deck_from_dict(deck.versions.get(number=number).snapshot)
    validation = deck_validate(data)
    facts = catalogue_facts()
    return CompareSide(deck, number, data,
                       ValidationView(validation, problem_views(data, validation, facts)))


@dataclass(frozen=True)
class ComparePart:
    title: str
    rows: tuple[CompareRow, ...]  # the rows shown
    differences: int  # rows whose counts differ, shown or not


def compare_parts(a: Decklist, b: Decklist, only_differences: bool = False
                  ) -> list[ComparePart]:
    """Per part, every card of either deck (A's order, then B's new cards) with both counts."""
    facts = catalogue_facts()
    parts = []
    for section in SECTIONS:
        counts_a = {e.card_id: e.count for e in a.section(section)}
        counts_b = {e.card_id: e.count for e in b.section(section)}
        ids = [*counts_a, *(cid for cid in counts_b if cid not in counts_a)]
        rows = [
            CompareRow(card_name(cid, facts), card_url(cid, "page"), counts_a.get(cid, 0),
                       counts_b.get(cid, 0))
            for cid in ids
        ]
        differing = [row for row in rows if row.state != "same"]
        parts.append(ComparePart(SECTION_TITLES[section],
                                 tuple(differing if only_differences else rows),
                                 len(differing)))
    return parts


def version_data(version: DeckVersion) -> Decklist:
    return deck_from_dict(version.snapshot)
