"""Errors as RFC 9457 problem details: ``application/problem+json`` with status, code, detail."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.core.exceptions import ValidationError as ModelValidationError
from drf_spectacular.utils import inline_serializer
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import APIView, exception_handler

from rules.game.engine import DeckNotPlayable

PROBLEM_CONTENT_TYPE = "application/problem+json"


def problem_response(
    status_code: int, code: str, detail: str, **extra: Any
) -> Response:
    body = {"type": "about:blank", "status": status_code, "code": code, "detail": detail}
    body.update(extra)
    return Response(body, status=status_code, content_type=PROBLEM_CONTENT_TYPE)


class ContentTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RequestDataTooBig):
        # Raised while DRF reads the body; Django would answer with its HTML 400 page.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
        exc = ContentTooLarge(f"The request body is larger than {limit // 2**20} MB.")
    if isinstance(exc, ModelValidationError):
        # A model's own check (full_clean) that the input checks missed: still the
        # client's input at fault, so a 400 with the fields, never a 500.
        exc = exceptions.ValidationError(as_serializer_error(exc))
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = "error"
    detail: Any = response.data
    errors = None
    if isinstance(response.data, dict) and set(response.data) == {"detail"}:
        detail = str(response.data["detail"])
    else:
        errors = response.data
        detail = "The request is not valid; see errors."
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "invalid"
    if response.status_code == status.HTTP_404_NOT_FOUND:
        code = "not_found"
    extra = {"errors": errors} if errors is not None else {}
    problem = problem_response(response.status_code, code, str(detail), **extra)
    for header, value in response.headers.items():
        if header.lower() != "content-type":
            problem[header] = value
    return problem


ProblemSerializer = inline_serializer(
    name="Problem",
    fields={
        "type": serializers.CharField(),
        "status": serializers.IntegerField(),
        "code": serializers.CharField(),
        "detail": serializers.CharField(),
        "errors": serializers.JSONField(required=False),
        "position": serializers.IntegerField(required=False,
                                             help_text="0-based offset in the query"),
        "length": serializers.IntegerField(required=False),
        "expected": serializers.CharField(required=False),
        "suggestions": serializers.ListField(child=serializers.CharField(), required=False),
        "current_version": serializers.IntegerField(required=False),
    },
)
"""An error (RFC 9457 problem details), for the OpenAPI schema."""


def search_problem(error: Any) -> Response:
    """A bad search query: where it went wrong, what would have fitted, and did-you-mean."""
    return problem_response(
        status.HTTP_400_BAD_REQUEST,
        error.code,
        error.message,
        position=error.position,
        length=error.length,
        expected=error.expected,
        suggestions=list(error.suggestions),
    )


@runtime_checkable
class InputError(Protocol):
    """An input that could not become a deck (decks.deck_input.DeckInputError, which this
    package may not import: it sits below the decks app)."""

    code: str
    detail: str

    def errors(self) -> list[dict[str, Any]]: ...


def deck_problem(error: Exception) -> Response:
    """The problem for a deck a request names that cannot be played: a saved deck the caller
    may not read (the model's DoesNotExist: 404 ``not_found``), a decklist that does not read
    (400, its code and every line at fault), or a deck the validator or the engine refuses
    (400 ``deck_not_playable``, the validator's problems as ``errors``). What the create
    endpoints of the playtest and the tables share."""
    if isinstance(error, ObjectDoesNotExist):
        return problem_response(status.HTTP_404_NOT_FOUND, "not_found", "No such deck.")
    if isinstance(error, DeckNotPlayable):
        extra = {"errors": [p.to_dict() for p in error.problems]} if error.problems else {}
        return problem_response(status.HTTP_400_BAD_REQUEST, "deck_not_playable", str(error),
                                **extra)
    if isinstance(error, InputError):
        return problem_response(status.HTTP_400_BAD_REQUEST, error.code, error.detail,
                                errors=error.errors())
    raise TypeError(f"not a deck error: {error!r}")


def problem_media_type_hook(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular post-processing: a Problem response is documented with the media type
    it is sent with, application/problem+json (the default would say application/json)."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            for response in operation.get("responses", {}).values():
                content = response.get("content", {})
                schema = content.get("application/json", {}).get("schema", {})
                if schema.get("$ref") == "#/components/schemas/Problem":
                    content[PROBLEM_CONTENT_TYPE] = content.pop("application/json")
    return result


class UnknownEndpointView(APIView):
    """Any /api/ address that names no endpoint (or an id that cannot be one) answers a 404
    problem, like every other API error, instead of Django's HTML page."""

    schema = None  # not an operation: kept out of the OpenAPI document
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []

    def initial(self, request: Any, *args: Any, **kwargs: Any) -> None:
        raise exceptions.NotFound("No API endpoint at this address.")
