"""The tables' channel layer as the settings choose it: one process's memory, or Redis
across server processes when REDIS_URL is set (read in a fresh interpreter: the settings are
read once per process; nothing connects)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

READ = ("import json, config.settings as s; "
        "print(json.dumps([s.CHANNEL_LAYERS, s.ASGI_APPLICATION, s.INSTALLED_APPS[0]]))")


@pytest.mark.parametrize(("redis_url", "backend", "config"), [
    (None, "channels.layers.InMemoryChannelLayer", None),
    ("redis://127.0.0.1:6379/2", "channels_redis.core.RedisChannelLayer",
     {"hosts": [{"address": "redis://127.0.0.1:6379/2", "socket_timeout": 15}]}),
])
def test_the_channel_layer_follows_redis_url(redis_url: str | None, backend: str,
                                              config: dict[str, object] | None) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    if redis_url:
        env["REDIS_URL"] = redis_url
    done = subprocess.run([sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    layers, application, first_app = json.loads(done.stdout)
    assert layers["default"]["BACKEND"] == backend
    assert layers["default"].get("CONFIG") == config
    # Daphne first: `runserver` (make run) serves HTTP and the WebSockets on one port.
    assert (application, first_app) == ("config.asgi.application", "daphne")


# The layer as the settings make it, its connection pool built (nothing connects).
POOL = ("import config.settings as s; from channels_redis.core import RedisChannelLayer; "
        "layer = RedisChannelLayer(**s.CHANNEL_LAYERS['default']['CONFIG']); "
        "print(layer.create_pool(0).connection_kwargs['socket_timeout'], layer.brpop_timeout)")


def test_the_redis_layer_reads_longer_than_its_blocking_pop_waits() -> None:
    """A socket waits for messages with BZPOPMIN, brpop_timeout seconds at a time: a read
    timeout no longer than that (redis-py 8's default, 5 s) broke every socket left idle."""
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:6379/2"}
    done = subprocess.run([sys.executable, "-c", POOL], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    read, pop = map(float, done.stdout.split())
    assert read > pop + 1
