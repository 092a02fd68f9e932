"""The matchup command as a user runs it: the docs/design.md §14 report, workers, logs, bad
input."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from tests.commands import run_command as run
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
VETERANS = str(FIXTURES / "decklists" / "guild-veterans.txt")
FAITHFUL = str(FIXTURES / "decklists" / "kalim-faithful.txt")


def matchup(*args: str) -> tuple[int, str, str]:
    return run("matchup", VETERANS, FAITHFUL, "--seed", "1", *args)


def test_the_json_report_has_the_contract_keys_and_adds_up() -> None:
    code, out, _ = matchup("--games", "6", "--format", "json")
    assert code == 0
    report = json.loads(out)
    for key in ("games", "seed", "policy", "target", "rules_version", "decks", "all_lost",
                "timeouts", "eliminations"):
        assert key in report
    assert [d["name"] for d in report["decks"]] == ["Guild Veterans", "Kalim Faithful"]
    for deck in report["decks"]:
        assert {"name", "wins", "win_rate", "ci95", "victory_round"} <= set(deck)
        assert {"histogram", "mean", "median"} <= set(deck["victory_round"])
    wins = sum(d["wins"] for d in report["decks"])
    assert wins + report["all_lost"] + report["timeouts"] == report["games"] == 6


def test_the_report_says_why_a_card_drawn_was_never_played() -> None:
    code, out, _ = matchup("--games", "20", "--format", "json")
    assert code == 0
    _, text, _ = matchup("--games", "20")
    seen = 0
    for deck in json.loads(out)["decks"]:
        for card in deck["cards"].values():
            assert card["never_played"] in (None, "no_use", "never_offered")
            if card["played"] or not card["drawn"]:
                assert card["never_played"] is None
            elif card["never_played"] == "no_use":
                seen += 1
                assert card["offered"] > 0
                assert f"{card['name']}: Offered a play in {card['offered']:.0%} of the " \
                    "games, never played: the AI player always chose otherwise" in text
    assert seen  # (these decks leave some structures unbuilt: docs/goldfish.md)


def test_the_same_report_for_one_and_two_workers() -> None:
    one = matchup("--games", "4", "--format", "json", "--workers", "1")[1]
    two = matchup("--games", "4", "--format", "json", "--workers", "2")[1]
    assert one == two


def test_the_same_deck_may_sit_twice_and_is_numbered() -> None:
    code, out, _ = run("matchup", FAITHFUL, FAITHFUL, "--seed", "2", "--games", "2",
                       "--format", "json")
    assert code == 0
    assert [d["name"] for d in json.loads(out)["decks"]] == ["Kalim Faithful #1",
                                                             "Kalim Faithful #2"]


def test_the_text_report_and_a_game_log() -> None:
    code, out, _ = matchup("--games", "2")
    assert code == 0 and "Matchup of 2 decks: 2 games, seed 1" in out
    assert "95% interval" in out and "All players lost" in out
    code, out, _ = matchup("--games", "2", "--log", "2")
    assert code == 0 and out.startswith("Game 2 of seed 1 (greedy policy)")
    assert "Seat 1: Kalim Faithful" in out and "[seat 2]" in out and "Game over" in out


@pytest.mark.parametrize(("args", "message"), [
    (("--games", "0"), "--games must be between"),
    (("--games", "2", "--log", "3"), "--log must name a game from 1 to 2"),
    (("--workers", "0"), "--workers must be at least 1"),
    (("--policy", "lookahead"), "unknown policy 'lookahead'"),
    (("--policy", "greedy,random,greedy"), "3 policies for 2 decks"),
], ids=["no-games", "log-out-of-range", "no-workers", "solo-only-policy", "policies-miscounted"])
def test_bad_input_exits_1_saying_why(args: tuple[str, ...], message: str) -> None:
    code, _, err = matchup(*args)
    assert code == 1 and message in err


def test_one_deck_is_not_a_matchup() -> None:
    code, _, err = run("matchup", VETERANS, "--seed", "1")
    assert code == 1 and "2 to 6 decks" in err


def test_each_deck_may_have_its_own_policy() -> None:
    code, out, _ = matchup("--games", "4", "--policy", "greedy,random", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["policy"] == "greedy,random"
    # The greedy Veterans against a random Faithful win more often than the other way round.
    code, back, _ = matchup("--games", "4", "--policy", "random,greedy", "--format", "json")
    assert code == 0
    assert report["decks"][0]["wins"] >= json.loads(back)["decks"][0]["wins"]


def test_a_negative_seed_is_refused_as_goldfish_refuses_it() -> None:
    # The commands share their run options (sitewide.management.run_command); matchup read
    # --seed as any int and played a negative seed.
    with pytest.raises(CommandError, match="the seed must be from 0"):
        call_command("matchup", VETERANS, FAITHFUL, "--seed", "-7", "--games", "2")
