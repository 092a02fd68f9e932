"""The goldfish report's two charts, in the style of the deck statistics (decks/charts.py):
the histogram of victory rounds and the cumulative curve (share of games won by each round).

Pure Python. The histogram *is* a :class:`~decks.charts.Chart` (counted, then drawn by the same
code as the deck charts); the curve is drawn here as a line, but offers the same interface
(``key``, ``title``, ``summary``, ``series``, ``rows``, ``svg``...), so the page shows both with
the same template, the numbers in a table beside each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from xml.sax.saxutils import escape

from decks.charts import GRID, INK, PALETTE, Chart, Series, _text

_WIDTH: Final = 380
_HEIGHT: Final = 220


def _rounds(report: Mapping[str, Any]) -> list[tuple[int, int]]:
    """(round, victories) for every round from the earliest victory to the latest, gaps as 0."""
    histogram = {int(r): n for r, n in report["victory_round"]["histogram"].items()}
    if not histogram:
        return []
    return [(r, histogram.get(r, 0)) for r in range(min(histogram), max(histogram) + 1)]


def victory_histogram(report: Mapping[str, Any]) -> Chart:
    rounds = _rounds(report)
    return Chart(
        "victory-rounds", "Victory rounds",
        f"Games won in each round, out of {report['games']:,} games (the earliest possible "
        "victory is in round 2).",
        tuple(str(r) for r, _ in rounds), (Series("Victories", tuple(n for _, n in rounds)),),
        nothing="No game was won.",
    )


@dataclass(frozen=True)
class CumulativeCurve:
    """Share of all games won by the start of each round (a step up at every victory round)."""

    points: tuple[tuple[int, float], ...]  # (round, share of games won by then, 0..1)
    games: int
    key: str = "won-by-round"
    title: str = "Won by round"
    nothing: str = "No game was won."
    notes: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        return (f"Share of the {self.games:,} games won by each round; the curve ends at the "
                "victory rate (the rest are losses).")

    @property
    def series(self) -> tuple[Series, ...]:
        return (Series("Won by then", ()),)  # the heading of the numbers' table

    @property
    def empty(self) -> bool:
        return not self.points

    def rows(self) -> list[tuple[str, tuple[str]]]:
        return [(str(r), (f"{share:.1%}",)) for r, share in self.points]

    def description(self) -> str:
        parts = [self.summary] + [f"By round {r}: {share:.1%}." for r, share in self.points]
        return " ".join(parts) if self.points else f"{self.summary} {self.nothing}"

    def svg(self, id_prefix: str = "chart") -> str:
        ident = f"{id_prefix}-{self.key}"
        left, right, top, bottom = 40, 10, 12, 34
        plot_w, plot_h = _WIDTH - left - right, _HEIGHT - top - bottom
        shapes: list[str] = []
        for tick in (0, 25, 50, 75, 100):
            y = top + plot_h - plot_h * tick / 100
            shapes.append(f'<line x1="{left}" x2="{_WIDTH - right}" y1="{y:.1f}" y2="{y:.1f}" '
                          f'stroke="{GRID}"/>')
            shapes.append(_text(left - 6, y + 4, f"{tick}%", "end"))
        if self.points:
            first = self.points[0][0] - 1  # the curve starts at 0 the round before
            last = self.points[-1][0]
            span = max(last - first, 1)

            def px(r: int) -> float:
                return left + plot_w * (r - first) / span

            def py(share: float) -> float:
                return top + plot_h - plot_h * share

            path = [f"M{px(first):.1f},{py(0):.1f}"]
            for r, share in self.points:
                path.append(f"H{px(r):.1f}V{py(share):.1f}")
            shapes.append(f'<path d="{"".join(path)}" fill="none" stroke="{PALETTE[0]}" '
                          'stroke-width="2"/>')
            step = max(1, -(-len(self.points) // 12))  # at most a dozen round labels
            last = len(self.points) - 1
            for i, (r, share) in enumerate(self.points):
                label = f"Won by round {r}: {share:.1%}"
                shapes.append(f'<circle cx="{px(r):.1f}" cy="{py(share):.1f}" r="3" '
                              f'fill="{PALETTE[0]}"><title>{escape(label)}</title></circle>')
                # Every step-th round and the last, unless the last would touch the one before.
                if (i % step == 0 and (i == last or last - i >= step / 2)) or i == last:
                    shapes.append(_text(px(r), top + plot_h + 16, str(r), "middle"))
        shapes.append(f'<line x1="{left}" x2="{_WIDTH - right}" y1="{top + plot_h}" '
                      f'y2="{top + plot_h}" stroke="{INK}"/>')
        shapes.append(_text(left + plot_w / 2, _HEIGHT - 4, "round", "middle", size=10))
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" role="img" '
            f'viewBox="0 0 {_WIDTH} {_HEIGHT}" width="{_WIDTH}" height="{_HEIGHT}" '
            f'aria-labelledby="{ident}-title {ident}-desc" font-size="11" '
            f'font-family="DejaVu Sans, sans-serif">'
            f'<title id="{ident}-title">{escape(self.title)}</title>'
            f'<desc id="{ident}-desc">{escape(self.description())}</desc>'
            f"{''.join(shapes)}</svg>"
        )


def won_by_round(report: Mapping[str, Any]) -> CumulativeCurve:
    games = report["games"]
    points = []
    won = 0
    for r, n in _rounds(report):
        won += n
        points.append((r, won / games if games else 0.0))
    return CumulativeCurve(tuple(points), games)


def report_charts(report: Mapping[str, Any]) -> tuple[Chart, CumulativeCurve]:
    return victory_histogram(report), won_by_round(report)


def compare_histogram(a: Mapping[str, Any], b: Mapping[str, Any]) -> Chart:
    """The two runs' victory rounds side by side, per 1,000 games (so that runs of different
    sizes compare)."""
    histograms = [{int(r): n for r, n in report["victory_round"]["histogram"].items()}
                  for report in (a, b)]
    rounds = sorted(set(histograms[0]) | set(histograms[1]))
    span = list(range(rounds[0], rounds[-1] + 1)) if rounds else []

    def per_mille(histogram: dict[int, int], games: int) -> tuple[int, ...]:
        return tuple(round(1000 * histogram.get(r, 0) / games) if games else 0 for r in span)

    return Chart(
        "compare-rounds", "Victory rounds, A against B",
        "Games won in each round per 1,000 games of each run: A's bars, then B's.",
        tuple(str(r) for r in span),
        (Series("A", per_mille(histograms[0], a["games"])),
         Series("B", per_mille(histograms[1], b["games"]))),
        nothing="Neither run won a game.",
    )
