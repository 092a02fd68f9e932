"""The common-ability table and the parser of printed ability text (rules/abilities.py)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.abilities import (
    BY_SLUG,
    CATEGORY_NAMES,
    COMMON_ABILITIES,
    AbilityClause,
    CommonAbility,
    find_ability,
    keywords,
    normalize_ability_text,
    parse_abilities,
)

# The rulebook's headings, "Debate—P (Reaction)": name -> (category, reaction).
RULEBOOK_HEADINGS: dict[str, tuple[str, bool]] = {
    "Armor": ("M", False),
    "Berserk": ("G", False),
    "Bribery": ("G", False),
    "Campaign": ("P", False),
    "Charge": ("M", False),
    "Climb": ("G", False),
    "Crusade": ("R", False),
    "Debate": ("P", True),
    "Defender": ("G", False),
    "Discredit": ("P", False),
    "Endurance": ("G", False),
    "Extort": ("G", False),
    "Fear": ("G", False),
    "Fervor": ("R", False),
    "Fierce": ("G", False),
    "Fleetfoot": ("G", False),
    "Flight": ("G", False),
    "Follower": ("G", False),
    "Giant Size": ("G", False),
    "Hoarding": ("G", False),
    "Influence": ("P", False),
    "Oppress": ("R", False),
    "Persuade": ("P", True),
    "Pray": ("R", False),
    "Protection": ("R", True),
    "Ranged": ("M", False),
    "Raze": ("M", False),
    "Retain": ("G", True),
    "Sap": ("P", False),
    "Support": ("G", False),
    "Tithe": ("R", False),
    "Worship": ("R", False),
}

ABILITIES = [pytest.param(ability, id=ability.slug) for ability in COMMON_ABILITIES]


# --- the table ------------------------------------------------------------------------


def test_the_table_holds_the_32_common_abilities_of_the_rulebook_in_alphabetical_order() -> None:
    names = [ability.name for ability in COMMON_ABILITIES]
    assert names == sorted(RULEBOOK_HEADINGS)
    assert len(names) == 32


@pytest.mark.parametrize("ability", ABILITIES)
def test_category_and_reaction_flag_follow_the_rulebook_heading(ability: CommonAbility) -> None:
    assert (ability.category, ability.reaction) == RULEBOOK_HEADINGS[ability.name]
    assert ability.category_name == CATEGORY_NAMES[ability.category]


@pytest.mark.parametrize("ability", ABILITIES)
def test_slug_is_the_lower_case_hyphenated_name_and_finds_the_ability(
    ability: CommonAbility,
) -> None:
    assert re.fullmatch(r"[a-z]+(?:-[a-z]+)*", ability.slug)
    assert ability.slug == ability.name.lower().replace(" ", "-")
    assert BY_SLUG[ability.slug] is ability


@pytest.mark.parametrize("ability", ABILITIES)
def test_summary_is_one_or_two_sentences_in_our_own_words(ability: CommonAbility) -> None:
    assert ability.summary.strip() == ability.summary
    assert ability.summary.endswith(".")
    assert 1 <= ability.summary.count(". ") + 1 <= 2


def test_giant_size_has_a_hyphenated_slug() -> None:
    assert BY_SLUG["giant-size"].name == "Giant Size"


def test_category_names_spell_out_the_four_categories() -> None:
    assert dict(CATEGORY_NAMES) == {
        "P": "Political",
        "R": "Religious",
        "M": "Military",
        "G": "General",
    }


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        pytest.param("Worship", "worship", id="exact"),
        pytest.param("WORSHIP", "worship", id="upper-case"),
        pytest.param("giant size", "giant-size", id="lower-case-two-words"),
        pytest.param("Giant-Size", "giant-size", id="hyphenated"),
        pytest.param("Giant  Size", "giant-size", id="extra-space"),
        pytest.param("Worshipper", None, id="longer-word"),
        pytest.param("", None, id="empty"),
    ],
)
def test_find_ability_ignores_case_spaces_and_hyphens(name: str, slug: str | None) -> None:
    found = find_ability(name)
    assert (found.slug if found else None) == slug


# --- one common ability, in every accepted spelling ------------------------------------

VARIANTS = [
    pytest.param("{name}.", False, None, id="alone"),
    pytest.param("E {name}.", True, None, id="exhausting"),
    pytest.param("(F)3 {name}.", False, 3, id="threshold"),
    pytest.param("E (F)2 {name}.", True, 2, id="exhausting-then-threshold"),
    pytest.param("(F)4 E {name}.", True, 4, id="threshold-then-exhausting"),
    pytest.param("{lower}.", False, None, id="lower-case"),
    pytest.param("{name}", False, None, id="no-final-period"),
    pytest.param("  E   (F) 5   {name} .", True, 5, id="extra-spaces"),
]


@pytest.mark.parametrize("ability", ABILITIES)
@pytest.mark.parametrize(("template", "exhausts", "threshold"), VARIANTS)
def test_a_common_ability_clause_is_recognised_in_every_spelling(
    ability: CommonAbility, template: str, exhausts: bool, threshold: int | None
) -> None:
    text = template.format(name=ability.name, lower=ability.name.lower())
    (clause,) = parse_abilities(text)
    assert clause.ability is ability
    assert (clause.exhausts, clause.faction_threshold) == (exhausts, threshold)
    assert clause.reaction == ability.reaction
    assert clause.category == ability.category
    assert not clause.is_custom
    assert clause.text == normalize_ability_text(text)


# --- whole ability texts ---------------------------------------------------------------

# Each expected clause: (text, slug or None for custom text, exhausts, threshold, reaction).
Expected = tuple[str, str | None, bool, int | None, bool]

EXAMPLES: list[tuple[str | None, list[Expected]]] = [
    (None, []),
    ("", []),
    ("   ", []),
    (
        "E Worship. (F)3 Campaign.",
        [
            ("E Worship.", "worship", True, None, False),
            ("(F)3 Campaign.", "campaign", False, 3, False),
        ],
    ),
    (
        "E (F)2 Oppress. Ranged.",
        [("E (F)2 Oppress.", "oppress", True, 2, False), ("Ranged.", "ranged", False, None, False)],
    ),
    (
        "Giant Size. E Pay 2 economic tokens: this troop gains +2 defense until the end of combat.",
        [
            ("Giant Size.", "giant-size", False, None, False),
            (
                "E Pay 2 economic tokens: this troop gains +2 defense until the end of combat.",
                None, True, None, False,
            ),
        ],
    ),
    ("Giant-Size.", [("Giant-Size.", "giant-size", False, None, False)]),
    ("Giant size.", [("Giant size.", "giant-size", False, None, False)]),
    ("Debate.", [("Debate.", "debate", False, None, True)]),
    ("Retain (Reaction).", [("Retain (Reaction).", "retain", False, None, True)]),
    (
        "Fervor. Fierce",
        [("Fervor.", "fervor", False, None, False), ("Fierce", "fierce", False, None, False)],
    ),
    (
        "Target troop loses Fleetfoot until the end of combat.",
        [("Target troop loses Fleetfoot until the end of combat.", None, False, None, False)],
    ),
    (
        "Bearer cannot use Fleetfoot while using this shield.",
        [("Bearer cannot use Fleetfoot while using this shield.", None, False, None, False)],
    ),
    (
        "Fleetfoot troops.",
        [("Fleetfoot troops.", None, False, None, False)],
    ),
    (
        "E Pay 1 religious influence: target gains +1 offense. Cannot be used on self.",
        [
            (
                "E Pay 1 religious influence: target gains +1 offense. Cannot be used on self.",
                None, True, None, False,
            )
        ],
    ),
    (
        "Pay 1: +1 offense. E Pay 2: +1.5 defense. Worship.",
        [
            ("Pay 1: +1 offense.", None, False, None, False),
            ("E Pay 2: +1.5 defense.", None, True, None, False),
            ("Worship.", "worship", False, None, False),
        ],
    ),
    (
        "Ranged. Bearer gains +1 offense. (F)3 Bearer gains +2 offense instead. Fear.",
        [
            ("Ranged.", "ranged", False, None, False),
            ("Bearer gains +1 offense.", None, False, None, False),
            ("(F)3 Bearer gains +2 offense instead.", None, False, 3, False),
            ("Fear.", "fear", False, None, False),
        ],
    ),
    (
        "E Negate an event just played (Reaction).",
        [("E Negate an event just played (Reaction).", None, True, None, True)],
    ),
    (
        "E Collect 1 religious influence from the city's influence pool.",
        [
            (
                "E Collect 1 religious influence from the city's influence pool.",
                None, True, None, False,
            )
        ],
    ),
    ("Assassinate.", [("Assassinate.", None, False, None, False)]),
    ("E (F)12345 Worship.", [("E (F)12345 Worship.", None, True, None, False)]),
    ("Every troop. E.", [("Every troop. E.", None, False, None, False)]),
    (
        "Worship.\nE  Oppress.\t(F)3 Pray.",
        [
            ("Worship.", "worship", False, None, False),
            ("E Oppress.", "oppress", True, None, False),
            ("(F)3 Pray.", "pray", False, 3, False),
        ],
    ),
]

EXAMPLE_IDS = [
    "none", "empty", "blank", "worship-and-campaign", "oppress-and-ranged",
    "common-then-custom", "giant-size-hyphenated", "giant-size-lower-case", "reaction-ability",
    "reaction-marker-tolerated", "missing-final-period", "ability-name-inside-a-sentence",
    "ability-name-inside-an-item-text", "ability-name-followed-by-more-words",
    "custom-text-with-an-internal-period", "custom-sentences-split-at-markers",
    "custom-threshold-between-commons", "custom-reaction", "demo-structure-text",
    "expansion-ability-is-custom", "threshold-too-long-is-custom", "lone-e-is-custom-text",
    "line-breaks-and-tabs",
]


@pytest.mark.parametrize(("text", "expected"), EXAMPLES, ids=EXAMPLE_IDS)
def test_ability_text_is_split_into_common_and_custom_clauses(
    text: str | None, expected: list[Expected]
) -> None:
    clauses = parse_abilities(text)
    got = [
        (c.text, c.ability.slug if c.ability else None, c.exhausts, c.faction_threshold, c.reaction)
        for c in clauses
    ]
    assert got == expected


@pytest.mark.parametrize(("text", "expected"), EXAMPLES, ids=EXAMPLE_IDS)
def test_joining_the_clauses_gives_back_the_normalised_text(
    text: str | None, expected: list[Expected]
) -> None:
    clauses = parse_abilities(text)
    assert " ".join(clause.text for clause in clauses) == normalize_ability_text(text)


def test_custom_clauses_have_no_ability_and_no_category() -> None:
    (clause,) = parse_abilities("Draw two cards.")
    assert clause.is_custom
    assert clause.ability is None
    assert clause.category is None


@pytest.mark.parametrize(
    ("text", "slugs"),
    [
        pytest.param(None, (), id="none"),
        pytest.param("E Worship. (F)3 Campaign.", ("worship", "campaign"), id="in-order"),
        pytest.param(
            "Giant Size. Armor. Endurance.", ("giant-size", "armor", "endurance"), id="three"
        ),
        pytest.param("E Worship. Worship.", ("worship",), id="no-repeats"),
        pytest.param("Target troop loses Fleetfoot.", (), id="mention-is-not-a-keyword"),
        pytest.param("Pay 1: +1 offense. Ranged.", ("ranged",), id="custom-and-common"),
    ],
)
def test_keywords_are_the_slugs_of_the_common_abilities_in_order(
    text: str | None, slugs: tuple[str, ...]
) -> None:
    assert keywords(text) == slugs


# --- properties ------------------------------------------------------------------------

ability_words = st.sampled_from(
    [a.name for a in COMMON_ABILITIES]
    + ["E", "(F)3", "(f) 2", "Pay 2:", "+1.5", "offense", "(Reaction)", ".", ". ", "Giant-Size"]
)
ability_like_text = st.lists(ability_words, max_size=12).map(" ".join)


@given(st.one_of(st.text(), ability_like_text, st.none()))
def test_the_parser_never_fails_and_the_clauses_give_back_the_text(text: str | None) -> None:
    clauses = parse_abilities(text)
    assert all(isinstance(clause, AbilityClause) for clause in clauses)
    assert all(clause.text for clause in clauses)
    assert " ".join(clause.text for clause in clauses) == normalize_ability_text(text)
    assert set(keywords(text)) <= set(BY_SLUG)


@given(st.lists(st.sampled_from(COMMON_ABILITIES), max_size=8), st.booleans())
def test_a_text_made_of_common_abilities_parses_to_exactly_those(
    abilities: list[CommonAbility], exhausting: bool
) -> None:
    prefix = "E " if exhausting else ""
    text = " ".join(f"{prefix}{ability.name}." for ability in abilities)
    clauses = parse_abilities(text)
    assert [clause.ability for clause in clauses] == abilities
    assert all(clause.exhausts == exhausting for clause in clauses)
