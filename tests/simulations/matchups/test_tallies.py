"""A matchup chunk's tally as stored JSON data (simulations.tallies), including data saved by
an earlier version."""

from __future__ import annotations

from rules.game.matchup import DeckTally, MatchupTally
from simulations.tallies import tally_from_data, tally_to_data


def test_a_tally_round_trips_with_each_card_s_four_counts() -> None:
    tally = MatchupTally(2, games=3, per_deck=[
        DeckTally(wins=2, cards={"bell": [3, 1, 1, 2]}), DeckTally(cards={"writ": [1, 0, 0, 0]})])
    assert tally_from_data(tally_to_data(tally)) == tally


def test_a_card_saved_before_offers_were_counted_is_taken_as_offered_when_drawn() -> None:
    data = tally_to_data(MatchupTally(1, games=4, per_deck=[
        DeckTally(cards={"bell": [3, 0, 0, 0], "noble": [4, 2, 1, 4]})]))
    for counts in data["per_deck"][0]["cards"].values():
        del counts[3]  # [drawn, played, won when played], as chunks were saved before
    assert tally_from_data(data).per_deck[0].cards == {"bell": [3, 0, 0, 3],
                                                       "noble": [4, 2, 1, 4]}
