"""Users of given ages and a made-up test set for the card edit tests (never a real card's
stats: the TST cards below are invented, and the Demo set is fictional)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from cards.models import Card
from cards.services import cards_import_bytes

TEST_SET = {"code": "TST", "name": "Test set (made up)", "official": False, "released": None}
TEST_CARDS: list[dict[str, Any]] = [
    {"id": "tst-lamplighter", "name": "Lamplighter", "number": "1", "type": "personality",
     "subtype": "citizen", "faction": "guild", "offense": 1, "defense": 2, "vitality": 3,
     "cost_economic": 2, "abilities": "Fleetfoot.", "sources": ["made up for the tests"]},
    {"id": "tst-unknown-tower", "name": "Unknown Tower", "number": "2", "type": "structure",
     "sources": ["made up for the tests"]},
]


def make_test_set() -> None:
    doc = {"set": TEST_SET, "cards": TEST_CARDS}
    cards_import_bytes(json.dumps(doc).encode(), source="tst.json", base_dir=Path("."),
                       make_images=False)


def card(card_id: str) -> Card:
    return Card.objects.select_related("set").get(id=card_id)


def make_user(name: str, *, days_old: int = 30, staff: bool = False) -> User:
    user = User.objects.create_user(name, is_staff=staff)  # no password: hashing is slow
    user.date_joined = timezone.now() - dt.timedelta(days=days_old)
    user.save(update_fields=["date_joined"])
    return user


def client_for(user: User, address: str | None = None) -> Client:
    """A test client signed in as ``user``, from the client ``address`` (default: the test
    client's 127.0.0.1, which all such clients share)."""
    client = Client(REMOTE_ADDR=address) if address else Client()
    client.force_login(user)
    return client


def make_verified(name: str, *, days_old: int = 30, staff: bool = False) -> User:
    """A user with a verified e-mail address (accounts.verification)."""
    from accounts.models import EmailVerification

    user = make_user(name, days_old=days_old, staff=staff)
    user.email = f"{name}@example.org"
    user.save(update_fields=["email"])
    EmailVerification.objects.create(user=user, email=user.email, verified_at=timezone.now())
    return user


def post(client: Client, url: str, body: Any = None, status: int | None = None) -> Any:
    response = client.post(url, body if body is not None else {}, content_type="application/json")
    if status is not None:
        assert response.status_code == status, response.content[:800]
    return response


def edit_pages(viewer: User) -> list[str]:
    """The card edit pages as ``viewer`` (given a verified address, so the forms show) meets
    them, with an open edit of a Demo card (a fictional set) proposed by somebody else, so that
    its page offers the votes."""
    from accounts.models import EmailVerification
    from edits.services import edit_propose

    viewer.email = f"{viewer.username}@example.org"
    viewer.save(update_fields=["email"])
    EmailVerification.objects.create(user=viewer, email=viewer.email, verified_at=timezone.now())

    demo = card("demo-bog-hag")
    edit = edit_propose(editor=make_verified(f"{viewer.username}-peer"), card=demo.id,
                        changes={"defense": (demo.defense or 0) + 1},
                        source="my own copy of the card")
    return ["/cards/demo-bog-hag/improve/", "/sets/demo/add/", "/edits/", f"/edits/{edit.pk}/",
            "/edits/mine/", "/edits/guide/", "/cards/demo-bog-hag/history/"]
