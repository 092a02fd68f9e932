"""Schemathesis fuzzes every operation of /api/schema/ as a visitor without an account (no
token, no session): no answer is a 5xx, every answer matches its documented schema, and every
write that needs an account (decks above all) is refused with 401 or 403 and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from schemathesis.config import SchemathesisConfig

from config.wsgi import application
from decks.models import Deck
from decks.services import deck_data, deck_save
from tables.models import Table
from tables.services import SeatDeck, table_create
from tests.fuzz.test_api_schema_fuzz import CHECKS, FUZZ, keep_the_test_connection, no_throttles

# Minutes of schemathesis in all: `pytest -m "not slow and not browser"` leaves them out.
pytestmark = pytest.mark.slow

__all__ = ["keep_the_test_connection", "no_throttles"]  # autouse here too

# The signed-in fuzz (test_api_schema_fuzz.py) already walks every operation's boundary values
# (schemathesis's coverage phase, most of its cost); a visitor gets the examples and the
# bounded random ones, which is what differs without an account: refusals and smaller limits.
VISITOR_CONFIG = SchemathesisConfig()
VISITOR_CONFIG.projects.default.phases.update(phases=["examples", "fuzzing"])
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application,
                                     config=VISITOR_CONFIG)

WRITES = {"POST", "PUT", "PATCH", "DELETE"}
# Needs no account although the schema lists only authenticated schemes: it is how one signs in.
SIGN_IN = "/api/auth/token/"


def needs_an_account(operation: Any) -> bool:
    """The schema says so: no empty (anonymous) security requirement on the operation."""
    security = operation.definition.raw.get("security")
    return security is not None and {} not in security and operation.path != SIGN_IN


@pytest.fixture
def a_saved_deck(db: None) -> Deck:
    """Someone's deck for the id-taking operations to aim at (the samples are public too)."""
    sample = Deck.objects.filter(owner__username="samples").first()
    assert sample is not None
    return deck_save(owner=User.objects.create_user("ada"), data=deck_data(sample),
                     visibility=Deck.PUBLIC)


@pytest.fixture
def a_table(a_saved_deck: Deck) -> Table:
    """Someone's open table, for the tables' id-taking operations to aim at."""
    return table_create(host=a_saved_deck.owner, deck=SeatDeck(deck_data(a_saved_deck)),
                        size=2)


@schema.parametrize()
@FUZZ
def test_no_operation_answers_a_visitor_without_an_account_5xx_or_breaks_its_schema(
        case: Any, a_saved_deck: Deck, a_table: Table) -> None:
    if "id" in (case.path_parameters or {}) and case.path.startswith("/api/decks/"):
        case.path_parameters["id"] = a_saved_deck.pk  # a deck that exists, so not just a 404
    if "id" in (case.path_parameters or {}) and case.path.startswith("/api/tables/"):
        case.path_parameters["id"] = a_table.pk
        if "number" in case.path_parameters:  # an offer's number (none is made)
            case.path_parameters["number"] = 1
        if "seat" in case.path_parameters:  # a seat of the table (the route takes a number)
            case.path_parameters["seat"] = 0
    decks_before = Deck.objects.count()
    table_before = Table.objects.values("version", "status", "moves").get()
    response = case.call()  # no Authorization header, no session cookie
    case.validate_response(response, checks=CHECKS)
    if case.method.upper() in WRITES and needs_an_account(case.operation):
        label = (case.method, case.formatted_path, response.text[:300])
        assert response.status_code in (401, 403), label
        content_type = response.headers.get("content-type", [""])[0]  # lowercase keys, lists
        assert content_type.startswith("application/problem+json"), label
        assert Deck.objects.count() == decks_before
        after = Deck.objects.get(pk=a_saved_deck.pk)
        assert (after.name, after.version, after.visibility) == (
            a_saved_deck.name, a_saved_deck.version, Deck.PUBLIC)
        assert Table.objects.values("version", "status", "moves").get() == table_before


def test_the_writes_the_visitor_fuzz_expects_refused_are_the_account_only_ones() -> None:
    refused = set()
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]  # an Err would fail the test here
        if operation.method.upper() in WRITES and needs_an_account(operation):
            refused.add(f"{operation.method.upper()} {operation.path}")
    assert {"POST /api/decks/", "PUT /api/decks/{id}/", "PATCH /api/decks/{id}/",
            "DELETE /api/decks/{id}/", "POST /api/decks/{id}/clone/",
            "POST /api/decks/import/", "PUT /api/collection/", "POST /api/tables/",
            "POST /api/tables/{id}/join/", "POST /api/tables/{id}/actions/"} <= refused
    assert not refused & {"POST /api/decks/validate/", "POST /api/goldfish/", SIGN_IN}
