"""Schemathesis fuzzes every operation of /api/schema/ against the WSGI app, in-process."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from rest_framework.throttling import ScopedRateThrottle
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from config.wsgi import application

# Minutes of schemathesis in all: `pytest -m "not slow and not browser"` leaves them out.
pytestmark = pytest.mark.slow

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
# Bounded, so the suite stays quick on two cores: 10 random requests an operation, beside the
# coverage phase's boundary values (about 3,300 requests in all, most of the cost); derandomized
# under CI like the project's hypothesis profile, so a failure there is reproducible.
# ALLEGIANCE_FUZZ_EXAMPLES=500 digs deeper.
FUZZ = settings(
    max_examples=int(os.environ.get("ALLEGIANCE_FUZZ_EXAMPLES", "10")), deadline=None,
    derandomize=bool(os.environ.get("CI")), suppress_health_check=list(HealthCheck),
)


# Read once, at collection, from the app itself: one test per operation, spread over workers.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


@pytest.fixture(autouse=True)
def no_throttles(monkeypatch: pytest.MonkeyPatch) -> None:
    # The fuzzer asks far faster than a person: the throttles have their own tests.
    monkeypatch.setattr(ScopedRateThrottle, "allow_request", lambda *args: True)


@pytest.fixture(autouse=True)
def keep_the_test_connection() -> Iterator[None]:
    """The WSGI app's request signals would close the connection that holds the test's
    transaction (PostgreSQL really closes it); Django's test client unhooks them the same way."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def user_token(db: None) -> str:
    user = User.objects.create_user("fuzzer")
    return Token.objects.create(user=user).key


@schema.parametrize()
@FUZZ
def test_no_operation_answers_5xx_or_breaks_its_schema(case: Any, user_token: str) -> None:
    case.call_and_validate(headers={"Authorization": f"Token {user_token}"}, checks=CHECKS)
