"""The health check: the load balancer's probe and the benchmarks' baseline."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class HealthView(APIView):
    """Liveness: answers without touching the database (also the benchmarks' baseline)."""

    authentication_classes: list[type] = []
    permission_classes: list[type] = []

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request) -> Response:
        return Response({"status": "ok"})
