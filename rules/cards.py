"""The facts about a card that the deck rules need, as one small frozen dataclass.

Pure Python, no Django. :meth:`CardFacts.from_data` reads a card data dict with the keys of
docs/design.md §4 (as in ``fixtures/cards/*.json`` or an export); keys the rules do not need are
ignored, missing keys are null. ``None`` always means *unknown* (not yet transcribed), never
zero or "none", exactly as in the data.

A few derived facts are worked out once, when the card is made, because the validator asks
them for every card of every deck:

* :attr:`CardFacts.structure_kind`: ``general``, ``wall`` or ``stronghold`` for a structure.
  The printed subtype decides; a structure without a subtype but *with* a vitality is a
  stronghold (rulebook, "Strongholds": "Strongholds are the only structure with a vitality");
  otherwise the kind is unknown.
* :attr:`CardFacts.personality_kind`: ``citizen`` or ``troop`` (see
  :func:`rules.card_anatomy.personality_kind`).
* :attr:`CardFacts.pile`: the draw pile of the card's type (:func:`rules.card_anatomy.pile`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from rules import card_anatomy

type StructureKind = Literal["general", "wall", "stronghold"]
type PersonalityKind = Literal["citizen", "troop"]

_STRUCTURE_KINDS: dict[str | None, StructureKind] = {
    "general": "general",
    "wall": "wall",
    "stronghold": "stronghold",
}


@dataclass(frozen=True, slots=True)
class CardFacts:
    id: str
    name: str
    type: str | None = None
    subtype: str | None = None
    faction: str | None = None
    unique: bool | None = None
    offense: int | None = None
    defense: int | None = None
    cost_economic: int | None = None
    cost_religious: int | None = None
    cost_political: int | None = None
    cost_generic: int | None = None
    faction_influence: int | None = None
    vitality: int | None = None
    strength_economic: int | None = None
    strength_religious: int | None = None
    strength_political: int | None = None
    aggression: int | None = None
    residencies: int | None = None
    bounty: int | None = None
    abilities: str | None = None
    # Derived once in __post_init__ (see the module docstring).
    structure_kind: StructureKind | None = field(init=False, compare=False, repr=False)
    personality_kind: PersonalityKind | None = field(init=False, compare=False, repr=False)
    pile: card_anatomy.Pile | None = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        kind: StructureKind | None = None
        if self.type == "structure":
            kind = _STRUCTURE_KINDS.get(self.subtype)
            if kind is None and self.subtype is None and self.vitality is not None:
                kind = "stronghold"
        person: PersonalityKind | None = None
        if self.type == "personality":
            person = card_anatomy.personality_kind(self.subtype, self.offense, self.defense)
        object.__setattr__(self, "structure_kind", kind)
        object.__setattr__(self, "personality_kind", person)
        object.__setattr__(self, "pile", card_anatomy.pile(self.type))

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> CardFacts:
        """The facts of one card data dict (docs/design.md §4 keys; others ignored, missing =
        null)."""
        return cls(
            id=_text(data, "id") or "",
            name=_text(data, "name") or "",
            type=_text(data, "type"),
            subtype=_text(data, "subtype"),
            faction=_text(data, "faction"),
            unique=_flag(data, "unique"),
            offense=_number(data, "offense"),
            defense=_number(data, "defense"),
            cost_economic=_number(data, "cost_economic"),
            cost_religious=_number(data, "cost_religious"),
            cost_political=_number(data, "cost_political"),
            cost_generic=_number(data, "cost_generic"),
            faction_influence=_number(data, "faction_influence"),
            vitality=_number(data, "vitality"),
            strength_economic=_number(data, "strength_economic"),
            strength_religious=_number(data, "strength_religious"),
            strength_political=_number(data, "strength_political"),
            aggression=_number(data, "aggression"),
            residencies=_number(data, "residencies"),
            bounty=_number(data, "bounty"),
            abilities=_text(data, "abilities"),
        )

    @property
    def is_stronghold(self) -> bool:
        """Known to be a stronghold (False when it is not, or when its kind is unknown)."""
        return self.structure_kind == "stronghold"

    @property
    def is_wall(self) -> bool:
        """Known to be a wall (False when it is not, or when its kind is unknown)."""
        return self.structure_kind == "wall"


def facts_by_id(cards: Iterable[Mapping[str, object]]) -> dict[str, CardFacts]:
    """``{id: CardFacts}`` for card data dicts, e.g. the ``cards`` list of a catalogue file."""
    facts = (CardFacts.from_data(card) for card in cards)
    return {card.id: card for card in facts}


def _text(data: Mapping[str, object], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _number(data: Mapping[str, object], key: str) -> int | None:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _flag(data: Mapping[str, object], key: str) -> bool | None:
    value = data.get(key)
    return value if isinstance(value, bool) else None
