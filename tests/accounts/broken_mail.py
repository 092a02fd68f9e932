"""An e-mail backend whose server is down, for the tests of what a failed send does."""

from __future__ import annotations

from typing import Any

from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Any) -> int:
        raise ConnectionRefusedError("the mail server is down")
