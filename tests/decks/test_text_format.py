"""The plain-text decklist format (decks/formats/text.py) and the deck model it reads into."""

from __future__ import annotations

import string
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.formats.card_refs import CardRef, Unresolved
from decks.formats.text import (
    CatalogueResolver,
    LineError,
    ParseResult,
    parse_text,
    render_text,
)
from rules.decklist import SECTION_TITLES, SECTIONS, DeckEntry, Decklist, SectionName

CATALOGUE: tuple[CardRef, ...] = (
    CardRef("wof-ariams-temple", "Ariam's Temple", "structure", None),
    CardRef("wof-blacksmiths-shop", "Blacksmith's Shop", "structure", None),
    CardRef("wof-bell-tower", "Bell Tower", "structure", None),
    CardRef("wof-bowman-kalim", "Bowman", "personality", "kalim"),
    CardRef("wof-bowman-mosfin", "Bowman", "personality", "mosfin"),
    CardRef("wof-bowman-guild", "Bowman", "personality", "guild"),
    CardRef("wof-catapult-mosfin", "Catapult", "personality", "mosfin"),
    CardRef("wof-catapult-guild", "Catapult", "personality", "guild"),
    CardRef("wof-bishop-ospin", "Bishop Ospin", "personality", "kalim"),
    CardRef("wof-cave-troll", "Cave Troll", "wanderer", None),
    CardRef("demo-twin-blade-1", "Twin Blade", "item", "kalim"),
    CardRef("demo-twin-blade-2", "Twin Blade", "item", "kalim"),
    CardRef("demo-box-2", "Box 2", "item", None),
    CardRef("demo-lieutenant-x", "Lieutenant X", "personality", "mosfin"),
    CardRef("demo-agent-x2", "Agent x2", "personality", "guild"),
    CardRef("demo-agent", "Agent", "personality", "guild"),
    CardRef("demo-2-fast", "2 Fast", "event", None),
    CardRef("demo-fast", "Fast", "event", None),
    CardRef("demo-x-factor", "X Factor", "invocation", None),
    CardRef("demo-factor", "Factor", "invocation", None),
    CardRef("demo-1000-needles", "1000 Needles", "event", None),
    CardRef("demo-holdings", "Holdings", "structure", None),
    CardRef("demo-sword-ancient", "Sword (Ancient)", "item", None),
    CardRef("demo-mystery", "Mystery Card", None, None),
)
CARDS = {card.id: card for card in CATALOGUE}
RESOLVE = CatalogueResolver(CATALOGUE)

KALIM_FAITHFUL = Decklist(
    name="Kalim Faithful",
    players=4,
    holdings=(DeckEntry("wof-ariams-temple", 1), DeckEntry("wof-blacksmiths-shop", 1)),
    structures=(DeckEntry("wof-bell-tower", 2),),
    personalities=(DeckEntry("wof-bowman-kalim", 2), DeckEntry("wof-bishop-ospin", 1)),
    wanderers=(DeckEntry("wof-cave-troll", 3),),
)
KALIM_FAITHFUL_TEXT = """\
# Kalim Faithful
# players: 4
Initial Holdings
1 Ariam's Temple
1 Blacksmith's Shop
Structure Pile
2 Bell Tower
Personality Pile
2 Bowman (kalim)
1 Bishop Ospin
Wanderer Pile
3 Cave Troll
"""

type Piles = dict[SectionName, list[tuple[str, int]]]


def piles_of(deck: Decklist | None) -> Piles:
    assert deck is not None
    piles: Piles = {}
    for section in SECTIONS:
        if entries := deck.section(section):
            piles[section] = [(entry.card_id, entry.count) for entry in entries]
    return piles


def parse(text: str) -> ParseResult:
    return parse_text(text, RESOLVE)


# --- the deck model ----------------------------------------------------------------------


def test_repeated_entries_of_a_card_in_a_section_are_merged_in_first_seen_order() -> None:
    deck = Decklist(
        "d",
        structures=(DeckEntry("a", 1), DeckEntry("b", 2), DeckEntry("a", 3)),
        wanderers=(DeckEntry("a", 1),),
    )
    assert deck.structures == (DeckEntry("a", 4), DeckEntry("b", 2))
    assert deck.wanderers == (DeckEntry("a", 1),)


def test_section_total_and_all_entries_read_the_deck() -> None:
    deck = KALIM_FAITHFUL
    assert deck.section("holdings") == deck.holdings
    assert [deck.total(section) for section in SECTIONS] == [2, 2, 3, 3]
    assert deck.all_entries()[0] == ("holdings", DeckEntry("wof-ariams-temple", 1))
    assert [section for section, _ in deck.all_entries()] == [
        "holdings", "holdings", "structures", "personalities", "personalities", "wanderers"
    ]


def test_deck_name_and_description_are_kept_in_canonical_form() -> None:
    deck = Decklist("  Kalim \t Faithful\n", description="\n\r\nFirst  \r\n\r\n  indented\n\n")
    assert deck.name == "Kalim Faithful"
    assert deck.description == "First\n\n  indented"
    assert deck == Decklist("Kalim Faithful", description="First\n\n  indented")


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: Decklist("d", players=1), id="one-player"),
        pytest.param(lambda: Decklist("d", players=7), id="seven-players"),
        pytest.param(lambda: Decklist("d", holdings=(DeckEntry("a", 0),)), id="zero-copies"),
        pytest.param(lambda: Decklist("d", wanderers=(DeckEntry("a", -1),)), id="negative-copies"),
    ],
)
def test_an_impossible_deck_is_a_programming_error(make: Callable[[], Decklist]) -> None:
    with pytest.raises(ValueError):
        make()


def test_sections_have_the_display_titles_of_the_rulebook() -> None:
    assert [SECTION_TITLES[section] for section in SECTIONS] == [
        "Initial Holdings", "Structure Pile", "Personality Pile", "Wanderer Pile"
    ]


# --- the reference resolver --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "faction", "card_id", "expected"),
    [
        pytest.param("Bell Tower", None, None, "wof-bell-tower", id="exact-name"),
        pytest.param("bell  TOWER", None, None, "wof-bell-tower", id="any-case-and-spacing"),
        pytest.param("Bowman", "kalim", None, "wof-bowman-kalim", id="faction-hint"),
        pytest.param("Bowman", "Mosfin", None, "wof-bowman-mosfin", id="faction-any-case"),
        pytest.param("", None, "wof-bowman-guild", "wof-bowman-guild", id="id-alone"),
        pytest.param("Catapult", None, "WOF-BOWMAN-GUILD", "wof-bowman-guild", id="id-decides"),
        pytest.param("Bowman", None, None, "ambiguous", id="shared-name"),
        pytest.param("Twin Blade", "kalim", None, "ambiguous", id="shared-name-and-faction"),
        pytest.param("Bowman", "darkmoor", None, "unknown", id="no-such-faction"),
        pytest.param("Bowmn", None, None, "unknown", id="misspelt"),
        pytest.param("Bowman", None, "nope", "unknown", id="no-such-id"),
    ],
)
def test_the_catalogue_resolver_finds_one_card_or_says_why_not(
    name: str, faction: str | None, card_id: str | None, expected: str
) -> None:
    outcome = RESOLVE(name, faction, card_id)
    assert (outcome.id if isinstance(outcome, CardRef) else outcome.reason) == expected


def test_the_catalogue_resolver_prefers_an_exact_name_to_a_case_insensitive_one() -> None:
    cards = (CardRef("a", "Box", "item", None), CardRef("b", "BOX", "item", None))
    resolve = CatalogueResolver(cards)
    assert resolve("BOX", None, None) == cards[1]
    assert resolve("box", None, None) == Unresolved("ambiguous", cards)


def test_an_unknown_name_comes_with_the_closest_cards() -> None:
    outcome = RESOLVE("Bowmen", None, None)
    assert isinstance(outcome, Unresolved)
    assert {card.name for card in outcome.candidates} == {"Bowman"}


# --- rendering ---------------------------------------------------------------------------


def test_the_canonical_example_of_the_design_is_rendered_exactly() -> None:
    assert render_text(KALIM_FAITHFUL, CARDS) == KALIM_FAITHFUL_TEXT


def test_empty_sections_are_still_written_as_headers() -> None:
    assert render_text(Decklist("Empty"), CARDS) == (
        "# Empty\n# players: 4\nInitial Holdings\nStructure Pile\nPersonality Pile\nWanderer Pile\n"
    )


def test_an_unnamed_deck_has_a_lone_hash_for_its_name() -> None:
    assert render_text(Decklist("", players=2), CARDS).startswith("#\n# players: 2\n")


def test_the_description_follows_the_player_count_one_hash_line_per_line() -> None:
    deck = Decklist("D", players=3, description="Fast and holy.\n\n  Mulligan for walls.")
    assert render_text(deck, CARDS).startswith(
        "# D\n# players: 3\n# Fast and holy.\n#\n#   Mulligan for walls.\nInitial Holdings\n"
    )


def test_a_name_that_reads_as_a_player_count_is_written_after_the_real_one() -> None:
    text = render_text(Decklist("Players: 5 of them", players=3), CARDS)
    assert text.startswith("# players: 3\n# Players: 5 of them\n")
    assert parse(text).deck == Decklist("Players: 5 of them", players=3)


@pytest.mark.parametrize(
    ("card_id", "line"),
    [
        pytest.param("wof-bell-tower", "1 Bell Tower", id="unique-name"),
        pytest.param("wof-bowman-mosfin", "1 Bowman (mosfin)", id="name-shared-across-factions"),
        pytest.param("wof-catapult-guild", "1 Catapult (guild)", id="catapult"),
        pytest.param("demo-twin-blade-2", "1 Twin Blade [demo-twin-blade-2]", id="same-faction"),
        pytest.param("demo-agent-x2", "1 Agent x2", id="name-ending-in-a-count"),
        pytest.param("demo-2-fast", "1 2 Fast", id="name-starting-with-a-number"),
        pytest.param("demo-sword-ancient", "1 Sword (Ancient)", id="name-with-parentheses"),
        pytest.param("demo-holdings", "1 Holdings", id="name-of-a-section"),
        pytest.param("not-in-catalogue", "1 [not-in-catalogue]", id="unknown-card"),
    ],
)
def test_each_card_is_written_in_the_shortest_form_that_reads_back(
    card_id: str, line: str
) -> None:
    text = render_text(Decklist("D", personalities=(DeckEntry(card_id, 1),)), CARDS)
    assert text.split("\n")[5] == line


def test_a_card_named_like_a_name_with_a_hint_is_written_with_its_id() -> None:
    # Hints are taken off first, so "Bowman (kalim)" is the kalim Bowman, not this card.
    literal = CardRef("odd", "Bowman (kalim)", "personality", None)
    cards = {**CARDS, "odd": literal}
    deck = Decklist("D", personalities=(DeckEntry("wof-bowman-kalim", 1), DeckEntry("odd", 1)))
    lines = render_text(deck, cards).split("\n")
    assert lines[5:7] == ["1 Bowman (kalim)", "1 Bowman (kalim) [odd]"]
    assert parse_text("\n".join(lines), CatalogueResolver(cards.values())).deck == deck


def test_a_count_above_99_is_written_over_several_lines() -> None:
    deck = Decklist("D", wanderers=(DeckEntry("wof-cave-troll", 250),))
    assert "\n99 Cave Troll\n99 Cave Troll\n52 Cave Troll\n" in render_text(deck, CARDS)
    assert parse(render_text(deck, CARDS)).deck == deck


# --- parsing: accepted syntax -------------------------------------------------------------

ACCEPTED: list[tuple[str, Piles]] = [
    (KALIM_FAITHFUL_TEXT, piles_of(KALIM_FAITHFUL)),
    ("2 Bell Tower", {"structures": [("wof-bell-tower", 2)]}),
    ("2x Bell Tower", {"structures": [("wof-bell-tower", 2)]}),
    ("2X Bell Tower", {"structures": [("wof-bell-tower", 2)]}),
    ("2 x Bell Tower", {"structures": [("wof-bell-tower", 2)]}),
    ("2\u00d7 Bell Tower", {"structures": [("wof-bell-tower", 2)]}),
    ("Bell Tower x2", {"structures": [("wof-bell-tower", 2)]}),
    ("Bell Tower x 2", {"structures": [("wof-bell-tower", 2)]}),
    ("Bell Tower X2", {"structures": [("wof-bell-tower", 2)]}),
    ("Bell Tower", {"structures": [("wof-bell-tower", 1)]}),
    ("99 Bell Tower", {"structures": [("wof-bell-tower", 99)]}),
    ("bell tower", {"structures": [("wof-bell-tower", 1)]}),
    ("2 Bowman (kalim)", {"personalities": [("wof-bowman-kalim", 2)]}),
    ("2 bowman (KALIM)", {"personalities": [("wof-bowman-kalim", 2)]}),
    ("Bowman (guild) x2", {"personalities": [("wof-bowman-guild", 2)]}),
    ("1 Bowman [wof-bowman-guild]", {"personalities": [("wof-bowman-guild", 1)]}),
    ("[wof-bowman-guild]", {"personalities": [("wof-bowman-guild", 1)]}),
    ("2 Bowman (guild) [wof-bowman-guild]", {"personalities": [("wof-bowman-guild", 2)]}),
    ("2 Bowman [wof-bowman-guild] (guild)", {"personalities": [("wof-bowman-guild", 2)]}),
    ("1 Twin Blade [demo-twin-blade-2]", {"personalities": [("demo-twin-blade-2", 1)]}),
    ("2 Cave Troll", {"wanderers": [("wof-cave-troll", 2)]}),
    ("Personality Pile\n1 Mystery Card", {"personalities": [("demo-mystery", 1)]}),
    ("initial holdings\n1 Bell Tower", {"holdings": [("wof-bell-tower", 1)]}),
    ("HOLDINGS:\n1 Bell Tower", {"holdings": [("wof-bell-tower", 1)]}),
    ("structure pile:\n1 Bell Tower", {"structures": [("wof-bell-tower", 1)]}),
    ("Structures\n1 Bell Tower", {"structures": [("wof-bell-tower", 1)]}),
    ("Personality Pile (30):\n1 Bell Tower", {"personalities": [("wof-bell-tower", 1)]}),
    ("personalities\n1 Cave Troll", {"personalities": [("wof-cave-troll", 1)]}),
    ("Wanderer Pile:\n1 Cave Troll", {"wanderers": [("wof-cave-troll", 1)]}),
    ("Wanderers (12)\n1 Cave Troll", {"wanderers": [("wof-cave-troll", 1)]}),
    ("Holdings\n1 Mystery Card", {"holdings": [("demo-mystery", 1)]}),
    ("1 Bell Tower\nHoldings\n1 Bell Tower", {
        "holdings": [("wof-bell-tower", 1)], "structures": [("wof-bell-tower", 1)]
    }),
    ("1 Bell Tower\n1 Bell Tower\nBell Tower x2", {"structures": [("wof-bell-tower", 4)]}),
    ("Wanderer Pile\n1 Bell Tower", {"wanderers": [("wof-bell-tower", 1)]}),
    ("// a comment\n1 Bell Tower\n# a comment after the header\n// another", {
        "structures": [("wof-bell-tower", 1)]
    }),
    ("\n\n1 Bell Tower\n\n   \n", {"structures": [("wof-bell-tower", 1)]}),
    ("Holdings\r\n1 Bell Tower\r\n", {"holdings": [("wof-bell-tower", 1)]}),
    ("Holdings\r1 Bell Tower\r", {"holdings": [("wof-bell-tower", 1)]}),
    ("\ufeff1 Bell Tower", {"structures": [("wof-bell-tower", 1)]}),
    ("\t2\tBell  \t Tower\t", {"structures": [("wof-bell-tower", 2)]}),
    ("Bell\tTower\tx2", {"structures": [("wof-bell-tower", 2)]}),
    ("Box 2", {"personalities": [("demo-box-2", 1)]}),
    ("1 Box 2", {"personalities": [("demo-box-2", 1)]}),
    ("3 Lieutenant X", {"personalities": [("demo-lieutenant-x", 3)]}),
    ("Lieutenant X", {"personalities": [("demo-lieutenant-x", 1)]}),
    ("Agent x2", {"personalities": [("demo-agent-x2", 1)]}),
    ("Agent x3", {"personalities": [("demo-agent", 3)]}),
    ("2 Agent x2", {"personalities": [("demo-agent-x2", 2)]}),
    ("2 Fast", {"personalities": [("demo-fast", 2)]}),
    ("1 2 Fast", {"personalities": [("demo-2-fast", 1)]}),
    ("2 X Factor", {"personalities": [("demo-x-factor", 2)]}),
    ("2x Factor", {"personalities": [("demo-factor", 2)]}),
    ("1000 Needles", {"personalities": [("demo-1000-needles", 1)]}),
    ("Holdings\nHoldings x2", {"holdings": [("demo-holdings", 2)]}),
    ("1 Holdings", {"structures": [("demo-holdings", 1)]}),
    ("Sword (Ancient)", {"personalities": [("demo-sword-ancient", 1)]}),
]
ACCEPTED_IDS = [
    "canonical-form", "count-and-name", "count-x-and-name", "count-capital-x", "count-x-spaced",
    "count-times-sign", "name-x-count", "name-x-spaced-count", "name-capital-x-count",
    "name-alone-is-one-copy", "ninety-nine", "name-in-any-case", "faction-hint",
    "faction-hint-any-case", "faction-hint-and-trailing-count", "id-hint", "id-alone",
    "faction-then-id", "id-then-faction", "id-for-same-name-and-faction", "wanderer-by-type",
    "unknown-type-under-a-section", "section-lower-case", "section-alias-with-colon",
    "section-title-with-colon", "section-alias", "section-with-count-and-colon",
    "personalities-alias", "wanderer-pile-with-colon", "wanderers-with-count",
    "holdings-keep-any-type", "cards-before-the-first-header-go-by-type",
    "repeated-lines-add-up", "wrong-pile-is-kept-for-the-validator", "comments",
    "blank-lines", "windows-line-endings", "old-mac-line-endings", "byte-order-mark", "tabs",
    "tabs-before-a-trailing-count", "name-ending-in-a-number", "count-then-name-ending-in-number",
    "name-ending-in-x", "name-ending-in-x-alone", "exact-name-before-trailing-count",
    "trailing-count-when-no-exact-name", "leading-count-and-name-ending-in-x2",
    "leading-count-before-name-starting-with-a-number", "name-starting-with-a-number",
    "count-before-x-reading", "count-x-reading", "name-that-is-an-out-of-range-count",
    "section-name-with-a-count-is-a-card", "counted-section-name-is-a-card",
    "name-with-parentheses-as-written",
]


@pytest.mark.parametrize(("text", "expected"), ACCEPTED, ids=ACCEPTED_IDS)
def test_each_accepted_syntax_reads_into_the_expected_piles(text: str, expected: Piles) -> None:
    result = parse(text)
    assert result.errors == ()
    assert piles_of(result.deck) == expected


@pytest.mark.parametrize(
    ("text", "name", "players", "description"),
    [
        pytest.param("# Kalim Faithful\n# players: 3\n1 Bell Tower", "Kalim Faithful", 3, "",
                     id="name-then-players"),
        pytest.param("# players: 5\n# Kalim Faithful", "Kalim Faithful", 5, "",
                     id="players-then-name"),
        pytest.param("#players:2\n#  Tight   Name ", "Tight Name", 2, "", id="no-spaces"),
        pytest.param("# PLAYERS :  6\n# D", "D", 6, "", id="players-any-case"),
        pytest.param("# D\n1 Bell Tower", "D", 4, "", id="players-default-to-4"),
        pytest.param("1 Bell Tower", "", 4, "", id="no-header"),
        pytest.param("# D\n# players: 3\n# one\n#\n#   two\n# players: 5", "D", 3,
                     "one\n\n  two\nplayers: 5", id="description-lines"),
        pytest.param("# D\n// not part of it\n\n# desc", "D", 4, "desc",
                     id="slash-comments-are-not-description"),
        pytest.param("# D\n1 Bell Tower\n# players: 6\n# not a description", "D", 4, "",
                     id="hash-lines-after-a-card-are-comments"),
        pytest.param("# D\nHoldings\n# not a description", "D", 4, "",
                     id="hash-lines-after-a-section-are-comments"),
        pytest.param("\ufeff# D\r\n# players: 2\r\n# x\r\n", "D", 2, "x", id="bom-and-crlf"),
    ],
)
def test_the_header_gives_the_name_player_count_and_description(
    text: str, name: str, players: int, description: str
) -> None:
    deck = parse(text).deck
    assert deck is not None
    assert (deck.name, deck.players, deck.description) == (name, players, description)


# --- parsing: errors ---------------------------------------------------------------------

LONG_LINE = "1 " + "Bell Tower " * 20

ERRORS = [
    pytest.param("2 Bowmn", [(1, "unknown_card")], id="unknown-card"),
    pytest.param("Bowman (darkmoor)", [(1, "unknown_card")], id="unknown-faction"),
    pytest.param("1 Bowman [no-such-id]", [(1, "unknown_card")], id="unknown-id"),
    pytest.param("Bowman", [(1, "ambiguous_card")], id="ambiguous-name"),
    pytest.param("2x Catapult", [(1, "ambiguous_card")], id="ambiguous-catapult"),
    pytest.param("Twin Blade (kalim)", [(1, "ambiguous_card")], id="ambiguous-name-and-faction"),
    pytest.param("0 Bell Tower", [(1, "bad_count")], id="zero"),
    pytest.param("-1 Bell Tower", [(1, "bad_count")], id="negative"),
    pytest.param("100 Bell Tower", [(1, "bad_count")], id="hundred"),
    pytest.param("9" * 5000 + " Bell Tower", [(1, "bad_line")], id="huge-and-too-long"),
    pytest.param("99999999999999999999 Bell Tower", [(1, "bad_count")], id="huge"),
    pytest.param("Bell Tower x0", [(1, "bad_count")], id="trailing-zero"),
    pytest.param("0x Bell Tower", [(1, "bad_count")], id="zero-x"),
    pytest.param("3", [(1, "bad_line")], id="count-without-name"),
    pytest.param("3x", [(1, "bad_line")], id="count-x-without-name"),
    pytest.param(LONG_LINE, [(1, "bad_line")], id="line-too-long"),
    pytest.param("1 Mystery Card", [(1, "unknown_type")], id="unknown-type-without-section"),
    pytest.param("# players: 1", [(1, "bad_players")], id="one-player"),
    pytest.param("# D\n# players: 7", [(2, "bad_players")], id="seven-players"),
    pytest.param("# players: four", [(1, "bad_players")], id="players-in-words"),
    pytest.param("# players:", [(1, "bad_players")], id="players-missing"),
    pytest.param("# players: 2.5", [(1, "bad_players")], id="players-not-whole"),
    pytest.param(
        "# D\r\n# players: 9\r\n\r\n// note\r\nHoldings\r\nBowman\r\n1 Bell Tower\r\n"
        "0 Cave Troll\r\n# comment\r\nBowmn x2\r\n",
        [(2, "bad_players"), (6, "ambiguous_card"), (8, "bad_count"), (10, "unknown_card")],
        id="every-error-at-once-with-its-line-number",
    ),
]


@pytest.mark.parametrize(("text", "expected"), ERRORS)
def test_each_bad_line_is_reported_with_its_number_and_code(
    text: str, expected: list[tuple[int, str]]
) -> None:
    result = parse(text)
    assert [(error.line, error.code) for error in result.errors] == expected
    assert result.deck is None
    assert not result.ok
    assert all(error.message for error in result.errors)


@pytest.mark.parametrize(
    ("line", "suggestions", "in_message"),
    [
        pytest.param("2 Bowmn", ("Bowman (kalim)", "Bowman (mosfin)", "Bowman (guild)"),
                     '"Bowmn"', id="misspelt-shared-name"),
        pytest.param("Bel Tower", ("Bell Tower",), 'Did you mean "Bell Tower"?', id="misspelt"),
        pytest.param("Bowman", ("Bowman (kalim)", "Bowman (mosfin)", "Bowman (guild)"),
                     '"Bowman (kalim)", "Bowman (mosfin)" and "Bowman (guild)"', id="ambiguous"),
        pytest.param("Twin Blade (kalim)", ("Twin Blade [demo-twin-blade-1]",
                                             "Twin Blade [demo-twin-blade-2]"),
                     '"Twin Blade (kalim)" matches several cards', id="same-name-and-faction"),
        pytest.param("Bowman (darkmoor)", ("Bowman (kalim)", "Bowman (mosfin)", "Bowman (guild)"),
                     'No card matches "Bowman (darkmoor)"', id="wrong-faction"),
        pytest.param("1 Bowman [nope]", ("Bowman (kalim)", "Bowman (mosfin)", "Bowman (guild)"),
                     'No card has the id "nope"', id="wrong-id"),
        pytest.param("0 Bell Tower", (), "The count 0 is out of range", id="bad-count"),
        pytest.param("1 Mystery Card", (), "its type is unknown", id="unknown-type"),
        pytest.param("# players: 8", (), 'not "8"', id="bad-players"),
    ],
)
def test_an_error_says_what_is_wrong_and_suggests_ready_to_paste_fixes(
    line: str, suggestions: tuple[str, ...], in_message: str
) -> None:
    (error,) = parse(line).errors
    assert error.suggestions == suggestions
    assert in_message in error.message
    assert error.text == line


def test_an_error_line_keeps_the_text_as_written_but_trimmed() -> None:
    (error,) = parse("\n  2 Bowmn\t\r\n").errors
    assert error == LineError(
        2, "2 Bowmn", "unknown_card", error.message, ("Bowman (kalim)", "Bowman (mosfin)",
                                                      "Bowman (guild)")
    )


def test_the_resolver_is_asked_with_the_name_and_both_hints() -> None:
    calls: list[tuple[str, str | None, str | None]] = []

    def resolve(name: str, faction: str | None, card_id: str | None) -> CardRef | Unresolved:
        calls.append((name, faction, card_id))
        return CardRef("x", name, "item", faction)

    parse_text("2 Bowman (kalim) [wof-bowman-kalim]", resolve)
    assert calls == [("Bowman", "kalim", "wof-bowman-kalim")]


# --- properties --------------------------------------------------------------------------

GRAMMAR_PIECES = [
    "2", "0", "-1", "100", "2x", "x2", "x", "X", " ", "\t", "\r\n", "\n", "\r", "#", "# ",
    "//", "players:", "players: 3", "(", ")", "[", "]", "(kalim)", "[wof-bowman-kalim]",
    "Bowman", "Catapult", "Box 2", "Agent", "Holdings", "Structure Pile", ":", "\ufeff",
    "Lieutenant X", "Mystery Card", "1000 Needles",
]
grammar_like_text = st.lists(st.sampled_from(GRAMMAR_PIECES), max_size=40).map("".join)


@settings(max_examples=300)
@given(st.one_of(st.text(), grammar_like_text))
def test_the_parser_never_fails_on_any_text(text: str) -> None:
    result = parse(text)
    assert (result.deck is None) == bool(result.errors)
    line_count = len(text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
                     .split("\n"))
    assert all(1 <= error.line <= line_count for error in result.errors)
    assert [error.line for error in result.errors] == sorted(error.line for error in result.errors)


def decks(card_ids: list[str]) -> st.SearchStrategy[Decklist]:
    entry = st.builds(DeckEntry, st.sampled_from(card_ids), st.integers(1, 120))
    pile = st.lists(entry, max_size=6).map(tuple)
    return st.builds(
        Decklist,
        name=st.text(max_size=30),
        players=st.integers(2, 6),
        description=st.text(max_size=60),
        holdings=pile,
        structures=pile,
        personalities=pile,
        wanderers=pile,
    )


@settings(max_examples=300)
@given(decks([card.id for card in CATALOGUE]))
def test_any_deck_reads_back_from_its_text(deck: Decklist) -> None:
    assert parse(render_text(deck, CARDS)).deck == deck


card_names = st.one_of(
    st.sampled_from(["Bowman", "Box 2", "Agent x2", "Agent", "2 Fast", "X", "x2", "(kalim)",
                     "Bowman (kalim)", "[a]", "Structure Pile", "#1", "// x", "  "]),
    st.text(max_size=12),
    st.text(alphabet=string.digits + " xX()[]#/:", max_size=10),
)


@st.composite
def catalogues_and_decks(draw: st.DrawFn) -> tuple[dict[str, CardRef], Decklist]:
    ids = draw(st.lists(st.from_regex(r"[a-z0-9][a-z0-9-]{0,8}", fullmatch=True),
                        min_size=1, max_size=8, unique=True))
    cards = {
        card_id: CardRef(
            card_id,
            draw(card_names),
            draw(st.sampled_from(["structure", "personality", "wanderer", "item", None])),
            draw(st.sampled_from(["kalim", "mosfin", "guild", "Kalim", None])),
        )
        for card_id in ids
    }
    return cards, draw(decks(ids))


@settings(max_examples=300)
@given(catalogues_and_decks())
def test_any_deck_reads_back_from_its_text_whatever_the_card_names(
    catalogue_and_deck: tuple[dict[str, CardRef], Decklist],
) -> None:
    cards, deck = catalogue_and_deck
    text = render_text(deck, cards)
    assert parse_text(text, CatalogueResolver(cards.values())).deck == deck
