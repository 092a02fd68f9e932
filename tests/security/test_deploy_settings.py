"""Production settings: `check --deploy` is clean, and DEBUG off refuses to run without a secret.

Each case runs manage.py in a fresh process, since settings are read once, at start-up, from
the environment.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys

import pytest

from tests.conftest import ROOT

DJANGO_VARIABLES = re.compile(r"^(DJANGO_|DATABASE_URL$|MEDIA_ROOT$|ALLEGIANCE_|EMAIL_|ACCOUNTS_)")


def serve_prod_environment() -> dict[str, str]:
    """The variables `make serve-prod` exports, read from the Makefile itself."""
    found = {}
    for line in (ROOT / "Makefile").read_text().splitlines():
        match = re.match(r"serve-prod: export (\w+) \??= (.*)$", line)
        if match:
            name, value = match.groups()
            found[name] = secrets.token_urlsafe(50) if "$(shell" in value else value.strip()
    assert {"DJANGO_DEBUG", "DJANGO_SECRET_KEY"} <= found.keys()
    return found


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not DJANGO_VARIABLES.match(k)}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env},
        capture_output=True, text=True, timeout=120,
    )


def test_serve_prod_settings_pass_the_deploy_check_without_a_warning() -> None:
    done = manage("check", "--deploy", "--fail-level", "WARNING", **serve_prod_environment())
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout, done.stdout + done.stderr


def test_settings_behind_a_tls_proxy_pass_the_deploy_check_without_a_warning() -> None:
    env = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "cards.example.org", "EMAIL_HOST": "smtp.example.org"}
    done = manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert done.returncode == 0, done.stderr
    assert "(0 silenced)" in done.stdout, "only an explicit DJANGO_SSL_REDIRECT=0 silences W008"


@pytest.mark.parametrize("variable, value, warning", [
    ("DJANGO_HSTS_SECONDS", "0", "security.W004"),
    ("DJANGO_SECURE_COOKIES", "0", "security.W012"),
])
def test_turning_a_protection_off_is_reported(variable: str, value: str, warning: str) -> None:
    env = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), variable: value}
    done = manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert done.returncode == 1 and warning in done.stderr


def test_debug_off_refuses_to_start_without_a_secret_key() -> None:
    done = manage("check", DJANGO_DEBUG="0")
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in done.stderr
