"""Where e-mail goes: the console by default, SMTP from the environment; a production server
that would print its mail is told so by `check --deploy` unless it says that is meant."""

from __future__ import annotations

import json
import secrets

from tests.security.test_deploy_settings import manage

SHOW = ("from django.conf import settings as s; import json; "
        "print(json.dumps([s.MAILERS, s.DEFAULT_FROM_EMAIL]))")
PRODUCTION = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
              "DJANGO_SSL_REDIRECT": "0"}


def test_by_default_mail_is_printed_on_the_console() -> None:
    done = manage("shell", "-v", "0", "-c", SHOW)
    assert done.returncode == 0, done.stderr
    mailers, sender = json.loads(done.stdout.splitlines()[-1])
    assert mailers == {"default": {"BACKEND": "sitewide.console_mail.EmailBackend"}}
    assert sender == "Allegiance DB <noreply@localhost>"


def test_smtp_comes_from_the_environment() -> None:
    done = manage("shell", "-v", "0", "-c", SHOW, EMAIL_HOST="smtp.example.org",
                  EMAIL_PORT="2525", EMAIL_HOST_USER="cards", EMAIL_HOST_PASSWORD="pw",
                  EMAIL_USE_TLS="0", DEFAULT_FROM_EMAIL="Cards <cards@example.org>")
    assert done.returncode == 0, done.stderr
    mailers, sender = json.loads(done.stdout.splitlines()[-1])
    assert mailers["default"] == {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {"host": "smtp.example.org", "port": 2525, "username": "cards",
                    "password": "pw", "use_tls": False, "timeout": 20}}
    assert sender == "Cards <cards@example.org>"


def test_a_production_server_printing_its_mail_fails_the_deploy_check() -> None:
    done = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert done.returncode == 1 and "mail.E001" in done.stderr


def test_unless_the_environment_says_the_console_is_meant() -> None:
    done = manage("check", "--deploy", "--fail-level", "WARNING", DJANGO_EMAIL_CONSOLE="1",
                  **PRODUCTION)
    assert done.returncode == 0, done.stderr
