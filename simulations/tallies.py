"""A matchup chunk's tally as JSON data and back, so that a run's chunks, played by any worker,
are merged into the report once all are done (simulations.plays). Pure: no Django.

Keys keep their order both ways (the report lists cards in the order the tally met them), so
the data is stored as JSON text, never jsonb; the histogram's round numbers, which JSON makes
strings, become numbers again.
"""

from __future__ import annotations

from typing import Any

from rules.game.matchup import DeckTally, MatchupTally


def tally_to_data(tally: MatchupTally) -> dict[str, Any]:
    return {
        "decks": tally.decks, "games": tally.games, "all_lost": tally.all_lost,
        "timeouts": tally.timeouts,
        "per_deck": [{"wins": deck.wins, "histogram": dict(deck.histogram),
                      "won_round_sum": deck.won_round_sum, "out": dict(deck.out),
                      "attacks": deck.attacks,
                      "cards": {card: list(counts) for card, counts in deck.cards.items()}}
                     for deck in tally.per_deck],
    }


def tally_from_data(data: dict[str, Any]) -> MatchupTally:
    return MatchupTally(
        decks=data["decks"], games=data["games"], all_lost=data["all_lost"],
        timeouts=data["timeouts"],
        per_deck=[DeckTally(wins=deck["wins"],
                            histogram={int(r): n for r, n in deck["histogram"].items()},
                            won_round_sum=deck["won_round_sum"], out=dict(deck["out"]),
                            attacks=deck["attacks"],
                            cards={card: _card_counts(counts)
                                   for card, counts in deck["cards"].items()})
                  for deck in data["per_deck"]],
    )


def _card_counts(counts: list[int]) -> list[int]:
    """A card's [drawn, played, won when played, offered]; saved before offers were counted,
    its three counts take it as offered whenever drawn (its never-played reason unknown)."""
    return list(counts) if len(counts) == 4 else [*counts, counts[0]]
