"""Every unexpected error under /api/ is answered as a problem document, as every other API
error is: ``application/problem+json``, status 500, code ``server_error`` (never Django's HTML
page, which an API client cannot read)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from api.problems import PROBLEM_CONTENT_TYPE

logger = logging.getLogger("django.request")


class ApiServerErrorMiddleware:
    """Last in MIDDLEWARE, so it sees a view's exception first."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not request.path.startswith("/api/"):
            return None  # the pages keep Django's own 500 page
        # Logged as Django logs the errors it answers itself (and mails them, if set up).
        logger.error("Internal Server Error: %s", request.path, exc_info=exception,
                     extra={"status_code": 500, "request": request})
        return JsonResponse(
            {"type": "about:blank", "status": 500, "code": "server_error",
             "detail": "The server failed to answer this request; it has been logged."},
            status=500, content_type=PROBLEM_CONTENT_TYPE)
