"""Calls to /api/playtest/ shared by its solo and table tests."""

from __future__ import annotations

from typing import Any

from django.test import Client

from tests.conftest import FIXTURES

TEXT = (FIXTURES / "decklists" / "guild-veterans.txt").read_text(encoding="utf-8")
PROBLEM = "application/problem+json"


def post(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, body, content_type="application/json")


def start(client: Client, **body: Any) -> dict[str, Any]:
    """A new game of guild-veterans (seed 5, unless ``body`` says otherwise)."""
    response = post(client, "/api/playtest/", {"text": TEXT, "seed": 5, **body})
    assert response.status_code == 201, response.content
    document: dict[str, Any] = response.json()
    return document
