"""The matchup command's gauntlet and matrix: the shapes of the document, each pairing the
§14 report of the matchup of its two decks, the same document for one and two workers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.commands import run_command as run
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
DECKS = [str(FIXTURES / "decklists" / f"{name}.txt")
         for name in ("guild-veterans", "kalim-faithful", "mosfin-senate")]
NAMES = ["Guild Veterans", "Kalim Faithful", "Mosfin Senate"]


def field(mode: str, *args: str, decks: list[str] = DECKS) -> dict[str, Any]:
    code, out, err = run("matchup", *decks, f"--{mode}", "--seed", "3", "--format", "json",
                         *args)
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return document


@pytest.mark.parametrize(("mode", "pairs", "met"), [
    ("gauntlet", [[0, 1], [0, 2]], {(0, 1), (1, 0), (0, 2), (2, 0)}),
    ("matrix", [[0, 1], [0, 2], [1, 2]], {(i, j) for i in range(3) for j in range(3) if i != j}),
])
def test_the_pairings_and_the_matrix_of_win_rates(mode: str, pairs: list[list[int]],
                                                 met: set[tuple[int, int]]) -> None:
    document = field(mode, "--games", "4")
    assert (document["mode"], document["games"], document["seed"]) == (mode, 4, 3)
    assert [p["decks"] for p in document["pairings"]] == pairs
    assert [d["name"] for d in document["decks"]] == NAMES
    matrix = document["matrix"]
    assert {(i, j) for i in range(3) for j in range(3) if matrix[i][j] is not None} == met
    for pairing in document["pairings"]:
        i, j = pairing["decks"]
        report = pairing["report"]
        assert [d["name"] for d in report["decks"]] == [NAMES[i], NAMES[j]]
        assert report["players"] == 2 and report["games"] == 4
        # The matrix cell is the pairing's figure, from the row deck's side.
        for row, col, side in ((i, j, 0), (j, i, 1)):
            cell, deck = matrix[row][col], report["decks"][side]
            assert (cell["wins"], cell["games"], cell["win_rate"], cell["ci95"]) == (
                deck["wins"], 4, deck["win_rate"], deck["ci95"])
    for number, deck in enumerate(document["decks"]):
        played = [p for p in document["pairings"] if number in p["decks"]]
        assert deck["games"] == 4 * len(played)
        assert deck["wins"] == sum(p["report"]["decks"][p["decks"].index(number)]["wins"]
                                   for p in played)
        assert deck["cards"] and all(
            {"name", "drawn", "played", "win_rate_when_played", "offered",
             "never_played"} == set(card)
            for card in deck["cards"].values())


def test_a_pairing_is_the_matchup_of_its_two_decks() -> None:
    document = field("matrix", "--games", "3")
    code, out, _ = run("matchup", DECKS[1], DECKS[2], "--seed", "3", "--games", "3",
                       "--format", "json")
    assert code == 0
    assert document["pairings"][2]["report"] == json.loads(out)


def test_the_same_document_for_one_and_two_workers() -> None:
    # 51 games a pairing: two chunks, so two workers really play them in two processes.
    one = field("gauntlet", "--games", "51", "--workers", "1", decks=DECKS[:2])
    two = field("gauntlet", "--games", "51", "--workers", "2", decks=DECKS[:2])
    assert one == two


def test_the_text_table_names_the_decks_and_the_intervals() -> None:
    code, out, _ = run("matchup", *DECKS, "--matrix", "--seed", "3", "--games", "2")
    assert code == 0
    assert "Matrix of 3 decks: 3 pairings of 2 games" in out
    assert "Win rate of the row's deck against the column's (95% interval)" in out
    assert all(name in out for name in NAMES)


@pytest.mark.parametrize(("decks", "args", "message"), [
    (DECKS, ("--gauntlet", "--log", "1"), "--log tells a game of one matchup"),
    (DECKS * 3, ("--gauntlet",), "A gauntlet takes 2 to 8 decks, not 9"),
])
def test_bad_input_exits_1(decks: list[str], args: tuple[str, ...], message: str) -> None:
    code, _, err = run("matchup", *decks, "--seed", "1", "--games", "2", *args)
    assert code == 1 and message in err
