"""The served OpenAPI schema is a contract a client generator can use: request and answer
components apart, JSON request bodies (multipart only where a file is sent), every problem an
operation answers listed as application/problem+json, nullable references that validate."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from drf_spectacular.validation import validate_schema
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4
from rest_framework.throttling import ScopedRateThrottle

from tests.conftest import FIXTURES
from tests.edits.makers import client_for, make_test_set, make_user

# Drawing up the schema reads the database backend's integer ranges (DRF's validators of a
# model's integer fields: the tables' typed path ids), once a process: whichever test of the
# module runs first in a worker looks the connection up.
pytestmark = pytest.mark.database_connection

PROBLEM = "application/problem+json"
TEXT = (FIXTURES / "decklists" / "kalim-faithful.txt").read_text(encoding="utf-8")
# The operations that take a file: multipart/form-data beside (or instead of) JSON.
UPLOADS = {
    ("post", "/api/decks/import/"): {"application/json", "multipart/form-data"},
    ("post", "/api/collection/import/"): {"application/json", "multipart/form-data"},
    ("post", "/api/edits/{id}/scan/"): {"multipart/form-data"},
    ("post", "/api/scans/"): {"multipart/form-data"},  # its field is "image" (design §13)
}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    """Built once for the module: drawing up the whole schema takes seconds."""
    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, operation) for path, item in schema["paths"].items()
            for method, operation in item.items()]


def test_the_schema_is_valid_openapi_3_0(schema: dict[str, Any]) -> None:
    assert schema["openapi"].startswith("3.0")
    validate_schema(schema)


def test_request_bodies_are_json_but_where_a_file_is_sent(schema: dict[str, Any]) -> None:
    offered = {(method, path): set(operation["requestBody"]["content"])
               for method, path, operation in operations(schema) if "requestBody" in operation}
    assert {key: types for key, types in offered.items() if types != {"application/json"}} \
        == UPLOADS
    components = schema["components"]["schemas"]
    for method, path in UPLOADS:
        content = schema["paths"][path][method]["requestBody"]["content"]
        bodies = {media: components[body["schema"]["$ref"].split("/")[-1]]
                  for media, body in content.items()}
        properties = bodies["multipart/form-data"]["properties"]
        file = properties["image" if path == "/api/scans/" else "file"]
        assert (file["type"], file["format"]) == ("string", "binary")
        if "application/json" in bodies:  # the same request with the text pasted
            assert "file" not in bodies["application/json"]["properties"]
            assert bodies["application/json"]["required"] == ["text"]


def test_requests_and_answers_have_components_of_their_own(schema: dict[str, Any]) -> None:
    token = schema["paths"]["/api/auth/token/"]["post"]
    request = token["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    answer = token["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    components = schema["components"]["schemas"]
    assert (request, answer) == ("#/components/schemas/AuthTokenRequest",
                                 "#/components/schemas/AuthToken")
    assert sorted(components["AuthTokenRequest"]["required"]) == ["password", "username"]
    assert components["AuthToken"]["required"] == ["token"]
    assert list(components["AuthToken"]["properties"]) == ["token"]
    # A request serializer already named for it keeps one "Request".
    assert {"GoldfishRequest", "MatchupRequest", "DrawRequest", "OddsRequest"} <= set(components)
    assert not [name for name in components if name.endswith("RequestRequest")]


@pytest.mark.parametrize(("method", "path", "codes"), [
    ("get", "/api/cards/{id}/", {"403", "404", "500"}),
    ("get", "/api/decks/", {"403", "404", "500"}),  # a page past the end
    ("post", "/api/decks/", {"400", "403", "413", "415", "500"}),
    ("get", "/api/decks/{id}/", {"403", "404", "500"}),
    ("put", "/api/decks/{id}/", {"400", "403", "404", "409", "412", "413", "415", "428", "500"}),
    ("patch", "/api/decks/{id}/", {"400", "403", "404", "409", "412", "413", "415", "428",
                                   "500"}),
    ("delete", "/api/decks/{id}/", {"403", "404", "412", "500"}),
    ("get", "/api/decks/{id}/export/", {"400", "403", "404", "429", "500"}),
    ("post", "/api/decks/validate/", {"400", "403", "413", "415", "500"}),
    ("post", "/api/draws/", {"400", "403", "413", "415", "429", "500"}),
    ("post", "/api/odds/", {"400", "403", "413", "415", "429", "500"}),
    ("post", "/api/goldfish/", {"400", "403", "404", "413", "415", "429", "500"}),
    ("get", "/api/goldfish/{run_id}/", {"403", "404", "500"}),
    ("post", "/api/playtest/{id}/actions/", {"400", "403", "404", "409", "413", "415", "500"}),
    ("put", "/api/collection/", {"400", "403", "409", "412", "413", "415", "428", "500"}),
    ("post", "/api/auth/token/", {"400", "403", "413", "415", "429", "500"}),
    ("get", "/api/health/", {"500"}),
])
def test_each_operation_lists_the_problems_it_answers(schema: dict[str, Any], method: str,
                                                      path: str, codes: set[str]) -> None:
    responses = schema["paths"][path][method]["responses"]
    problems = {code for code, response in responses.items()
                if set(response.get("content", {})) == {PROBLEM}}
    assert codes <= problems


def test_every_problem_answer_is_the_problem_component(schema: dict[str, Any]) -> None:
    for method, path, operation in operations(schema):
        assert "500" in operation["responses"], (method, path)
        for code, response in operation["responses"].items():
            content = response.get("content", {})
            if int(code) >= 400:
                assert content == {PROBLEM: {"schema": {
                    "$ref": "#/components/schemas/Problem"}}}, (method, path, code)
                assert response["description"], (method, path, code)


def _ada_deck(ada: Client) -> int:
    made = ada.post("/api/decks/", {"text": TEXT}, content_type="application/json")
    assert made.status_code == 201
    deck: int = made.json()["id"]
    return deck


@pytest.mark.django_db
@pytest.mark.parametrize(("who", "method", "path", "body", "headers", "status"), [
    ("visitor", "post", "/api/decks/", {"text": TEXT}, {}, 403),
    ("visitor", "get", "/api/cards/", None, {"HTTP_AUTHORIZATION": "Token not-a-key"}, 403),
    ("visitor", "get", "/api/decks/{id}/", None, {}, 404),  # ada's deck is private
    ("visitor", "get", "/api/decks/", {"page": 99}, {}, 404),
    ("ada", "put", "/api/decks/{id}/", {"text": TEXT}, {}, 428),
    ("ada", "put", "/api/decks/{id}/", {"text": TEXT, "version": 9}, {}, 409),
    ("ada", "patch", "/api/decks/{id}/", {"name": "x"}, {"HTTP_IF_MATCH": '"1.9"'}, 412),
    ("ada", "delete", "/api/decks/{id}/", None, {"HTTP_IF_MATCH": '"1.9"'}, 412),
    ("visitor", "post", "/api/decks/validate/", {"text": ""}, {}, 400),
    ("visitor", "post", "/api/decks/validate/", {"text": "x" * 500}, {}, 413),
    ("visitor", "post", "/api/decks/validate/", "text", {}, 415),
    ("visitor", "post", "/api/draws/", {"text": TEXT, "seed": 1}, {}, 429),
    ("ada", "get", "/api/decks/{id}/export/", {"to": "txt"}, {}, 429),
])
def test_the_problems_answered_are_the_ones_listed(
        schema: dict[str, Any], ada: Client, settings: Any, monkeypatch: pytest.MonkeyPatch,
        who: str, method: str, path: str, body: Any, headers: dict[str, Any],
        status: int) -> None:
    url = path.replace("{id}", str(_ada_deck(ada)))
    if status == 413:
        settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 400
    # Every count throttled at once; the decklists' cost throttle (charged by the lines each
    # request reads, ada's deck included) at its real rate.
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES",
                        {**dict.fromkeys(rates, "1/hour"), "decklists": rates["decklists"]})
    client = ada if who == "ada" else Client()
    if method == "get":
        answers = [client.get(url, body, **headers) for _ in range(2 if status == 429 else 1)]
    elif body == "text":
        answers = [client.post(url, "text", content_type="text/plain")]
    else:
        call = getattr(client, method)
        answers = [call(url, body, content_type="application/json", **headers)
                   for _ in range(2 if status == 429 else 1)]
    answer = answers[-1]
    assert (answer.status_code, answer["Content-Type"]) == (status, PROBLEM), answer.content
    listed = schema["paths"][path][method]["responses"][str(status)]
    assert set(listed["content"]) == {PROBLEM}


def _nullable(node: Any) -> bool:
    """Whether a property's schema says null is allowed (drf-spectacular's ways of saying it)."""
    if not isinstance(node, dict):
        return False
    return bool(node.get("nullable")) or any(
        _nullable(part) for key in ("oneOf", "anyOf", "allOf") for part in node.get(key, []))


def strict(schema: dict[str, Any], pointer: str) -> OAS30Validator:
    """A validator of the schema at ``pointer`` (``/components/schemas/...``) that reads
    OpenAPI 3.0 to the letter: `nullable` counts only beside a `type`, so
    `{"allOf": [{"$ref": ...}], "nullable": true}` refuses null."""
    registry = Registry().with_resource(
        "urn:api", Resource.from_contents(schema, default_specification=DRAFT4))
    return OAS30Validator({"$ref": f"urn:api#{pointer}"}, registry=registry)


def test_every_nullable_property_accepts_null_under_a_strict_validator(
        schema: dict[str, Any]) -> None:
    nullable = [(name, key) for name, component in schema["components"]["schemas"].items()
                for key, prop in component.get("properties", {}).items() if _nullable(prop)]
    assert ("EditDocument", "scan") in nullable
    refused = [(name, key) for name, key in nullable
               if not strict(schema, f"/components/schemas/{name}/properties/{key}")
               .is_valid(None)]
    assert refused == []


def test_a_nullable_reference_still_checks_its_object(schema: dict[str, Any]) -> None:
    scan = strict(schema, "/components/schemas/EditDocument/properties/scan")
    urls = {"small": "/s.webp", "normal": "/n.webp", "large": "/l.webp"}
    assert scan.is_valid(urls)
    assert not scan.is_valid({"small": "/s.webp"})
    assert not scan.is_valid("/s.webp")


@pytest.mark.django_db
def test_an_edit_document_without_a_scan_validates_strictly(
        schema: dict[str, Any], settings: Any) -> None:
    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = False
    make_test_set()
    for user in (make_user("ada"), make_user("root", staff=True)):  # staff see `trust` too
        answer = client_for(user).post(
            "/api/edits/", {"card": "tst-lamplighter", "changes": {"vitality": 9},
                            "source": "my copy"}, content_type="application/json")
        assert answer.status_code == 201, answer.content
        document = answer.json()
        assert document["scan"] is None
        errors = [error.message for error in strict(
            schema, "/components/schemas/EditDocument").iter_errors(document)]
        assert errors == []


def test_the_seat_handed_to_the_ai_is_an_integer_in_its_path(schema: dict[str, Any]) -> None:
    operation = schema["paths"]["/api/tables/{id}/seats/{seat}/hand-to-ai/"]["post"]
    seat = next(p for p in operation["parameters"] if p["in"] == "path" and p["name"] == "seat")
    assert seat["schema"]["type"] == "integer" and seat["required"] is True


def test_every_number_in_a_tables_path_is_an_integer(schema: dict[str, Any]) -> None:
    # The table's id, the seat and the offer's number: digits in the routes, so integers for a
    # generated client (the routes' regexes alone would make them strings).
    seen = set()
    for method, path, operation in operations(schema):
        if not path.startswith("/api/tables/{id}/"):
            continue
        for parameter in operation["parameters"]:
            if parameter["in"] == "path":
                assert parameter["schema"]["type"] == "integer", (method, path, parameter)
                assert parameter["required"] is True
                seen.add(parameter["name"])
    assert seen == {"id", "seat", "number"}
