"""/api/collection/: read, replace and change with the optimistic version check, CSV import
and export, privacy and share links; and /api/decks/{id}/ownership/ and missing/."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from collection.allocation import deck_needs
from decks.models import Deck
from decks.services import deck_data, deck_save

pytestmark = pytest.mark.django_db
URL = "/api/collection/"
KEEP, TOWER = "demo-emberhold-keep", "demo-riverside-tenement"
JSON = "application/json"


def body(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    data: dict[str, Any] = response.json()
    return data


def put(client: Client, cards: list[dict[str, Any]], **extra: Any) -> Any:
    version = body(client.get(URL))["version"]
    return client.put(URL, {"version": version, "cards": cards, **extra}, content_type=JSON)


def owned(client: Client) -> dict[str, tuple[int, int, int]]:
    return {c["id"]: (c["owned"], c["want"], c["trade"]) for c in body(client.get(URL))["cards"]}


def test_a_new_collection_is_empty_and_private(ada: Client) -> None:
    collection = ada.get(URL)
    data = body(collection)
    assert data["owner"] == "ada" and data["cards"] == [] and data["shared_url"] is None
    assert data["totals"] == {"cards": 0, "copies": 0, "want": 0, "trade": 0}
    assert collection["ETag"].endswith(f'.{data["version"]}"')
    assert Client().get(URL).status_code in (401, 403)


def test_a_put_replaces_the_collection_and_a_patch_changes_only_what_it_lists(ada: Client
                                                                              ) -> None:
    data = body(put(ada, [{"id": KEEP, "owned": 2, "trade": 1}, {"id": TOWER, "owned": 1}]))
    assert data["totals"] == {"cards": 2, "copies": 3, "want": 0, "trade": 1}
    demo = next(t for t in data["sets"] if t["code"] == "DEMO")
    assert (demo["owned"], demo["copies"], demo["playsets"]) == (2, 3, 1)
    patched = ada.patch(URL, {"version": data["version"], "cards": [{"id": KEEP, "want": 4}]},
                        content_type=JSON)
    assert owned(ada) == {KEEP: (2, 4, 1), TOWER: (1, 0, 0)} and body(patched)["version"] > 1
    body(put(ada, [{"id": TOWER, "owned": 5}]))
    assert owned(ada) == {TOWER: (5, 0, 0)}
    body(ada.patch(URL, {"version": body(ada.get(URL))["version"],
                         "cards": [{"id": TOWER, "owned": 0}]}, content_type=JSON))
    assert owned(ada) == {}


def test_every_write_names_its_version_and_a_stale_one_writes_nothing(ada: Client) -> None:
    current = ada.get(URL)
    version, etag = current.json()["version"], current["ETag"]
    missing = ada.patch(URL, {"cards": [{"id": KEEP, "owned": 1}]}, content_type=JSON)
    assert missing.status_code == 428 and missing.json()["code"] == "version_required"
    assert missing["Content-Type"] == "application/problem+json"
    ok = ada.patch(URL, {"cards": [{"id": KEEP, "owned": 1}]}, content_type=JSON,
                   headers={"If-Match": etag})
    assert ok.status_code == 200 and ok["ETag"] != etag
    stale_etag = ada.patch(URL, {"cards": [{"id": KEEP, "owned": 7}]}, content_type=JSON,
                           headers={"If-Match": etag})
    assert stale_etag.status_code == 412 and stale_etag.json()["current_version"] == version + 1
    stale = ada.put(URL, {"version": version, "cards": []}, content_type=JSON)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    assert stale["ETag"] == ok["ETag"]
    assert owned(ada) == {KEEP: (1, 0, 0)}


@pytest.mark.parametrize(("cards", "code"), [
    ([{"id": "no-such-card", "owned": 1}], "unknown_card"),
    ([{"id": KEEP, "owned": 1}, {"id": KEEP, "owned": 2}], "duplicate_card"),
])
def test_unknown_or_repeated_cards_are_refused_whole(ada: Client, cards: list[dict[str, Any]],
                                                     code: str) -> None:
    problem = body(put(ada, [{"id": TOWER, "owned": 1}, *cards]), 400)
    assert problem["code"] == "bad_cards" and problem["errors"][0]["code"] == code
    assert owned(ada) == {}


@pytest.mark.parametrize("count", [-1, 10000, "two"])
def test_counts_must_be_whole_numbers_within_range(ada: Client, count: Any) -> None:
    problem = body(put(ada, [{"id": KEEP, "owned": count}]), 400)
    assert "owned" in str(problem["errors"]["cards"])


def test_another_users_collection_is_private_unless_shared_by_link(ada: Client,
                                                                   bob: Client) -> None:
    body(put(ada, [{"id": KEEP, "owned": 3}]))
    assert owned(bob) == {}  # bob's /api/collection/ is his own
    shared_url = body(ada.post("/api/collection/share/"))["shared_url"]
    token = shared_url.rstrip("/").rsplit("/", 1)[1]
    assert body(ada.post("/api/collection/share/"))["shared_url"] == shared_url  # kept
    seen = body(bob.get(f"/api/collection/shared/{token}/"))
    assert seen["owner"] == "ada" and seen["cards"][0]["owned"] == 3
    assert body(Client().get(f"/api/collection/shared/{token}/"))["owner"] == "ada"
    assert bob.get(f"/api/collection/shared/{token}x/").status_code == 404
    assert ada.delete("/api/collection/share/").status_code == 204
    gone = bob.get(f"/api/collection/shared/{token}/")
    assert gone.status_code == 404 and gone["Content-Type"] == "application/problem+json"
    assert bob.get(f"/collection/shared/{token}/").status_code == 404


def test_the_csv_export_imports_back_exactly(ada: Client, bob: Client) -> None:
    body(put(ada, [{"id": KEEP, "owned": 2, "want": 1}, {"id": "wof-bowman-kalim", "trade": 1}]))
    exported = ada.get("/api/collection/export/")
    assert exported["Content-Type"].startswith("text/csv")
    imported = bob.post("/api/collection/import/", {"text": exported.content.decode()},
                        content_type=JSON)
    assert body(imported)["cards"] == body(ada.get(URL))["cards"]


def test_a_csv_upload_with_errors_imports_nothing_and_lists_every_line(bob: Client) -> None:
    upload = SimpleUploadedFile(
        "c.csv", b"id,name,owned\ndemo-emberhold-keep,,1\nnope,,1\n,Bowman,2\nx,,-1\n")
    problem = body(bob.post("/api/collection/import/", {"file": upload}), 400)
    assert problem["code"] == "bad_collection_csv"
    assert [(e["line"], e["code"]) for e in problem["errors"]] == [
        (3, "unknown_card"), (4, "ambiguous_card"), (5, "bad_count"), (5, "unknown_card"),
    ]
    assert problem["errors"][1]["suggestions"][0].startswith("wof-bowman-")
    assert owned(bob) == {}


def test_an_import_that_names_a_stale_version_is_refused(ada: Client) -> None:
    version = body(put(ada, [{"id": KEEP, "owned": 1}]))["version"]
    stale = ada.post("/api/collection/import/",
                     {"text": f"id,owned\n{TOWER},1\n", "mode": "replace", "version": version - 1},
                     content_type=JSON)
    assert stale.status_code == 409 and owned(ada) == {KEEP: (1, 0, 0)}
    replaced = ada.post("/api/collection/import/",
                        {"text": f"id,owned\n{TOWER},1\n", "mode": "replace"}, content_type=JSON)
    assert body(replaced)["cards"] == [{"id": TOWER, "name": "Riverside Tenement", "owned": 1,
                                        "want": 0, "trade": 0}]


# --- decks against the collection -------------------------------------------------------------


def kalim() -> Deck:
    return Deck.objects.get(owner__username="samples", name="Kalim Faithful")


def test_a_deck_says_what_my_collection_lacks(ada: Client) -> None:
    deck = kalim()
    needs = deck_needs(deck_data(deck))
    first = next(iter(needs))
    body(put(ada, [{"id": card, "owned": n} for card, n in needs.items() if card != first]))
    figures = body(ada.get(f"/api/decks/{deck.pk}/ownership/"))
    assert figures["buildable"] is False and figures["missing"] == needs[first]
    assert figures["needed"] == sum(needs.values()) and figures["sleeved"] is False
    row = next(c for c in figures["cards"] if c["id"] == first)
    assert (row["needed"], row["owned"], row["missing"]) == (needs[first], 0, needs[first])
    text = ada.get(f"/api/decks/{deck.pk}/missing/", {"to": "csv"}).content.decode()
    assert list(csv.reader(io.StringIO(text)))[1][::2] == [first, str(needs[first])]
    assert ada.get(f"/api/decks/{deck.pk}/missing/", {"to": "pdf"}).status_code == 400


def test_ownership_needs_an_account_and_a_deck_i_can_see(ada: Client, bob: Client) -> None:
    deck = kalim()
    assert Client().get(f"/api/decks/{deck.pk}/ownership/").status_code in (401, 403)
    private = deck_save(owner=User.objects.get(username="ada"), data=deck_data(deck))
    assert bob.get(f"/api/decks/{private.pk}/ownership/").status_code == 404
    assert ada.get(f"/api/decks/{private.pk}/ownership/").status_code == 200


def test_a_deck_can_be_sleeved_through_the_api(ada: Client) -> None:
    text = "# Sleeved\nStructure Pile\n2 Riverside Tenement\n"
    created = body(ada.post("/api/decks/", {"text": text, "sleeved": True}, content_type=JSON),
                   201)
    assert created["sleeved"] is True
    body(put(ada, [{"id": TOWER, "owned": 2}]))
    figures = body(ada.get(f"/api/decks/{created['id']}/ownership/"))
    assert figures["sleeved"] and figures["buildable"]
    patched = body(ada.patch(f"/api/decks/{created['id']}/",
                             {"sleeved": False, "version": created["version"]},
                             content_type=JSON))
    assert patched["sleeved"] is False


def test_the_openapi_schema_documents_the_collection_endpoints(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert {"get", "put", "patch"} <= set(paths["/api/collection/"])
    for path in ("/api/collection/export/", "/api/collection/import/",
                 "/api/collection/share/", "/api/collection/shared/{token}/",
                 "/api/decks/{id}/ownership/", "/api/decks/{id}/missing/"):
        assert path in paths, path
    put_responses = paths["/api/collection/"]["put"]["responses"]
    assert {"409", "412", "428"} <= set(put_responses)
    assert "DeckOwnership" in schema["components"]["schemas"]
