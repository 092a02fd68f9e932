"""The goldfish report's per-card ``never_played`` reason: a card drawn and never played is
the player's blind spot as much as the card's, and the report says which kind it is."""

from __future__ import annotations

import pickle

import pytest

from rules.game.config import GameConfig
from rules.game.report import (
    INTERRUPT,
    NO_USE,
    CardTally,
    GameSummary,
    Tally,
    build_report,
    never_played,
)


@pytest.mark.parametrize(
    ("drawn", "played", "kind", "reason"),
    [
        (3, 0, "event", NO_USE),  # drawn, never played: no use found
        (3, 0, "structure", NO_USE),
        (3, 0, None, NO_USE),  # kind unknown: any card
        (3, 0, INTERRUPT, INTERRUPT),  # nothing to answer solo
        (3, 0, "wanderer", None),  # never the player's to play
        (3, 1, "event", None),  # played once
        (0, 0, "event", None),  # never drawn: nothing to say
        (0, 2, "structure", None),  # an initial holding, played without being drawn
    ],
)
def test_never_played_says_why_a_drawn_card_was_played_in_no_game(
        drawn: int, played: int, kind: str | None, reason: str | None) -> None:
    assert never_played(CardTally(drawn=drawn, played=played), kind) == reason


def test_the_report_gives_each_card_its_never_played_reason() -> None:
    tally = Tally()
    tally.add(GameSummary(1, "victory", 5, drawn=frozenset({"bell", "ghoul", "deacon",
                                                            "writ"}),
                          played=frozenset({"deacon"}), stuck=frozenset({"bell"}),
                          opening=frozenset()))
    kinds = {"bell": "structure", "ghoul": "wanderer", "deacon": "personality",
             "writ": INTERRUPT}
    report = build_report(tally, seed=1, policy="greedy", config=GameConfig(), names={},
                          kinds=kinds)
    assert {c: card["never_played"] for c, card in report["cards"].items()} == {
        "bell": NO_USE, "ghoul": None, "deacon": None, "writ": INTERRUPT}


def test_a_game_summary_crosses_processes() -> None:
    # The bench's workers hand summaries back to their parent (pickled), compiled or not.
    summary = GameSummary(3, "victory", 7, drawn=frozenset({"bell"}), played=frozenset(),
                          stuck=frozenset(), opening=frozenset({"bell"}))
    assert pickle.loads(pickle.dumps(summary)) == summary
