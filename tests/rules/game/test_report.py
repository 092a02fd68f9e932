"""The goldfish report's per-card ``never_played`` reason: a card drawn and never played is
the player's blind spot as much as the card's (offered and declined) or the deck's (never
offered), and the report says which kind it is."""

from __future__ import annotations

import pickle

import pytest

from rules.game import engine
from rules.game.actions import Action
from rules.game.config import GameConfig
from rules.game.matchup import MatchupTally, build_matchup_report
from rules.game.report import (
    INTERRUPT,
    NEVER_OFFERED,
    NO_USE,
    CardTally,
    GameSummary,
    Tally,
    build_report,
    never_played,
)
from rules.game.runner import summarise
from rules.game.state import OFFERED
from tests.rules.game.scenario_helpers import at_step, citizen, first, invocation, make_game, place


@pytest.mark.parametrize(
    ("drawn", "played", "offered", "kind", "reason"),
    [
        (3, 0, 2, "event", NO_USE),  # drawn, offered, never played: no use found
        (3, 0, 3, "structure", NO_USE),
        (3, 0, 1, None, NO_USE),  # kind unknown: any card
        (3, 0, 0, "invocation", NEVER_OFFERED),  # no bearer, target or tokens: the deck's
        (3, 0, 0, None, NEVER_OFFERED),
        (3, 0, 0, INTERRUPT, INTERRUPT),  # nothing to answer solo
        (3, 0, 0, "wanderer", None),  # never the player's to play
        (3, 1, 1, "event", None),  # played once
        (0, 0, 0, "event", None),  # never drawn: nothing to say
        (0, 2, 0, "structure", None),  # an initial holding, played without being drawn
    ],
)
def test_never_played_says_why_a_drawn_card_was_played_in_no_game(
        drawn: int, played: int, offered: int, kind: str | None, reason: str | None) -> None:
    card = CardTally(drawn=drawn, played=played, offered=offered)
    assert never_played(card, kind) == reason


def test_the_report_gives_each_card_its_never_played_reason() -> None:
    tally = Tally()
    tally.add(GameSummary(1, "victory", 5, drawn=frozenset({"bell", "ghoul", "deacon",
                                                            "writ", "ward"}),
                          played=frozenset({"deacon"}), stuck=frozenset({"bell", "ward"}),
                          opening=frozenset(), offered=frozenset({"bell", "deacon"})))
    kinds = {"bell": "structure", "ghoul": "wanderer", "deacon": "personality",
             "writ": INTERRUPT, "ward": "invocation"}
    report = build_report(tally, seed=1, policy="greedy", config=GameConfig(), names={},
                          kinds=kinds)
    assert {c: card["never_played"] for c, card in report["cards"].items()} == {
        "bell": NO_USE, "ghoul": None, "deacon": None, "writ": INTERRUPT,
        "ward": NEVER_OFFERED}
    assert {c: card["offered"] for c, card in report["cards"].items()} == {
        "bell": 1.0, "ghoul": 0.0, "deacon": 1.0, "writ": 0.0, "ward": 0.0}


def test_a_tally_saved_before_offers_were_counted_keeps_its_no_use_reason() -> None:
    # A run's chunks are saved as they finish; one saved before the count of offers has
    # none, and its cards are taken as offered whenever drawn (the reason it had then).
    saved = Tally(games=4, cards={"bell": CardTally(drawn=3), "deacon": CardTally(drawn=4,
                                                                                  played=2)})
    data = saved.to_dict()
    for card in data["cards"].values():
        del card["offered"]
    loaded = Tally.from_dict(data)
    assert loaded.cards["bell"].offered == 3
    assert never_played(loaded.cards["bell"], "structure") == NO_USE


def test_a_game_summary_crosses_processes() -> None:
    # The bench's workers hand summaries back to their parent (pickled), compiled or not.
    summary = GameSummary(3, "victory", 7, drawn=frozenset({"bell"}), played=frozenset(),
                          stuck=frozenset(), opening=frozenset({"bell"}))
    assert pickle.loads(pickle.dumps(summary)) == summary


def test_a_card_is_counted_offered_once_the_rules_give_it_a_play() -> None:
    # An invocation with no bearer of the religious strength it needs is never offered (the
    # deck's limit); with one in play it is, and the game's summary says so.
    state = make_game(personalities=[citizen("clerk", strength=(0, 1, 0)),
                                     citizen("cantor", strength=(0, 2, 0)),
                                     invocation("rite", requirement=2)])
    keep, rite, cantor = first(state, "keep"), first(state, "rite"), first(state, "cantor")
    place(state, first(state, "clerk"), "residents", keep)
    place(state, rite, "hand")
    at_step(state, "action", "act")
    assert engine.legal_actions(state) and not state.flags[rite] & OFFERED
    assert "rite" not in summarise(state, 1).offered
    place(state, cantor, "residents", keep)
    state.pending = None
    assert Action("play", rite, cantor) in engine.legal_actions(state)
    assert state.flags[rite] & OFFERED and "rite" in summarise(state, 1).offered


def test_a_table_s_report_says_why_a_card_was_never_played() -> None:
    # At a table an interrupt has others' actions to answer: offered and declined, or never
    # offered, as any card; a wanderer has no reason; without the kinds no reason is given.
    tally = MatchupTally(2, games=4)
    tally.per_deck[0].cards = {
        "writ": [3, 0, 0, 2],  # an interrupt offered in 2 games, never played
        "charge": [2, 0, 0, 0],  # a battle event never offered
        "ghoul": [4, 0, 0, 0],  # a wanderer
        "noble": [4, 3, 2, 4],  # played
    }
    kinds = [{"writ": INTERRUPT, "charge": "event", "ghoul": "wanderer",
              "noble": "personality"}, {}]
    report = build_matchup_report(tally, names=["a", "b"], card_names=[{}, {}], seed=1,
                                  policy="greedy", config=GameConfig(players=2), kinds=kinds)
    cards = report["decks"][0]["cards"]
    assert {c: card["never_played"] for c, card in cards.items()} == {
        "writ": NO_USE, "charge": NEVER_OFFERED, "ghoul": None, "noble": None}
    assert cards["writ"]["offered"] == 0.5
    plain = build_matchup_report(tally, names=["a", "b"], card_names=[{}, {}], seed=1,
                                 policy="greedy", config=GameConfig(players=2))
    assert "never_played" not in plain["decks"][0]["cards"]["writ"]
