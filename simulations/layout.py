"""A goldfish game's table as a person would lay it out, from a saved game state.

Pure Python, no Django. The input is ``GameState.to_dict()`` (rules/game/state.py): card
instances in zones, hosts, exhausted cards, wounds, the token pools. The output groups them as
on a real table: the private holdings (each structure with the citizens living on it and the
troops guarding it), the defensive holdings (troops and the wall), the wanderer row, the hand,
the two token pools and the sizes of the three draw piles. Items and invocations sit on the
personality they are attached to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.game.vocabulary import TOKEN_KINDS


@dataclass(frozen=True)
class TableCard:
    instance: int
    card_id: str
    name: str
    type: str
    exhausted: bool
    wounds: int
    tokens: tuple[int, ...]  # on the card: bribes, hoards (economic, religious, political)
    attached: tuple[TableCard, ...]

    @property
    def token_text(self) -> str:
        return ", ".join(f"{n} {TOKEN_KINDS[k]}" for k, n in enumerate(self.tokens) if n)


@dataclass(frozen=True)
class Holding:
    structure: TableCard
    residents: tuple[TableCard, ...]
    guards: tuple[TableCard, ...]


@dataclass(frozen=True)
class Pool:
    economic: int
    religious: int
    political: int


@dataclass(frozen=True)
class TableLayout:
    round: int
    outcome: str
    private: tuple[Holding, ...]
    defensive: tuple[TableCard, ...]
    wanderers: tuple[TableCard, ...]
    hand: tuple[TableCard, ...]
    personal: Pool
    city: Pool
    piles: Mapping[str, int]  # draw piles: structures, personalities, wanderers
    discards: Mapping[str, int]
    dead: int


def table_layout(state: Mapping[str, Any]) -> TableLayout:
    seat: Mapping[str, Any] = state["seats"][0]  # a goldfish game: a table of one
    zones: Mapping[str, Sequence[int]] = seat["zones"]
    cards: Sequence[str] = state["cards"]
    facts: Mapping[str, Mapping[str, Any]] = state["facts"]
    host = {int(k): int(v) for k, v in state["host"].items()}
    exhausted = set(state["exhausted"])
    wounds = {int(k): int(v) for k, v in state["wounds"].items()}
    on_card = {int(k): tuple(v) for k, v in state["on_card"].items()}

    def on(zone: str, holder: int) -> list[int]:
        return [i for i in zones[zone] if host.get(i) == holder]

    def card(instance: int) -> TableCard:
        card_id = cards[instance]
        fact = facts.get(card_id, {})
        return TableCard(
            instance, card_id, str(fact.get("name") or card_id), str(fact.get("type") or ""),
            instance in exhausted, wounds.get(instance, 0), on_card.get(instance, (0, 0, 0)),
            tuple(card(i) for i in on("attached", instance)),
        )

    private = tuple(
        Holding(card(s), tuple(card(c) for c in on("residents", s)),
                tuple(card(g) for g in on("guards", s)))
        for s in zones["private"]
    )
    return TableLayout(
        round=int(state["round"]),
        outcome=str(state["outcome"]),
        private=private,
        defensive=tuple(card(i) for i in zones["defensive"]),
        wanderers=tuple(card(i) for i in zones["wanderers"]),
        hand=tuple(card(i) for i in zones["hand"]),
        personal=Pool(*seat["personal"]),
        city=Pool(*state["city"]),
        piles={"structures": len(zones["structure_pile"]),
               "personalities": len(zones["personality_pile"]),
               "wanderers": len(zones["wanderer_pile"])},
        discards={"structures": len(zones["structure_discard"]),
                  "personalities": len(zones["personality_discard"]),
                  "wanderers": len(zones["wanderer_discard"])},
        dead=len(zones["dead"]),
    )


@dataclass(frozen=True)
class LogEntry:
    kind: str  # "phase" (a phase begins), "action" (the player's choice) or "event"
    text: str


def log_entries(lines: Sequence[str]) -> list[LogEntry]:
    """The story's lines (rules.game.narrate) without their indentation marks."""
    entries = []
    for line in lines:
        if line.startswith("-- "):
            entries.append(LogEntry("phase", line.removeprefix("-- ")))
        elif line.startswith(" > "):
            entries.append(LogEntry("action", line.removeprefix(" > ")))
        else:
            entries.append(LogEntry("event", line.strip()))
    return entries
