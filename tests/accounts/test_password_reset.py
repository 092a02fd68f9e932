"""Password reset by e-mail, through Django's views and the test outbox."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts import lockout
from accounts.verification import email_verified
from tests.accounts.queued_mail import deliver_queued_mail, queued_mail

pytestmark = pytest.mark.django_db

NEW = "a-New-Secret-77"


def reset_link(mail: Any) -> str:
    found = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.body)
    assert found, mail.body
    return found.group(1)


@pytest.fixture
def ada(db: None) -> User:
    return User.objects.create_user("ada", "ada@example.org", "x-Secret-123456")


def test_a_forgotten_password_is_reset_through_the_link_in_the_mail(
        client: Client, ada: User, mailoutbox: list[Any]) -> None:
    response = client.post("/accounts/password_reset/", {"email": "ADA@example.org"})
    assert response["Location"] == "/accounts/password_reset/done/"
    assert deliver_queued_mail() == [1]
    [mail] = mailoutbox
    assert mail.to == ["ada@example.org"] and "Reset your password" in mail.subject
    form = client.get(reset_link(mail), follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0],
                       {"new_password1": NEW, "new_password2": NEW}, follow=True)
    assert "Password changed" in done.content.decode()
    assert Client().login(username="ada", password=NEW)
    used_again = client.get(reset_link(mail), follow=True).content.decode()
    assert "This link does not work" in used_again


def test_a_reset_answers_the_same_for_a_known_and_an_unknown_address(
        ada: User, mailoutbox: list[Any]) -> None:
    known = Client().post("/accounts/password_reset/", {"email": "ada@example.org"})
    unknown = Client().post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert known.content == unknown.content == b""
    # Neither looks the address up nor sends inline: each queues one task for the worker.
    assert mailoutbox == [] and queued_mail() == 2
    assert deliver_queued_mail() == [1, 0]
    assert [mail.to for mail in mailoutbox] == [["ada@example.org"]]


def test_a_reset_proves_the_address_and_lifts_a_lock(client: Client, ada: User,
                                                     mailoutbox: list[Any],
                                                     settings: Any) -> None:
    for _ in range(settings.ACCOUNTS_LOGIN_FAILURES_PER_ACCOUNT):
        lockout.failure_record("ada", "203.0.113.9")
    assert lockout.locked_for("ada", None)
    client.post("/accounts/password_reset/", {"email": "ada@example.org"})
    deliver_queued_mail()
    form = client.get(reset_link(mailoutbox[0]), follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert not lockout.locked_for("ada", None)
    assert email_verified(User.objects.get(pk=ada.pk))
    assert client.post("/accounts/login/", {"username": "ada", "password": NEW}).status_code == 302


def test_reset_mails_are_throttled(client: Client, ada: User, mailoutbox: list[Any]) -> None:
    for _ in range(5):
        client.post("/accounts/password_reset/", {"email": "ada@example.org"})
    refused = client.post("/accounts/password_reset/", {"email": "ada@example.org"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Please wait" in refused.content.decode()
    deliver_queued_mail()
    assert len(mailoutbox) == 5


@pytest.mark.parametrize("url", ["/accounts/password_reset/", "/accounts/password_reset/done/",
                                 "/accounts/reset/MQ/bad-token/", "/accounts/reset/done/"])
def test_the_reset_pages_are_the_site_s_own(client: Client, url: str) -> None:
    page = client.get(url, follow=True).content.decode()
    assert "Allegiance DB" in page and "auth-box" in page and "Django administration" not in page


def test_the_password_change_pages_are_the_site_s_own(client: Client, ada: User) -> None:
    client.force_login(ada)
    page = client.get("/accounts/password_change/").content.decode()
    assert "Change your password" in page and "Django administration" not in page
    done = client.post("/accounts/password_change/", {
        "old_password": "x-Secret-123456", "new_password1": NEW, "new_password2": NEW},
        follow=True)
    assert "Password changed" in done.content.decode()
