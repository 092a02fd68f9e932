"""The cookies and headers of a production server (DEBUG off), seen on real answers: the
session and CSRF cookies only over HTTPS, out of scripts' reach and not sent by other sites'
requests; HSTS on answers over HTTPS. Settings are read once, so this runs in a fresh process
on a database of its own."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest

from tests.security.test_deploy_settings import manage

LOOK = """
import json
from django.contrib.auth.models import User
from django.conf import settings
from django.test import Client
# Pages name their static files; no collectstatic here, so no manifest to hash them from.
settings.STORAGES = {**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
User.objects.create_user("ada", "ada@example.org", "x-Secret-123456")
browser = Client()
page = browser.get("/accounts/login/", secure=True)
login = browser.post("/accounts/login/", {"username": "ada", "password": "x-Secret-123456"},
                     secure=True)
plain = Client().get("/accounts/login/")
def flags(morsel):
    return {"secure": bool(morsel["secure"]), "httponly": bool(morsel["httponly"]),
            "samesite": morsel["samesite"]}
print(json.dumps({"csrf": flags(page.cookies["csrftoken"]),
                  "session": flags(login.cookies["sessionid"]), "login": login.status_code,
                  "hsts": page.headers.get("Strict-Transport-Security"),
                  "plain": [plain.status_code, plain.headers.get("Strict-Transport-Security")]}))
"""


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    env = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "ALLEGIANCE_VAR_DIR": str(Path(tmp_path_factory.mktemp("prod")))}
    migrated = manage("migrate", "-v", "0", **env)
    assert migrated.returncode == 0, migrated.stderr
    done = manage("shell", "-v", "0", "-c", LOOK, **env)
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return found


@pytest.mark.parametrize("cookie", ["session", "csrf"])
def test_cookies_are_secure_httponly_and_same_site(answers: dict[str, Any], cookie: str) -> None:
    assert answers["login"] == 302
    assert answers[cookie] == {"secure": True, "httponly": True, "samesite": "Lax"}


def test_https_answers_pin_https_and_plain_http_is_sent_there(answers: dict[str, Any]) -> None:
    assert answers["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert answers["plain"] == [301, None]  # redirected to HTTPS, where HSTS is meaningful
