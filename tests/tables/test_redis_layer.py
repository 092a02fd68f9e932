"""The tables' sockets on a real Redis (channels-redis), as `make serve-prod` runs them: the
consumer tests of test_live.py again on the Redis layer, and two ASGI server processes of which
one applies a move and the other tells its socket.

Run by the PostgreSQL leg of `make test`, beside the throw-away redis-server that
`.ci/with-redis --as ALLEGIANCE_TEST_REDIS_URL` starts (the server processes reach the test
database only on PostgreSQL: the SQLite leg's is in the test process's memory). Elsewhere the
tests skip and say how to run them."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.authtoken.models import Token
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from tables.services import table_create, table_join, table_start
from tests.asgi_server import AsgiServer
from tests.tables import test_live
from tests.tables.makers import sample_deck

# The consumer tests of the in-memory layer and their fixtures, collected here once more (the
# autouse fixture below puts them on Redis); this module's own marks.
globals().update({name: value for name, value in vars(test_live).items()
                  if not name.startswith("_") and name != "pytestmark"})

REDIS_URL = os.environ.get("ALLEGIANCE_TEST_REDIS_URL", "")
NO_REDIS = ("no Redis: the PostgreSQL leg of `make test` runs these beside a throw-away "
            "redis-server (.ci/with-redis --as ALLEGIANCE_TEST_REDIS_URL; apt-get install "
            "redis-server)")
pytestmark = [pytest.mark.django_db, pytest.mark.skipif(not REDIS_URL, reason=NO_REDIS)]


@pytest.fixture(autouse=True)
def redis_layer(settings: Any) -> None:
    """The settings' Redis layer, under a prefix of this test's own: two pytest workers share
    the Redis, and their tables have the same ids."""
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": REDIS_URL,
                              "socket_timeout": django_settings.REDIS_READ_TIMEOUT}],
                   "prefix": f"test-{uuid.uuid4().hex}"}}}


@pytest.fixture
def two_servers(transactional_db: None, django_db_serialized_rollback: None,
                tmp_path: Path) -> Iterator[tuple[int, int]]:
    """Two server processes on the test database and one Redis database of their own."""
    if connection.vendor != "postgresql":
        pytest.skip("the servers need a database outside this process: the PostgreSQL leg")
    database = connection.settings_dict["NAME"]
    env = {**os.environ, "DJANGO_DEBUG": "1", "ALLEGIANCE_VAR_DIR": str(tmp_path),
           "DATABASE_URL": urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(
               path=f"/{database}")),
           "REDIS_URL": urlunsplit(urlsplit(REDIS_URL)._replace(path="/1"))}
    servers = [AsgiServer(env) for _ in (1, 2)]
    try:
        yield servers[0].ready(), servers[1].ready()
    finally:
        logs = [server.stop() for server in servers]
    assert not any("Traceback" in log for log in logs), logs


def told(socket: ClientConnection) -> int:
    message = json.loads(socket.recv(timeout=20))
    assert set(message) == {"type", "version"} and message["type"] == "changed", message
    return int(message["version"])


def test_a_move_posted_to_one_server_is_told_to_the_sockets_of_both(
        two_servers: tuple[int, int]) -> None:
    ada, bob = (User.objects.create_user(name) for name in ("ada", "bob"))
    tokens = {user.pk: Token.objects.create(user=user).key for user in (ada, bob)}
    table = table_create(host=ada, deck=sample_deck("Guild Veterans"), size=2, seed=1,
                         target=15)
    table_join(table=table, user=bob, invite=table.invite, deck=sample_deck("Mosfin Blades"))
    table = table_start(table=table, user=ada)
    one, other = two_servers
    with ExitStack() as open_sockets:
        sockets = [open_sockets.enter_context(connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/",
            origin=Origin(f"http://127.0.0.1:{port}")))
            for port in (one, other)]
        assert [told(socket) for socket in sockets] == [table.version] * 2
        with httpx.Client(timeout=30) as client:
            for port in (one, other, one):  # each server applies a move, both tell
                views = {user: client.get(f"http://127.0.0.1:{port}/api/tables/{table.pk}/view/",
                                          headers={"Authorization": f"Token {token}"}).json()
                         for user, token in tokens.items()}
                (mover, seen), = [(u, v) for u, v in views.items() if v.get("legal_actions")]
                moved = client.post(f"http://127.0.0.1:{port}/api/tables/{table.pk}/actions/",
                                    json={"index": 0, "decision": seen["decision"]},
                                    headers={"Authorization": f"Token {tokens[mover]}"})
                assert moved.status_code == 200, moved.text
                version = moved.json()["version"]
                assert [told(socket) for socket in sockets] == [version] * 2
