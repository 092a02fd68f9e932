"""The goldfish command as a user runs it: the report contract, determinism, logs, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError

from decks.deck_input import deck_from_text
from decks.validation import deck_validate
from tests.commands import run_command as run
from tests.conftest import ILLEGAL_HOLDINGS, with_holdings

pytestmark = pytest.mark.django_db
SAMPLE = str(Path(__file__).resolve().parents[3] / "fixtures" / "decklists" / "kalim-faithful.txt")


def goldfish(*args: str) -> tuple[int, str, str]:
    return run("goldfish", SAMPLE, "--seed", "1", *args)


def test_the_json_report_has_the_contract_keys_and_adds_up() -> None:
    code, out, _ = goldfish("--games", "60", "--format", "json")
    assert code == 0
    report = json.loads(out)
    for key in ("games", "seed", "policy", "players", "target", "rules_version", "victories",
                "losses", "victory_round", "cards"):
        assert key in report
    assert report["games"] == 60 and report["seed"] == 1 and report["policy"] == "greedy"
    assert report["players"] == 1 and report["target"] == 25
    assert set(report["losses"]) == {"overrun", "stronghold", "timeout"}
    assert report["victories"] + sum(report["losses"].values()) == 60
    rounds = report["victory_round"]
    assert set(rounds) == {"histogram", "mean", "median", "p10", "p90", "ci95"}
    assert sum(rounds["histogram"].values()) == report["victories"]
    assert min(int(r) for r in rounds["histogram"]) >= 2
    assert rounds["p10"] <= rounds["median"] <= rounds["p90"]
    low, high = rounds["ci95"]
    assert low <= rounds["mean"] <= high
    card = report["cards"]["demo-lamplighter-deacon"]
    assert set(card) >= {"drawn", "played", "stuck_in_hand", "victory_round_difference"}
    assert 0 <= card["played"] <= card["drawn"] <= 1


@pytest.mark.slow
def test_the_same_command_prints_the_same_bytes_and_workers_do_not_change_it() -> None:
    first = goldfish("--games", "300", "--format", "json")
    again = goldfish("--games", "300", "--format", "json")
    assert first[1] == again[1]
    # Chunks of 250 games: 300 games make two chunks for the two workers.
    two = goldfish("--games", "300", "--format", "json", "--workers", "2")
    assert two[1] == first[1]


def test_other_options_reach_the_report() -> None:
    code, out, _ = goldfish("--games", "20", "--format", "json", "--policy", "random",
                            "--target", "15", "--players", "2")
    report = json.loads(out)
    assert (code, report["policy"], report["target"], report["players"]) == (0, "random", 15, 2)


def test_the_lookahead_policy_and_its_budget_reach_the_report() -> None:
    code, out, _ = goldfish("--games", "2", "--format", "json", "--policy", "lookahead:2")
    assert (code, json.loads(out)["policy"]) == (0, "lookahead:2")


def test_the_reference_policy_and_its_budget_reach_the_report() -> None:
    # Cut at round 3 (a timeout): its rollouts end there too, so the game is short.
    code, out, _ = goldfish("--games", "1", "--format", "json", "--policy", "reference:1",
                            "--round-cap", "3")
    assert (code, json.loads(out)["policy"]) == (0, "reference:1")


def test_an_unknown_policy_is_refused_naming_the_policies() -> None:
    with pytest.raises(CommandError, match="greedy, lookahead, reference, random"):
        goldfish("--games", "2", "--policy", "clever")


def test_the_text_report_reads_at_a_glance() -> None:
    code, out, err = goldfish("--games", "40")
    assert code == 0
    assert "Victories:" in out and "Victory round: mean" in out and "Losses:" in out
    assert "games/s" in err


def test_log_prints_one_game_round_by_round_and_the_json_log_replays() -> None:
    code, out, _ = goldfish("--games", "20", "--log", "17")
    assert code == 0
    assert "== Round 1 ==" in out and "== Round 2 ==" in out
    assert "Victory check:" in out and "Game over in round" in out
    code, out, _ = goldfish("--games", "20", "--log", "17", "--format", "json")
    log = json.loads(out)
    assert log["actions"] and log["events"][0]["type"] == "setup"


@pytest.mark.parametrize(("args", "message"), [
    (("--games", "0"), "--games must be between"),
    (("--games", "5", "--log", "9"), "--log must name a game from 1 to 5"),
    (("--workers", "0"), "--workers must be at least 1"),
])
def test_bad_options_exit_1_with_a_clear_message(args: tuple[str, ...], message: str) -> None:
    code, out, err = goldfish(*args)
    assert code == 1 and out == "" and message in err


def test_a_deck_of_cards_without_known_numbers_is_refused_naming_them() -> None:
    text = "# Real\nInitial Holdings\n1 Acormis Winters\n"
    code, out, err = run("goldfish", "-", "--seed", "1", "--games", "5", stdin=text)
    assert code == 1 and out == ""
    assert "Acormis Winters" in err and "not known yet" in err


@pytest.mark.parametrize("code", sorted(ILLEGAL_HOLDINGS))
def test_a_deck_whose_initial_holdings_break_the_rules_is_refused(code: str) -> None:
    text = with_holdings(ILLEGAL_HOLDINGS[code])
    messages = [p.message for p in deck_validate(deck_from_text(text), players=1).problems
                if p.code == code]
    code_, out, err = run("goldfish", "-", "--games", "5", "--seed", "1", stdin=text)
    assert (code_, out) == (1, "")
    assert messages and all(m in err for m in messages)


def test_the_report_says_which_cards_were_drawn_and_never_played_and_why() -> None:
    code, out, _ = goldfish("--games", "30", "--format", "json")
    assert code == 0
    report = json.loads(out)
    for card_id, card in report["cards"].items():
        if card["played"] or not card["drawn"]:
            assert card["never_played"] is None, card_id
        assert card["never_played"] in (None, "no_use", "never_offered", "interrupt")
        if card["never_played"] == "never_offered":
            assert card["offered"] == 0, card_id
    # The sample's wanderers are drawn into the row, never played: no reason for them.
    assert report["cards"]["demo-sewer-rat-swarm"]["never_played"] is None
    _, text, _ = goldfish("--games", "30")
    for card in report["cards"].values():
        if card["never_played"] == "no_use":
            assert f"{card['name']}: Offered a play in {card['offered']:.0%} of the games, " \
                "never played: the goldfish player always chose otherwise" in text
