"""API tokens: a new password revokes them, DELETE /api/auth/token/ revokes one, and the
next login after a revoke makes a new key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db

OLD, NEW = "x-Secret-123456", "a-New-Secret-77"
TOKEN = "/api/auth/token/"


@pytest.fixture
def ada(db: None) -> User:
    return User.objects.create_user("ada", "ada@example.org", OLD)


def log_in(password: str = OLD) -> str:
    answer = Client().post(TOKEN, {"username": "ada", "password": password})
    assert answer.status_code == 200, answer.content
    key: str = answer.json()["token"]
    return key


def works(key: str) -> bool:
    return Client(HTTP_AUTHORIZATION=f"Token {key}").get("/api/decks/").status_code == 200


def changed_on_the_account_page(ada: User) -> None:
    page = Client()
    page.force_login(ada)
    page.post("/accounts/password_change/",
              {"old_password": OLD, "new_password1": NEW, "new_password2": NEW})


def reset_by_mail(ada: User) -> None:
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    visitor = Client()
    uid = urlsafe_base64_encode(force_bytes(ada.pk))
    form = visitor.get(f"/accounts/reset/{uid}/{default_token_generator.make_token(ada)}/",
                       follow=True)
    visitor.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})


def set_by_code(ada: User) -> None:
    ada.set_password(NEW)
    ada.save()


def set_by_command(ada: User) -> None:
    from unittest import mock

    with mock.patch("getpass.getpass", return_value=NEW):
        call_command("changepassword", "ada", stdout=None)


@pytest.mark.parametrize("change", [changed_on_the_account_page, reset_by_mail, set_by_code,
                                    set_by_command])
def test_a_new_password_revokes_the_api_token(ada: User, change: Callable[[User], None]) -> None:
    key = log_in()
    assert works(key)
    change(ada)
    assert User.objects.get(pk=ada.pk).check_password(NEW)
    assert not works(key)
    fresh = log_in(NEW)
    assert fresh != key and works(fresh)


def test_a_login_or_other_save_keeps_the_api_token(ada: User) -> None:
    key = log_in()
    log_in()
    ada.first_name = "Ada"
    ada.save()
    assert works(key) and Token.objects.get(user=ada).key == key


def test_delete_revokes_the_token_and_the_next_login_makes_a_new_key(ada: User) -> None:
    key = log_in()
    assert log_in() == key  # the same key while it lives
    revoked = Client(HTTP_AUTHORIZATION=f"Token {key}").delete(TOKEN)
    assert revoked.status_code == 204 and not works(key)
    fresh = log_in()
    assert fresh != key and works(fresh)


def test_a_session_revokes_its_account_s_token(ada: User) -> None:
    key = log_in()
    page = Client()
    page.force_login(ada)
    assert page.delete(TOKEN).status_code == 204 and not works(key)


def test_revoking_without_credentials_is_a_401_problem(ada: User) -> None:
    answer: Any = Client().delete(TOKEN)
    assert answer.status_code == 401 and answer["Content-Type"] == "application/problem+json"
    assert answer["WWW-Authenticate"].startswith("Token")
    bad = Client(HTTP_AUTHORIZATION="Token not-a-key").delete(TOKEN)
    assert bad.status_code == 401


def test_the_schema_offers_the_revoke(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    revoke = schema["paths"]["/api/auth/token/"]["delete"]
    assert {"204", "401"} <= set(revoke["responses"])
