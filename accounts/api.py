"""``POST /api/auth/token/``: DRF's token login with the lockout of accounts.lockout;
``DELETE /api/auth/token/``: revoke it (accounts.api_tokens)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import lockout
from accounts.api_tokens import api_token_revoke
from accounts.token_authentication import CachedTokenAuthentication
from api.problems import ProblemSerializer


class LoginLocked(exceptions.Throttled):
    """429 problem ``login_locked``; DRF's handler sends Retry-After from ``wait``."""

    default_detail = "Too many failed logins for this account or from this address."
    extra_detail_singular = "Try again in {wait} second."
    extra_detail_plural = "Try again in {wait} seconds."
    default_code = "login_locked"


class TokenView(ObtainAuthToken):
    # The token first, so that a DELETE without credentials is a 401 that says how to sign in.
    authentication_classes = [CachedTokenAuthentication, SessionAuthentication]

    @extend_schema(request=AuthTokenSerializer,
                   responses={200: AuthTokenSerializer, 400: ProblemSerializer,
                              429: ProblemSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Trade a username and password for the account's API token. Failed attempts are
        counted per account and per client address; past the limit the answer is a 429
        problem (``login_locked``) whose Retry-After says when to try again, whatever the
        password. A success starts the account's count again."""
        serializer = self.get_serializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
        except exceptions.ValidationError:
            username = request.data.get("username") if hasattr(request.data, "get") else None
            wait = lockout.locked_for(username if isinstance(username, str) else None,
                                      lockout.client_address(request))
            if wait:
                raise LoginLocked(wait=wait) from None
            raise
        user = serializer.validated_data["user"]
        lockout.clear(username=user.get_username())
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})

    @extend_schema(request=None, responses={204: None, 401: ProblemSerializer,
                                            403: ProblemSerializer})
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Revoke the signed-in account's API token (the one sent, or the session's account's):
        it stops working at once, and the next POST here makes a new key. A new password
        revokes it too."""
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        api_token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
