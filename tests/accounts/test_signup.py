"""Sign up (with an e-mail address), log in, log out."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.accounts.queued_mail import deliver_queued_mail, queued_mail

pytestmark = pytest.mark.django_db

SECRET = "a-long-Secret-42"


def sign_up(client: Client, username: str, email: str = "", **extra: str) -> Any:
    return client.post("/accounts/signup/", {
        "username": username, "email": email or f"{username}@example.org",
        "password1": SECRET, "password2": SECRET, **extra,
    })


def test_signing_up_creates_the_account_and_logs_in(client: Client,
                                                    mailoutbox: list[Any]) -> None:
    response = sign_up(client, "ada", "Ada@Example.ORG", next="/decks/")
    assert response.status_code == 302 and response["Location"] == "/decks/"
    assert User.objects.get(username="ada").email == "Ada@example.org"  # the domain lowered
    page = client.get("/decks/").content.decode()
    assert "ada" in page and "We are sending a link to Ada@example.org" in page


def test_signing_up_mails_a_verification_link(client: Client, mailoutbox: list[Any]) -> None:
    sign_up(client, "ada")
    assert mailoutbox == [] and queued_mail() == 1  # the background worker sends it
    assert deliver_queued_mail() == ["link"]
    [mail] = mailoutbox
    assert mail.to == ["ada@example.org"] and "Confirm your e-mail address" in mail.subject
    assert "http://testserver/accounts/verify/" in mail.body


def test_an_address_is_required(client: Client) -> None:
    response = client.post("/accounts/signup/", {
        "username": "ada", "password1": SECRET, "password2": SECRET})
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert not User.objects.filter(username="ada").exists()


def test_sign_up_answers_the_same_whether_or_not_the_address_is_known(
        mailoutbox: list[Any]) -> None:
    User.objects.create_user("ada", "ada@example.org")
    known, unknown = Client(), Client()
    answers = [sign_up(known, "ada2", "ADA@example.org"), sign_up(unknown, "cy", "cy@example.org")]
    assert [(a.status_code, a["Location"]) for a in answers] == [(302, "/decks/")] * 2
    assert "We are sending a link to ADA@example.org" in known.get("/decks/").content.decode()
    assert "We are sending a link to cy@example.org" in unknown.get("/decks/").content.decode()
    assert mailoutbox == [] and queued_mail() == 2  # nothing looked up or sent inline
    # The worker tells the address's owner instead of mailing a link that would prove it.
    assert deliver_queued_mail() == ["notice", "link"]
    notice, link = mailoutbox
    assert notice.to == ["ADA@example.org"] and '"ada" already uses' in notice.body
    assert "/accounts/verify/" not in notice.body and "/accounts/verify/" in link.body


def test_sign_ups_are_throttled_with_the_mail_throttle(mailoutbox: list[Any]) -> None:
    visitor = Client()
    for n in range(5):
        assert sign_up(visitor, f"user{n}").status_code == 302
    refused = sign_up(visitor, "user5")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Please wait" in refused.content.decode()
    assert not User.objects.filter(username="user5").exists() and queued_mail() == 5
    # The same count as the other mails: a reset from here is refused too.
    assert visitor.post("/accounts/password_reset/",
                        {"email": "user0@example.org"}).status_code == 429


def test_a_mail_server_that_is_down_loses_no_sign_up(client: Client, settings: Any) -> None:
    settings.MAILERS = {"default": {"BACKEND": "tests.accounts.broken_mail.EmailBackend"}}
    response = sign_up(client, "ada", next="/decks/")
    assert response.status_code == 302 and User.objects.filter(username="ada").exists()
    assert deliver_queued_mail() == ["failed"]  # logged; the account page sends it again


def test_a_weak_or_mismatched_password_is_refused_with_the_reason(client: Client) -> None:
    response = client.post("/accounts/signup/", {
        "username": "bob", "email": "bob@example.org", "password1": "abc", "password2": "abd",
    })
    assert response.status_code == 200
    assert "didn" in response.content.decode()  # "The two password fields didn't match."
    assert not User.objects.filter(username="bob").exists()


def test_signup_never_redirects_off_site(client: Client) -> None:
    response = sign_up(client, "eve", next="https://evil.example/")
    assert response["Location"] == "/decks/"


def test_log_in_and_log_out(client: Client) -> None:
    User.objects.create_user("cy", password=SECRET)
    response = client.post("/accounts/login/", {"username": "cy", "password": SECRET})
    assert response.status_code == 302
    assert "Log out" in client.get("/").content.decode()
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/").content.decode()


def test_a_wrong_password_says_so(client: Client) -> None:
    User.objects.create_user("di", password=SECRET)
    page = client.post("/accounts/login/", {"username": "di", "password": "nope"})
    assert "didn't match" in page.content.decode()


def test_after_sign_up_and_verification_the_person_returns_where_they_were(
        client: Client, mailoutbox: list[Any]) -> None:
    response = sign_up(client, "ada", next="/cards/?q=t%3Atroop")
    assert response["Location"] == "/cards/?q=t%3Atroop"
    assert deliver_queued_mail() == ["link"]
    [mail] = mailoutbox
    link = re.search(r"http://testserver(\S+)", mail.body).group(1)  # type: ignore[union-attr]
    assert link.endswith("?next=%2Fcards%2F%3Fq%3Dt%253Atroop")
    page = client.get(link).content.decode()
    assert 'href="/cards/?q=t%3Atroop">Back to where you were</a>' in page


@pytest.mark.parametrize("wanted", ["https://evil.example/", "//evil.example/",
                                    "/accounts/login/", "/accounts/signup/?next=/x/"])
def test_sign_up_goes_back_only_to_a_page_of_this_site(client: Client, mailoutbox: list[Any],
                                                      wanted: str) -> None:
    response = sign_up(client, "ada", next=wanted)
    assert response["Location"] == "/decks/"
    assert deliver_queued_mail() == ["link"]
    assert "evil" not in mailoutbox[0].body and "%2Faccounts%2F" not in mailoutbox[0].body


def test_the_header_s_sign_up_and_log_in_links_carry_the_page(client: Client) -> None:
    page = client.get("/cards/?q=t%3Atroop").content.decode()
    assert 'href="/accounts/signup/?next=/cards/%3Fq%3Dt%253Atroop"' in page
    assert 'href="/accounts/login/?next=/cards/%3Fq%3Dt%253Atroop"' in page
    signup = client.get("/accounts/signup/").content.decode()
    assert 'href="/accounts/login/">Log in</a>' in signup


def test_a_weak_password_s_errors_stand_under_the_password_and_the_rest_is_kept(
        client: Client) -> None:
    response = client.post("/accounts/signup/", {
        "username": "bob", "email": "bob@example.org", "password1": "abc", "password2": "abc",
        "next": "/cards/"})
    form = response.context["form"]
    assert form.errors.get("password1") and "password2" not in form.errors
    page = response.content.decode()
    password = page.index('name="password1"')
    error = page.index('class="field-error"')
    assert password < error < page.index('name="password2"')  # under the field at fault
    assert 'value="bob"' in page and 'value="bob@example.org"' in page
    assert 'name="next" value="/cards/"' in page


@pytest.mark.parametrize("back_to", ["/cards/demo-bog-hag/", "/cards/?q=t%3Atroop", "/sets/",
                                     "/decks/public/", "/playtest/new/"])
def test_the_page_a_new_account_returns_to_says_a_link_is_on_its_way(
        client: Client, back_to: str) -> None:
    # Said where the person lands, whatever the page: once shown, never again elsewhere (it
    # used to wait for a deck page, and then read as news after the address was confirmed).
    response = sign_up(client, "ada", next=back_to)
    assert response["Location"] == back_to
    page = client.get(back_to).content.decode()
    assert page.count("We are sending a link to ada@example.org") == 1
    assert "We are sending a link" not in client.get("/decks/").content.decode()


@pytest.mark.parametrize(("data", "focused"), [
    ({"username": "bob", "email": "bob@example.org", "password1": "abc", "password2": "abc"},
     "password1"),
    ({"username": "bob", "email": "not an address", "password1": SECRET, "password2": SECRET},
     "email"),
    ({"username": "bob", "email": "bob@example.org", "password1": SECRET, "password2": "x"},
     "password2"),
    ({"username": "", "email": "", "password1": "", "password2": ""}, "username"),
])
def test_a_refused_sign_up_puts_the_cursor_in_the_first_field_at_fault(
        client: Client, data: dict[str, str], focused: str) -> None:
    page = client.post("/accounts/signup/", data).content.decode()
    focus = [f for f in re.findall(r"<input [^>]*>", page) if " autofocus" in f]
    assert len(focus) == 1 and f'name="{focused}"' in focus[0], focus
