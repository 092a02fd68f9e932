"""The search keys: one registry that drives the parser, the compiler, the explanation and the
generated help page (docs/design.md §9).

Pure Python, no Django: model fields are named as strings and only ``compile.py`` turns them
into database lookups. Every key has a canonical name, aliases, a kind, the operators it takes,
help text, at least one example that finds cards in the shipped catalogue, and, for enumerated
keys, its values with their aliases.

Kinds:

- ``text``: ``:`` contains, ``=`` equals, ``!=`` differs (all ignoring case); ``/regex/`` values.
- ``number``: whole numbers with every operator (``:`` is ``=``); the value may also be another
  number key (``off>def``).
- ``enum``: one of a fixed list of values (aliases and unique prefixes accepted).
- ``flag``: ``is:`` and ``has:``, yes/no facts about a card.
- ``keyword``: one of the rulebook's common abilities.
- ``set``: a set code, any code accepted (ignoring case).
- ``order``: ``order:`` and ``direction:``, which sort the results rather than filter them.
- ``personal``: the searching user's own data, registered by a feature app (the collection's
  copies: ``own>=1``), compared like numbers; a card without a row counts 0, so these are
  never unknown. They need a signed-in user: the query is refused without one.

Unknown values: a field that is not yet transcribed (null) never satisfies a comparison, so
``off>=3`` and ``off<3`` together miss the cards whose offense is unknown; a negated term is the
exact complement (``-off>=3`` finds them). ``key!=v`` means "known and different", that is
``has:key -key=v``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Final, Literal

from rules.abilities import COMMON_ABILITIES
from rules.card_anatomy import CARD_TYPES, FACTIONS, RARITIES, SUBTYPES

type Kind = Literal["text", "number", "enum", "flag", "keyword", "set", "order", "personal"]

OPERATORS: Final = (":", "=", "!=", "<", "<=", ">", ">=")
EQUALITY: Final = (":", "=", "!=")
COLON: Final = (":", "=")

# Limits of the language, shared by the parser and the help page.
MAX_QUERY_BYTES: Final = 1024
MAX_DEPTH: Final = 32
MAX_REGEX_CHARS: Final = 200
MAX_NUMBER: Final = 9999

# A clause whose leading markers include "E" (the card exhausts to use it), exactly as
# rules.abilities reads printed text: a sentence starts at the beginning of the text or after
# a period followed by whitespace, and its markers are "E" and "(F)n" in either order. The
# pattern is case-sensitive and portable (Python re and PostgreSQL AREs read it the same way).
EXHAUSTING_PATTERN: Final = r"(^|\.\s)\s*(\([fF]\)\s*[0-9]{1,4}\s*)?E\s+\S"
# Custom ability text marks a reaction like this (compared ignoring case).
REACTION_MARK: Final = "(reaction)"
REACTION_ABILITIES: Final = tuple(a.slug for a in COMMON_ABILITIES if a.reaction)


def normalize(text: str) -> str:
    """The form values are compared in: case, spaces, hyphens, underscores, dots and
    apostrophes never matter (``Veteran's Guild`` = ``veterans-guild``)."""
    return re.sub(r"[\s\-_.'\u2019]+", "", text).casefold()


@dataclass(frozen=True)
class Value:
    """One allowed value of an enumerated key."""

    value: str  # canonical, as stored in the AST
    label: str  # as the explanation and the help page show it
    aliases: tuple[str, ...] = ()
    help: str = ""

    @cached_property  # read for every value of a key whenever a query names one
    def forms(self) -> tuple[str, ...]:
        """Every normalized spelling that names this value exactly."""
        return tuple(dict.fromkeys(normalize(s) for s in (self.value, *self.aliases)))


@dataclass(frozen=True)
class Field:
    """One search key."""

    name: str
    kind: Kind
    section: str
    label: str  # the noun the explanation uses, e.g. "offense", "abilities text"
    help: str
    examples: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    operators: tuple[str, ...] = EQUALITY
    model_fields: tuple[str, ...] = ()
    values: tuple[Value, ...] = ()
    anatomy: tuple[int, ...] = ()  # the rulebook's "Card Anatomy" numbers

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def model_field(self) -> str:
        return self.model_fields[0]


@dataclass(frozen=True)
class SortKey:
    """One ``order:`` key and how the explanation words its two directions."""

    name: str
    label: str
    aliases: tuple[str, ...]
    model_fields: tuple[str, ...]
    kind: Literal["text", "number", "rank", "set"]
    asc: str  # appended to "sorted by LABEL", e.g. "" or ", lowest first"
    desc: str
    ranks: tuple[str, ...] = ()  # for kind "rank": the stored values in ascending order


# --- text ------------------------------------------------------------------------------------

_TEXT_HELP = (
    " `:` finds the text anywhere in it, `=` the whole value, `!=` a known, different value;"
    " all ignore case. A `/regular expression/` searches it (see Regular expressions)."
)


def _text(
    name: str, aliases: tuple[str, ...], label: str, model: str, help_text: str,
    examples: tuple[str, ...], anatomy: tuple[int, ...] = (),
) -> Field:
    return Field(
        name, "text", "Text", label, help_text + _TEXT_HELP, examples, aliases, EQUALITY,
        (model,), anatomy=anatomy,
    )


TEXT_FIELDS: Final = (
    _text("name", ("n",), "name", "name",
          "The card's name (anatomy 1). Words without a key search the name too: each must "
          "appear in it; `\"a phrase\"` must appear as written; `!\"Exact Name\"` is the exact "
          "name.",
          ("name:ashgate", "n:/^bow/"), (1,)),
    _text("o", ("oracle", "text", "abilities"), "abilities text", "abilities",
          "The printed ability text (anatomy 2), e.g. `E Worship. (F)3 Campaign.`; `o=\"\"` finds "
          "cards that have no abilities.",
          ("o:worship", "o:/exhaust(s)? target/"), (2,)),
    _text("quote", ("ft", "flavor", "quotation"), "quotation", "quotation",
          "The quotation, the card's flavour text (anatomy 3).", ("ft:siege",), (3,)),
    _text("race", (), "race", "race", "The race of a personality or wanderer (anatomy 4).",
          ("race:dwarf", "race=human"), (4,)),
    _text("gender", (), "gender", "gender", "The gender (anatomy 4).", ("gender:female",), (4,)),
    _text("profession", ("prof",), "profession", "profession",
          "The profession of a personality (anatomy 5).", ("prof:knight",), (5,)),
    _text("artist", ("a",), "artist", "artist", "Who illustrated the card.", ("a:varga",)),
    _text("number", ("cn",), "collector number", "number",
          "The collector number within its set.", ("cn:042",)),
)

# --- numbers ---------------------------------------------------------------------------------

_NUMBER_HELP = (
    " Compare with `:` or `=`, `!=`, `<`, `<=`, `>`, `>=` and a whole number, or another number"
    " key (`off>def`). A card whose {label} is not yet transcribed matches no comparison, but a"
    " negated term is the exact complement: `-{name}>=3` includes the cards whose {label} is"
    " unknown."
)


def _number(
    name: str, aliases: tuple[str, ...], label: str, model: str, help_text: str,
    examples: tuple[str, ...], anatomy: tuple[int, ...] = (),
) -> Field:
    return Field(
        name, "number", "Numbers", label, help_text + _NUMBER_HELP.format(label=label, name=name),
        examples, aliases, OPERATORS, (model,), anatomy=anatomy,
    )


NUMBER_FIELDS: Final = (
    _number("offense", ("off", "pow"), "offense", "offense",
            "Offense (anatomy 6); for items, the bonus they give.", ("off>=3", "off>def"), (6,)),
    _number("defense", ("def",), "defense", "defense", "Defense (anatomy 7).", ("def>=4",), (7,)),
    _number("ecost", ("ce", "economic_cost", "cost_economic"), "economic cost", "cost_economic",
            "Economic influence cost (anatomy 9).", ("ecost>=3",), (9,)),
    _number("rcost", ("cr", "religious_cost", "cost_religious"), "religious cost",
            "cost_religious", "Religious influence cost (anatomy 10).", ("rcost>=3",), (10,)),
    _number("pcost", ("cp", "political_cost", "cost_political"), "political cost",
            "cost_political", "Political influence cost (anatomy 11).", ("pcost>=3",), (11,)),
    _number("gcost", ("cg", "generic", "generic_cost", "cost_generic"), "generic cost",
            "cost_generic", "Generic cost, paid in any tokens (anatomy 20): structures.",
            ("gcost>=5",), (20,)),
    _number("cost", ("total_cost", "total"), "total cost", "total_cost",
            "Total cost: the three influence costs, or the generic cost for structures; unknown "
            "when any of them is.", ("cost<=4", "cost=0"), (9, 10, 11, 20)),
    _number("fi", ("influence", "faction_influence"), "faction influence", "faction_influence",
            "Faction influence of a personality (anatomy 12).", ("fi>=3",), (12,)),
    _number("vit", ("vitality",), "vitality", "vitality",
            "Vitality: wounds before dying, or a stronghold's (anatomy 13).", ("vit>=10",), (13,)),
    _number("econ", ("es", "mil", "military", "strength_economic"),
            "economic/military strength", "strength_economic",
            "Economic/military strength, or an event's requirement (anatomy 14).", ("econ>=3",),
            (14,)),
    _number("relig", ("rs", "strength_religious"), "religious strength", "strength_religious",
            "Religious strength, or an invocation's requirement (anatomy 15).", ("relig>=3",),
            (15,)),
    _number("polit", ("ps", "strength_political"), "political strength", "strength_political",
            "Political strength (anatomy 16).", ("polit>=3",), (16,)),
    _number("agg", ("aggression",), "aggression", "aggression",
            "Aggression of a wanderer: how likely it attacks each round (anatomy 18).",
            ("agg>=4",), (18,)),
    _number("res", ("residencies", "block", "blocking"), "residencies/blocking", "residencies",
            "Residencies of a structure, or how many attackers a wall blocks (anatomy 19).",
            ("res>=3", "t:wall res>=2"), (19,)),
    _number("bounty", ("bty",), "bounty", "bounty",
            "Bounty collected for killing a wanderer (anatomy 21).", ("bounty>=3",), (21,)),
)

# --- enumerated keys -------------------------------------------------------------------------

_PLURALS: Final[Mapping[str, str]] = MappingProxyType({
    "personality": "personalities", "citizen": "citizens", "troop": "troops",
    "structure": "structures", "stronghold": "strongholds", "wall": "walls",
    "wanderer": "wanderers", "item": "items", "invocation": "invocations", "event": "events",
    "weapon": "weapons", "shield": "shields", "interrupt": "interrupts", "battle": "battles",
})

SUBTYPE_NAMES: Final = tuple(dict.fromkeys(s for subs in SUBTYPES.values() for s in subs))
# Citizen or troop follows from offense and defense when the subtype is not printed
# (rules.card_anatomy.personality_kind).
PERSONALITY_KINDS: Final = ("citizen", "troop")


def _subtype_help(subtype: str) -> str:
    owners = [t for t, subs in SUBTYPES.items() if subtype in subs]
    return f"subtype of {' and '.join(owners)}"


def _type_value(name: str) -> Value:
    plural = _PLURALS.get(name)
    return Value(name, name, (plural,) if plural else ())


TYPE_VALUES: Final = tuple(_type_value(t) for t in CARD_TYPES)
SUBTYPE_VALUES: Final = tuple(
    Value(s, s, (_PLURALS[s],) if s in _PLURALS else (), _subtype_help(s)) for s in SUBTYPE_NAMES
)

FACTION_VALUES: Final = (
    Value("kalim", FACTIONS["kalim"],
          ("k", "glory", "glory of kalim", "the glory of kalim", "gok")),
    Value("mosfin", FACTIONS["mosfin"], ("m", "house", "house mosfin", "hm")),
    Value("guild", FACTIONS["guild"],
          ("g", "veterans", "veteran", "veteran's guild", "the veteran's guild", "vg")),
    Value("none", "no faction", ("no", "null", "no faction"),
          "no faction (structures, items and the like)"),
)

_RARITY_ALIASES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({
    "common": ("c",),
    "common_starter": ("cs", "starter"),
    "uncommon": ("u", "unc"),
    "rare": ("r",),
    "promo": ("p", "promotional"),
})
RARITY_VALUES: Final = tuple(
    Value(r, label, _RARITY_ALIASES.get(r, ())) for r, label in RARITIES.items()
)

ENUM_FIELDS: Final = (
    Field("type", "enum", "Type and faction", "type",
          "The card type (structure, personality, item, invocation, event, wanderer) or "
          "subtype. `t:troop` and `t:citizen` also find personalities whose subtype is not "
          "printed by their offense and defense (troops: both above 0; citizens: both 0). Any "
          "unique beginning of a value works: `t:pers`.",
          ("t:troop", "t:pers f:kalim"), ("t",), EQUALITY,
          ("type", "subtype", "offense", "defense"), (*TYPE_VALUES, *SUBTYPE_VALUES)),
    Field("subtype", "enum", "Type and faction", "subtype",
          "Only the printed subtype (`st:troop` does not derive troops from offense and "
          "defense).", ("st:wall", "st:stronghold"), ("st",), EQUALITY, ("subtype",),
          SUBTYPE_VALUES),
    Field("faction", "enum", "Type and faction", "faction",
          "The faction (anatomy 8): kalim, mosfin or guild, by code, name or initial; "
          "`f:none` finds cards without a faction.",
          ("f:kalim", "f:\"veteran's guild\"", "f:none t:structure"), ("f",), EQUALITY,
          ("faction",), FACTION_VALUES, (8,)),
    Field("rarity", "enum", "Sets and rarity", "rarity",
          "The rarity: common, common starter, uncommon, rare or promo (`c`, `cs`, `u`, `r`, "
          "`p`).", ("r:rare", "r:cs"), ("r",), EQUALITY, ("rarity",), RARITY_VALUES),
)

SET_FIELD: Final = Field(
    "set", "set", "Sets and rarity", "set",
    "The set code, ignoring case: `wof` (War of Factions, the real cards) or `demo` (the "
    "fictional Demo set).", ("set:wof", "e:demo"), ("s", "e", "edition"), EQUALITY,
    ("set__code",),
)

KEYWORD_FIELD: Final = Field(
    "kw", "keyword", "Abilities", "ability",
    "A common ability of the rulebook printed on the card, by name, ignoring case, spaces and "
    "hyphens (`kw:giant-size` = `kw:\"Giant Size\"`).",
    ("kw:fleetfoot", "kw:\"giant size\""), ("keyword", "ability"), COLON, ("keywords__ability",),
    tuple(Value(a.slug, a.name, (a.name,), f"{a.category_name}{', reaction' if a.reaction else ''}")
          for a in COMMON_ABILITIES),
)

# --- is: and has: ----------------------------------------------------------------------------

IS_VALUES: Final = (
    Value("unique", "unique", (), "the card is unique (anatomy 17)"),
    Value("citizen", "a citizen", ("citizens",), "same as `t:citizen`"),
    Value("troop", "a troop", ("troops",), "same as `t:troop`"),
    Value("exhausting", "exhausting", ("exhausts", "exhaust", "e"),
          "an ability starts with `E` (the card exhausts to use it), custom text included"),
    Value("reaction", "reaction", ("reactions",),
          "a reaction ability (Debate, Persuade, Protection, Retain) or text marked "
          "\"(Reaction)\""),
    Value("official", "official", ("real",), "a real card of a published set"),
    Value("demo", "demo", ("fictional", "unofficial"), "a card of the fictional Demo set"),
    Value("unknown", "unknown", ("incomplete", "untranscribed"),
          "some printed field is not yet transcribed"),
    Value("complete", "complete", ("transcribed", "known"), "every printed field is transcribed"),
)

IS_FIELD: Final = Field(
    "is", "flag", "Facts", "fact",
    "Facts about the card: " + "; ".join(f"`is:{v.value}`: {v.help}" for v in IS_VALUES) + ".",
    ("is:unique", "is:unknown set:wof", "is:exhausting", "is:reaction"), (), COLON,
    ("unique", "subtype", "offense", "defense", "abilities", "official", "unknown_fields"),
    IS_VALUES,
)

# `has:FIELD` works for every text, number and enumerated key: that field is transcribed.
_HAS_FIELDS: Final = (*TEXT_FIELDS, *NUMBER_FIELDS, *ENUM_FIELDS)
HAS_VALUES: Final = (
    Value("image", "a scan", ("scan", "scans", "img"),
          "the card has a scanned image (a face rendered from its data does not count)"),
    *(Value(f.name, f.label, f.aliases, f"the {f.label} is transcribed") for f in _HAS_FIELDS),
)

HAS_FIELD: Final = Field(
    "has", "flag", "Facts", "known field",
    "`has:image` (or `has:scan`): the card has a scanned image; faces rendered from the card's "
    "data do not count. `has:KEY` for any text, number or enumerated key: that field is "
    "transcribed (not null), e.g. `has:offense`; `-has:offense` finds the cards where it is not "
    "yet transcribed.",
    ("has:offense", "-has:race t:personality"), (), COLON,
    ("picture__status", *(f.model_field for f in _HAS_FIELDS)), HAS_VALUES,
)

# --- sorting ---------------------------------------------------------------------------------

_LOW_HIGH: Final = (", lowest first", ", highest first")
_REVERSE: Final = ("", ", in reverse order")


def _number_sort(f: Field) -> SortKey:
    return SortKey(f.name, f.label, f.aliases, f.model_fields, "number", *_LOW_HIGH)


SORT_KEYS: Final = (
    SortKey("name", "name", ("n",), ("name",), "text", "", ", Z to A"),
    SortKey("set", "set and collector number", ("s", "e", "edition"), ("set__code", "number"),
            "set", *_REVERSE),
    SortKey("number", "collector number", ("cn",), ("number",), "text", *_REVERSE),
    *(_number_sort(f) for f in NUMBER_FIELDS),
    SortKey("rarity", "rarity", ("r",), ("rarity",), "rank", ", common first", ", rarest first",
            tuple(RARITIES)),
    SortKey("type", "type", ("t",), ("type",), "rank", *_REVERSE, tuple(CARD_TYPES)),
    SortKey("faction", "faction", ("f",), ("faction",), "rank", *_REVERSE, tuple(FACTIONS)),
)
SORTS: Final[Mapping[str, SortKey]] = MappingProxyType({s.name: s for s in SORT_KEYS})
DEFAULT_SORT: Final = "name"

DIRECTIONS: Final = (
    Value("asc", "ascending", ("ascending", "up")),
    Value("desc", "descending", ("descending", "down")),
)

ORDER_FIELD: Final = Field(
    "order", "order", "Sorting", "order",
    "Sorts the results: " + ", ".join(f"`{s.name}`" for s in SORT_KEYS) + ". Unknown values "
    "come last in both directions; ties are broken by name, then by id. Only at the top level "
    "of the query (inside `or` or a negation it is ignored with a warning). The default is "
    "`order:name`.",
    ("order:cost", "t:troop order:offense dir:desc"), ("sort",), COLON, (),
    tuple(Value(s.name, s.label, s.aliases) for s in SORT_KEYS),
)
DIRECTION_FIELD: Final = Field(
    "direction", "order", "Sorting", "direction",
    "`asc` or `desc`: the direction of `order:`, or of the default order by name.",
    ("order:cost direction:desc", "dir:desc"), ("dir",), COLON, (), DIRECTIONS,
)

# Every key: the catalogue's own, then those registered by feature apps (register_section),
# kept in place so that every module's reference sees them.
FIELDS: Final[list[Field]] = [
    *TEXT_FIELDS, *ENUM_FIELDS, *NUMBER_FIELDS, SET_FIELD, KEYWORD_FIELD, IS_FIELD, HAS_FIELD,
    ORDER_FIELD, DIRECTION_FIELD,
]


def _index(index: dict[str, Field], fields: Iterable[Field]) -> None:
    for f in fields:
        for name in f.names:
            key = name.casefold()
            if key in index:
                raise AssertionError(f"search key {name!r} is defined twice")
            index[key] = f


_BY_NAME: dict[str, Field] = {}
_index(_BY_NAME, FIELDS)
_BY_CANONICAL: dict[str, Field] = {f.name: f for f in FIELDS}
BY_NAME: Final[Mapping[str, Field]] = MappingProxyType(_BY_NAME)  # names and aliases, lower case
BY_CANONICAL: Final[Mapping[str, Field]] = MappingProxyType(_BY_CANONICAL)


def lookup(key: str) -> Field | None:
    """The field a key (as typed, any case) names, or None."""
    return BY_NAME.get(key.casefold())


def field(name: str) -> Field:
    """The field with this canonical name."""
    return BY_CANONICAL[name]


@dataclass(frozen=True)
class ValueMatch:
    """What a typed value means for an enumerated key: one value, or the candidates."""

    value: Value | None
    candidates: tuple[Value, ...] = ()  # more than one: the value was an ambiguous prefix


def match_value(values: Iterable[Value], typed: str) -> ValueMatch:
    """The value ``typed`` names: exactly (canonical or alias, see :func:`normalize`), else as
    the unique beginning of one value's spellings."""
    key = normalize(typed)
    values = tuple(values)
    if not key:
        return ValueMatch(None)
    for v in values:
        if key in v.forms:
            return ValueMatch(v)
    prefixed = tuple(v for v in values if any(form.startswith(key) for form in v.forms))
    if len(prefixed) == 1:
        return ValueMatch(prefixed[0])
    return ValueMatch(None, prefixed)


# --- the help page ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ValueHelp:
    value: str
    label: str
    aliases: tuple[str, ...]
    help: str


@dataclass(frozen=True)
class KeyHelp:
    name: str
    aliases: tuple[str, ...]
    kind: str
    operators: tuple[str, ...]
    values: tuple[ValueHelp, ...]
    help: str
    examples: tuple[str, ...]
    anatomy: tuple[int, ...]


@dataclass(frozen=True)
class HelpSection:
    title: str
    text: str
    keys: tuple[KeyHelp, ...] = ()


SECTION_ORDER: Final[list[str]] = [
    "Text", "Type and faction", "Numbers", "Sets and rarity", "Abilities", "Facts", "Sorting",
]
_INTROS: Final[dict[str, str]] = {
    "Text": "Text fields of the card; `:` contains, `=` equals.",
    "Type and faction": "Enumerated keys: one of the listed values.",
    "Numbers": "The numbers printed on a card, and its total cost.",
    "Sets and rarity": "Where the card was printed and how often.",
    "Abilities": "The 32 common abilities of the rulebook, as parsed from the card text.",
    "Facts": "Yes/no facts: `is:` about the card, `has:` about what is transcribed.",
}


def register_section(title: str, intro: str, fields: Iterable[Field]) -> None:
    """The extension point of the registry: a feature app adds a section of keys (the
    collection's ``own``, ``want``, ``trade``), shown before Sorting in the help. Registering
    the same section again (``AppConfig.ready`` may run twice in one process) changes nothing."""
    new = tuple(fields)
    if title in SECTION_ORDER:
        if tuple(f for f in FIELDS if f.section == title) == new:
            return
        raise AssertionError(f"search section {title!r} is registered twice")
    if any(f.section != title for f in new):
        raise AssertionError(f"every key of section {title!r} must name it as its section")
    _index(_BY_NAME, new)  # first: refuses a name that is taken, before anything changes
    _BY_CANONICAL.update((f.name, f) for f in new)
    FIELDS[FIELDS.index(ORDER_FIELD):FIELDS.index(ORDER_FIELD)] = new
    SECTION_ORDER.insert(SECTION_ORDER.index("Sorting"), title)
    _INTROS[title] = intro

SYNTAX_HELP: Final = (
    "A query is a list of terms; a card must match all of them. A term is `key:value` or "
    "`key` with an operator (`: = != < <= > >=`) and a value, e.g. `t:troop f:kalim off>=2`. "
    "Quote values with spaces: `f:\"house mosfin\"` (`\\\"` is a quote inside quotes). Words "
    "without a key search card names, forgivingly: case, accents, apostrophes, hyphens and "
    "plurals do not matter (`cobblers` finds Cobbler's Lane, `bowmen` finds Bowman); a name "
    "that matches nothing is answered with the closest names; `!\"Exact Name\"` (or `!Name`) "
    "finds one name exactly. "
    "`or` (any case) joins alternatives, parentheses group, and `-` before a term or a group "
    "negates it: `-(t:troop or t:citizen)`. `-` binds tightest, then the implicit and, then "
    "`or`. A value not yet transcribed matches no comparison, but `-term` is the exact "
    "complement, so `-off>=3` includes cards whose offense is unknown; `key!=v` means known "
    "and different. Keys and enumerated values ignore case and accept aliases and unique "
    "beginnings (`t:pers`)."
)

REGEX_HELP: Final = (
    f"Text keys accept `/pattern/` (with `:`, searching anywhere in the text, or `=`, matching "
    f"the whole text), ignoring case; `\\/` is a slash inside. Patterns are at most "
    f"{MAX_REGEX_CHARS} characters of a subset that SQLite and PostgreSQL read the same way: "
    "characters and escaped punctuation, `.`, classes `[...]` (escape `[` inside them), "
    "`\\d \\w \\s` (and `\\D \\W \\S` outside classes), `\\n \\t`, anchors `^ $ \\A \\Z`, "
    "groups `(...)` and `(?:...)`, `|`, and the quantifiers `* + ? {m} {m,} {m,n}` (counts up "
    "to 100, lazy forms allowed). Not allowed: lookahead and lookbehind, backreferences, named "
    "groups, inline flags, atomic groups and possessive quantifiers, `\\b` (a backspace in "
    "PostgreSQL), `\\x`/`\\u` codes. To keep every search fast, a pattern may not repeat a "
    "group that itself contains a quantifier (`(a+)+`), nor repeat an alternation whose "
    "branches are not plain words with different first letters (`(a|ab)*`), and its "
    "estimated backtracking must stay under 100,000: each `* + {m,}` counts 300, `?` 2 and "
    "`{m,n}` n-m+1, a sequence multiplies and alternatives add up (plain words with "
    "different first letters count once), so a pattern has at most "
    "two unbounded repeats (`.*a.*b`) and then nothing else optional."
)

SORT_HELP: Final = (
    "`order:KEY` sorts the results and `direction:asc|desc` (or `dir:`) sets the direction; by "
    "default cards are sorted by name. Sorting is only read at the top level of the query; a "
    "repeated `order:` or `direction:` is ignored with a warning."
)


def _key_help(f: Field) -> KeyHelp:
    return KeyHelp(
        name=f.name, aliases=f.aliases, kind=f.kind, operators=f.operators,
        values=tuple(ValueHelp(v.value, v.label, v.aliases, v.help) for v in f.values),
        help=f.help, examples=f.examples, anatomy=f.anatomy,
    )


def help_sections() -> tuple[HelpSection, ...]:
    """Everything the generated help page shows: the syntax, each key (name, aliases, kind,
    operators, values, help and examples) by section, and the regular-expression rules."""
    intro = {**_INTROS, "Sorting": SORT_HELP}
    sections = [HelpSection("Syntax", SYNTAX_HELP)]
    for title in SECTION_ORDER:
        keys = tuple(_key_help(f) for f in FIELDS if f.section == title)
        sections.append(HelpSection(title, intro[title], keys))
    sections.append(HelpSection("Regular expressions", REGEX_HELP))
    return tuple(sections)


def help_markdown() -> str:
    """The help sections as Markdown, for ``docs/search.md`` or any other static page."""
    lines = ["# Search syntax", ""]
    for section in help_sections():
        lines += [f"## {section.title}", "", section.text, ""]
        for key in section.keys:
            aliases = ", ".join(f"`{a}`" for a in key.aliases)
            lines.append(f"### `{key.name}`" + (f" (also {aliases})" if aliases else ""))
            lines += ["", key.help, "", "Operators: " + " ".join(f"`{o}`" for o in key.operators)]
            if key.values:
                shown = []
                for v in key.values:
                    also = f" ({', '.join(v.aliases)})" if v.aliases else ""
                    shown.append(f"`{v.value}`{also}")
                lines.append("Values: " + ", ".join(shown))
            lines.append("Examples: " + ", ".join(f"`{e}`" for e in key.examples))
            lines.append("")
    return "\n".join(lines)
