"""The draw and odds commands: the docs/design.md §10 contracts over the pure dealer and exact
odds."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest

from cards.models import Card
from decks.draws import deck_setup, query_ids, read_strategy
from decks.formats.json_format import deck_to_dict
from decks.formats.text import parse_text
from decks.services import catalogue_resolver
from rules.odds import split_group_odds
from tests.commands import run_command as run
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
VETERANS = FIXTURES / "decklists" / "guild-veterans.txt"
ADAPTIVE = "structures until 2 structures with residencies, then personalities"




def draw_json(*args: str, stdin: str | None = None) -> dict[str, Any]:
    code, out, err = run("draw", *args, "--format", "json", stdin=stdin)
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return document


def odds_json(*args: str) -> dict[str, Any]:
    code, out, err = run("odds", *args, "--format", "json")
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return document


# --- draw -----------------------------------------------------------------------------------


def test_draw_prints_one_json_document_with_the_holdings_the_hand_and_the_tokens() -> None:
    deal = draw_json(str(VETERANS), "--seed", "42", "--structures", "3")
    assert deal["deck"] == "Guild Veterans" and deal["seed"] == 42
    assert deal["holdings_source"] == "deck"
    assert [h["name"] for h in deal["holdings"]] == ["Fort Ashgate", "Beggars' Arch"]
    assert deal["tokens"] == {"economic": 2, "religious": 2, "political": 2}
    assert [c["pile"] for c in deal["hand"]] == ["structures"] * 3 + ["personalities"] * 4
    assert [c["draw"] for c in deal["hand"]] == list(range(1, 8))
    assert deal["piles"] == {"structures": 14, "personalities": 24, "wanderers": 13}
    assert deal["complete"] is True and "table" not in deal


def test_the_same_seed_deals_the_same_hand_and_another_seed_another() -> None:
    first = draw_json(str(VETERANS), "--seed", "7", "--strategy", ADAPTIVE)
    assert draw_json(str(VETERANS), "--seed", "7", "--strategy", ADAPTIVE) == first
    others = {tuple(c["card"] for c in draw_json(str(VETERANS), "--seed", str(seed),
                                                  "--strategy", ADAPTIVE)["hand"])
              for seed in range(8, 14)}
    assert len(others) > 1


def test_a_split_and_an_adaptive_rule_deal_from_the_same_shuffle() -> None:
    split = draw_json(str(VETERANS), "--seed", "5", "--structures", "7")
    rule = draw_json(str(VETERANS), "--seed", "5", "--strategy", "structures until 7")
    assert split["hand"] == rule["hand"]


def test_draw_reads_stdin_and_json_decklists(tmp_path: Path) -> None:
    text = VETERANS.read_text(encoding="utf-8")
    from_stdin = draw_json("-", "--seed", "3", stdin=text)
    deck = parse_text(text, catalogue_resolver()).deck
    assert deck is not None
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck_to_dict(deck)), encoding="utf-8")
    from_json = draw_json(str(path), "--seed", "3")
    assert from_json["hand"] == from_stdin["hand"]
    assert from_stdin["strategy"] == "structures=3"  # the default split


def test_a_deck_without_holdings_gets_the_advisors() -> None:
    text = VETERANS.read_text(encoding="utf-8").replace("Initial Holdings\n", "")
    deal = draw_json("-", "--seed", "1", stdin=text)
    assert deal["holdings_source"] == "advisor"
    assert deal["holdings"] and "most residencies" in deal["holdings_note"]
    code, out, _ = run("draw", "-", "--seed", "1", stdin=text)
    assert code == 0 and "Initial Holdings (the advisor's)" in out


def test_picks_deal_as_picked_and_wait_for_more() -> None:
    deal = draw_json(str(VETERANS), "--seed", "9", "--picks", "p,s,p")
    assert [c["pile"] for c in deal["hand"]] == ["personalities", "structures", "personalities"]
    assert deal["waiting"] is True and deal["strategy"] == "picks=p,s,p"
    more = draw_json(str(VETERANS), "--seed", "9", "--picks", "p,s,p", "--structures", "0")
    assert more["hand"][:3] == deal["hand"] and len(more["hand"]) == 7


def test_the_text_output_lists_the_hand_in_draw_order_with_its_piles() -> None:
    code, out, err = run("draw", str(VETERANS), "--seed", "42", "--strategy", ADAPTIVE,
                         "--table")
    assert code == 0 and err == ""
    assert "Initial Holdings (the deck's own): 1 Fort Ashgate, 1 Beggars' Arch" in out
    assert "Tokens left: 2 economic, 2 religious, 2 political" in out
    assert "  1. " in out and "from the Structure Pile" in out
    assert "Odds for the strategy" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [(("--strategy", "structures untl 2 walls"), "structures untl 2 walls\n             ^^^^"),
     (("--strategy", "structures until 2 matching \"zz:1\""), "in the query"),
     (("--picks", "s,x"), "'x' is not a pile")],
    ids=["misspelt-until", "bad-query-inside", "bad-pick"],
)
def test_a_bad_strategy_exits_1_with_a_caret_under_the_mistake(
    args: tuple[str, ...], message: str
) -> None:
    code, out, err = run("draw", str(VETERANS), "--seed", "1", *args)
    assert code == 1 and out == ""
    assert message in err


def test_an_unreadable_decklist_exits_1_with_the_lines_on_stderr() -> None:
    code, out, err = run("draw", "-", "--seed", "1", stdin="Structure Pile\n2 Bel Towr\n")
    assert code == 1 and out == "" and "line 2" in err


# --- odds -----------------------------------------------------------------------------------


def test_odds_print_the_contract_keys_and_the_exact_fraction() -> None:
    odds = odds_json(str(VETERANS), "--structures", "3", "--query", "t:troop",
                     "--at-least", "2")
    assert {"probability", "exact", "query", "explained", "at_least", "strategy", "expected",
            "group_size", "table"} <= set(odds)
    exact = Fraction(odds["exact"])
    assert odds["probability"] == float(exact) and odds["at_least"] == 2
    assert odds["strategy"] == "structures=3"
    assert set(odds["table"]) == {"1", "2", "3"}
    assert odds["table"]["2"]["exact"] == odds["exact"]


def test_odds_for_a_query_are_the_hypergeometric_closed_form() -> None:
    odds = odds_json(str(VETERANS), "--structures", "2", "--query", "t:citizen")
    citizens = set(Card.objects.filter(subtype="citizen").values_list("id", flat=True))
    deck = parse_text(VETERANS.read_text(encoding="utf-8"), catalogue_resolver()).deck
    assert deck is not None
    setup = deck_setup(deck)
    in_pile = sum(1 for cid in setup.personalities if cid in citizens)
    size = len(setup.personalities)
    assert odds["group_size"]["personalities"] == in_pile
    assert Fraction(odds["exact"]) == 1 - Fraction(comb(size - in_pile, 5), comb(size, 5))
    assert Fraction(odds["exact"]) == split_group_odds(setup, 2, citizens).exact


def test_odds_under_an_adaptive_strategy_use_the_same_strategy_language() -> None:
    odds = odds_json(str(VETERANS), "--strategy", ADAPTIVE, "--query", "t:troop f:guild")
    assert odds["strategy"] == ADAPTIVE and 0 < odds["probability"] < 1
    _, ids = query_ids("t:troop f:guild")
    assert odds["group_size"]["total"] == sum(
        1 for cid in deck_setup(_deck()).personalities if cid in ids)


def _deck() -> Any:
    deck = parse_text(VETERANS.read_text(encoding="utf-8"), catalogue_resolver()).deck
    assert deck is not None
    return deck


def test_odds_of_a_goal_and_the_split_advisor() -> None:
    odds = odds_json(str(VETERANS), "--goal", ">= 1 citizen and >= 1 open residence",
                     "--advise")
    assert odds["goal"] == ">= 1 citizen and >= 1 open residence"
    assert Fraction(odds["exact"]) == Fraction(odds["advice"]["splits"][3]["exact"])
    best = odds["advice"]["best"]
    assert best["probability"] == max(row["probability"] for row in odds["advice"]["splits"])


def test_a_goal_may_name_a_search_query() -> None:
    by_goal = odds_json(str(VETERANS), "--goal", '>= 2 matching "t:troop"')
    by_query = odds_json(str(VETERANS), "--query", "t:troop", "--at-least", "2")
    assert by_goal["exact"] == by_query["exact"]


@pytest.mark.parametrize(
    ("args", "message"),
    [(("--query", "zz:troop"), "zz:troop\n  ^"),
     (("--query", "t:"), "bad query"),
     (("--goal", ">= 1 dragon"), "bad goal:\n  >= 1 dragon\n       ^^^^^^"),
     (("--goal", '1 matching "t:nope"'), "in the query"),
     (("--strategy", "alternate until", "--query", "t:troop"), "bad strategy"),
     (("--query", "t:troop", "--at-least", "-1"), "--at-least")],
    ids=["unknown-key", "missing-value", "bad-goal", "bad-query-in-goal", "bad-strategy",
         "negative-count"],
)
def test_bad_odds_input_exits_1_with_the_position_on_stderr(
    args: tuple[str, ...], message: str
) -> None:
    code, out, err = run("odds", str(VETERANS), *args)
    assert code == 1 and out == ""
    assert message in err


def test_the_odds_text_output_reads_as_a_sentence() -> None:
    code, out, _ = run("odds", str(VETERANS), "--query", "t:troop", "--at-least", "2",
                       "--advise")
    assert code == 0
    assert out.startswith("P(at least 2 of 12 cards matching 't:troop') = ")
    assert "Every fixed split:" in out and "Best: structures=" in out


def test_the_strategy_options_are_read_the_same_way_everywhere() -> None:
    assert read_strategy(None, None).spec == "structures=3"
    assert read_strategy(4).spec == "structures=4"
    assert read_strategy(None, "alternate").spec == "alternate"
    assert read_strategy(None, None, "s,p").spec == "picks=s,p"
