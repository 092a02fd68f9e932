"""The collection CSV (collection/csv_format.py): pure, no database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from collection.csv_format import (
    CollectionCsvError,
    Counts,
    CsvLineError,
    parse_collection_csv,
    render_collection_csv,
    render_missing_csv,
)
from decks.formats.card_refs import CardRef

CATALOGUE = (
    CardRef("wof-bell-tower", "Bell Tower", "structure", None),
    CardRef("wof-bowman-kalim", "Bowman", "personality", "kalim"),
    CardRef("wof-bowman-mosfin", "Bowman", "personality", "mosfin"),
    CardRef("wof-bowman-guild", "Bowman", "personality", "guild"),
    CardRef("wof-bishop-ospin", "Bishop Ospin", "personality", "kalim"),
    CardRef("wof-cave-troll", "Cave Troll", "wanderer", None),
)
CARDS = {card.id: card for card in CATALOGUE}


def errors_of(text: str) -> list[CsvLineError]:
    with pytest.raises(CollectionCsvError) as raised:
        parse_collection_csv(text, CATALOGUE)
    return list(raised.value.errors)


def test_a_good_file_reads_ids_names_blank_counts_and_blank_lines() -> None:
    text = (
        "\ufeffid,name,owned,want,trade\r\n"
        "wof-bell-tower,Bell Tower,3,0,1\r\n"
        "\r\n"
        ",Bishop Ospin,1,,\r\n"
        "WOF-CAVE-TROLL,whatever the reader wrote,0,2,0\r\n"
        'wof-bowman-guild,"Bowman",2,0,0\r\n'
    )
    assert parse_collection_csv(text, CATALOGUE) == {
        "wof-bell-tower": Counts(3, 0, 1),
        "wof-bishop-ospin": Counts(1, 0, 0),
        "wof-cave-troll": Counts(0, 2, 0),
        "wof-bowman-guild": Counts(2, 0, 0),
    }


@pytest.mark.parametrize(
    "header",
    ["id,name,owned,want,trade", "ID, Name ,OWNED", "name,owned", "owned,trade,id"],
)
def test_columns_may_come_in_any_order_and_want_and_trade_may_be_left_out(header: str) -> None:
    columns = [c.strip().lower() for c in header.split(",")]
    values = {"id": "wof-bell-tower", "name": "Bell Tower", "owned": "2", "want": "1",
              "trade": "1"}
    row = ",".join(values[c] for c in columns)
    expected = Counts(2, 1 if "want" in columns else 0, 1 if "trade" in columns else 0)
    assert parse_collection_csv(f"{header}\n{row}\n", CATALOGUE) == {"wof-bell-tower": expected}


@pytest.mark.parametrize(
    ("text", "line", "code", "words"),
    [
        pytest.param("", 1, "bad_header", "empty", id="empty-file"),
        pytest.param("id,name,owned,colour\n", 1, "bad_header", "'colour'", id="unknown-column"),
        pytest.param("id,owned,owned\n", 1, "bad_header", "more than once", id="repeated-column"),
        pytest.param("id,name,want\n", 1, "bad_header", "owned", id="no-owned-column"),
        pytest.param("wof-bell-tower,Bell Tower,2,0,0\n", 1, "bad_header", "none of those columns",
                     id="no-header-at-all"),
        pytest.param("id,name,owned\nwof-bell-tower,Bell Tower,2,9\n", 2, "bad_row", "4 values",
                     id="too-many-values"),
        pytest.param("id,name,owned\nwof-bell-tower,,-1\n", 2, "bad_count", "owned",
                     id="negative-count"),
        pytest.param("id,name,owned,want\nwof-bell-tower,,1,two\n", 2, "bad_count", "'two'",
                     id="count-not-a-number"),
        pytest.param("id,name,owned\nwof-bell-tower,,10000\n", 2, "bad_count", "9,999",
                     id="count-too-big"),
        pytest.param("id,name,owned\n,,1\n", 2, "missing_card", "id or name", id="no-card"),
        pytest.param("id,name,owned\nwof-bell-towr,Bell Tower,1\n", 2, "unknown_card",
                     "Did you mean Bell Tower (wof-bell-tower)?", id="unknown-id-known-name"),
        pytest.param("id,name,owned\nwof-cave-trol,,1\n", 2, "unknown_card",
                     "Did you mean Cave Troll (wof-cave-troll)?", id="unknown-id-close-id"),
        pytest.param("id,name,owned\n,Bishop Ospinn,1\n", 2, "unknown_card",
                     "Did you mean Bishop Ospin (wof-bishop-ospin)?", id="unknown-name"),
        pytest.param("id,name,owned\nzzz-qqq,,1\n", 2, "unknown_card", "No card has the id",
                     id="unknown-id-nothing-close"),
        pytest.param("id,name,owned\n,Bowman,1\n", 2, "ambiguous_card", "wof-bowman-kalim",
                     id="name-of-several-cards"),
        pytest.param("id,name,owned\nwof-bell-tower,,1\n,Bell Tower,2\n", 3, "duplicate_card",
                     "already on line 2", id="card-listed-twice"),
        pytest.param('id,name,owned\nwof-bell-tower,"Bell\x00,1\n', 2, "bad_row", "cannot be read",
                     id="unreadable-csv"),
    ],
)
def test_every_kind_of_error_names_its_line(text: str, line: int, code: str, words: str) -> None:
    errors = errors_of(text)
    assert [(e.line, e.code) for e in errors] == [(line, code)], errors
    assert words in errors[0].message


def test_a_file_with_errors_reports_all_of_them_in_line_order() -> None:
    text = ("id,name,owned,want,trade\n"
            "wof-bell-tower,,1,0,0\n"
            "nope,,1,0,0\n"
            "\n"
            "wof-cave-troll,,x,0,-2\n"
            ",Bowman,1,0,0\n")
    errors = errors_of(text)
    assert [(e.line, e.code) for e in errors] == [
        (3, "unknown_card"), (5, "bad_count"), (5, "bad_count"), (6, "ambiguous_card"),
    ]
    assert errors[1].text == "wof-cave-troll,,x,0,-2"
    assert errors[3].suggestions == ("wof-bowman-kalim", "wof-bowman-mosfin", "wof-bowman-guild")


def test_an_export_lists_every_card_with_its_name() -> None:
    text = render_collection_csv([(CARDS["wof-bowman-kalim"], Counts(2, 1, 0))])
    assert text == "id,name,owned,want,trade\nwof-bowman-kalim,Bowman,2,1,0\n"


def test_the_missing_list_is_id_name_missing() -> None:
    text = render_missing_csv([(CARDS["wof-bell-tower"], 2)])
    assert text == "id,name,missing\nwof-bell-tower,Bell Tower,2\n"


COUNT = st.integers(0, 9999)


@given(st.dictionaries(st.sampled_from(sorted(CARDS)), st.builds(Counts, COUNT, COUNT, COUNT)))
def test_an_export_reads_back_exactly(counts: dict[str, Counts]) -> None:
    text = render_collection_csv((CARDS[card_id], c) for card_id, c in counts.items())
    assert parse_collection_csv(text, CATALOGUE) == counts


@given(st.text(max_size=200))
def test_any_text_reads_or_fails_with_line_errors_never_a_crash(text: str) -> None:
    try:
        parse_collection_csv(text, CATALOGUE)
    except CollectionCsvError as error:
        assert error.errors and all(e.line >= 1 for e in error.errors)
