"""The verification link (good, expired, tampered, for an address the account has left), the
resend, the account page and a change of address."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from accounts.services import verification_link
from accounts.tokens import EmailVerificationTokens
from accounts.verification import email_verified
from tests.accounts.queued_mail import deliver_queued_mail

pytestmark = pytest.mark.django_db

LINK = re.compile(r"http://testserver(/accounts/verify/\S+/)")


def link_in(mail: Any) -> str:
    found = LINK.search(mail.body)
    assert found, mail.body
    return found.group(1)


@pytest.fixture
def ada(client: Client) -> User:
    user = User.objects.create_user("ada", "ada@example.org", "x-Secret-123456")
    client.force_login(user)
    return user


def test_following_the_link_verifies_the_address(client: Client, mailoutbox: list[Any]) -> None:
    client.post("/accounts/signup/", {"username": "ada", "email": "ada@example.org",
                                      "password1": "x-Secret-123456",
                                      "password2": "x-Secret-123456"})
    deliver_queued_mail()
    page = Client().get(link_in(mailoutbox[0]))  # no login needed: the link is the proof
    assert page.status_code == 200 and "Address verified" in page.content.decode()
    assert email_verified(User.objects.get(username="ada"))
    assert "verified" in client.get("/accounts/").content.decode()


def test_a_tampered_link_verifies_nothing(client: Client, ada: User) -> None:
    path = verification_link(request=RequestFactory().get("/"), user=ada)
    path = path.removeprefix("http://testserver")
    tampered = path[:-3] + ("0" if path[-3] != "0" else "1") + path[-2:]
    page = client.get(tampered)
    assert page.status_code == 400 and "This link does not work" in page.content.decode()
    assert client.get("/accounts/verify/Zm9v/1-abc/").status_code == 400  # no such user
    assert not email_verified(ada)


def test_an_expired_link_verifies_nothing(client: Client, ada: User, settings: Any) -> None:
    made_long_ago = EmailVerificationTokens(
        now=lambda: datetime.now() - timedelta(seconds=settings.ACCOUNTS_VERIFICATION_TIMEOUT + 5))
    old = verification_link(request=RequestFactory().get("/"), user=ada, tokens=made_long_ago)
    assert client.get(old).status_code == 400
    assert not email_verified(ada)
    fresh_enough = EmailVerificationTokens(
        now=lambda: datetime.now() - timedelta(seconds=settings.ACCOUNTS_VERIFICATION_TIMEOUT - 60))
    assert client.get(verification_link(request=RequestFactory().get("/"), user=ada,
                                        tokens=fresh_enough)).status_code == 200
    assert email_verified(ada)


def test_a_link_to_an_address_the_account_has_left_verifies_nothing(
        client: Client, ada: User, mailoutbox: list[Any]) -> None:
    old = verification_link(request=RequestFactory().get("/"), user=ada)
    client.post("/accounts/", {"email": "ada@elsewhere.example"})
    assert client.get(old).status_code == 400
    assert not email_verified(User.objects.get(pk=ada.pk))
    deliver_queued_mail()
    assert client.get(link_in(mailoutbox[-1])).status_code == 200
    assert email_verified(User.objects.get(pk=ada.pk))


def test_an_address_another_account_verified_first_is_refused(client: Client, ada: User) -> None:
    twin = User.objects.create_user("twin", "ADA@example.org")  # made before the check existed
    client.get(verification_link(request=RequestFactory().get("/"), user=ada))
    page = client.get(verification_link(request=RequestFactory().get("/"), user=twin))
    assert page.status_code == 400 and "Another account" in page.content.decode()
    assert email_verified(User.objects.get(pk=ada.pk)) and not email_verified(twin)


def test_the_account_page_shows_the_address_and_that_it_is_not_verified(
        client: Client, ada: User) -> None:
    page = client.get("/accounts/").content.decode()
    assert "ada@example.org" in page and "not verified yet" in page
    assert "Send the link again" in page
    assert Client().get("/accounts/")["Location"].startswith("/accounts/login/")


def test_the_link_can_be_sent_again(client: Client, ada: User, mailoutbox: list[Any]) -> None:
    response = client.post("/accounts/verify/resend/")
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    deliver_queued_mail()
    [mail] = mailoutbox
    assert mail.to == ["ada@example.org"]
    assert client.get(link_in(mail)).status_code == 200 and email_verified(ada)
    client.post("/accounts/verify/resend/")
    assert deliver_queued_mail() == [] and len(mailoutbox) == 1  # already verified: no mail
    assert client.get("/accounts/verify/resend/").status_code == 405


def test_resending_is_throttled_so_no_inbox_is_flooded(client: Client, ada: User,
                                                       mailoutbox: list[Any]) -> None:
    for _ in range(5):
        assert client.post("/accounts/verify/resend/").status_code == 302
    refused = client.post("/accounts/verify/resend/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Please wait" in refused.content.decode()
    deliver_queued_mail()
    assert len(mailoutbox) == 5


def test_changing_the_address_unverifies_and_mails_the_new_one(
        client: Client, ada: User, mailoutbox: list[Any]) -> None:
    client.get(verification_link(request=RequestFactory().get("/"), user=ada))
    assert email_verified(ada)
    response = client.post("/accounts/", {"email": "ada@elsewhere.example"})
    assert response.status_code == 302
    ada.refresh_from_db()
    assert ada.email == "ada@elsewhere.example" and not email_verified(ada)
    deliver_queued_mail()
    assert mailoutbox[-1].to == ["ada@elsewhere.example"]
    assert "not verified yet" in client.get("/accounts/").content.decode()


def test_the_same_address_again_changes_nothing(client: Client, ada: User,
                                                mailoutbox: list[Any]) -> None:
    client.get(verification_link(request=RequestFactory().get("/"), user=ada))
    client.post("/accounts/", {"email": "ADA@example.org"})
    assert deliver_queued_mail() == []
    assert email_verified(User.objects.get(pk=ada.pk)) and mailoutbox == []


def test_a_malformed_address_is_refused(client: Client, ada: User) -> None:
    assert "Enter a valid email address" in client.post("/accounts/",
                                                        {"email": "nope"}).content.decode()
    assert User.objects.get(pk=ada.pk).email == "ada@example.org"


def test_an_address_in_use_is_taken_unverified_and_its_owner_told(
        client: Client, ada: User, mailoutbox: list[Any]) -> None:
    # Refusing it would tell anyone with an account which addresses have one.
    User.objects.create_user("bob", "bob@example.org")
    assert client.post("/accounts/", {"email": "Bob@Example.org"}).status_code == 302
    assert deliver_queued_mail() == ["notice"]
    assert "/accounts/verify/" not in mailoutbox[-1].body
    client.post("/accounts/verify/resend/")
    assert deliver_queued_mail() == ["notice"]  # never a link that would prove bob's address
    assert not email_verified(User.objects.get(pk=ada.pk))


def test_an_account_made_before_addresses_can_add_one(client: Client,
                                                      mailoutbox: list[Any]) -> None:
    old = User.objects.create_user("old-timer", password="x-Secret-123456")
    client.force_login(old)
    page = client.get("/accounts/").content.decode()
    assert "none yet" in page and "Add an address" in page
    client.post("/accounts/", {"email": "old@example.org"})
    deliver_queued_mail()
    assert client.get(link_in(mailoutbox[0])).status_code == 200
    assert email_verified(User.objects.get(pk=old.pk))
