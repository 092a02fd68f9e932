"""Every decklist format round-trips: parse(render(deck)) == deck; bad input is named."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.formats.card_refs import CardRef
from decks.formats.csv_format import DeckCsvError, parse_csv, render_csv
from decks.formats.deck_code import DeckCodeError, decode_deck_code, encode_deck_code, reference
from decks.formats.detect import detect_format
from decks.formats.json_format import DeckJsonError, parse_json, render_json
from decks.formats.text import CatalogueResolver, parse_text, render_text
from rules.decklist import SECTIONS, DeckEntry, Decklist
from tests.conftest import CATALOGUES, FIXTURES

CARDS = [
    CardRef(c["id"], c["name"], c["type"], c["faction"])
    for path in CATALOGUES
    for c in json.loads(path.read_text(encoding="utf-8"))["cards"]
]
BY_ID = {c.id: c for c in CARDS}
IDS = [c.id for c in CARDS]
RESOLVER = CatalogueResolver(CARDS)
SAMPLES = sorted((FIXTURES / "decklists").glob("*.txt"))


def sample(path: Path) -> Decklist:
    deck = parse_text(path.read_text(encoding="utf-8"), RESOLVER).deck
    assert deck is not None
    return deck


entries = st.lists(
    st.builds(DeckEntry, st.sampled_from(IDS), st.integers(1, 99)), max_size=8
)
decks = st.builds(
    Decklist,
    name=st.text(max_size=40),
    players=st.integers(2, 6),
    description=st.text(max_size=80),
    holdings=entries.map(tuple),
    structures=entries.map(tuple),
    personalities=entries.map(tuple),
    wanderers=entries.map(tuple),
)

ROUND_TRIPS = {
    "text": lambda d: parse_text(render_text(d, BY_ID), RESOLVER).deck,
    "json": lambda d: parse_json(render_json(d)),
    "csv": lambda d: parse_csv(render_csv(d, BY_ID), RESOLVER),
    # The code carries the players and cards; the name and description travel beside it, as
    # a deck link's ?name= does (the way a file's name travels beside its contents).
    "code": lambda d: decode_deck_code(encode_deck_code(d, IDS), IDS, name=d.name,
                                       description=d.description),
}


@pytest.mark.parametrize("fmt", ROUND_TRIPS)
@given(deck=decks)
@settings(max_examples=60, deadline=None)
def test_every_format_reads_back_the_deck_it_wrote(fmt: str, deck: Decklist) -> None:
    assert ROUND_TRIPS[fmt](deck) == deck


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("fmt", ROUND_TRIPS)
def test_each_sample_deck_round_trips_through_each_format(path: Path, fmt: str) -> None:
    deck = sample(path)
    assert ROUND_TRIPS[fmt](deck) == deck


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_a_sample_deck_code_is_short(path: Path) -> None:
    deck = sample(path)
    code = encode_deck_code(deck, IDS)
    distinct = len(deck.all_entries())
    # 4 bytes a distinct card and 9 of framing (version, players, 4 counts, checksum), in
    # base64 (4/3): the name and description add nothing.
    assert len(code) <= (distinct * 4 + 9) * 4 / 3 + 1
    assert deck.name not in base64.urlsafe_b64decode(code + "==").decode("latin-1")


@given(deck=decks)
@settings(max_examples=30, deadline=None)
def test_a_code_alone_carries_the_players_and_cards_only(deck: Decklist) -> None:
    assert decode_deck_code(encode_deck_code(deck, IDS), IDS) == replace(
        deck, name="", description="")


OLD_FAITHFUL = Decklist(name="Old Faithful", players=3, description="Given out before version 2.",
                    holdings=(DeckEntry("wof-ariams-temple", 1),),
                    structures=(DeckEntry("wof-bell-tower", 2),))


@pytest.mark.parametrize(
    ("code", "beside", "deck"),
    [
        # Written by version 1 (name and description inside) and given out: still read.
        ("AQMMT2xkIEZhaXRoZnVsG0dpdmVuIG91dCBiZWZvcmUgdmVyc2lvbiAyLgEC31grAQTZKrMAAORyHw", {},
         OLD_FAITHFUL),
        # A version-1 code keeps its own name over one passed beside it.
        ("AQMMT2xkIEZhaXRoZnVsG0dpdmVuIG91dCBiZWZvcmUgdmVyc2lvbiAyLgEC31grAQTZKrMAAORyHw",
         {"name": "Other"}, OLD_FAITHFUL),
        # Version 2: the cards only, 23 characters instead of 80.
        ("AgMBAt9YKwEE2SqzAAA9fjU", {}, replace(OLD_FAITHFUL, name="", description="")),
        ("AgMBAt9YKwEE2SqzAAA9fjU", {"name": "Old Faithful"},
         replace(OLD_FAITHFUL, description="")),
        (" AgMBAt9YKwEE2Sqz\nAAA9fjU\n", {"name": "Old Faithful",
                                         "description": "Given out before version 2."},
         OLD_FAITHFUL),
    ],
    ids=["v1", "v1-keeps-its-name", "v2", "v2-named-beside", "v2-wrapped-with-both"],
)
def test_codes_of_both_versions_decode(code: str, beside: dict[str, str], deck: Decklist) -> None:
    assert decode_deck_code(code, IDS, **beside) == deck


def test_the_encoder_writes_version_2() -> None:
    assert encode_deck_code(OLD_FAITHFUL, IDS) == "AgMBAt9YKwEE2SqzAAA9fjU"


def _with_checksum(body: bytes) -> str:
    data = body + hashlib.sha256(body).digest()[:3]
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


V2 = "AgMBAt9YKwEE2SqzAAA9fjU"


@pytest.mark.parametrize(
    ("code", "message"),
    [("", "empty"), ("abc def!", "only letters, digits"), ("AAAAAAAAAAAAA", "mistyped"),
     ("AAAAAAAAAAAA", "checksum"),
     (V2[:10] + ("A" if V2[10] != "A" else "B") + V2[11:], "checksum does not match"),
     (V2[:-1], "mistyped or cut short"), (V2[:-2], "cut short or mistyped (bad length)"),
     (V2[:-4], "mistyped or cut short"),
     (V2[:4], "checksum does not match"),
     (_with_checksum(bytes([3, 4, 0, 0, 0, 0])), "format version 3; this site reads "
                                                 "versions 1 and 2"),
     (_with_checksum(bytes([2, 4, 1, 2])), "ends too early"),
     (_with_checksum(bytes([2, 4, 0, 0, 0, 0, 7])), "extra data after the deck"),
     (_with_checksum(bytes([2, 9, 0, 0, 0, 0])), "impossible deck")],
    ids=["empty", "bad-characters", "bad-length", "garbage", "one-character-changed",
         "cut-by-one", "cut-by-two", "cut-by-four", "cut-to-the-header", "unknown-version",
         "ends-early", "extra-data", "impossible-players"],
)
def test_a_damaged_code_gets_a_plain_error(code: str, message: str) -> None:
    with pytest.raises(DeckCodeError, match=re.escape(message)):
        decode_deck_code(code, IDS)


def test_a_code_naming_cards_this_catalogue_lacks_says_so() -> None:
    code = encode_deck_code(Decklist(name="x", structures=(DeckEntry("elsewhere-card", 1),)), IDS)
    with pytest.raises(DeckCodeError, match="1 card"):
        decode_deck_code(code, IDS)


def test_cards_whose_references_collide_are_written_by_id() -> None:
    # Two ids with the same 3-byte reference: found by search over a small space.
    seen: dict[bytes, str] = {}
    pair: tuple[str, str] | None = None
    for n in range(200_000):
        candidate = f"c{n}"
        ref = reference(candidate)
        if ref in seen:
            pair = (seen[ref], candidate)
            break
        seen[ref] = candidate
    assert pair is not None
    deck = Decklist(name="", structures=(DeckEntry(pair[0], 1), DeckEntry(pair[1], 2)))
    assert decode_deck_code(encode_deck_code(deck, pair), pair) == deck


@pytest.mark.parametrize(
    ("text", "problem"),
    [("[]", "must be an object"), ('{"players": 9}', "players"),
     ('{"structures": [{"id": "x", "count": 0}]}', "structures[0].count"),
     ('{"cards": []}', "cards: unknown key"), ("{", "invalid JSON at line 1")],
)
def test_bad_json_decklists_are_refused_with_the_path(text: str, problem: str) -> None:
    with pytest.raises(DeckJsonError, match=re.escape(problem)):
        parse_json(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [("a,b\n", "line 1: the header"),
     ("section,count,id,name\nnowhere,1,,Bell Tower\n", "line 2: unknown section"),
     ("section,count,id,name\nstructures,0,,Bell Tower\n", "line 2: the count"),
     ("section,count,id,name\nstructures,1,,Bel Towr\n", "line 2: unknown card"),
     ("section,count,id,name\nstructures,1\n", "line 2: expected 4 columns")],
)
def test_bad_csv_rows_are_refused_with_the_line(text: str, problem: str) -> None:
    with pytest.raises(DeckCsvError, match=problem):
        parse_csv(text, RESOLVER)


def test_a_csv_row_may_name_the_card_instead_of_its_id() -> None:
    deck = parse_csv("section,count,id,name\nStructure Pile,2,,Bell Tower\n", RESOLVER)
    assert deck.structures == (DeckEntry("wof-bell-tower", 2),)


@pytest.mark.parametrize(
    ("text", "fmt"),
    [('{"name": "x"}', "json"), ("section,count,id,name\n", "csv"),
     ("Structure Pile\n2 Bell Tower\n", "text"), ("Bell Tower", "text"),
     ("AQRLYWxpbSBGYWl0aGZ1bAA", "code")],
)
def test_the_format_is_detected_from_the_content(text: str, fmt: str) -> None:
    assert detect_format(text) == fmt


def test_every_section_is_written_by_every_format() -> None:
    deck = sample(SAMPLES[0])
    assert all(deck.section(s) for s in SECTIONS)
    assert all(s in render_csv(deck, BY_ID) for s in SECTIONS)
