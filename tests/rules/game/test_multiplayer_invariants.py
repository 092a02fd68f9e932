"""Invariants over many random-legal games of 2, 3 and 6 players: every action legal, tokens
only move between pools, never two copies of a unique in play, no knocked-out player acts, and
every game ends. MULTIPLAYER_FUZZ_GAMES=N plays N games per table size (a few by default, so
the suite stays fast; CI or a fuzzing session may raise it to thousands)."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from rules.game import combat, engine, seats
from rules.game.config import GameConfig
from rules.game.seats import Table
from rules.game.table_policy import SeatPolicy
from rules.rng import derive_seed
from tests.rules.game.engine_helpers import SAMPLES, catalogue, seated

GAMES = int(os.environ.get("MULTIPLAYER_FUZZ_GAMES", "4"))
IN_PLAY_ZONES = ("private", "residents", "guards", "defensive", "wanderers", "attached")


def tokens(t: Table) -> int:
    """Every token of the game: the shared pool, the personal pools, those lying on cards."""
    state = t.state
    total = sum(state.city) + sum(sum(v) for v in state.on_card.values())
    for seat in state.seats:
        total += sum(seat.personal)
    return total


def unique_copies(t: Table) -> Counter[str]:
    seen: Counter[str] = Counter()
    shared = t.state
    for seat in range(t.players):
        for zone in IN_PLAY_ZONES:
            for i in t.seat(seat).zones[zone]:
                if shared.card(i).unique and shared.card(i).subtype != "stronghold":
                    seen[shared.cards[i]] += 1
    return seen


def asked(t: Table) -> int:
    """The seat the rulebook asks now, from the table's own facts: the next seat of a reaction
    window, the declaring lord, the other lord of an offered truce, the seat a combat asks
    (combat.decider: an attacker's assignments, a turn of the modification step, the
    wanderers' controller), the host of a combat between seats, the seat whose turn of the
    cycle or part of the phase it is (seats.to_move reads the state's ``to_move``)."""
    if t.window is not None:
        return t.window.asked[0]
    if t.declaring is not None:
        return t.declaring.seat
    if t.truce >= 0:
        return seats.truce_partner(t, t.truce)
    state = t.state
    fight = state.combat
    if fight is not None and fight.modifiers \
            and (t.hosting is not None or t.stage in ("military", "wanderer")):
        return combat.decider(state)
    if t.hosting is not None:
        return t.hosting.host
    if t.stage == "action":
        return t.turn
    return t.queue[0]


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize(("policy", "fragile"), [
    ("random", False), ("greedy", False), ("random", True), ("greedy", True),
], ids=["random", "greedy", "random-fragile", "greedy-fragile"])
def test_random_and_greedy_tables_keep_every_invariant(players: int, policy: str,
                                                       fragile: bool) -> None:
    """``fragile``: every stronghold starts one wound from destroyed, so players are knocked
    out (by attacks and by wanderers) and the games after a knock-out are checked too."""
    games = GAMES if policy == "random" else max(1, GAMES // 2)
    knocked_out = 0
    for game in range(games):
        seed = derive_seed(players, game, policy)
        decks = [engine.prepare(seated(SAMPLES[(game + s) % len(SAMPLES)], players),
                                 catalogue())
                 for s in range(players)]
        t = seats.new_table(decks, seed, GameConfig())
        if fragile:
            state = t.state
            for seat in range(players):
                for i in t.seat(seat).zones["private"]:
                    if state.card(i).subtype == "stronghold":
                        state.wounds[i] = state.card(i).vitality - 1
        chosen = [SeatPolicy(policy, derive_seed(seed, s)) for s in range(players)]
        total = tokens(t)
        for _ in range(200_000):
            if t.outcome:
                break
            seat = seats.to_move(t)
            assert seat >= 0 and seat not in t.out  # no knocked-out player acts
            assert seat == asked(t), (t.round, t.stage, seat, asked(t))
            actions = seats.legal_actions(t)
            assert actions
            if seats.TRUCE in actions:  # "may be ended at any time": while it goes on
                fight = t.state.combat
                assert fight is not None and fight.step != "over", (t.round, seat)
            result = seats.apply(t, chosen[seat](t, seat, actions))
            assert result.ok, result.reason
            assert tokens(t) == total  # tokens only move between pools
            if t.hosting is None:
                twice = [c for c, n in unique_copies(t).items() if n > 1]
                assert not twice, twice
            for out in t.out:
                assert not any(t.seat(out).zones[z] for z in IN_PLAY_ZONES)
            # Every card is in its owner's zones, where its zone says, once (a hunter's own
            # row is set aside while he hunts another's).
            if t.hosting is None:
                state = t.state
                listed = [i for seat in state.seats for cards in seat.zones.values()
                          for i in cards]
                assert sorted(listed) == list(range(len(state.cards)))
                assert all(state.where[i] == z and state.owner[i] == k
                           for k, seat in enumerate(state.seats)
                           for z, cards in seat.zones.items() for i in cards)
        assert t.outcome in ("victory", "overrun", "timeout")
        assert (t.winner >= 0) == (t.outcome == "victory")
        assert t.winner not in t.out
        knocked_out += len(t.out)
    if fragile and policy == "random" and GAMES >= 50:  # about one random game in ten
        assert knocked_out  # the knock-outs this variant exists for did happen


# Where a seat that waits for its turn stands, by the table's stage and whether its
# part of the phase is done or still ahead (the seat deciding, the seat whose turn or part it
# is, and the host of a combat between seats are not waiting). A seat attacked before its
# Military turn goes back to waiting for it (seats._waiting_step).
WAITING: dict[tuple[str, str], frozenset[tuple[str, str]]] = {
    ("maintenance", "done"): frozenset({("action", "act")}),
    ("maintenance", "later"): frozenset({("maintenance", "arrange")}),
    ("action", "-"): frozenset({("action", "act")}),
    ("military", "done"): frozenset({("wanderer", engine.WAIT)}),
    ("military", "later"): frozenset({("action", "act")}),
    ("wanderer", "done"): frozenset({("wanderer", engine.WAIT)}),
    ("wanderer", "later"): frozenset({("wanderer", engine.WAIT)}),
    ("discard", "done"): frozenset({("discard", engine.WAIT)}),
    ("discard", "later"): frozenset({("wanderer", engine.WAIT)}),
}


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_tables_one_state_holds_the_flow_of_the_seat_whose_part_it_is(players: int) -> None:
    """One state for a table (docs/engine.md, "One flow"): every phase runs seat by seat, so
    at every decision the state's ``player`` is the seat whose turn, part of the phase or
    combat it is (another seat decides in it only as its combat, a reaction window, a
    declaration or a truce asks him), and where every other seat stands follows from the
    table's stage and its place in the phase's queue alone (seats._waiting)."""
    checked = 0
    for game in range(2):
        for policy in ("greedy", "random"):
            seed = derive_seed(players, game, policy, "waiting")
            decks = [engine.prepare(seated(SAMPLES[(game + s) % len(SAMPLES)], players),
                                     catalogue()) for s in range(players)]
            t = seats.new_table(decks, seed, GameConfig())
            chooser = [SeatPolicy(policy, derive_seed(seed, "policy", s))
                       for s in range(players)]
            while not t.outcome:
                seat = seats.to_move(t)
                state = t.state
                owner = t.hosting.host if t.hosting is not None \
                    else t.turn if t.stage == "action" else t.queue[0]
                assert state.player == owner, (t.round, t.stage, state.player, owner)
                if seat != owner:
                    assert t.window is not None or t.truce >= 0 or state.combat is not None
                for s in t.active():
                    if s == owner or (t.hosting is not None and s == t.hosting.origin):
                        continue
                    place = "-" if t.stage == "action" else "later" if s in t.queue else "done"
                    assert not t.seat(s).choice_due()
                    assert seats._waiting(t, s) in WAITING[(t.stage, place)], \
                        (t.round, t.stage, s, place)
                    checked += 1
                assert seats.apply(t, chooser[seat](t, seat, seats.legal_actions(t))).ok
    assert checked > 500
