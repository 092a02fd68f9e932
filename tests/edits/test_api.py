"""The card edit API beyond the contract's core: staff actions, scans, a card's history, the
list's filters and queries, throttles and the OpenAPI schema."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from PIL import Image
from rest_framework.throttling import ScopedRateThrottle

from edits.models import Edit, EditScan
from edits.services import edit_apply, edit_propose, edit_vote
from tests.edits.makers import client_for, make_user, post


def png(width: int = 300, height: int = 420) -> io.BytesIO:
    data = io.BytesIO()
    Image.new("RGB", (width, height), (200, 180, 150)).save(data, "PNG")
    data.seek(0)
    data.name = "card.png"
    return data


def proposed(editor: Any, card: str = "tst-unknown-tower", **changes: Any) -> Edit:
    return edit_propose(editor=editor, card=card, changes=changes or {"defense": 4},
                        source="my own copy")


@pytest.fixture
def ada() -> Any:
    return make_user("ada")


def test_staff_apply_and_reject_through_the_api(ada: Any) -> None:
    staff = client_for(make_user("mod", staff=True))
    first, second = proposed(ada), proposed(ada, "tst-lamplighter", defense=5)
    assert post(client_for(make_user("bob")), f"/api/edits/{first.pk}/apply/",
                status=403).json()["code"] == "staff_only"
    assert post(staff, f"/api/edits/{first.pk}/apply/", status=200).json()["status"] == \
        "applied"
    assert post(staff, f"/api/edits/{first.pk}/apply/", status=409).json()["code"] == \
        "edit_closed"
    assert "note" in post(staff, f"/api/edits/{second.pk}/reject/", status=400).json()["errors"]
    rejected = post(staff, f"/api/edits/{second.pk}/reject/", {"note": "the card says 2"},
                    status=200).json()
    assert (rejected["status"], rejected["decided_by"], rejected["decision_note"]) == (
        "rejected", "mod", "the card says 2")


def test_a_rejection_without_a_note_is_a_400_naming_the_note(ada: Any) -> None:
    edit = proposed(ada)
    problem = post(client_for(make_user("bob")), f"/api/edits/{edit.pk}/votes/",
                   {"vote": "reject"}, status=400).json()
    assert "note" in problem["errors"] and "note" in problem["detail"]


def test_the_document_shows_every_ballot_and_whether_it_counts(ada: Any) -> None:
    edit = proposed(ada)
    edit_vote(edit=edit, voter=make_user("bob"), vote="approve", note="matches my copy")
    edit_vote(edit=edit, voter=make_user("newcomer", days_old=1), vote="approve")
    doc = Client().get(f"/api/edits/{edit.pk}/").json()
    assert doc["votes"] == {"approve": 1, "reject": 0}
    assert [(b["voter"], b["counts"], b["note"]) for b in doc["ballots"]] == [
        ("bob", True, "matches my copy"), ("newcomer", False, "")]
    assert doc["approvals_needed"] == 2
    assert (doc["kind"], doc["set"], doc["before"]) == ("change", "TST", {"defense": None})


def test_the_editor_attaches_a_scan_that_is_checked_and_served(ada: Any) -> None:
    edit = proposed(ada)
    mine = client_for(ada)
    doc = mine.post(f"/api/edits/{edit.pk}/scan/", {"file": png()}).json()
    assert set(doc["scan"]) == {"small", "normal", "large"}
    picture = EditScan.objects.get(edit=edit)
    assert (picture.width, picture.height) == (745, 1043)
    image = Client().get(doc["scan"]["small"])
    assert image.status_code == 200 and image["Content-Type"] == "image/webp"
    assert b"".join(image.streaming_content)[:4] == b"RIFF"  # type: ignore[attr-defined]


def test_a_scan_that_is_not_an_image_is_a_400_and_stores_nothing(ada: Any) -> None:
    edit = proposed(ada)
    bad = io.BytesIO(b"GIF89a not really")
    bad.name = "card.gif"
    response = client_for(ada).post(f"/api/edits/{edit.pk}/scan/", {"file": bad})
    assert response.status_code == 400 and "file" in response.json()["errors"]
    assert not EditScan.objects.exists()


def test_only_the_editor_or_staff_attach_a_scan(ada: Any) -> None:
    edit = proposed(ada)
    response = client_for(make_user("bob")).post(f"/api/edits/{edit.pk}/scan/", {"file": png()})
    assert response.status_code == 403
    assert Client().get(f"/api/edits/{edit.pk}/scan/large/").status_code == 404


def test_a_scan_can_come_with_the_proposal(ada: Any) -> None:
    edit = edit_propose(editor=ada, card="tst-unknown-tower", changes={"defense": 4},
                        source="the attached scan", scan=png().getvalue())
    assert EditScan.objects.filter(edit=edit).exists()


def test_a_cards_history_lists_provenance_applied_and_open_edits(ada: Any) -> None:
    mod = make_user("mod", staff=True)
    applied = edit_apply(edit=proposed(ada, defense=4), user=mod)
    still_open = proposed(ada, vitality=9)
    proposed(ada, "tst-lamplighter", defense=7)
    history = Client().get("/api/cards/tst-unknown-tower/history/").json()
    assert history["card"] == "tst-unknown-tower"
    assert history["provenance"]["defense"]["edit"] == applied.pk
    assert [d["id"] for d in history["applied"]] == [applied.pk]
    assert [d["id"] for d in history["open"]] == [still_open.pk]
    assert Client().get("/api/cards/tst-nothing/history/").status_code == 404


def test_the_list_is_newest_first_paginated_and_its_queries_do_not_grow(ada: Any) -> None:
    client = Client()
    for n in range(3):
        edit = proposed(ada, artist=f"Artist {n}")
        edit_vote(edit=edit, voter=make_user(f"voter{n}"), vote="approve")
    with CaptureQueriesContext(connection) as few:
        page = client.get("/api/edits/?page_size=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    ids = [d["id"] for d in page["results"]]
    assert ids == sorted(ids, reverse=True)
    for n in range(3, 9):
        edit = proposed(ada, artist=f"Artist {n}")
        edit_vote(edit=edit, voter=make_user(f"voter{n}"), vote="approve")
    with CaptureQueriesContext(connection) as many:
        assert len(client.get("/api/edits/?page_size=9").json()["results"]) == 9
    assert len(many) == len(few)


def test_filters_that_cannot_be_read_are_a_400_problem() -> None:
    response = Client().get("/api/edits/?status=maybe")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"


def test_an_unknown_edit_is_a_404_problem() -> None:
    for url in ("/api/edits/999999/", "/api/edits/abc/", "/api/edits/99999999999999999999/"):
        response = Client().get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/problem+json"


@pytest.fixture
def two_a_minute(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    rates = dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "2/minute")
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)


def assert_throttled(response: Any) -> None:
    assert response.status_code == 429, response.content[:300]
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "throttled" and int(response["Retry-After"]) > 0


def test_edits_votes_and_scans_have_throttle_scopes(settings: Any) -> None:
    assert {"edits", "votes", "scans"} <= set(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])


def test_proposals_are_throttled_per_user(ada: Any, two_a_minute: None) -> None:
    mine = client_for(ada)
    for n in range(2):
        post(mine, "/api/edits/", {"card": "tst-unknown-tower", "changes": {"offense": n},
                                   "source": "copy"}, status=201)
    assert_throttled(post(mine, "/api/edits/", {"card": "tst-unknown-tower",
                                                "changes": {"offense": 5}, "source": "copy"}))
    post(client_for(make_user("bob")), "/api/edits/", {
        "card": "tst-unknown-tower", "changes": {"offense": 5}, "source": "copy"}, status=201)
    assert Client().get("/api/edits/").status_code == 200  # reading is not counted


def test_votes_are_throttled_per_user(ada: Any, two_a_minute: None) -> None:
    edits = [proposed(ada, artist=f"Artist {n}") for n in range(3)]
    bob = client_for(make_user("bob"))
    for edit in edits[:2]:
        post(bob, f"/api/edits/{edit.pk}/votes/", {"vote": "approve"}, status=200)
    assert_throttled(post(bob, f"/api/edits/{edits[2].pk}/votes/", {"vote": "approve"}))


def test_scan_uploads_are_throttled_per_user(ada: Any, two_a_minute: None) -> None:
    edit = proposed(ada)
    mine = client_for(ada)
    for _ in range(2):
        assert mine.post(f"/api/edits/{edit.pk}/scan/", {"file": png()}).status_code == 200
    assert_throttled(mine.post(f"/api/edits/{edit.pk}/scan/", {"file": png()}))


def test_the_schema_documents_every_operation_with_its_problems(client: Client) -> None:
    paths = client.get("/api/schema/?format=json").json()["paths"]
    expected = {
        "/api/edits/": {"get", "post"},
        "/api/edits/{id}/": {"get"},
        "/api/edits/{id}/votes/": {"post"},
        "/api/edits/{id}/cancel/": {"post"},
        "/api/edits/{id}/apply/": {"post"},
        "/api/edits/{id}/reject/": {"post"},
        "/api/edits/{id}/revert/": {"post"},
        "/api/edits/{id}/competing/": {"get"},
        "/api/edits/{id}/scan/": {"post"},
        "/api/edits/{id}/scan/{size}/": {"get"},
        "/api/edits/revert-editor/": {"post"},
        "/api/cards/{card_id}/history/": {"get"},
    }
    for path, methods in expected.items():
        assert methods <= set(paths[path]), path
    create = paths["/api/edits/"]["post"]["responses"]
    assert {"201", "400", "403", "429"} <= set(create)
    assert "application/problem+json" in create["400"]["content"]
    votes = paths["/api/edits/{id}/votes/"]["post"]["responses"]
    assert {"200", "400", "403", "404", "409", "429"} <= set(votes)
    parameters = {p["name"] for p in paths["/api/edits/"]["get"]["parameters"]}
    assert {"card", "status", "editor", "set", "page"} <= parameters
