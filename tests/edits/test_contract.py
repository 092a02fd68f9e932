"""docs/design.md §13 checked literally, as a small private site runs it:
CARD_EDIT_VOTER_MIN_AGE_DAYS=0 and ACCOUNTS_REQUIRE_VERIFIED_EMAIL=0, so any signed-in account
may edit and vote."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.commands import run_command
from tests.edits.makers import client_for, post

DOCUMENT_KEYS = {"id", "url", "status", "card", "changes", "source", "note", "editor",
                 "created", "votes"}
STATUSES = {"open", "applied", "rejected", "cancelled", "expired"}


@pytest.fixture(autouse=True)
def small_private_site(settings: Any) -> None:
    settings.CARD_EDIT_VOTER_MIN_AGE_DAYS = 0
    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = False
    settings.CARD_EDIT_APPROVALS = 2


def signed_in(name: str) -> Client:
    # Accounts made a moment ago: with the minimum age 0 their votes count.
    return client_for(User.objects.create_user(name))


def test_two_approvals_apply_an_edit_everywhere_at_once(client: Client) -> None:
    ada, bob, cy = signed_in("ada"), signed_in("bob"), signed_in("cy")
    before = client.get("/api/cards/tst-unknown-tower/").json()
    assert before["defense"] is None

    created = post(ada, "/api/edits/", {
        "card": "tst-unknown-tower", "changes": {"defense": 4, "vitality": 9},
        "source": "my own copy", "note": "read off the card"}, status=201)
    doc = created.json()
    assert DOCUMENT_KEYS <= set(doc)
    assert doc["status"] == "open" and doc["status"] in STATUSES
    assert doc["card"] == "tst-unknown-tower"
    assert doc["changes"] == {"defense": 4, "vitality": 9}
    assert (doc["source"], doc["note"], doc["editor"]) == ("my own copy", "read off the card",
                                                           "ada")
    assert doc["votes"] == {"approve": 0, "reject": 0}
    assert doc["url"].endswith(f"/api/edits/{doc['id']}/")
    assert isinstance(doc["created"], str)
    assert client.get(f"/api/edits/{doc['id']}/").json() == doc

    first = post(bob, f"/api/edits/{doc['id']}/votes/", {"vote": "approve", "note": ""},
                 status=200).json()
    assert first["status"] == "open" and first["votes"] == {"approve": 1, "reject": 0}
    second = post(cy, f"/api/edits/{doc['id']}/votes/", {"vote": "approve"}, status=200).json()
    assert second["status"] == "applied" and second["votes"] == {"approve": 2, "reject": 0}

    after = client.get("/api/cards/tst-unknown-tower/").json()
    assert (after["defense"], after["vitality"]) == (4, 9)
    assert after["sources"][-1] == "my own copy"
    code, out, _ = run_command("export_cards", "--set", "TST")
    exported = {c["id"]: c for c in json.loads(out)["cards"]}
    assert code == 0 and exported["tst-unknown-tower"]["defense"] == 4
    assert "my own copy" in exported["tst-unknown-tower"]["sources"]
    found = client.get("/api/cards/?q=def:4 set:TST").json()
    assert "tst-unknown-tower" in [c["id"] for c in found["results"]]


def test_a_new_card_is_proposed_with_a_card_object(client: Client) -> None:
    ada = signed_in("ada")
    doc = post(ada, "/api/edits/", {
        "new_card": {"id": "tst-new-arrival", "name": "New Arrival", "set": "TST",
                     "type": "event", "subtype": "battle"},
        "source": "the printed checklist", "note": ""}, status=201).json()
    assert DOCUMENT_KEYS <= set(doc)
    assert (doc["status"], doc["card"]) == ("open", "tst-new-arrival")
    assert client.get("/api/cards/tst-new-arrival/").status_code == 404
    for name in ("bob", "cy"):
        post(signed_in(name), f"/api/edits/{doc['id']}/votes/", {"vote": "approve"}, status=200)
    card = client.get("/api/cards/tst-new-arrival/").json()
    assert (card["name"], card["type"], card["subtype"], card["set"]) == (
        "New Arrival", "event", "battle", "TST")
    assert card["offense"] is None  # not given: unknown, never 0
    assert card["sources"] == ["the printed checklist"]


@pytest.mark.parametrize("body, key", [
    ({"card": "tst-unknown-tower", "changes": {"defense": 4}, "source": ""}, "source"),
    ({"card": "tst-unknown-tower", "changes": {"defence": 4}, "source": "x"}, "defence"),
    ({"card": "tst-unknown-tower", "changes": {"defense": "4"}, "source": "x"}, "defense"),
    ({"card": "tst-unknown-tower", "changes": {"faction": "elves"}, "source": "x"}, "faction"),
    ({"card": "tst-no-such-card", "changes": {"defense": 4}, "source": "x"}, "card"),
    ({"card": "tst-unknown-tower", "changes": {"id": "tst-other"}, "source": "x"}, "id"),
    ({"card": "tst-unknown-tower", "changes": {"set": "DEMO"}, "source": "x"}, "set"),
    ({"card": "tst-unknown-tower", "changes": {"official": True}, "source": "x"}, "official"),
    ({"card": "tst-unknown-tower", "changes": {"image": "a.png"}, "source": "x"}, "image"),
    ({"new_card": {"id": "tst-x", "name": "X", "set": "TST", "type": "spell"}, "source": "x"},
     "type"),
])
def test_a_bad_proposal_is_a_400_problem_naming_the_key_and_stores_nothing(
        body: dict[str, Any], key: str) -> None:
    from edits.models import Edit

    response = post(signed_in("ada"), "/api/edits/", body, status=400)
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == 400 and problem["code"] and key in problem["detail"]
    assert any(key in name for name in problem["errors"])
    assert not Edit.objects.exists()


def test_the_editor_may_not_vote_on_their_own_edit() -> None:
    ada = signed_in("ada")
    doc = post(ada, "/api/edits/", {"card": "tst-unknown-tower", "changes": {"defense": 4},
                                    "source": "my copy"}, status=201).json()
    refused = post(ada, f"/api/edits/{doc['id']}/votes/", {"vote": "approve"}, status=403)
    assert refused["Content-Type"] == "application/problem+json"


def test_a_second_vote_by_the_same_user_replaces_the_first() -> None:
    ada, bob = signed_in("ada"), signed_in("bob")
    doc = post(ada, "/api/edits/", {"card": "tst-unknown-tower", "changes": {"defense": 4},
                                    "source": "my copy"}, status=201).json()
    url = f"/api/edits/{doc['id']}/votes/"
    assert post(bob, url, {"vote": "reject", "note": "the copy says 5"},
                status=200).json()["votes"] == {"approve": 0, "reject": 1}
    assert post(bob, url, {"vote": "approve"}, status=200).json()["votes"] == {
        "approve": 1, "reject": 0}


def test_anonymous_users_read_but_do_not_write(client: Client) -> None:
    assert client.get("/api/edits/").status_code == 200
    refused = post(client, "/api/edits/", {"card": "tst-unknown-tower",
                                           "changes": {"defense": 4}, "source": "x"})
    assert refused.status_code in (401, 403)


def test_the_editor_cancels_and_the_list_filters(client: Client) -> None:
    ada = signed_in("ada")
    doc = post(ada, "/api/edits/", {"card": "tst-unknown-tower", "changes": {"defense": 4},
                                    "source": "my copy"}, status=201).json()
    assert post(signed_in("bob"), f"/api/edits/{doc['id']}/cancel/", status=403)
    assert post(ada, f"/api/edits/{doc['id']}/cancel/", status=200).json()["status"] == \
        "cancelled"
    page = client.get("/api/edits/?card=tst-unknown-tower&status=cancelled&editor=ada&set=TST")
    assert page.status_code == 200
    assert [e["id"] for e in page.json()["results"]] == [doc["id"]]
    assert page.json()["count"] == 1
    assert client.get("/api/edits/?status=open").json()["count"] == 0


def test_export_edits_prints_json_lines_oldest_first() -> None:
    ada = signed_in("ada")
    ids = [post(ada, "/api/edits/", {"card": card, "changes": {"artist": "Someone"},
                                     "source": "my copy"}, status=201).json()["id"]
           for card in ("tst-unknown-tower", "tst-lamplighter")]
    code, out, _ = run_command("export_edits")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [d["id"] for d in lines] == ids
    assert all(DOCUMENT_KEYS <= set(d) for d in lines)
    code, out, _ = run_command("export_edits", "--set", "DEMO")
    assert code == 0 and out == ""
