"""The §14 report as the report page shows it: one row per deck, its win rate and 95% interval
as percentages and as a bar's geometry (the interval drawn over the win rate)."""

from __future__ import annotations

from typing import Any


def report_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for deck in report["decks"]:
        low, high = deck["ci95"]
        rounds = deck["victory_round"]
        rows.append({
            "name": deck["name"], "wins": deck["wins"],
            "rate": round(100 * deck["win_rate"], 1),
            "low": round(100 * low, 1), "high": round(100 * high, 1),
            "width": round(100 * (high - low), 2),
            "mean_round": rounds["mean"], "median_round": rounds["median"],
            "attack": deck["eliminated"].get("attack", 0),
            "wanderers": deck["eliminated"].get("wanderers", 0),
        })
    return rows
