"""The authentication backend that refuses locked logins (accounts.lockout)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from accounts import lockout


class LockoutBackend:
    """First in ``AUTHENTICATION_BACKENDS``: while an account or an address is locked, no
    backend after it is asked, so even the right password gets nowhere. Otherwise it steps
    aside (None) for the backends that check passwords.

    Not a ``BaseBackend``: without ``get_user`` it is never the backend a session is bound to
    (``Client.force_login`` and ``login()`` pick the first backend that has one).
    """

    def authenticate(self, request: Any, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> None:
        if lockout.locked_for(username, lockout.client_address(request)):
            raise PermissionDenied
        return None
