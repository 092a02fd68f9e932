"""Reading goldfish reports: the per-card table in any column's order, and two runs compared.

Pure Python, no Django. A comparison says how much faster deck B wins than deck A (the
difference in mean victory round) and how much more often (the difference in victory rate),
each with a 95% interval, and whether that is more than noise: the interval excludes 0.

* Mean victory round: Welch's normal approximation, from each run's histogram of victory
  rounds: ``d = mean_B - mean_A``, ``se = sqrt(var_A / n_A + var_B / n_B)`` (sample variances,
  n = the victories), interval ``d ± 1.96 se``.
* Victory rate: two independent proportions, ``d = p_B - p_A``,
  ``se = sqrt(p_A (1 - p_A) / N_A + p_B (1 - p_B) / N_B)`` (N = the games).

With thousands of games both approximations are very good; with a handful they are rough, and
a run with fewer than two victories has no interval for the mean at all.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

Z95: Final = 1.959964

#: Columns of the per-card table: the report's key and the heading.
CARD_COLUMNS: Final[tuple[tuple[str, str], ...]] = (
    ("name", "Card"),
    ("drawn", "Drawn"),
    ("played", "Played"),
    ("stuck_in_hand", "Stuck in hand"),
    ("opening_hand", "In opening hand"),
    ("victory_round_difference", "Victory round ± with it in the opening hand"),
)
DEFAULT_SORT: Final = "played"
#: What the per-card table says of a card drawn and never played, by the report's
#: ``never_played`` reason (rules/game/report.py): so that a reader does not cut a card for
#: the player's fault. "{player}": the goldfish player, or at a table the AI player.
_NO_USE: Final = ("the {player} player always chose otherwise, a limit of the player as much "
                  "as of the card.")
NEVER_PLAYED_NOTES: Final[dict[str, str]] = {
    "no_use": "Drawn and offered, but never played: " + _NO_USE.format(player="goldfish"),
    "never_offered": "Drawn but never played: the rules never offered it a play in these "
                     "games (no bearer, target or tokens for it while it was in hand), a "
                     "limit of the deck, not of the player.",
    "interrupt": "Drawn but never played: an interrupt answers another player's action, and "
                 "solo there is none.",
}
#: The same at a table (a matchup's cards): an interrupt has other players' actions to answer.
TABLE_NEVER_PLAYED_NOTES: Final[dict[str, str]] = {
    "no_use": "Drawn and offered, but never played: " + _NO_USE.format(player="AI"),
    "never_offered": "Drawn but never played: the rules never offered it a play in these "
                     "games (no bearer, target, tokens or action to answer while it was in "
                     "hand), a limit of the deck, not of the player.",
}


@dataclass(frozen=True)
class CardRow:
    card_id: str
    name: str
    drawn: float
    played: float
    stuck_in_hand: float
    opening_hand: float
    victory_round_difference: float | None
    never_played: str | None = None  # the report's reason (reports before it have none)
    offered: float | None = None  # share of games offered a play (reports before it: None)

    @property
    def note(self) -> str:
        """What to say of a card drawn and never played ("" otherwise)."""
        return never_played_note(self.never_played, self.offered)


def never_played_note(reason: str | None, offered: float | None, *,
                      table: bool = False) -> str:
    """The sentence for a card drawn and never played, by its report's ``never_played`` reason
    ("" for none), with the share of games in which it was offered a play when the report
    has it; ``table``: a matchup's card."""
    if reason == "no_use" and offered is not None:
        return (f"Offered a play in {offered:.0%} of the games, never played: "
                + _NO_USE.format(player="AI" if table else "goldfish"))
    return (TABLE_NEVER_PLAYED_NOTES if table else NEVER_PLAYED_NOTES).get(reason or "", "")


def card_rows(report: Mapping[str, Any], sort: str = DEFAULT_SORT,
              descending: bool | None = None) -> tuple[list[CardRow], str, bool]:
    """The report's cards ordered by a column (an unknown column falls back to ``played``);
    names ascend by default, figures descend; cards without a figure (null) always come last,
    ties by name. Returns the rows, the column used and the direction used."""
    columns = dict(CARD_COLUMNS)
    if sort not in columns:
        sort = DEFAULT_SORT
    if descending is None:
        descending = sort != "name"
    rows = [CardRow(card_id, card["name"], card["drawn"], card["played"], card["stuck_in_hand"],
                    card["opening_hand"], card["victory_round_difference"],
                    card.get("never_played"), card.get("offered"))
            for card_id, card in report["cards"].items()]
    rows.sort(key=lambda r: (r.name.casefold(), r.card_id))
    if sort == "name":
        rows.sort(key=lambda r: r.name.casefold(), reverse=descending)
        return rows, sort, descending
    known = [r for r in rows if getattr(r, sort) is not None]
    unknown = [r for r in rows if getattr(r, sort) is None]
    known.sort(key=lambda r: getattr(r, sort), reverse=descending)
    return known + unknown, sort, descending


@dataclass(frozen=True)
class Moments:
    count: int
    mean: float | None
    variance: float | None  # the sample variance; None below two values


def histogram_moments(histogram: Mapping[str, int] | Mapping[int, int]) -> Moments:
    pairs = [(int(value), count) for value, count in histogram.items()]
    n = sum(count for _, count in pairs)
    if not n:
        return Moments(0, None, None)
    mean = sum(value * count for value, count in pairs) / n
    if n < 2:
        return Moments(n, mean, None)
    squares = sum(count * (value - mean) ** 2 for value, count in pairs)
    return Moments(n, mean, squares / (n - 1))


@dataclass(frozen=True)
class Difference:
    """B minus A, with its 95% interval."""

    estimate: float
    low: float
    high: float

    @property
    def size(self) -> float:
        return abs(self.estimate)

    @property
    def beyond_noise(self) -> bool:
        """The interval excludes 0: a real difference, not the luck of the seeds."""
        return self.low > 0 or self.high < 0


def _difference(estimate: float, se: float) -> Difference:
    half = Z95 * se
    return Difference(round(estimate, 4), round(estimate - half, 4), round(estimate + half, 4))


def mean_round_difference(a: Mapping[str, int], b: Mapping[str, int]) -> Difference | None:
    """Mean victory round of B minus A (negative: B wins sooner), Welch's interval."""
    ma, mb = histogram_moments(a), histogram_moments(b)
    if ma.variance is None or mb.variance is None or ma.mean is None or mb.mean is None:
        return None
    se = math.sqrt(ma.variance / ma.count + mb.variance / mb.count)
    return _difference(mb.mean - ma.mean, se)


def victory_rate_difference(wins_a: int, games_a: int, wins_b: int, games_b: int
                            ) -> Difference | None:
    """Victory rate of B minus A (positive: B wins more often), two-proportion interval."""
    if not games_a or not games_b:
        return None
    pa, pb = wins_a / games_a, wins_b / games_b
    se = math.sqrt(pa * (1 - pa) / games_a + pb * (1 - pb) / games_b)
    return _difference(pb - pa, se)


@dataclass(frozen=True)
class Comparison:
    mean_round: Difference | None
    victory_rate: Difference | None
    notes: tuple[str, ...]


def compare_reports(a: Mapping[str, Any], b: Mapping[str, Any]) -> Comparison:
    """Run B against run A; the notes say what makes the comparison less fair."""
    notes = []
    for key, what in (("seed", "seeds"), ("games", "numbers of games"), ("policy", "policies"),
                      ("target", "targets"), ("players", "player counts"),
                      ("rules_version", "rules versions")):
        if a[key] != b[key]:
            notes.append(f"The runs have different {what} ({a[key]} and {b[key]}).")
    return Comparison(
        mean_round_difference(a["victory_round"]["histogram"], b["victory_round"]["histogram"]),
        victory_rate_difference(a["victories"], a["games"], b["victories"], b["games"]),
        tuple(notes),
    )


@dataclass(frozen=True)
class CardDifference:
    card_id: str
    name: str
    played_a: float | None  # share of games the card was played in (None: not in the deck)
    played_b: float | None
    opening_a: float | None  # mean victory round with it in the opening hand minus without
    opening_b: float | None

    @property
    def played_change(self) -> float:
        return (self.played_b or 0.0) - (self.played_a or 0.0)


def card_differences(a: Mapping[str, Any], b: Mapping[str, Any], limit: int = 15
                     ) -> list[CardDifference]:
    """The cards whose part changed most from run A to run B: added or removed cards first,
    then by how much more (or less) often they were played."""
    cards_a, cards_b = a.get("cards", {}), b.get("cards", {})
    rows = []
    for card_id in sorted(set(cards_a) | set(cards_b)):
        one, two = cards_a.get(card_id), cards_b.get(card_id)
        rows.append(CardDifference(
            card_id, (one or two or {}).get("name", card_id),
            one and one.get("played"), two and two.get("played"),
            one and one.get("victory_round_difference"),
            two and two.get("victory_round_difference")))
    rows.sort(key=lambda r: (r.played_a is not None and r.played_b is not None,
                             -abs(r.played_change), r.name))
    return [r for r in rows if r.played_a is None or r.played_b is None
            or abs(r.played_change) >= 0.005][:limit]
