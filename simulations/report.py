"""The §14 report as the report page shows it: one row per deck, its win rate and 95% interval
as percentages and as a bar's geometry (the interval drawn over the win rate)."""

from __future__ import annotations

from typing import Any

from simulations.stats import never_played_note


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


def _interval(name: str, wins: int, games: int, rate: float, ci95: list[float]) -> dict[str, Any]:
    low, high = ci95
    return {"name": name, "wins": wins, "games": games, "rate": round(100 * rate, 1),
            "low": round(100 * low, 1), "high": round(100 * high, 1),
            "width": round(100 * (high - low), 2)}


def field_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """A gauntlet's or matrix's decks over all their pairings."""
    return [_interval(d["name"], d["wins"], d["games"], d["win_rate"], d["ci95"])
            for d in report["decks"]]


def pairing_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Each pairing (``number`` 1-based, as the sample games' URLs count them) with its two
    decks' win rates and intervals, and the games neither won."""
    rows = []
    for number, pairing in enumerate(report["pairings"], 1):
        inner = pairing["report"]
        rows.append({
            "number": number,
            "sides": [_interval(d["name"], d["wins"], inner["games"], d["win_rate"], d["ci95"])
                      for d in inner["decks"]],
            "neither": inner["all_lost"] + inner["timeouts"],
        })
    return rows


def card_tables(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Per deck, its cards' figures (share of games drawn and played, win rate when played)
    and what to say of a card drawn and never played, the most played first."""
    tables = []
    for deck in report["decks"]:
        cards = sorted(deck.get("cards", {}).items(),
                       key=lambda item: (-item[1]["played"], item[1]["name"]))
        tables.append({"name": deck["name"], "cards": [
            {"id": card_id, "name": c["name"], "drawn": round(100 * c["drawn"], 1),
             "played": round(100 * c["played"], 1),
             "won": round(100 * c["win_rate_when_played"], 1),
             "note": never_played_note(c.get("never_played"), c.get("offered"), table=True)}
            for card_id, c in cards]})
    return tables
