"""The search key registry (cards/search/fields.py), did-you-mean (suggest.py) and purity.

No database: the registry is pure data that the parser, the compiler, the explanation and
the help page all read.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cards.search.fields import (
    BY_NAME,
    EXHAUSTING_PATTERN,
    FIELDS,
    SORTS,
    Field,
    help_markdown,
    help_sections,
    lookup,
    match_value,
)
from cards.search.parser import parse
from cards.search.suggest import closest_keys, closest_names, closest_values
from rules.abilities import COMMON_ABILITIES, parse_abilities
from rules.card_anatomy import ANATOMY, CARD_TYPES, FACTIONS, RARITIES, SUBTYPES, AnatomyField

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ROOT / "cards" / "search"
KEYS = [pytest.param(f, id=f.name) for f in FIELDS]


def by(name: str) -> Field:
    found = lookup(name)
    assert found is not None
    return found


@pytest.mark.parametrize("f", KEYS)
def test_every_key_has_help_text_and_an_example(f: Field) -> None:
    assert len(f.help) > 20
    assert f.examples and all(example.strip() for example in f.examples)
    assert f.label and f.section


@pytest.mark.parametrize("f", KEYS)
def test_every_example_parses_and_uses_its_key(f: Field) -> None:
    for example in f.examples:
        parsed = parse(example)
        assert parsed.warnings == ()
        assert re.search(rf"(^|[\s(-])({'|'.join(map(re.escape, f.names))})[:=<>!]", example)


@pytest.mark.parametrize("f", KEYS)
def test_every_key_names_its_model_fields_or_sorts(f: Field) -> None:
    assert f.model_fields or f.kind == "order"
    assert all(isinstance(name, str) and name for name in f.model_fields)


def test_keys_and_aliases_are_unique_and_case_insensitive() -> None:
    names = [name.casefold() for f in FIELDS for name in f.names]
    assert len(names) == len(set(names))
    assert lookup("OFF") is by("offense") and lookup("T") is by("type")
    assert lookup("nope") is None


@pytest.mark.parametrize("anatomy", ANATOMY, ids=lambda a: f"{a.number}-{a.label}")
def test_every_anatomy_field_can_be_searched(anatomy: AnatomyField) -> None:
    searched = {name for f in FIELDS for name in f.model_fields}
    assert all(key in searched for key in anatomy.keys)


@pytest.mark.parametrize(
    ("key", "kind", "operators"),
    [
        pytest.param("name", "text", (":", "=", "!="), id="text"),
        pytest.param("offense", "number", (":", "=", "!=", "<", "<=", ">", ">="), id="number"),
        pytest.param("type", "enum", (":", "=", "!="), id="enum"),
        pytest.param("is", "flag", (":", "="), id="flag"),
        pytest.param("kw", "keyword", (":", "="), id="keyword"),
        pytest.param("set", "set", (":", "=", "!="), id="set"),
        pytest.param("order", "order", (":", "="), id="order"),
    ],
)
def test_each_kind_takes_its_operators(key: str, kind: str, operators: tuple[str, ...]) -> None:
    assert by(key).kind == kind and by(key).operators == operators


@pytest.mark.parametrize(
    ("alias", "key"),
    [
        ("n", "name"), ("t", "type"), ("st", "subtype"), ("f", "faction"), ("o", "o"),
        ("oracle", "o"), ("text", "o"), ("abilities", "o"), ("ft", "quote"), ("flavor", "quote"),
        ("quotation", "quote"), ("prof", "profession"), ("a", "artist"), ("cn", "number"),
        ("off", "offense"), ("pow", "offense"), ("def", "defense"), ("ce", "ecost"),
        ("economic_cost", "ecost"), ("cr", "rcost"), ("cp", "pcost"), ("cg", "gcost"),
        ("generic", "gcost"), ("influence", "fi"), ("faction_influence", "fi"),
        ("vitality", "vit"), ("es", "econ"), ("mil", "econ"), ("military", "econ"),
        ("rs", "relig"), ("ps", "polit"), ("aggression", "agg"), ("residencies", "res"),
        ("block", "res"), ("bty", "bounty"), ("s", "set"), ("e", "set"), ("edition", "set"),
        ("r", "rarity"), ("keyword", "kw"), ("ability", "kw"), ("dir", "direction"),
    ],
)
def test_the_documented_aliases_name_their_keys(alias: str, key: str) -> None:
    assert by(alias).name == key


def test_type_values_are_the_six_types_and_every_subtype() -> None:
    values = {v.value for v in by("type").values}
    subtypes = {s for subs in SUBTYPES.values() for s in subs}
    assert values == set(CARD_TYPES) | subtypes
    assert {v.value for v in by("subtype").values} == subtypes


def test_enumerated_keys_cover_the_catalogue_values() -> None:
    assert {v.value for v in by("faction").values} == {*FACTIONS, "none"}
    assert {v.value for v in by("rarity").values} == set(RARITIES)
    assert {v.value for v in by("kw").values} == {a.slug for a in COMMON_ABILITIES}
    assert len(by("kw").values) == 32


def test_the_required_sort_keys_exist() -> None:
    required = {"name", "set", "cost", "offense", "defense", "fi", "vit", "agg", "bounty",
                "rarity", "type", "faction", "number"}
    assert required <= set(SORTS)


@pytest.mark.parametrize("f", [f for f in FIELDS if f.values], ids=lambda f: f.name)
def test_no_spelling_names_two_values_of_a_key(f: Field) -> None:
    forms = [form for v in f.values for form in v.forms]
    assert len(forms) == len(set(forms))


@pytest.mark.parametrize(
    ("key", "typed", "value"),
    [
        pytest.param("type", "pers", "personality", id="type-prefix"),
        pytest.param("type", "Troops", "troop", id="type-plural"),
        pytest.param("type", "STRUCTURE", "structure", id="type-case"),
        pytest.param("faction", "glory", "kalim", id="glory"),
        pytest.param("faction", "the glory of kalim", "kalim", id="glory-full"),
        pytest.param("faction", "house mosfin", "mosfin", id="house-mosfin"),
        pytest.param("faction", "veteran's guild", "guild", id="veterans-guild"),
        pytest.param("faction", "Veteran\u2019s-Guild", "guild", id="curly-apostrophe"),
        pytest.param("faction", "veterans", "guild", id="veterans"),
        pytest.param("faction", "k", "kalim", id="k"),
        pytest.param("faction", "m", "mosfin", id="m"),
        pytest.param("faction", "g", "guild", id="g"),
        pytest.param("faction", "none", "none", id="none"),
        pytest.param("rarity", "c", "common", id="c"),
        pytest.param("rarity", "cs", "common_starter", id="cs"),
        pytest.param("rarity", "starter", "common_starter", id="starter"),
        pytest.param("rarity", "common starter", "common_starter", id="common-starter"),
        pytest.param("rarity", "u", "uncommon", id="u"),
        pytest.param("rarity", "r", "rare", id="r"),
        pytest.param("rarity", "p", "promo", id="p"),
        pytest.param("kw", "fleetfoot", "fleetfoot", id="kw"),
        pytest.param("kw", "Giant Size", "giant-size", id="kw-name"),
        pytest.param("kw", "giant-size", "giant-size", id="kw-slug"),
        pytest.param("kw", "GIANTSIZE", "giant-size", id="kw-squashed"),
        pytest.param("has", "scan", "image", id="has-scan"),
        pytest.param("has", "off", "offense", id="has-alias"),
        pytest.param("order", "off", "offense", id="order-alias"),
        pytest.param("direction", "descending", "desc", id="direction"),
    ],
)
def test_values_match_by_name_alias_or_unique_prefix(key: str, typed: str, value: str) -> None:
    found = match_value(by(key).values, typed)
    assert found.value is not None and found.value.value == value


@pytest.mark.parametrize(
    ("key", "typed", "candidates"),
    [
        pytest.param("type", "s", {"structure", "stronghold", "shield"}, id="ambiguous"),
        pytest.param("rarity", "com", {"common", "common_starter"}, id="ambiguous-rarity"),
        pytest.param("type", "xyz", set(), id="nothing"),
        pytest.param("type", "", set(), id="empty"),
    ],
)
def test_values_that_fit_no_single_value_say_which_could_fit(
    key: str, typed: str, candidates: set[str]
) -> None:
    found = match_value(by(key).values, typed)
    assert found.value is None and {v.value for v in found.candidates} == candidates


def test_the_help_page_lists_every_key_once_with_its_examples() -> None:
    sections = help_sections()
    listed = [k.name for s in sections for k in s.keys]
    assert sorted(listed) == sorted(f.name for f in FIELDS)
    assert sections[0].title == "Syntax" and sections[-1].title == "Regular expressions"
    for section in sections:
        assert section.title and len(section.text) > 20
        for key in section.keys:
            assert key.help and key.examples and key.operators and key.kind
    faction = next(k for s in sections for k in s.keys if k.name == "faction")
    assert ("kalim", "The Glory of Kalim") in {(v.value, v.label) for v in faction.values}


def test_the_help_renders_as_markdown_with_every_key_and_example() -> None:
    text = help_markdown()
    for f in FIELDS:
        assert f"### `{f.name}`" in text
        assert all(f"`{example}`" in text for example in f.examples)


def test_the_help_explains_unknown_values_and_scans() -> None:
    text = " ".join(s.text for s in help_sections()) + " ".join(f.help for f in FIELDS)
    assert "-off>=3" in text and "exact complement" in text
    assert "rendered" in by("has").help


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("factoin", "faction"), ("ofense", "offense"), ("tpye", "type"), ("raritiy", "rarity"),
     ("artst", "artist"), ("oracel", "oracle"), ("bounty_", "bounty")],
)
def test_an_unknown_key_gets_the_closest_keys(typed: str, expected: str) -> None:
    assert expected in closest_keys(typed)


def test_a_bad_value_gets_the_closest_values() -> None:
    assert closest_values("trop", by("type").values)[0] == "troop"
    assert closest_values("mosfen", by("faction").values) == ["mosfin"]
    assert closest_values("zzzzzz", by("faction").values) == []


NAMES = ["Bishop Ospin", "Ashgate Spearman", "Fort Ashgate", "Bowman", "Blade Master",
         "Arch Bishop Lawrence", "Bishop of Kalim"]


@pytest.mark.parametrize(
    ("words", "first"),
    [
        pytest.param("bishp ospin", "Bishop Ospin", id="typo"),
        pytest.param("BISHOP OSPIN", "Bishop Ospin", id="case"),
        pytest.param("spearmen", "Ashgate Spearman", id="one-word"),
        pytest.param("blademaster", "Blade Master", id="run-together"),
    ],
)
def test_closest_names_puts_the_likeliest_card_first(words: str, first: str) -> None:
    assert closest_names(words, NAMES)[0] == first


def test_closest_names_finds_nothing_for_nonsense_or_nothing() -> None:
    assert closest_names("qqqqzzzz", NAMES) == []
    assert closest_names("   ", NAMES) == []
    assert closest_names("bowman", []) == []


def test_closest_names_is_deterministic_and_bounded() -> None:
    names = [f"Bowman {i}" for i in range(20)]
    assert closest_names("bowman", names) == closest_names("bowman", reversed(names))
    assert len(closest_names("bowman", names)) == 5


EXHAUSTING = [
    ("E Worship.", True), ("Worship. E Campaign.", True), ("(F)3 E Campaign.", True),
    ("E (F)3 Campaign.", True), ("(F)3E Campaign.", True), ("E Pay 1: +1 offense.", True),
    ("Worship.\n  E Pay 2: gain 1.", True), ("  E Worship.", True), ("Worship.", False),
    ("Pay E 2.", False), ("e Worship.", False), ("Foo.E Bar.", False), ("E", False),
    ("E.", False), ("E ", False), ("Foo. E .", True), ("(F)12345 E Worship.", False),
    ("Pay 1.5 E tokens.", False), ("", False),
]


@pytest.mark.parametrize(("text", "exhausting"), EXHAUSTING, ids=[t for t, _ in EXHAUSTING])
def test_the_exhausting_pattern_reads_markers_as_the_ability_parser_does(
    text: str, exhausting: bool
) -> None:
    assert bool(re.search(EXHAUSTING_PATTERN, text)) is exhausting
    assert any(c.exhausts for c in parse_abilities(text)) is exhausting


ABILITY_TEXT = st.lists(
    st.sampled_from(["E", " ", "  ", ".", ". ", "\n", "(F)3", "(f)2 ", "Worship", "Pay 1",
                     "x", "E ", "(F)", "12345", "\t", "Campaign.", "e ", "\xa0", "\u2003", "\x1c"]),
    max_size=12,
).map("".join)


@given(ABILITY_TEXT)
def test_the_exhausting_pattern_agrees_with_the_ability_parser_on_any_text(text: str) -> None:
    assert bool(re.search(EXHAUSTING_PATTERN, text)) == any(
        c.exhausts for c in parse_abilities(text)
    )


PURE = ["fields.py", "parser.py", "explain.py", "suggest.py", "__init__.py"]


@pytest.mark.parametrize("name", PURE)
def test_the_pure_search_modules_import_no_django(name: str) -> None:
    tree = ast.parse((SEARCH / name).read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    assert not {m for m in imported if m.split(".")[0] in ("django", "rest_framework")}
    assert "cards.search.compile" not in imported and "cards.models" not in imported


def test_every_key_and_alias_is_in_the_lookup_table() -> None:
    assert len(BY_NAME) == sum(len(f.names) for f in FIELDS)
