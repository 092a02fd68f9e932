"""Throttle rates and the PostgreSQL connection pool come from the environment
(config/env_settings.py): read right, refused when wrong, and in force in a fresh process."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env_settings import pool_options, throttle_rates
from tests.security.test_deploy_settings import manage

DEFAULTS = {"exports": "30/minute", "draws": "120/minute", "goldfish": "10/minute"}


@pytest.mark.parametrize("value, expected", [
    (None, DEFAULTS),
    ("", DEFAULTS),
    ("draws=600/minute", {**DEFAULTS, "draws": "600/minute"}),
    (" draws = 5/second , goldfish=100/hour ,", {**DEFAULTS, "draws": "5/second",
                                                 "goldfish": "100/hour"}),
    ("exports=1000/day", {**DEFAULTS, "exports": "1000/day"}),
    ("exports=9/m", {**DEFAULTS, "exports": "9/m"}),
])
def test_rates_from_the_environment_override_the_defaults(value: str | None,
                                                          expected: dict[str, str]) -> None:
    assert throttle_rates(DEFAULTS, value) == expected


@pytest.mark.parametrize("value, message", [
    ("draw=600/minute", "unknown scope 'draw'"),  # a typo must not leave the default in force
    ("draws=600", "is not a rate"),
    ("draws=600/fortnight", "is not a rate"),
    ("draws=lots/minute", "is not a rate"),
    ("draws", "is not a rate"),
])
def test_a_rate_that_cannot_be_read_stops_the_start(value: str, message: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        throttle_rates(DEFAULTS, value)


@pytest.mark.parametrize("enabled, low, high, timeout, expected", [
    (False, "4", "8", None, None),
    (True, None, None, None, {"min_size": 1, "max_size": 2, "timeout": 10.0}),
    (True, "2", None, None, {"min_size": 2, "max_size": 2, "timeout": 10.0}),
    (True, "0", "4", "2.5", {"min_size": 0, "max_size": 4, "timeout": 2.5}),
])
def test_pool_options(enabled: bool, low: str | None, high: str | None, timeout: str | None,
                      expected: dict[str, float] | None) -> None:
    assert pool_options(enabled, low, high, timeout) == expected


@pytest.mark.parametrize("low, high, timeout", [
    ("3", "2", None), ("0", "0", None), ("x", None, None), (None, None, "0"), ("-1", "2", None),
])
def test_pool_sizes_that_make_no_sense_stop_the_start(low: str | None, high: str | None,
                                                      timeout: str | None) -> None:
    with pytest.raises(ImproperlyConfigured):
        pool_options(True, low, high, timeout)


SHOW = ("from django.conf import settings as s; import json; "
        "print(json.dumps([s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'], "
        "s.DATABASES['default'].get('OPTIONS', {}).get('pool'), "
        "s.DATABASES['default']['CONN_MAX_AGE']]))")


def test_the_rates_and_the_pool_reach_the_settings() -> None:
    done = manage("shell", "-v", "0", "-c", SHOW, DJANGO_THROTTLE_RATES="draws=600/minute",
                  DATABASE_URL="postgres://allegiance@127.0.0.1:5432/allegiance",
                  DATABASE_POOL="1", DATABASE_POOL_MAX_SIZE="3")
    assert done.returncode == 0, done.stderr
    rates, pool, conn_max_age = json.loads(done.stdout.splitlines()[-1])
    assert rates["draws"] == "600/minute" and rates["goldfish"] == "10/minute"
    assert pool == {"min_size": 1, "max_size": 3, "timeout": 10.0}
    assert conn_max_age == 0  # Django refuses persistent connections beside a pool


@pytest.mark.parametrize("env, message", [
    ({"DJANGO_THROTTLE_RATES": "drawz=1/second"}, "unknown scope 'drawz'"),
    ({"DATABASE_POOL": "1"}, "DATABASE_POOL needs PostgreSQL"),  # the default is SQLite
])
def test_a_wrong_setting_refuses_to_start(env: dict[str, str], message: str) -> None:
    done = manage("check", **env)
    assert done.returncode != 0
    assert message in done.stderr
