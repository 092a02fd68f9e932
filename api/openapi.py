"""The OpenAPI schema as a contract a client generator can use (drf-spectacular's AutoSchema,
and post-processing hooks named in SPECTACULAR_SETTINGS).

Every operation lists the problem answers it may give, inferred from what the view declares
(its permissions, throttles, parameters, request body), so that a generated client parses
them as ``Problem`` instead of meeting an undocumented status. An answer a view documents
itself is kept as it is.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from drf_spectacular.openapi import AutoSchema
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle

from api.problems import PROBLEM_CONTENT_TYPE, ProblemSerializer

# What each problem answer means, as the schema says it.
PROBLEM_ANSWERS = {
    "400": "The request is not valid; the problem says what is wrong (`errors`: each field).",
    "401": "No credentials: send the token (or sign in) to act on your own account.",
    "403": "Refused: sign in first (a token or a session), or you may not do this; also a "
           "token that is not valid.",
    "404": "Not found: no such resource, one you may not see, or no such page of a list.",
    "409": "A stale `version`: the resource was changed since; `current_version` says how.",
    "412": "A stale If-Match: the resource was changed since; `current_version` says how.",
    "413": "The request body is larger than the server accepts.",
    "415": "The body's media type is not one this operation reads.",
    "428": "Say which version the edit is based on (If-Match or `version`).",
    "429": "Too many requests; Retry-After says when to try again.",
    "500": "The server failed: a fault of its own, not of the request.",
}
# An operation open to visitors refuses only a bad token (or a session's form without its
# CSRF token).
OPEN_403 = "Refused: the token sent is not valid (or a session's write lacks its CSRF token)."
# Query parameters of list pages: a page past the end is a 404, a bad page size is ignored.
PAGINATION_PARAMETERS = {"page", "page_size"}


class ApiSchema(AutoSchema):
    """drf-spectacular's AutoSchema, with every operation's problem answers listed."""

    def get_operation(self, path: str, path_regex: str, path_prefix: str, method: str,
                      registry: Any) -> dict[str, Any] | None:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        problem = {"schema": self.resolve_serializer(ProblemSerializer, "response").ref}
        responses = operation["responses"]
        for code, response in responses.items():
            # A problem the view lists itself, without words: say what it means.
            schemas = [body.get("schema") for body in response.get("content", {}).values()]
            if problem["schema"] in schemas and not response.get("description"):
                response["description"] = PROBLEM_ANSWERS.get(code, "")
        for code in self._problem_codes(operation):
            description = PROBLEM_ANSWERS[code]
            if code == "403" and not self._visitors_refused():
                description = OPEN_403
            responses.setdefault(code, {"description": description,
                                        "content": {PROBLEM_CONTENT_TYPE: problem}})
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _problem_codes(self, operation: dict[str, Any]) -> list[str]:
        parameters = operation.get("parameters", [])
        where = {(p["in"], p["name"]) for p in parameters}
        query = {name for place, name in where if place == "query"}
        has_body = "requestBody" in operation
        codes = ["500"]
        if has_body or query - PAGINATION_PARAMETERS:
            codes.append("400")
        if has_body:
            codes += ["413", "415"]
        if self.view.get_authenticators():
            # A token that is not valid is refused on every operation that reads one.
            codes.append("403")
        if any(place == "path" for place, _ in where) or "page" in query:
            codes.append("404")
        if ("header", "If-Match") in where:
            # api.preconditions: a stale If-Match is 412; a write with a body may instead
            # name a stale `version` (409) or neither (428).
            codes += ["409", "412", "428"] if has_body else ["412"]
        if self._throttled():
            codes.append("429")
        return codes

    def _throttled(self) -> bool:
        for throttle in self.view.get_throttles():
            # A scoped throttle counts only where the view (or its action) names a scope.
            if not isinstance(throttle, ScopedRateThrottle) or getattr(
                    self.view, "throttle_scope", None):
                return True
        return False

    def _visitors_refused(self) -> bool:
        """Whether the view's permissions refuse someone who is not signed in."""
        request = Request(HttpRequest(), authenticators=())
        request.method = self.method
        return not all(permission.has_permission(request, self.view)
                       for permission in self.view.get_permissions())

    def _get_serializer_name(self, serializer: Any, direction: str,
                             bypass_extensions: bool = False) -> str:
        # COMPONENT_SPLIT_REQUEST adds "Request" to request components: a serializer already
        # named for a request (GoldfishRequestSerializer) keeps one.
        name: str = super()._get_serializer_name(serializer, direction, bypass_extensions)
        return name.removesuffix("Request") if name.endswith("RequestRequest") else name


def nullable_reference_hook(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular post-processing: a nullable reference that validates under OpenAPI 3.0.

    drf-spectacular writes ``{"allOf": [{"$ref": X}], "nullable": true}``; OpenAPI 3.0.3 says
    ``nullable`` counts only beside a ``type``, so strict validators refuse ``null`` there.
    ``oneOf`` the reference or a schema whose only value is ``null`` says it in 3.0 terms."""

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: walk(value) for key, value in node.items()}
        if node.get("nullable") and "type" not in node and "allOf" in node:
            node = dict(node)
            del node["nullable"]
            parts = node.pop("allOf")
            reference = parts[0] if len(parts) == 1 else {"allOf": parts}
            node["oneOf"] = [reference, {"type": "object", "nullable": True, "enum": [None]}]
        return node

    return walk(result)
