"""Facts about a card that follow from the rulebook's card anatomy.

Pure Python: the Django models, the image renderer and the engine all ask these functions,
so a rule such as "a citizen has offense and defense 0" is written once. ``None`` always
means *unknown* (not yet transcribed), never zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

CARD_TYPES: Final = ("structure", "personality", "item", "invocation", "event", "wanderer")
SUBTYPES: Final[Mapping[str, tuple[str, ...]]] = {
    "structure": ("general", "wall", "stronghold"),
    "personality": ("citizen", "troop"),
    "invocation": ("general", "kalim"),
    "event": ("general", "battle", "interrupt"),
    "item": ("weapon", "armor", "shield", "other"),
    "wanderer": (),
}
FACTIONS: Final[Mapping[str, str]] = {
    "kalim": "The Glory of Kalim",
    "mosfin": "House Mosfin",
    "guild": "The Veteran's Guild",
}
RARITIES: Final[Mapping[str, str]] = {
    "common": "Common",
    "common_starter": "Common Starter",
    "uncommon": "Uncommon",
    "rare": "Rare",
    "promo": "Promo",
}

Border = Literal["stone", "metallic", "wood"]
Pile = Literal["structures", "personalities", "wanderers"]

_BORDERS: Final[Mapping[str, Border]] = {
    "structure": "stone",
    "personality": "metallic",
    "item": "metallic",
    "invocation": "metallic",
    "event": "metallic",
    "wanderer": "wood",
}
_PILES: Final[Mapping[str, Pile]] = {
    "structure": "structures",
    "personality": "personalities",
    "item": "personalities",
    "invocation": "personalities",
    "event": "personalities",
    "wanderer": "wanderers",
}


@dataclass(frozen=True)
class AnatomyField:
    """One numbered field of the rulebook's "Card Anatomy" chart, mapped to data keys."""

    number: int
    label: str
    keys: tuple[str, ...]
    # Card types on which the field is printed; an empty tuple means every type.
    types: tuple[str, ...] = ()
    # Restricts a structure field to some subtypes (vitality is only on strongholds).
    structure_subtypes: tuple[str, ...] = ()

    def applies_to(self, card_type: str | None, subtype: str | None) -> bool:
        if card_type is None or not self.types:
            return True
        if card_type not in self.types:
            return False
        if card_type == "structure" and self.structure_subtypes and subtype is not None:
            return subtype in self.structure_subtypes
        return True


_COSTED = ("personality", "item", "invocation", "event")
_FIGHTERS = ("structure", "personality", "wanderer", "item")

ANATOMY: Final[tuple[AnatomyField, ...]] = (
    AnatomyField(1, "Card name", ("name",)),
    AnatomyField(2, "Abilities", ("abilities",)),
    AnatomyField(3, "Quotation", ("quotation",)),
    AnatomyField(4, "Race and gender", ("race", "gender"), ("personality", "wanderer")),
    AnatomyField(5, "Profession", ("profession",), ("personality",)),
    AnatomyField(6, "Offense", ("offense",), _FIGHTERS, ("wall", "stronghold")),
    AnatomyField(7, "Defense", ("defense",), _FIGHTERS, ("wall", "stronghold")),
    AnatomyField(8, "Faction", ("faction",), ("personality",)),
    AnatomyField(9, "Economic cost", ("cost_economic",), _COSTED),
    AnatomyField(10, "Religious cost", ("cost_religious",), _COSTED),
    AnatomyField(11, "Political cost", ("cost_political",), _COSTED),
    AnatomyField(12, "Faction influence", ("faction_influence",), ("personality",)),
    AnatomyField(
        13, "Vitality", ("vitality",), ("personality", "wanderer", "structure"), ("stronghold",)
    ),
    AnatomyField(
        14, "Economic/military strength", ("strength_economic",), ("personality", "event")
    ),
    AnatomyField(15, "Religious strength", ("strength_religious",), ("personality", "invocation")),
    AnatomyField(16, "Political strength", ("strength_political",), ("personality",)),
    AnatomyField(17, "Unique", ("unique",)),
    AnatomyField(18, "Aggression", ("aggression",), ("wanderer",)),
    AnatomyField(19, "Residencies / blocking", ("residencies",), ("structure",)),
    AnatomyField(20, "Generic cost", ("cost_generic",), ("structure",)),
    AnatomyField(21, "Bounty", ("bounty",), ("wanderer",)),
)

# The card facts that are not anatomy fields but are still "not yet transcribed" when null.
_CATALOGUE_KEYS: Final = ("type", "rarity")


def border(card_type: str | None) -> Border | None:
    """Stone for structures, metallic for personalities/items/invocations/events, wood for
    wanderers (rulebook, "Card Types")."""
    return _BORDERS.get(card_type) if card_type else None


def pile(card_type: str | None) -> Pile | None:
    """The draw pile a card of this type belongs to (rulebook, "Game Layout")."""
    return _PILES.get(card_type) if card_type else None


def personality_kind(
    subtype: str | None, offense: int | None, defense: int | None
) -> Literal["citizen", "troop"] | None:
    """Citizen or troop: the printed subtype, else the rulebook's identification rule
    (citizens have offense and defense 0; troops have both greater than 0)."""
    if subtype in ("citizen", "troop"):
        return subtype  # type: ignore[return-value]
    if offense is None or defense is None:
        return None
    if offense == 0 and defense == 0:
        return "citizen"
    if offense > 0 and defense > 0:
        return "troop"
    return None


def total_cost(card: Mapping[str, object]) -> int | None:
    """Tokens needed to play the card: the three typed costs plus the generic cost.

    Only the costs printed on the card's type count; if any of them is unknown the total is
    unknown too.
    """
    keys = _cost_keys(_str_or_none(card.get("type")))
    values = [card.get(k) for k in keys]
    if any(not isinstance(v, int) for v in values):
        return None
    return sum(v for v in values if isinstance(v, int))


def _cost_keys(card_type: str | None) -> tuple[str, ...]:
    if card_type == "structure":
        return ("cost_generic",)
    if card_type in _COSTED:
        return ("cost_economic", "cost_religious", "cost_political")
    if card_type == "wanderer":
        return ()
    return ("cost_economic", "cost_religious", "cost_political", "cost_generic")


def applicable_keys(card_type: str | None, subtype: str | None) -> tuple[str, ...]:
    """Data keys of every anatomy field printed on a card of this type."""
    return tuple(
        key for f in ANATOMY if f.applies_to(card_type, subtype) for key in f.keys
    )


def unknown_fields(card: Mapping[str, object]) -> list[str]:
    """Keys that apply to this card but are null: the card's "not yet transcribed" list."""
    card_type = _str_or_none(card.get("type"))
    subtype = _str_or_none(card.get("subtype"))
    keys = _CATALOGUE_KEYS + applicable_keys(card_type, subtype)
    # A structure or personality may legitimately have no faction; only personalities need one.
    return [k for k in keys if card.get(k) is None]


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None
