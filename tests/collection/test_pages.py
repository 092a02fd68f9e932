"""The collection pages: owned buttons on the catalogue, my collection (bulk edit, totals per
set, set helpers, sharing), CSV import and export, and the allocation page."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client

from cards.models import Card
from collection.csv_format import Counts
from collection.models import Collection
from collection.services import collection_counts, collection_lock, collection_of, collection_update
from decks.services import deck_save, deck_set_sleeved
from rules.decklist import DeckEntry, Decklist

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
KEEP, TOWER = "demo-emberhold-keep", "demo-riverside-tenement"


def user(name: str) -> User:
    return User.objects.get(username=name)


def counts(name: str) -> dict[str, Counts]:
    return collection_counts(collection_of(user(name)))


def give(name: str, **owned: Counts) -> None:
    with transaction.atomic():
        collection_update(collection=collection_lock(user(name)),
                          counts={k.replace("_", "-"): v for k, v in owned.items()})


def page(client: Client, url: str, status: int = 200, **params: Any) -> str:
    response = client.get(url, params)
    assert response.status_code == status, response.content[:300]
    return response.content.decode()


# --- the owned buttons on the catalogue -------------------------------------------------------


@pytest.mark.parametrize("url", ["/cards/?q=set:demo", "/cards/?q=set:demo&view=list",
                                 f"/cards/{KEEP}/"])
def test_signed_in_users_get_owned_buttons_on_every_card_view(ada: Client, url: str) -> None:
    html = page(ada, url)
    assert f'id="owned-plus-{KEEP}"' in html and f'id="owned-minus-{KEEP}"' in html
    assert f'action="/collection/cards/{KEEP}/owned/"' in html
    anonymous = page(Client(), url)
    assert "owned-plus-" not in anonymous and "owned-control" not in anonymous


def test_plus_and_minus_change_the_owned_count_in_place(ada: Client) -> None:
    url = f"/collection/cards/{KEEP}/owned/"
    plus = ada.post(url, {"delta": "1"}, headers=HTMX)
    assert plus.status_code == 200 and "1 owned" in plus.content.decode()
    assert plus.content.decode().lstrip().startswith("<form")  # only the control comes back
    ada.post(url, {"delta": "1"}, headers=HTMX)
    minus = ada.post(url, {"delta": "-1", "next": "/cards/?q=set:demo"}, headers=HTMX)
    # The control it returns still goes back to the page it is on, should JavaScript fail.
    assert 'name="next" value="/cards/?q=set:demo"' in minus.content.decode()
    assert "1 owned" in minus.content.decode() and counts("ada")[KEEP].owned == 1
    assert "1 owned" in page(ada, f"/cards/{KEEP}/")


def test_without_htmx_the_button_goes_back_to_the_page(ada: Client) -> None:
    response = ada.post(f"/collection/cards/{KEEP}/owned/",
                        {"delta": "1", "next": "/cards/?q=set:demo"})
    assert response.status_code == 302 and response["Location"] == "/cards/?q=set:demo"
    elsewhere = ada.post(f"/collection/cards/{KEEP}/owned/",
                         {"delta": "1", "next": "https://evil.example/"})
    assert elsewhere["Location"] == f"/cards/{KEEP}/"


@pytest.mark.parametrize(("card", "delta", "status"),
                         [(KEEP, "2", 400), (KEEP, "", 400), ("no-such-card", "1", 404)])
def test_a_bad_owned_change_is_refused(ada: Client, card: str, delta: str, status: int) -> None:
    assert ada.post(f"/collection/cards/{card}/owned/", {"delta": delta}).status_code == status
    assert counts("ada") == {}


def test_anonymous_visitors_are_sent_to_log_in(client: Client) -> None:
    for url in ("/collection/", "/collection/import/", "/collection/allocation/",
                "/collection/export.csv"):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(f"/collection/cards/{KEEP}/owned/", {"delta": "1"}).status_code == 302


# --- my collection ----------------------------------------------------------------------------


def test_the_collection_page_shows_my_cards_and_totals_per_set(ada: Client) -> None:
    give("ada", demo_emberhold_keep=Counts(2, 0, 1), demo_riverside_tenement=Counts(1))
    html = page(ada, "/collection/")
    assert 'name="owned-demo-emberhold-keep" value="2"' in html
    assert 'name="trade-demo-emberhold-keep" value="1"' in html
    demo = Card.objects.filter(set__code="DEMO").count()
    assert f"2 / {demo}" in html  # two Demo cards owned
    assert "One copy of each card" in html and "A playset (2 of each card)" in html


def test_a_set_helper_adds_a_copy_of_every_card(ada: Client) -> None:
    response = ada.post("/collection/add-set/", {"set": "DEMO", "copies": "2"}, follow=True)
    demo = Card.objects.filter(set__code="DEMO").count()
    assert f"{2 * demo} copies of {demo} cards" in response.content.decode()
    assert {c.owned for c in counts("ada").values()} == {2}
    assert ada.post("/collection/add-set/", {"set": "DEMO", "copies": "3"}).status_code == 400
    assert ada.post("/collection/add-set/", {"set": "NOPE", "copies": "1"}).status_code == 404


def test_the_bulk_edit_saves_every_count_at_once(ada: Client) -> None:
    give("ada", demo_emberhold_keep=Counts(2), demo_riverside_tenement=Counts(1))
    version = collection_of(user("ada")).version
    response = ada.post("/collection/", {
        "version": version, f"owned-{KEEP}": "5", f"want-{KEEP}": "1", f"trade-{KEEP}": "",
        f"owned-{TOWER}": "0", f"want-{TOWER}": "0", f"trade-{TOWER}": "0",
    })
    assert response.status_code == 302
    assert counts("ada") == {KEEP: Counts(5, 1, 0)}


def test_a_stale_bulk_edit_is_409_and_saves_nothing(ada: Client) -> None:
    give("ada", demo_emberhold_keep=Counts(2))
    version = collection_of(user("ada")).version
    ada.post(f"/collection/cards/{KEEP}/owned/", {"delta": "1"}, headers=HTMX)  # another tab
    response = ada.post("/collection/", {"version": version, f"owned-{KEEP}": "9",
                                         f"want-{KEEP}": "0", f"trade-{KEEP}": "0"})
    assert response.status_code == 409 and "changed in another tab" in response.content.decode()
    assert counts("ada")[KEEP].owned == 3


def test_a_bad_count_in_the_bulk_edit_is_400_and_saves_nothing(ada: Client) -> None:
    give("ada", demo_emberhold_keep=Counts(2))
    version = collection_of(user("ada")).version
    response = ada.post("/collection/", {"version": version, f"owned-{KEEP}": "-1",
                                         f"want-{KEEP}": "x", f"trade-{KEEP}": "0"})
    html = response.content.decode()
    assert response.status_code == 400 and "Nothing was saved" in html
    assert "owned must be a whole number" in html and "want must be a whole number" in html
    assert counts("ada")[KEEP].owned == 2


# --- CSV import and export --------------------------------------------------------------------


def test_an_export_imports_back_exactly(ada: Client, bob: Client) -> None:
    give("ada", demo_emberhold_keep=Counts(2, 1, 1), wof_bowman_kalim=Counts(1))
    exported = ada.get("/collection/export.csv")
    assert exported["Content-Type"].startswith("text/csv")
    text = exported.content.decode()
    assert text.splitlines()[0] == "id,name,owned,want,trade"
    response = bob.post("/collection/import/", {"text": text, "mode": "replace"})
    assert response.status_code == 302
    assert counts("bob") == counts("ada")


def test_an_uploaded_file_imports(ada: Client) -> None:
    upload = SimpleUploadedFile("mine.csv", b"id,name,owned\n,Emberhold Keep,3\n", "text/csv")
    response = ada.post("/collection/import/", {"file": upload, "mode": "set"})
    assert response.status_code == 302 and counts("ada") == {KEEP: Counts(3)}


def test_a_file_with_errors_lists_them_all_and_imports_nothing(ada: Client) -> None:
    give("ada", demo_emberhold_keep=Counts(1))
    text = ("id,name,owned,want,trade\n"
            "demo-riverside-tenement,,2,0,0\n"
            "demo-emberhold-kep,Emberhold Keep,1,0,0\n"
            ",Bowman,1,0,0\n"
            "demo-fort-ashgate,,lots,0,0\n")
    response = ada.post("/collection/import/", {"text": text, "mode": "set"})
    html = response.content.decode()
    assert response.status_code == 400 and "3 errors: nothing was imported" in html
    for line in ("Line 3", "Line 4", "Line 5"):
        assert line in html
    assert "Did you mean Emberhold Keep (demo-emberhold-keep)?" in html
    assert counts("ada") == {KEEP: Counts(1)}


def test_a_set_import_keeps_other_cards_and_a_replace_does_not(ada: Client) -> None:
    give("ada", demo_emberhold_keep=Counts(1))
    ada.post("/collection/import/", {"text": f"id,owned\n{TOWER},2\n", "mode": "set"})
    assert counts("ada") == {KEEP: Counts(1), TOWER: Counts(2)}
    ada.post("/collection/import/", {"text": f"id,owned\n{TOWER},3\n", "mode": "replace"})
    assert counts("ada") == {TOWER: Counts(3)}


@pytest.mark.parametrize(("data", "message"), [
    ({"text": "  ", "mode": "set"}, "Paste a CSV or choose a file."),
    ({"file": SimpleUploadedFile("x.csv", b"\x00\x01", "text/csv"), "mode": "set"},
     "not a collection file"),
])
def test_an_empty_or_binary_import_is_refused(ada: Client, data: dict[str, Any],
                                              message: str) -> None:
    response = ada.post("/collection/import/", data)
    assert response.status_code == 400 and message in response.content.decode()


# --- sharing ----------------------------------------------------------------------------------


def test_a_collection_is_private_until_shared_by_link(ada: Client, bob: Client) -> None:
    give("ada", demo_emberhold_keep=Counts(4))
    assert "demo-emberhold-keep" not in page(bob, "/collection/")  # bob sees his own
    ada.post("/collection/share/", {"shared": "1"})
    token = Collection.objects.get(owner__username="ada").share_token
    assert token and f"/collection/shared/{token}/" in page(ada, "/collection/")
    shared = page(Client(), f"/collection/shared/{token}/")
    assert "ada's collection" in shared and "Emberhold Keep" in shared
    assert 'type="number"' not in shared  # read-only
    page(bob, f"/collection/shared/{token[:-1]}x/", status=404)
    ada.post("/collection/share/", {"shared": "0"})
    page(bob, f"/collection/shared/{token}/", status=404)


# --- allocation -------------------------------------------------------------------------------


def test_the_allocation_page_shows_where_each_copy_is_and_what_is_short(ada: Client) -> None:
    owner = user("ada")
    give("ada", demo_riverside_tenement=Counts(3))
    for name in ("Old deck", "New deck"):
        deck = deck_save(owner=owner, data=Decklist(name, structures=(DeckEntry(TOWER, 2),)))
        deck_set_sleeved(deck=deck, sleeved=True)
    html = page(ada, "/collection/allocation/")
    assert "Old deck" in html and "New deck" in html
    assert "lacks 1 Riverside Tenement" in html
    assert "3 owned, 0 free, 1 short" in html
