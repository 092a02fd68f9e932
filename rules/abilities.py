"""The rulebook's common abilities and a parser for a card's printed ability text.

Pure Python, no Django. The table holds the 32 common abilities of the rulebook (v0.80,
"Common Abilities Defined") with their category and reaction flag exactly as the headings
give them; each summary is our own short wording of the rule, not the rulebook's text.

Printed ability text is a sequence of clauses, each ending in a period, for example
``E Worship. (F)3 Campaign.`` or ``Giant Size. E Pay 2 economic tokens: this troop gains
+2 defense until the end of combat.`` :func:`parse_abilities` reads it as follows:

1. The text is normalised: runs of whitespace (line breaks included) become one space and the
   ends are trimmed (:func:`normalize_ability_text`).
2. It is split into sentences after every period that is followed by a space or ends the
   text, so ``+1.5`` or ``e.g.x`` do not split.
3. A sentence is a *common-ability clause* when, as a whole, it is: optional markers, the
   name of a common ability, an optional ``(Reaction)`` and an optional final period.
   The markers are ``E`` (exhausting; capital E only, as printed) and ``(F)n`` (a faction
   threshold of n members; ``(f)`` and spaces inside are tolerated), in either order. The
   name is matched ignoring case, spaces and hyphens, so ``Giant-Size`` and ``giant size``
   are Giant Size. A name inside a longer sentence ("Target troop loses Fleetfoot.") is
   not a common ability.
4. Every other sentence is custom text. A custom sentence that starts with a marker (``E``
   or ``(F)n``) opens a new custom clause; one without a marker continues the custom clause
   just before it, so "E Pay 1: +1 offense. Cannot be used on self." stays one clause. Its
   ``exhausts`` and ``faction_threshold`` come from its leading markers, and it is a
   reaction only when it says "(Reaction)".

The parser never raises, and ``" ".join(c.text for c in clauses)`` is the normalised text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

type Category = Literal["P", "R", "M", "G"]

CATEGORY_NAMES: Final[Mapping[str, str]] = MappingProxyType(
    {"P": "Political", "R": "Religious", "M": "Military", "G": "General"}
)


@dataclass(frozen=True)
class CommonAbility:
    name: str
    slug: str
    category: Category
    reaction: bool
    summary: str

    @property
    def category_name(self) -> str:
        return CATEGORY_NAMES[self.category]


def _ability(
    name: str, category: Category, summary: str, *, reaction: bool = False
) -> CommonAbility:
    slug = "-".join(name.lower().split())
    return CommonAbility(name, slug, category, reaction, summary)


COMMON_ABILITIES: Final[tuple[CommonAbility, ...]] = (
    _ability("Armor", "M", "Shields the bearer from Fierce: a Fierce attacker cannot deal it a "
             "double wound."),
    _ability("Berserk", "G", "After a combat the bearer may start a second, entirely new combat "
             "against another target in the same place (battlefield or private holdings); only "
             "berserk troops make assignments in it."),
    _ability("Bribery", "G", "Pay a bribe before assignments (a wanderer's bounty, or a troop's "
             "faction influence, at least one token) to send the bearer home from the combat. The "
             "bribe stays on the card and is collected with its bounty when it is killed."),
    _ability("Campaign", "P", "Take political tokens from the city's influence pool, up to the "
             "bearer's political strength."),
    _ability("Charge", "M", "Move points from the bearer's defense to its offense, one for one, "
             "at most once per point of its economic/military strength."),
    _ability("Climb", "G", "Once all wall assignments are made, a troop assigned to a wall may "
             "get past it and assign itself to another troop or structure."),
    _ability("Crusade", "R", "Exhausts a chosen troop."),
    _ability("Debate", "P", "Cancels a political ability as it is used, if the bearer's political "
             "strength is at least that of the personality using it. A debate can be debated, "
             "but no personality takes part in the same debate twice.", reaction=True),
    _ability("Defender", "G", "The bearer can fight two enemies in one combat and may wound "
             "both of them."),
    _ability("Discredit", "P", "Exhausts a chosen citizen."),
    _ability("Endurance", "G", "Taking a wound does not exhaust the bearer."),
    _ability("Extort", "G", "Take economic tokens from another player's personal pool, up to the "
             "bearer's economic/military strength."),
    _ability("Fear", "G", "While the bearer is at the combat, one chosen enemy attacks with 3 "
             "less offense. Several Fears do not add up."),
    _ability("Fervor", "R", "Spend religious tokens, up to the bearer's religious strength, for "
             "+1 offense each until the combat ends. It works on the bearer only."),
    _ability("Fierce", "G", "The bearer deals two wounds to a target that lacks Armor. In a joint "
             "attack it counts only if every attacker has Fierce."),
    _ability("Fleetfoot", "G", "The bearer strikes in the fleetfoot step, after ranged attacks "
             "and before all others. In a joint attack it counts only if every attacker has it."),
    _ability("Flight", "G", "Only cards with Ranged or Flight can assign to the bearer, and it "
             "may attack structures once no such defender is free; it may land to give this up."),
    _ability("Follower", "G", "While unexhausted, this wanderer joins the other aggressive "
             "wanderers when they attack."),
    _ability("Giant Size", "G", "Gets +3 offense when fighting a troop or wanderer that is not "
             "giant sized itself."),
    _ability("Hoarding", "G", "At the start of each Wanderer Phase this wanderer takes one token, "
             "from the city's pool or a lord's personal pool, and keeps it as extra bounty."),
    _ability("Influence", "P", "Exhausts a chosen structure."),
    _ability("Oppress", "R", "Take economic tokens from the city's influence pool, up to the "
             "bearer's religious strength."),
    _ability("Persuade", "P", "As a card enters play, match the number of tokens just paid for it "
             "(any kinds) to stop it: the card is discarded and its costs stay spent. It cannot "
             "stop invocations or a unique personality that just changed allegiance.",
             reaction=True),
    _ability("Pray", "R", "Spend religious tokens, up to the bearer's religious strength, to give "
             "another card +1 offense or defense each until the combat ends. A card receives at "
             "most one prayer per battle."),
    _ability("Protection", "R", "Cancels an invocation cast on the bearer, at the price the "
             "invoker paid for it.", reaction=True),
    _ability("Ranged", "M", "The bearer strikes in the ranged step, before everyone else. In a "
             "joint attack it counts only if every attacker has Ranged."),
    _ability("Raze", "M", "Gets +3 offense when attacking a structure."),
    _ability("Retain", "G", "Stops a copy of a unique card that is already in play from being "
             "played: its costs are still paid and the new copy is discarded. The bearer cannot "
             "use it against a copy of itself.", reaction=True),
    _ability("Sap", "P", "Send tokens from another player's personal pool back to the city's "
             "pool, up to the bearer's political strength; the user picks the tokens."),
    _ability("Support", "G", "When asked, this troop can join another lord's combat (never a "
             "wanderer's); it is sent during movement and that lord then controls it."),
    _ability("Tithe", "R", "Send religious tokens from another player's personal pool back to "
             "the city's pool, up to the bearer's religious strength."),
    _ability("Worship", "R", "Take religious tokens from the city's influence pool, up to the "
             "bearer's religious strength."),
)

BY_SLUG: Final[Mapping[str, CommonAbility]] = MappingProxyType(
    {ability.slug: ability for ability in COMMON_ABILITIES}
)


def _name_key(name: str) -> str:
    # Case, spaces and hyphens never distinguish two abilities: "Giant-Size" is Giant Size.
    return re.sub(r"[\s\-]+", "", name).casefold()


_BY_NAME_KEY: Final[Mapping[str, CommonAbility]] = MappingProxyType(
    {_name_key(ability.name): ability for ability in COMMON_ABILITIES}
)


def find_ability(name: str) -> CommonAbility | None:
    """The common ability called ``name`` (ignoring case, spaces, hyphens), or None."""
    return _BY_NAME_KEY.get(_name_key(name))


@dataclass(frozen=True)
class AbilityClause:
    text: str
    ability: CommonAbility | None
    exhausts: bool
    faction_threshold: int | None
    reaction: bool

    @property
    def is_custom(self) -> bool:
        return self.ability is None

    @property
    def category(self) -> Category | None:
        return self.ability.category if self.ability else None


# Leading markers: "E" and "(F)n" in either order. Thresholds are capped at four digits so
# that int() can never fail on a pathological input.
_EXHAUST = r"E\s+"
_THRESHOLD = r"\([fF]\)\s*(?P<{}>[0-9]{{1,4}})(?![0-9])\s*"
_MARKERS: Final = re.compile(
    rf"(?:(?P<e1>{_EXHAUST})?(?:{_THRESHOLD.format('f1')})?(?P<e2>{_EXHAUST})?)"
)
_REACTION_SUFFIX: Final = re.compile(r"\s*\(\s*reaction\s*\)\s*$", re.IGNORECASE)
_SENTENCE_END: Final = re.compile(r"(?<=\.) ")


def normalize_ability_text(text: str | None) -> str:
    """The text with every run of whitespace turned into one space, trimmed."""
    return " ".join(text.split()) if text else ""


def parse_abilities(text: str | None) -> tuple[AbilityClause, ...]:
    """The clauses of a card's printed ability text, in order (see the module docstring)."""
    clauses: list[AbilityClause] = []
    custom: list[str] = []  # the sentences of the custom clause being read
    for sentence in _sentences(normalize_ability_text(text)):
        common = _common_clause(sentence)
        if common is None and custom and not _starts_with_marker(sentence):
            custom.append(sentence)
            continue
        if custom:
            clauses.append(_custom_clause(" ".join(custom)))
        custom = [] if common else [sentence]
        if common:
            clauses.append(common)
    if custom:
        clauses.append(_custom_clause(" ".join(custom)))
    return tuple(clauses)


def keywords(text: str | None) -> tuple[str, ...]:
    """Slugs of the common abilities in the text, in order of first appearance, no repeats."""
    slugs = (clause.ability.slug for clause in parse_abilities(text) if clause.ability)
    return tuple(dict.fromkeys(slugs))


def _sentences(normalized: str) -> list[str]:
    return _SENTENCE_END.split(normalized) if normalized else []


def _split_markers(sentence: str) -> tuple[bool, int | None, str]:
    """(exhausts, faction threshold, rest of the sentence) from its leading markers."""
    match = _MARKERS.match(sentence)
    assert match is not None  # every group is optional: the pattern always matches
    threshold = match.group("f1")
    exhausts = bool(match.group("e1") or match.group("e2"))
    return exhausts, int(threshold) if threshold else None, sentence[match.end():]


def _starts_with_marker(sentence: str) -> bool:
    exhausts, threshold, _ = _split_markers(sentence)
    return exhausts or threshold is not None


def _common_clause(sentence: str) -> AbilityClause | None:
    exhausts, threshold, rest = _split_markers(sentence)
    name = _REACTION_SUFFIX.sub("", rest.removesuffix("."))
    ability = find_ability(name) if name.strip() else None
    if ability is None:
        return None
    return AbilityClause(sentence, ability, exhausts, threshold, ability.reaction)


def _custom_clause(text: str) -> AbilityClause:
    exhausts, threshold, _ = _split_markers(text)
    reaction = "(reaction)" in text.casefold()
    return AbilityClause(text, None, exhausts, threshold, reaction)
