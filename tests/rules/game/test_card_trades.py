"""The optional card-trading rule: "if all players agree before the game begins, cards in play
(except for wanderers) may be traded between players during the City Maintenance Phase after
you check for victory" (rules/game/seats.py, tradable / trade_problem / trade_cards)."""

from __future__ import annotations

import pytest

from rules.game import engine, seats
from rules.game.config import GameConfig
from rules.game.runner import seat_policy
from rules.game.seats import Table
from rules.game.state import IN_PLAY
from rules.rng import derive_seed
from tests.rules.game.engine_helpers import SAMPLES, catalogue, seated


def _table(seed: int = 7) -> Table:
    decks = [engine.prepare(seated(SAMPLES[s], 2), catalogue()) for s in (0, 1)]
    return seats.new_table(decks, seed, GameConfig())


def _play_until(table: Table, done: object, limit: int = 5000) -> None:
    """Play greedy decisions until ``done(table)`` holds (a callable)."""
    players = [seat_policy("greedy", derive_seed(9, seat)) for seat in range(2)]
    for _ in range(limit):
        if done(table):  # type: ignore[operator]
            return
        seat = seats.to_move(table)
        actions = seats.legal_actions(table)
        assert seats.apply(table, players[seat](table, seat, actions)).ok
    pytest.fail("the table never came to the state the test needs")


def _with_cards_to_trade(table: Table) -> bool:
    return table.stage == "maintenance" and table.round >= 3 \
        and all(seats.tradable(table, seat) for seat in (0, 1))


def _places(table: Table) -> list[tuple[int, str]]:
    state = table.state
    return [(state.owner[i], state.where[i]) for i in range(len(state.cards))]


def test_cards_change_hands_only_in_the_city_maintenance_phase() -> None:
    table = _table()
    _play_until(table, lambda t: t.stage == "action" and seats.tradable(t, 0, any_phase=True))
    card = seats.tradable(table, 0, any_phase=True)[0]
    assert seats.tradable(table, 0) == []
    assert seats.trade_problem(table, 0, 1, [card], []) \
        == "Cards change hands only in the City Maintenance Phase."
    before = _places(table)
    assert not seats.trade_cards(table, 0, 1, [card], []).ok
    assert _places(table) == before


def test_a_traded_card_goes_to_the_same_zone_of_its_new_owner_with_what_it_carries() -> None:
    table = _table()
    _play_until(table, _with_cards_to_trade)
    state = table.state
    # (a residence with its citizen: seed 7 houses a Guild Quartermaster in a Market Stall)
    given = next(i for i in seats.tradable(table, 0) if i in state.host.values())
    taken = seats.tradable(table, 1)[0]
    carried = [i for i, host in state.host.items() if host == given]
    assert carried
    wounds, exhausted = state.wounds.get(given, 0), given in state.exhausted
    zone = state.where[given]
    assert seats.trade_cards(table, 0, 1, [given], [taken]).ok
    assert state.owner[given] == 1 and state.owner[taken] == 0
    assert given in state.seats[1].zones[zone] and given not in state.seats[0].zones[zone]
    assert state.wounds.get(given, 0) == wounds and (given in state.exhausted) == exhausted
    for card in carried:
        assert state.owner[card] == 1 and state.host[card] == given
        assert card in state.seats[1].zones[state.where[card]]


def test_wanderers_strongholds_and_cards_on_another_are_not_traded() -> None:
    table = _table()
    _play_until(table, _with_cards_to_trade)
    state = table.state
    for seat in (0, 1):
        allowed = seats.tradable(table, seat)
        for i in range(len(state.cards)):
            if state.owner[i] != seat or state.where[i] not in IN_PLAY:
                continue
            card = state.card(i)
            if state.where[i] == "wanderers" or card.type == "wanderer" \
                    or card.subtype == "stronghold" or i in state.host:
                assert i not in allowed
                assert "is not one of seat" in seats.trade_problem(table, seat, 1 - seat, [i], [])
            else:
                assert i in allowed


def test_a_card_not_the_givers_is_refused() -> None:
    table = _table()
    _play_until(table, _with_cards_to_trade)
    theirs = seats.tradable(table, 1)[0]
    name = table.state.card(theirs).name
    assert seats.trade_problem(table, 0, 1, [theirs], []).startswith(
        f"{name} is not one of seat 1's")
    assert seats.trade_problem(table, 0, 1, [10_000], []).startswith("A card is not one")
    assert seats.trade_problem(table, 0, 0, [], []) == "A trade is between two players."


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_a_table_plays_on_to_its_end_after_a_card_trade(seed: int) -> None:
    """Every card stays in exactly one zone of its owner, and the game goes on by the rules."""
    table = _table(seed)
    _play_until(table, _with_cards_to_trade)
    state = table.state
    assert seats.trade_cards(table, 0, 1, seats.tradable(table, 0)[:2],
                             seats.tradable(table, 1)[:1]).ok
    _play_until(table, lambda t: bool(t.outcome), limit=20000)
    for i in range(len(state.cards)):
        owner_zones = state.seats[state.owner[i]].zones
        assert owner_zones[state.where[i]].count(i) == 1
        assert all(i not in state.seats[s].zones[state.where[i]] for s in (0, 1)
                   if s != state.owner[i])
