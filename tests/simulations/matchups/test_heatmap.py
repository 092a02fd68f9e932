"""The heat map's geometry and colours (simulations.heatmap, pure): one cell per pair that met, a
colour-blind-safe diverging scale, text that contrasts with every fill."""

from __future__ import annotations

from typing import Any

import pytest

from simulations.heatmap import _luminance, colour, heatmap, ink


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize(("rate", "fill"), [
    (0.0, "#e66101"), (0.25, "#fdb863"), (0.5, "#f7f7f7"), (0.75, "#b2abd2"),
    (1.0, "#5e3c99"), (-1.0, "#e66101"), (2.0, "#5e3c99"),
])
def test_the_scale_is_puor_orange_white_purple(rate: float, fill: str) -> None:
    assert colour(rate) == fill


def test_every_cell_s_text_contrasts_at_least_4_5_to_1() -> None:
    worst = min(contrast(colour(r / 1000), ink(r / 1000)) for r in range(1001))
    assert worst >= 4.5


def record(rate: float) -> dict[str, Any]:
    return {"wins": round(10 * rate), "games": 10, "win_rate": rate, "ci95": [0.1, 0.9]}


def report(mode: str, decks: int) -> dict[str, Any]:
    matrix: list[list[dict[str, Any] | None]] = [[None] * decks for _ in range(decks)]
    for i in range(decks):
        for j in range(decks):
            if i != j and (mode == "matrix" or 0 in (i, j)):
                matrix[i][j] = record(0.5 if i < j else 0.3)
    return {"mode": mode, "decks": [{"name": f"Deck {n}"} for n in range(decks)],
            "matrix": matrix}


@pytest.mark.parametrize(("mode", "decks", "rows", "columns", "numbers"), [
    ("gauntlet", 4, 1, 3, 3), ("matrix", 4, 4, 4, 12), ("matrix", 6, 6, 6, 30),
    ("matrix", 2, 2, 2, 2),
])
def test_rows_columns_and_numbered_cells(mode: str, decks: int, rows: int, columns: int,
                                         numbers: int) -> None:
    drawn = heatmap(report(mode, decks))
    assert (len(drawn["rows"]), len(drawn["columns"])) == (rows, columns)
    assert len(drawn["cells"]) == rows * columns
    assert drawn["numbers"] == numbers
    numbered = [c for c in drawn["cells"] if not c["blank"]]
    assert {c["rate"] for c in numbered} <= {"50%", "30%"}
    assert all(c["interval"] == "10\u201390" and "95% interval" in c["label"] for c in numbered)
    # Every cell inside the picture.
    assert all(c["x"] + drawn["cell_w"] <= drawn["width"]
               and c["y"] + drawn["cell_h"] <= drawn["height"] for c in drawn["cells"])


def test_a_long_name_is_shortened_on_the_axis_and_kept_whole_in_its_title() -> None:
    document = report("gauntlet", 2)
    document["decks"][1]["name"] = "The Very Long Name Of A Deck Indeed"
    column = heatmap(document)["columns"][0]
    assert column["name"].endswith("…") and len(column["name"]) == 22
    assert column["full"] == "The Very Long Name Of A Deck Indeed"
