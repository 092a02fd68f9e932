"""python -m bench --only: which benchmark sections run."""

from __future__ import annotations

import pytest

from bench.__main__ import SECTIONS, sections


def test_every_section_runs_by_default() -> None:
    assert sections([]) == list(SECTIONS)
    assert "match" in SECTIONS and "engine" in SECTIONS


def test_only_runs_the_sections_named_in_the_bench_s_order() -> None:
    assert sections(["--only", "match"]) == ["match"]
    assert sections(["--only", "match, engine"]) == ["engine", "match"]


@pytest.mark.parametrize("only", ["nope", "engine,nope", ","])
def test_an_unknown_section_is_refused(only: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        sections(["--only", only])
    assert "choose among" in capsys.readouterr().err


def test_the_unplayed_list_names_cards_drawn_often_and_played_in_no_game() -> None:
    from bench.engine_bench import unplayed_cards
    from rules.game.report import CardTally, Tally

    tally = Tally(games=10, cards={
        # listed: drawn in 60% of games, offered in 40%, never played
        "bell": CardTally(drawn=6, offered=4),
        "ward": CardTally(drawn=5),  # listed: never offered (no bearer, say)
        "writ": CardTally(drawn=3),  # an interrupt, marked
        "rare": CardTally(drawn=2, offered=2),  # drawn in 20%: not more than the share
        "deacon": CardTally(drawn=9, played=1, offered=9),  # played once
        "ghoul": CardTally(drawn=9),  # a wanderer: never the player's to play
    })
    kinds = {"bell": "structure", "ward": "invocation", "writ": "interrupt", "rare": "event",
             "deacon": "personality", "ghoul": "wanderer"}
    names = {"bell": "Bell", "ward": "Ward", "writ": "Writ"}
    assert unplayed_cards(tally, kinds, names) == [
        "Bell (60%, offered in 40%)", "Ward (50%, never offered)", "Writ (30%, an interrupt)"]


@pytest.mark.parametrize("mode", ["table", "solo"])
def test_the_instruction_count_s_passes_play_the_same_games_each_time(mode: str) -> None:
    """bench.engine_instructions divides the difference of one pass and two by one pass's
    decisions: every pass must play the same (seeded) games."""
    from bench.engine_instructions import _games

    once = _games(mode, 2, 2, 1)
    assert once > 0 and _games(mode, 2, 2, 2) == once
