"""Sign up, log in, log out."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


def test_signing_up_creates_the_account_and_logs_in(client: Client) -> None:
    response = client.post("/accounts/signup/", {
        "username": "ada", "password1": "a-long-Secret-42", "password2": "a-long-Secret-42",
        "next": "/decks/",
    })
    assert response.status_code == 302 and response["Location"] == "/decks/"
    assert User.objects.filter(username="ada").exists()
    assert "ada" in client.get("/decks/").content.decode()


def test_a_weak_or_mismatched_password_is_refused_with_the_reason(client: Client) -> None:
    response = client.post("/accounts/signup/", {
        "username": "bob", "password1": "abc", "password2": "abd",
    })
    assert response.status_code == 200
    assert "didn" in response.content.decode()  # "The two password fields didn't match."
    assert not User.objects.filter(username="bob").exists()


def test_signup_never_redirects_off_site(client: Client) -> None:
    response = client.post("/accounts/signup/", {
        "username": "eve", "password1": "a-long-Secret-42", "password2": "a-long-Secret-42",
        "next": "https://evil.example/",
    })
    assert response["Location"] == "/decks/"


def test_log_in_and_log_out(client: Client) -> None:
    User.objects.create_user("cy", password="a-long-Secret-42")
    response = client.post("/accounts/login/", {"username": "cy", "password": "a-long-Secret-42"})
    assert response.status_code == 302
    assert "Log out" in client.get("/").content.decode()
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/").content.decode()


def test_a_wrong_password_says_so(client: Client) -> None:
    User.objects.create_user("di", password="a-long-Secret-42")
    page = client.post("/accounts/login/", {"username": "di", "password": "nope"})
    assert "didn't match" in page.content.decode()
