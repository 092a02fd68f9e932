"""The heat map of a gauntlet or a matrix: the row deck's win rate against the column deck, one
cell each, as the geometry and colours an SVG template draws (templates/matchups/_heatmap.html).

Pure Python. The colours are ColorBrewer's PuOr (orange for a low win rate, white at 50%,
purple for a high one): a diverging scale that stays readable with the common colour-vision
deficiencies, and the number is written in every cell anyway. A gauntlet has one row (the
first deck) against each other deck; a matrix one row and one column per deck, its diagonal
left blank.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any, Final

# PuOr, 5 classes: 0%, 25%, 50%, 75%, 100%.
STOPS: Final = ((0.0, (0xE6, 0x61, 0x01)), (0.25, (0xFD, 0xB8, 0x63)),
                (0.5, (0xF7, 0xF7, 0xF7)), (0.75, (0xB2, 0xAB, 0xD2)),
                (1.0, (0x5E, 0x3C, 0x99)))
LABEL: Final = 170  # the row names' column
HEADER: Final = 120  # the column names, slanted
CELL_W: Final = 92
CELL_H: Final = 52
LEGEND: Final = 64
NAME_CHARS: Final = 22
DASH: Final = "\u2013"  # an en dash between the ends of an interval


def colour(rate: float) -> str:
    """The fill for a win rate (0..1), interpolated between the scale's stops."""
    rate = min(max(rate, 0.0), 1.0)
    for (low, a), (high, b) in pairwise(STOPS):
        if rate <= high:
            t = (rate - low) / (high - low)
            return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b,
                                                                               strict=True))
    return "#" + "".join(f"{x:02x}" for x in STOPS[-1][1])


def _luminance(fill: str) -> float:
    """WCAG relative luminance of "#rrggbb"."""
    channels = []
    for k in (1, 3, 5):
        c = int(fill[k:k + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def ink(rate: float) -> str:
    """The text colour of a cell: black or white, whichever contrasts more with it (at least
    4.5:1 for any fill: the most either can do against a mid-grey is about 4.58)."""
    light = _luminance(colour(rate))
    dark = _luminance("#000000")
    return "#000000" if (light + 0.05) / (dark + 0.05) >= 1.05 / (light + 0.05) else "#ffffff"


def short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


def heatmap(report: dict[str, Any]) -> dict[str, Any]:
    """Rows, columns, cells and the legend of a gauntlet's or a matrix's report."""
    names = [deck["name"] for deck in report["decks"]]
    matrix: Sequence[Sequence[dict[str, Any] | None]] = report["matrix"]
    gauntlet = report["mode"] == "gauntlet"
    rows = [0] if gauntlet else list(range(len(names)))
    columns = list(range(1, len(names))) if gauntlet else list(range(len(names)))
    cells = []
    for y, row in enumerate(rows):
        for x, column in enumerate(columns):
            record = matrix[row][column]
            left, top = LABEL + x * CELL_W, HEADER + y * CELL_H
            cell: dict[str, Any] = {"x": left, "y": top, "cx": left + CELL_W // 2,
                                    "rate_y": top + 23, "interval_y": top + 40,
                                    "row": names[row], "column": names[column]}
            if record is None:
                cell["blank"] = True
            else:
                low, high = record["ci95"]
                cell.update(blank=False, fill=colour(record["win_rate"]),
                            ink=ink(record["win_rate"]),
                            rate=f"{100 * record['win_rate']:.0f}%",
                            interval=f"{100 * low:.0f}{DASH}{100 * high:.0f}",
                            label=f"{names[row]} against {names[column]}: "
                                  f"{100 * record['win_rate']:.1f}% of {record['games']:,} "
                                  f"games, 95% interval {100 * low:.1f}{DASH}{100 * high:.1f}%")
            cells.append(cell)
    width = LABEL + CELL_W * len(columns) + HEADER  # room for the last slanted name
    top = HEADER + CELL_H * len(rows)
    legend_w = min(CELL_W * len(columns), 300)
    steps = 20
    return {
        "width": width, "height": top + LEGEND,
        "rows": [{"name": short(names[r]), "full": names[r],
                  "y": HEADER + y * CELL_H + CELL_H // 2 + 5} for y, r in enumerate(rows)],
        "columns": [{"name": short(names[c]), "full": names[c],
                     "x": LABEL + x * CELL_W + CELL_W // 2} for x, c in enumerate(columns)],
        "header": HEADER, "cell_w": CELL_W, "cell_h": CELL_H, "label": LABEL,
        "cells": cells,
        "numbers": sum(1 for cell in cells if not cell["blank"]),
        "legend": {
            "x": LABEL, "y": top + 22, "width": legend_w,
            "swatches": [{"x": LABEL + legend_w * k / steps, "width": legend_w / steps + 0.5,
                          "fill": colour((k + 0.5) / steps)} for k in range(steps)],
            "ticks": [{"x": LABEL + legend_w * t, "text": f"{100 * t:.0f}%"}
                      for t in (0, 0.25, 0.5, 0.75, 1)],
        },
        "gauntlet": gauntlet,
    }
