"""Presence that expires (tables.presence): a socket's row counts while the server holding it
confirms it, so a server that died leaves a person "here" for TABLE_PRESENCE_TTL only, then
his grace period runs; a person who plays only through the API is here while he asks, and
left at his last request. The time is injected (tables.clock.now), nothing sleeps."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables import presence
from tables.models import Table, TablePresence, TableSeat
from tables.presence import presence_round
from tables.services import table_presence
from tests.tables.calls import SAMPLES, create, join, person, post, sample, started

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
TTL, GRACE = 90, 120  # the settings' defaults


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """The time every table reads: ``at[0]``, moved by the test."""
    now = [T0]
    monkeypatch.setattr("tables.clock.now", lambda: now[0])
    return now


def socket(table_id: int, name: str, connected: bool, server: str,
           monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket of ``name`` opened or closed on the server process ``server``."""
    monkeypatch.setattr("tables.presence.server_id", lambda: server)
    table_presence(table_id=table_id, user=User.objects.get(username=name),
                   channel=f"socket-{name}-{server}", connected=connected)


def three_seats() -> tuple[Client, Client, dict[str, Any]]:
    """ada and bob, and an AI seat, playing."""
    ada, bob = person("ada"), person("bob")
    table = started(ada, [bob], seats=3, ai=[{"seat": 2, "deck": sample(SAMPLES[2])}])
    return ada, bob, table


def bob_seat(client: Client, table_id: int) -> dict[str, Any]:
    seats = client.get(f"/api/tables/{table_id}/").json()["seats"]
    return next(s for s in seats if s["seat"] == 1)


def hand_over(client: Client, table_id: int) -> Any:
    return post(client, f"/api/tables/{table_id}/seats/1/hand-to-ai/")


def later(seconds: int) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_a_dead_servers_socket_stops_counting_after_the_ttl_then_the_grace_period_runs(
        at: list[datetime], monkeypatch: pytest.MonkeyPatch) -> None:
    ada, _, table = three_seats()
    socket(table["id"], "bob", True, "dead", monkeypatch)  # its server dies: never closed
    at[0] = later(TTL - 1)
    assert bob_seat(ada, table["id"])["present"] is True
    assert hand_over(ada, table["id"]).json()["code"] == "still_here"
    at[0] = later(TTL + 1)
    seat = bob_seat(ada, table["id"])
    assert seat["present"] is False
    assert seat["grace_ends"] == later(TTL + GRACE).isoformat()
    early = hand_over(ada, table["id"])
    assert early.status_code == 409 and early.json()["code"] == "grace_period"
    at[0] = later(TTL + GRACE)
    assert hand_over(ada, table["id"]).status_code == 200
    assert TableSeat.objects.get(seat=1).stand_in


def test_a_live_server_confirming_its_socket_keeps_him_here(
        at: list[datetime], monkeypatch: pytest.MonkeyPatch) -> None:
    ada, _, table = three_seats()
    socket(table["id"], "bob", True, "live", monkeypatch)
    for seconds in (TTL // 3, 2 * TTL // 3, TTL, 4 * TTL // 3):
        at[0] = later(seconds)
        presence_round(server="live")
    at[0] = later(4 * TTL // 3 + TTL - 1)
    assert bob_seat(ada, table["id"])["present"] is True
    assert bob_seat(ada, table["id"])["grace_ends"] is None
    assert hand_over(ada, table["id"]).json()["code"] == "still_here"


def test_a_live_servers_round_clears_a_dead_servers_rows_and_tells_the_table(
        at: list[datetime], monkeypatch: pytest.MonkeyPatch) -> None:
    ada, _, table = three_seats()
    socket(table["id"], "bob", True, "dead", monkeypatch)
    version = Table.objects.get().version
    at[0] = later(TTL - 1)
    assert presence_round(server="live") == []  # not expired yet: nothing changes
    at[0] = later(TTL + 1)
    assert presence_round(server="live") == [table["id"]]
    assert not TablePresence.objects.filter(user__username="bob").exists()
    assert TableSeat.objects.get(seat=1).left_at == later(TTL)
    assert Table.objects.get().version == version + 1
    # What the row said of his leaving is kept: the same grace period as before.
    assert bob_seat(ada, table["id"])["grace_ends"] == later(TTL + GRACE).isoformat()


def test_his_socket_reopened_on_another_server_keeps_him_here(
        at: list[datetime], monkeypatch: pytest.MonkeyPatch) -> None:
    ada, _, table = three_seats()
    socket(table["id"], "bob", True, "dead", monkeypatch)
    at[0] = later(5)  # the browser reconnects, through nginx, to a live server
    socket(table["id"], "bob", True, "live", monkeypatch)
    at[0] = later(TTL + 1)
    presence_round(server="live")
    assert bob_seat(ada, table["id"])["present"] is True
    assert TableSeat.objects.get(seat=1).left_at is None
    at[0] = later(TTL + 2)  # then he closes it: he left now, the dead row long gone
    socket(table["id"], "bob", False, "live", monkeypatch)
    assert bob_seat(ada, table["id"])["grace_ends"] == later(TTL + 2 + GRACE).isoformat()


def test_an_api_client_is_here_while_he_asks_and_left_at_his_last_request(
        at: list[datetime]) -> None:
    ada, bob, table = three_seats()  # bob never opens a socket
    at[0] = later(10)
    assert bob.get(f"/api/tables/{table['id']}/view/").status_code == 200
    at[0] = later(10 + TTL - 1)
    assert bob_seat(ada, table["id"])["present"] is True
    assert hand_over(ada, table["id"]).json()["code"] == "still_here"
    at[0] = later(10 + TTL + 1)
    seat = bob_seat(ada, table["id"])
    assert seat["present"] is False
    assert seat["grace_ends"] == later(10 + GRACE).isoformat()
    at[0] = later(10 + GRACE - 1)
    assert hand_over(ada, table["id"]).json()["code"] == "grace_period"
    at[0] = later(10 + GRACE)
    assert hand_over(ada, table["id"]).status_code == 200
    # Back, he takes his seat with a request: here again.
    assert post(bob, f"/api/tables/{table['id']}/take-back/").status_code == 200
    assert bob_seat(ada, table["id"])["present"] is True


def test_an_api_clients_polling_stamps_his_presence_once_a_confirmation_interval(
        at: list[datetime]) -> None:
    _, bob, table = three_seats()
    url = f"/api/tables/{table['id']}/view/"

    def stamped() -> datetime:
        return TablePresence.objects.get(user__username="bob").seen_at

    bob.get(url)
    at[0] = later(TTL // 3 - 1)
    bob.get(url)
    assert stamped() == T0  # this process stamped him lately: nothing written
    at[0] = later(TTL // 3)
    bob.get(url)
    assert stamped() == later(TTL // 3)


def test_a_spectators_requests_are_no_sign_of_presence(at: list[datetime]) -> None:
    _, _, table = three_seats()
    assert person("cy").get(f"/api/tables/{table['id']}/view/").status_code == 200
    Client().get(f"/api/tables/{table['id']}/view/")
    # Only the host's own requests (he started the table) left one.
    assert set(TablePresence.objects.values_list("user__username", flat=True)) == {"ada"}


def test_a_page_without_javascript_is_a_sign_of_presence(at: list[datetime]) -> None:
    ada, bob, table = three_seats()
    assert bob.get(f"/tables/{table['id']}/").status_code == 200
    assert bob_seat(ada, table["id"])["present"] is True


def test_a_person_who_joins_and_is_never_heard_from_again_is_handed_over_after_grace(
        at: list[datetime]) -> None:
    ada, _, table = three_seats()  # bob joined at T0, and never asks or opens the page again
    assert not TablePresence.objects.filter(user__username="bob").exists()
    assert bob_seat(ada, table["id"])["grace_ends"] == later(GRACE).isoformat()
    at[0] = later(GRACE - 1)
    assert hand_over(ada, table["id"]).json()["code"] == "grace_period"
    at[0] = later(GRACE)
    assert hand_over(ada, table["id"]).status_code == 200


def test_a_server_confirms_its_sockets_only_while_it_holds_some() -> None:
    bob = SimpleNamespace(pk=7, is_authenticated=True)

    async def sockets() -> tuple[bool, bool, bool]:
        presence.holding(1, bob, opened=True)
        presence.holding(1, bob, opened=True)
        running = presence._confirming is not None and not presence._confirming.done()
        presence.holding(1, bob, opened=False)
        still = presence._confirming is not None
        task = presence._confirming
        presence.holding(1, bob, opened=False)
        await asyncio.sleep(0)  # let the cancelled task finish
        return running, still, task is not None and task.cancelled()

    assert asyncio.run(sockets()) == (True, True, True)
    assert presence._confirming is None and not presence._held


def test_the_page_tells_of_a_person_who_left_only_once_the_game_is_under_way(
        at: list[datetime]) -> None:
    ada, bob = person("ada"), person("bob")
    table = create(ada, seats=3, ai=[{"seat": 2, "deck": sample(SAMPLES[2])}])
    assert join(bob, table).status_code == 200  # at T0, then never heard from again
    for seconds in (10, GRACE + 1):  # an open table hands no seat over: nothing to tell
        at[0] = later(seconds)
        assert "bob left" not in ada.get(f"/tables/{table['id']}/").content.decode()
    assert post(ada, f"/api/tables/{table['id']}/start/").status_code == 200
    page = ada.get(f"/tables/{table['id']}/").content.decode()
    assert "bob left: hand seat 2 to the AI" in page


def test_a_round_clears_a_request_that_ran_out_keeping_when_he_left(
        at: list[datetime]) -> None:
    ada, bob, table = three_seats()
    at[0] = later(10)
    bob.get(f"/api/tables/{table['id']}/view/")
    version = Table.objects.get().version
    at[0] = later(10 + TTL + 1)
    assert presence_round(server="live") == [table["id"]]
    assert not TablePresence.objects.filter(user__username="bob").exists()
    assert TableSeat.objects.get(seat=1).left_at == later(10)
    assert Table.objects.get().version == version + 1
    assert bob_seat(ada, table["id"])["grace_ends"] == later(10 + GRACE).isoformat()
