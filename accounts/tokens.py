"""The token in an e-mail verification link: Django's password-reset tokens, salted apart and
bound to the address, so a link proves only the address it was sent to and stops working when
the account's address changes or ``ACCOUNTS_VERIFICATION_TIMEOUT`` seconds have passed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.utils.crypto import constant_time_compare
from django.utils.http import base36_to_int


class EmailVerificationTokens(PasswordResetTokenGenerator):
    key_salt = "accounts.tokens.EmailVerificationTokens"

    def __init__(self, now: Callable[[], datetime] | None = None) -> None:
        super().__init__()
        self._clock = now or datetime.now  # naive local time, as Django's own tokens count

    def _now(self) -> datetime:
        return self._clock()

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        return f"{user.pk}:{(user.email or '').casefold()}:{timestamp}"

    def check_token(self, user: Any, token: str | None) -> bool:
        """Django's check with this link's own timeout (its own uses PASSWORD_RESET_TIMEOUT)."""
        if not (user and user.email and token):
            return False
        try:
            ts = base36_to_int(token.split("-")[0])
        except ValueError:
            return False
        if not any(constant_time_compare(self._make_token_with_timestamp(user, ts, secret), token)
                   for secret in [self.secret, *self.secret_fallbacks]):
            return False
        age = self._num_seconds(self._now()) - ts
        return age <= settings.ACCOUNTS_VERIFICATION_TIMEOUT


verification_tokens = EmailVerificationTokens()
