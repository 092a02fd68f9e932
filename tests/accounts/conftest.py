"""The accounts tests log in hundreds of times: a fast hasher keeps them quick (the real one is
PBKDF2, slow on purpose)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def fast_password_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
