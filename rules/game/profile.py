"""What the engine needs to know about a card, read once per deck: its numbers and its abilities.

Pure Python. A :class:`Profile` is built from :class:`rules.cards.CardFacts`: the printed
numbers (unknown numbers refuse the card, see :func:`unknown_numbers`), the common abilities as
flags, and the custom ability texts the engine understands as :class:`Effect` values (the
patterns are in :mod:`rules.game.effects`). Text the engine does not understand is kept in
:attr:`Profile.unmodelled` so reports can say which cards played without their text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from rules.abilities import parse_abilities
from rules.card_anatomy import applicable_keys
from rules.cards import CardFacts
from rules.game.effects import Effect, read_effect

PRIMARY: Final = {"kalim": 1, "mosfin": 2, "guild": 0}  # faction -> index of its primary token kind

# Common abilities that matter in solo play, as the flag names the engine reads.
COMBAT_KEYWORDS: Final = frozenset({
    "armor", "berserk", "bribery", "charge", "climb", "defender", "endurance", "fear", "fervor",
    "fierce", "fleetfoot", "flight", "follower", "giant-size", "hoarding", "pray", "ranged", "raze",
})
INCOME_ABILITIES: Final = {"campaign": (2, "strength_political"),
                           "worship": (1, "strength_religious"),
                           "oppress": (0, "strength_religious")}
# Common abilities that only act on another player (or only against the user) in solo play.
NO_SOLO_EFFECT: Final = frozenset({
    "crusade", "debate", "discredit", "extort", "influence", "persuade", "protection", "retain",
    "sap", "support", "tithe",
})
_NUMBER_KEYS = ("offense", "defense", "cost_economic", "cost_religious", "cost_political",
                "cost_generic", "faction_influence", "vitality", "strength_economic",
                "strength_religious", "strength_political", "aggression", "residencies", "bounty")


@dataclass(frozen=True, slots=True)
class Ability:
    """One usable ability: a common income ability or a custom effect."""

    index: int  # position among the card's clauses, stable for actions and logs
    text: str
    exhausts: bool
    threshold: int | None  # (F)n: faction members needed in play
    effect: Effect
    option: str = field(init=False)  # the index as an action names it (Action.option)

    def __post_init__(self) -> None:
        object.__setattr__(self, "option", str(self.index))


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    type: str
    subtype: str | None
    faction: str | None
    unique: bool
    offense: int
    defense: int
    cost: tuple[int, int, int]  # economic, religious, political
    generic: int
    influence: int
    vitality: int
    strength: tuple[int, int, int]  # economic/military, religious, political
    aggression: int
    residencies: int
    bounty: int
    keywords: frozenset[str]
    # Keywords that switch on only past a faction threshold: {keyword: members needed}.
    keyword_thresholds: Mapping[str, int]
    # Keywords printed with "E": using them exhausts the card (Pray, Fear... as printed).
    exhausting: frozenset[str]
    abilities: tuple[Ability, ...]
    # Static effects (guard bonuses, item riders, wanderer riders), always on.
    statics: tuple[Effect, ...]
    unmodelled: tuple[str, ...]
    no_solo_effect: tuple[str, ...]
    pile: str = field(default="")
    # Worked out once here, read in every decision: all its costs, and the tokens its
    # income abilities (Campaign, Worship, Oppress, custom "collect" texts) take per use.
    total_cost: int = field(init=False)
    income: int = field(init=False)
    # Read at nearly every step of a game: plain attributes rather than properties (each
    # property read compared two strings).
    is_troop: bool = field(init=False)
    is_citizen: bool = field(init=False)
    is_structure: bool = field(init=False)
    # Its abilities used outside combat and in the modification step, in their order
    # (rulings.usable_abilities looks at the one kind for every card in play, many times a
    # turn).
    plain_abilities: tuple[Ability, ...] = field(init=False)
    combat_abilities: tuple[Ability, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total_cost", sum(self.cost) + self.generic)
        object.__setattr__(self, "income", sum(sum(a.effect.gains) for a in self.abilities
                                               if a.effect.kind == "collect"))
        object.__setattr__(self, "is_troop",
                           self.type == "personality" and self.subtype == "troop")
        object.__setattr__(self, "is_citizen",
                           self.type == "personality" and self.subtype == "citizen")
        object.__setattr__(self, "is_structure", self.type == "structure")
        object.__setattr__(self, "plain_abilities",
                           tuple(a for a in self.abilities if not a.effect.combat))
        object.__setattr__(self, "combat_abilities",
                           tuple(a for a in self.abilities if a.effect.combat))

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def ability(self, option: str) -> Ability:
        """The ability an action's ``option`` names."""
        for ability in self.abilities:
            if ability.option == option:
                return ability
        raise LookupError(f"{self.id} has no ability {option!r}")


def profiles_from_facts(facts: Mapping[str, Mapping[str, object]]) -> dict[str, Profile]:
    """The profiles of cards given as card data (the facts a saved state carries)."""
    return {card_id: build_profile(CardFacts.from_data(data)) for card_id, data in facts.items()}


class UnknownCardError(ValueError):
    """A card whose numbers the engine needs are not known (not yet transcribed)."""


def unknown_numbers(card: CardFacts) -> list[str]:
    """The printed numbers (and the ability text) of ``card`` that are unknown."""
    keys = [k for k in applicable_keys(card.type, card.subtype)
            if k in _NUMBER_KEYS or k in ("abilities", "unique")]
    missing = [k for k in keys if getattr(card, k) is None and k != "abilities"]
    if card.type is None:
        missing.insert(0, "type")
    if card.type == "personality" and card.personality_kind is None:
        missing.append("subtype")
    if card.type == "structure" and card.structure_kind is None:
        missing.append("subtype")
    return missing


def build_profile(card: CardFacts) -> Profile:
    """The engine's view of ``card``; raises :class:`UnknownCardError` for unknown numbers."""
    missing = unknown_numbers(card)
    if missing:
        raise UnknownCardError(f"{card.name} ({card.id}): {', '.join(missing)} not known yet")
    keywords: set[str] = set()
    thresholds: dict[str, int] = {}
    exhausting: set[str] = set()
    abilities: list[Ability] = []
    statics: list[Effect] = []
    unmodelled: list[str] = []
    no_solo: list[str] = []
    for index, clause in enumerate(parse_abilities(card.abilities)):
        slug = clause.ability.slug if clause.ability else None
        if slug in COMBAT_KEYWORDS:
            if clause.exhausts:
                exhausting.add(slug)
            if clause.faction_threshold:
                thresholds[slug] = clause.faction_threshold
            else:
                keywords.add(slug)
        elif slug in INCOME_ABILITIES:
            kind, strength_key = INCOME_ABILITIES[slug]
            amount = getattr(card, strength_key) or 0
            gains = (amount if kind == 0 else 0, amount if kind == 1 else 0,
                     amount if kind == 2 else 0)
            effect = Effect("collect", gains=gains, label=clause.ability.name if clause.ability
                            else slug)
            abilities.append(Ability(index, clause.text, clause.exhausts,
                                     clause.faction_threshold, effect))
        elif slug in NO_SOLO_EFFECT:
            no_solo.append(clause.text)
        else:
            effect_or_none = read_effect(clause.text)
            if effect_or_none is None:
                unmodelled.append(clause.text)
            elif effect_or_none.kind == "no_solo_effect":
                no_solo.append(clause.text)
            elif effect_or_none.static:
                statics.append(effect_or_none)
            else:
                abilities.append(Ability(index, clause.text, clause.exhausts,
                                         clause.faction_threshold, effect_or_none))
    subtype = card.subtype
    if card.type == "personality":
        subtype = card.personality_kind
    elif card.type == "structure":
        subtype = card.structure_kind
    return Profile(
        id=card.id, name=card.name, type=card.type or "", subtype=subtype,
        faction=card.faction, unique=bool(card.unique),
        offense=card.offense or 0, defense=card.defense or 0,
        cost=(card.cost_economic or 0, card.cost_religious or 0, card.cost_political or 0),
        generic=card.cost_generic or 0, influence=card.faction_influence or 0,
        vitality=card.vitality or 0,
        strength=(card.strength_economic or 0, card.strength_religious or 0,
                  card.strength_political or 0),
        aggression=card.aggression or 0, residencies=card.residencies or 0,
        bounty=card.bounty or 0, keywords=frozenset(keywords), keyword_thresholds=thresholds,
        exhausting=frozenset(exhausting),
        abilities=tuple(abilities), statics=tuple(statics), unmodelled=tuple(unmodelled),
        no_solo_effect=tuple(no_solo), pile=card.pile or "",
    )
