"""The difference between two decks (or two versions of one): pure, for history and compare."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.decklist import SECTIONS, Decklist


@dataclass(frozen=True)
class CountChange:
    section: str
    card_id: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class DeckDiff:
    fields: dict[str, tuple[Any, Any]]  # name, players, description: (before, after)
    cards: tuple[CountChange, ...]

    @property
    def empty(self) -> bool:
        return not self.fields and not self.cards

    def to_dict(self) -> dict[str, Any]:
        return {
            "fields": {k: list(v) for k, v in self.fields.items()},
            "cards": [
                {"section": c.section, "card": c.card_id, "before": c.before, "after": c.after}
                for c in self.cards
            ],
        }

    def summary(self) -> str:
        """What changed, in words; a new deck's first version (its fields were nothing before)
        is "new deck" and the cards it was built with: its name and players are set, not
        changed."""
        new = any(before is None for before, _ in self.fields.values())
        parts = ["new deck"] if new else [f"{key} changed" for key in self.fields]
        added = sum(c.delta for c in self.cards if c.delta > 0)
        removed = -sum(c.delta for c in self.cards if c.delta < 0)
        if added:
            parts.append(f"{added} card{'s' if added != 1 else ''} added")
        if removed:
            parts.append(f"{removed} card{'s' if removed != 1 else ''} removed")
        return ", ".join(parts) or "no changes"


def deck_diff(before: Decklist | None, after: Decklist) -> DeckDiff:
    fields = {
        key: (getattr(before, key) if before else None, getattr(after, key))
        for key in ("name", "players", "description")
        if before is None or getattr(before, key) != getattr(after, key)
    }
    changes: list[CountChange] = []
    for section in SECTIONS:
        old = {e.card_id: e.count for e in before.section(section)} if before else {}
        new = {e.card_id: e.count for e in after.section(section)}
        for card_id in [*old, *(c for c in new if c not in old)]:
            if old.get(card_id, 0) != new.get(card_id, 0):
                changes.append(CountChange(section, card_id, old.get(card_id, 0),
                                           new.get(card_id, 0)))
    return DeckDiff(fields=fields, cards=tuple(changes))
