"""validate_deck and POST /api/decks/validate/: the docs/design.md §6 result, for anyone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from decks.formats.json_format import deck_to_dict
from decks.formats.text import parse_text
from decks.services import catalogue_resolver
from tests.commands import run_command
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
DECKLISTS = sorted((FIXTURES / "decklists").glob("*.txt"))
BROKEN = "Structure Pile\n3 Bell Tower\nPersonality Pile\n2 Bishop Ospin\n"



def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    return run_command("validate_deck", *args, stdin=stdin)


@pytest.mark.parametrize("path", DECKLISTS, ids=lambda p: p.name)
def test_each_sample_deck_is_legal_for_four_players(path: Path) -> None:
    code, out, _ = run(str(path), "--format", "json")
    result = json.loads(out)
    assert code == 0 and result["legal"] is True
    assert result["legal_players"][0] == 2 and result["legal_players"][1] >= 4
    assert set(result) == {"legal", "problems", "counts", "legal_players"}


def test_an_illegal_deck_exits_1_with_every_problem_in_the_design_shape() -> None:
    code, out, _ = run("-", "--format", "json", stdin=BROKEN)
    result = json.loads(out)
    assert code == 1 and result["legal"] is False
    codes = {p["code"] for p in result["problems"]}
    assert {"structure_pile_too_small", "personality_pile_too_small",
            "wanderer_pile_too_small", "too_many_copies", "no_stronghold"} <= codes
    for problem in result["problems"]:
        assert set(problem) == {"code", "severity", "message", "rule", "cards", "fixes"}
        for fix in problem["fixes"]:
            assert {"action", "card", "count", "to"} <= set(fix)


def test_the_text_report_names_the_rule_and_the_fixes() -> None:
    code, out, _ = run("-", stdin=BROKEN)
    assert code == 1 and "NOT LEGAL" in out and "rule: \"No more than two" in out
    assert "fix: remove 1 x Bell Tower" in out


def test_an_unreadable_list_exits_1_with_the_lines_on_stderr() -> None:
    code, out, err = run("-", stdin="Structure Pile\n2 Bel Towr\n")
    assert code == 1 and out == ""
    assert "line 2" in err and "Bell Tower" in err


def test_the_players_option_changes_the_wanderer_requirement() -> None:
    path = str(FIXTURES / "decklists" / "kalim-faithful.txt")
    code, out, _ = run(path, "--players", "6", "--format", "json")
    assert code == 1
    assert "wanderer_pile_too_small" in {p["code"] for p in json.loads(out)["problems"]}


def test_a_json_decklist_is_read_too(tmp_path: Path) -> None:
    text = DECKLISTS[0].read_text(encoding="utf-8")
    deck = parse_text(text, catalogue_resolver()).deck
    assert deck is not None
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck_to_dict(deck)), encoding="utf-8")
    assert run(str(path))[0] == 0


def post(client: Client, body: dict[str, Any]) -> Any:
    return client.post("/api/decks/validate/", body, content_type="application/json")


def test_anyone_can_validate_a_decklist_text_without_saving(client: Client) -> None:
    response = post(client, {"text": DECKLISTS[0].read_text(encoding="utf-8")})
    assert response.status_code == 200 and response.json()["legal"] is True


def test_the_api_and_the_command_agree(client: Client) -> None:
    api = post(client, {"text": BROKEN, "players": 3}).json()
    _, out, _ = run("-", "--players", "3", "--format", "json", stdin=BROKEN)
    assert api == json.loads(out)


def test_a_deck_object_is_validated_too(client: Client) -> None:
    body = {"deck": {"name": "Tiny", "structures": [{"id": "wof-bell-tower", "count": 3}]}}
    result = post(client, body).json()
    assert "too_many_copies" in {p["code"] for p in result["problems"]}


@pytest.mark.parametrize(
    ("body", "status"),
    [({}, 400), ({"text": "x", "deck": {}}, 400), ({"text": "2 Nonexistent Card"}, 400),
     ({"deck": {"structures": [{"id": "nope", "count": 1}]}}, 400),
     ({"text": BROKEN, "players": 9}, 400)],
    ids=["empty", "both", "unknown-name", "unknown-id", "bad-players"],
)
def test_bad_validation_requests_are_problem_documents(
    client: Client, body: dict[str, Any], status: int
) -> None:
    response = post(client, body)
    assert response.status_code == status
    assert response["Content-Type"] == "application/problem+json"


@pytest.mark.parametrize("command", [
    ["validate_deck"],
    ["goldfish", "--games", "1", "--seed", "1"],
    ["matchup", str(FIXTURES / "decklists" / "kalim-faithful.txt"), "--games", "1", "--seed",
     "1"],
])
def test_a_command_before_the_catalogue_is_set_up_says_how_to_set_it_up(
        command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh clone has no tables until `make data`: the decklist commands say so, not a
    traceback."""
    from django.db import OperationalError

    from decks.management import decklist_file

    def no_tables(text: str) -> None:
        raise OperationalError("no such table: cards_card")

    monkeypatch.setattr(decklist_file, "deck_from_text", no_tables)
    name, *rest = command
    code, out, err = run_command(name, str(DECKLISTS[0]), *rest)
    assert code == 1 and out == ""
    assert "the card catalogue cannot be read (no such table: cards_card)" in err
    assert "make data" in err
