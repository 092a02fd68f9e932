"""/api/decks/: owner-scoped CRUD, optimistic versions, clone, history."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.models import Deck, DeckVersion
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db
TEXT = (FIXTURES / "decklists" / "kalim-faithful.txt").read_text(encoding="utf-8")






def create(client: Client, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/decks/", {"text": TEXT, **extra}, content_type="application/json")
    assert response.status_code == 201, response.content[:500]
    body: dict[str, Any] = response.json()
    return body


def test_a_deck_is_created_from_a_decklist_text(ada: Client) -> None:
    deck = create(ada)
    assert deck["name"] == "Kalim Faithful" and deck["version"] == 1
    assert deck["counts"]["structures"] >= 15 and deck["owner"] == "ada"
    assert deck["visibility"] == "private"
    assert DeckVersion.objects.filter(deck_id=deck["id"], number=1).exists()


def test_a_decklist_with_unknown_names_is_refused_line_by_line(ada: Client) -> None:
    response = ada.post("/api/decks/", {"text": "Structure Pile\n2 Bel Towr\n"},
                        content_type="application/json")
    assert response.status_code == 400
    problem = response.json()
    assert problem["code"] == "bad_decklist"
    assert problem["errors"][0]["line"] == 2 and problem["errors"][0]["code"] == "unknown_card"
    assert Deck.objects.filter(owner__username="ada").count() == 0


def test_unknown_card_ids_are_refused(ada: Client) -> None:
    response = ada.post("/api/decks/", {"name": "X", "structures": [{"id": "nope", "count": 1}]},
                        content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["card"] == "nope"


def test_anonymous_visitors_cannot_create_decks(client: Client) -> None:
    response = client.post("/api/decks/", {"text": TEXT}, content_type="application/json")
    assert response.status_code in (401, 403)


def test_an_update_needs_the_current_version_and_a_stale_one_loses_nothing(ada: Client) -> None:
    deck = create(ada)
    url = f"/api/decks/{deck['id']}/"
    missing = ada.patch(url, {"name": "Renamed"}, content_type="application/json")
    assert missing.status_code == 428 and missing.json()["current_version"] == 1
    ok = ada.patch(url, {"name": "Renamed", "version": 1}, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["version"] == 2
    assert ok.json()["counts"] == deck["counts"]  # a rename keeps the cards
    stale = ada.patch(url, {"name": "Other", "version": 1}, content_type="application/json")
    assert stale.status_code == 409 and stale.json()["current_version"] == 2
    assert ada.get(url).json()["name"] == "Renamed"


def test_if_match_guards_writes_like_the_version_field(ada: Client) -> None:
    deck = create(ada)
    url = f"/api/decks/{deck['id']}/"
    etag = ada.get(url)["ETag"]
    ok = ada.patch(url, {"players": 3}, content_type="application/json",
                   headers={"If-Match": etag})
    assert ok.status_code == 200
    stale = ada.patch(url, {"players": 5}, content_type="application/json",
                      headers={"If-Match": etag})
    assert stale.status_code == 412


def test_two_tabs_editing_the_same_deck_do_not_lose_an_edit(ada: Client) -> None:
    deck = create(ada)
    url = f"/api/decks/{deck['id']}/"
    first = ada.patch(url, {"description": "tab one", "version": 1},
                      content_type="application/json")
    second = ada.patch(url, {"description": "tab two", "version": 1},
                       content_type="application/json")
    assert first.status_code == 200 and second.status_code == 409
    assert ada.get(url).json()["description"] == "tab one"


def test_a_private_deck_is_invisible_to_other_users(ada: Client, bob: Client) -> None:
    deck = create(ada)
    assert bob.get(f"/api/decks/{deck['id']}/").status_code == 404
    assert deck["id"] not in [d["id"] for d in bob.get("/api/decks/").json()["results"]]


def test_an_unlisted_deck_is_not_readable_by_its_number_but_by_its_owner(ada: Client,
                                                                         bob: Client) -> None:
    # Numbers are sequential: an unlisted deck is shared by its link's token (/s/<token>).
    deck = create(ada, visibility="unlisted")
    assert ada.get(f"/api/decks/{deck['id']}/").status_code == 200
    assert bob.get(f"/api/decks/{deck['id']}/").status_code == 404
    anonymous = Client()
    assert anonymous.get(f"/api/decks/{deck['id']}/").status_code == 404
    assert deck["id"] not in [d["id"] for d in anonymous.get("/api/decks/").json()["results"]]


def test_only_the_owner_can_change_or_delete_a_visible_deck(ada: Client, bob: Client) -> None:
    deck = create(ada, visibility="public")
    url = f"/api/decks/{deck['id']}/"
    assert bob.patch(url, {"name": "mine", "version": 1},
                     content_type="application/json").status_code == 403
    assert bob.delete(url).status_code == 403
    assert ada.delete(url).status_code == 204


def test_cloning_makes_a_private_copy_with_its_own_history(ada: Client, bob: Client) -> None:
    deck = create(ada, visibility="public")
    copy = bob.post(f"/api/decks/{deck['id']}/clone/").json()
    assert copy["owner"] == "bob" and copy["visibility"] == "private"
    assert copy["counts"] == deck["counts"] and copy["version"] == 1


def test_history_lists_every_version_with_its_changes(ada: Client) -> None:
    deck = create(ada)
    url = f"/api/decks/{deck['id']}/"
    ada.patch(url, {"name": "Renamed", "version": 1}, content_type="application/json")
    versions = ada.get(url + "versions/").json()
    assert [v["number"] for v in versions] == [2, 1]
    assert versions[0]["diff"]["fields"]["name"] == ["Kalim Faithful", "Renamed"]


def test_a_script_can_use_a_token(ada: Client) -> None:
    User.objects.create_user("cy", password="x-Secret-123456")
    token = Client().post("/api/auth/token/", {"username": "cy",
                                               "password": "x-Secret-123456"}).json()["token"]
    response = Client().post("/api/decks/", {"text": TEXT}, content_type="application/json",
                             headers={"Authorization": f"Token {token}"})
    assert response.status_code == 201 and response.json()["owner"] == "cy"


# --- found by the schema fuzzer (tests/fuzz): each was a 500 ------------------------------


def test_a_deck_sent_without_a_name_is_saved_as_untitled(ada: Client) -> None:
    response = ada.post("/api/decks/", {"holdings": []}, content_type="application/json")
    assert response.status_code == 201 and response.json()["name"] == "Untitled deck"
    imported = ada.post("/api/decks/import/", {"text": "Wanderer Pile\n1 Cave Troll\n"},
                        content_type="application/json")
    assert imported.status_code == 201 and imported.json()["name"] == "Untitled deck"


def test_an_empty_name_is_refused_as_input(ada: Client) -> None:
    response = ada.post("/api/decks/", {"name": ""}, content_type="application/json")
    assert response.status_code == 400 and "name" in response.json()["errors"]


@pytest.mark.parametrize("url", ["/api/decks/", "/api/decks/import/"])
def test_a_decklist_whose_name_is_too_long_is_a_bad_decklist(ada: Client, url: str) -> None:
    text = "# " + "x" * 300 + "\nWanderer Pile\n1 Cave Troll\n"
    response = ada.post(url, {"text": text}, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "bad_decklist"
    assert "at most 200" in response.json()["detail"]
    assert not Deck.objects.filter(owner__username="ada").exists()


def test_the_import_page_says_when_a_name_is_too_long(ada: Client) -> None:
    text = "# " + "x" * 300 + "\nWanderer Pile\n1 Cave Troll\n"
    response = ada.post("/decks/import/", {"text": text, "visibility": "private"})
    assert response.status_code == 400 and "at most 200" in response.content.decode()
    assert not Deck.objects.filter(owner__username="ada").exists()


def test_versions_are_listed_as_the_schema_says(ada: Client) -> None:
    deck = create(ada)
    versions = ada.get(f"/api/decks/{deck['id']}/versions/").json()
    assert isinstance(versions, list) and versions[0]["number"] == 1
    assert set(versions[0]) == {"number", "created_at", "summary", "author", "diff"}


def test_a_body_over_the_upload_limit_is_a_413_problem(ada: Client) -> None:
    body = '{"text": "' + "\\ud83d\\ude00" * 1_000_000 + '"}'  # 12 bytes a character
    response = ada.post("/api/decks/import/", body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "too_large" and "11 MB" in response.json()["detail"]


def test_put_replaces_the_whole_deck_and_patch_changes_what_it_gives(ada: Client) -> None:
    # Issue 34, finding 11: PUT kept the piles it left out, as PATCH does.
    deck = create(ada, description="kept by PATCH", visibility="public")
    url = f"/api/decks/{deck['id']}/"
    patched = ada.patch(url, {"name": "Renamed", "version": 1},
                        content_type="application/json").json()
    assert patched["description"] == "kept by PATCH"
    assert patched["counts"]["total"] == deck["counts"]["total"]
    put = ada.put(url, {"structures": [{"id": "wof-bell-tower", "count": 2}], "version": 2},
                  content_type="application/json")
    assert put.status_code == 200, put.content[:300]
    replaced = put.json()
    assert replaced["name"] == "Untitled deck" and replaced["description"] == ""
    assert replaced["holdings"] == [] and replaced["personalities"] == []
    assert replaced["structures"] == [{"id": "wof-bell-tower", "count": 2, "name": "Bell Tower"}]
    assert replaced["visibility"] == "public"  # a setting, not content: kept unless given
