"""Calls to /api/tables/ shared by the tables' tests: people, decks, a table made and played."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from decks.models import Deck
from tests.conftest import FIXTURES

PROBLEM = "application/problem+json"
SAMPLES = ("Guild Veterans", "Mosfin Blades", "Kalim Crusaders", "Guild Merchants",
           "Mosfin Senate", "Kalim Faithful")
# The wanderers the validator's fixes add for six players (3 per player: 18).
MORE_WANDERERS = ("Goblin Skulkers", "Webspinner Matriarch", "Deserter Knight",
                  "Thornback Ogre", "Bandit Chief Korran Vesh")


def six_player_text() -> str:
    """guild-veterans with the five wanderers six players need."""
    text = (FIXTURES / "decklists" / "guild-veterans.txt").read_text(encoding="utf-8")
    for name in MORE_WANDERERS:
        text = text.replace(f"\n1 {name}\n", f"\n2 {name}\n")
    return text.replace("# players: 4", "# players: 6")


def sample(name: str) -> int:
    return int(Deck.objects.get(owner__username="samples", name=name).pk)


def person(name: str) -> Client:
    client = Client()
    client.force_login(User.objects.create_user(name, f"{name}@example.com", "pw"))
    return client


def post(client: Client, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, body or {}, content_type="application/json")


def create(client: Client, **body: Any) -> dict[str, Any]:
    """A table of ``client``'s (a ``deck`` of None leaves the deck out, for a ``text``)."""
    payload = {"deck": sample(SAMPLES[0]), "seats": 2, "seed": 3, "target": 15, **body}
    response = post(client, "/api/tables/", {k: v for k, v in payload.items() if v is not None})
    assert response.status_code == 201, response.content
    document: dict[str, Any] = response.json()
    return document


def join(client: Client, table: dict[str, Any], deck: str = SAMPLES[1], **body: Any) -> Any:
    return post(client, f"/api/tables/{table['id']}/join/",
                {"invite": table["invite"], "deck": sample(deck), **body})


def started(host: Client, guests: list[Client], **body: Any) -> dict[str, Any]:
    """A table of the host, the guests (in seats 1 on) and the AI seats of ``body``, started."""
    seats = body.pop("seats", 1 + len(guests) + len(body.get("ai", [])))
    table = create(host, seats=seats, **body)
    for number, guest in enumerate(guests, start=1):
        assert join(guest, table, SAMPLES[number % len(SAMPLES)]).status_code == 200
    response = post(host, f"/api/tables/{table['id']}/start/")
    assert response.status_code == 200, response.content
    document: dict[str, Any] = response.json()
    return document


def view(client: Client, table_id: int) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/view/")
    assert response.status_code == 200, response.content
    document: dict[str, Any] = response.json()
    return document


def mover(clients: dict[int, Client], table_id: int) -> tuple[Client, dict[str, Any]] | None:
    """The person whose decision is pending and his view, or None (over, or an AI's)."""
    for client in clients.values():
        seen = view(client, table_id)
        if seen["you"] in seen["to_move"]:
            return client, seen
    return None
