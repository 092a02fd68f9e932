"""Accounts in a real browser: a new account confirms its address with the link in the mail,
a forgotten password is reset through the mail, and a guessed password meets the lock. Each
journey with the mouse and with the keyboard alone (the ``person`` fixture)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from accounts.verification import email_verified
from tests.accounts.queued_mail import deliver_queued_mail
from tests.browser.conftest import LIVE_DATABASE
from tests.browser.person import Person
from tests.browser.test_journeys import sign_up
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

NEW_PASSWORD = "a-New-Secret-77"


def link_in(mail: Any, path: str) -> str:
    found = re.search(rf"https?://[^/\s]+({path}\S+)", mail.body)
    assert found, mail.body
    return found.group(1)


def test_a_new_user_confirms_the_address_with_the_link_in_the_mail(
        person: Person, page: Page, site: str, mailoutbox: list[Any],
        csp_violations: list[str]) -> None:
    sign_up(person, page, site, "ada")
    expect(page.locator("main")).to_contain_text("We are sending a link to ada@example.org")
    person.press(page.get_by_role("navigation", name="Account").get_by_role("link", name="ada"))
    expect(page.locator(".account-facts")).to_contain_text("not verified yet")
    deliver_queued_mail()  # as the background worker does
    page.goto(site + link_in(mailoutbox[-1], "/accounts/verify/"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Address verified")
    person.press(page.locator("main").get_by_role("link", name="Your account"))
    expect(page.locator(".account-facts")).to_contain_text("verified")
    expect(page.locator(".account-facts")).not_to_contain_text("not verified")
    assert email_verified(User.objects.get(username="ada"))


def test_a_forgotten_password_is_reset_through_the_mail(
        person: Person, page: Page, site: str, mailoutbox: list[Any],
        csp_violations: list[str]) -> None:
    User.objects.create_user("ada", "ada@example.org", PASSWORD)
    page.goto(f"{site}/accounts/login/")
    person.press(page.get_by_role("link", name="Forgot your password?"))
    person.fill(page.get_by_label("Email"), "ada@example.org")
    person.press(page.get_by_role("button", name="Send the link"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your e-mail")
    deliver_queued_mail()  # as the background worker does
    page.goto(site + link_in(mailoutbox[-1], "/accounts/reset/"))
    person.fill(page.get_by_label("New password", exact=True), NEW_PASSWORD)
    person.fill(page.get_by_label("New password confirmation"), NEW_PASSWORD)
    person.press(page.get_by_role("button", name="Set my password"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Password changed")
    person.press(page.locator("main").get_by_role("link", name="Log in"))
    person.fill(page.get_by_label("Username"), "ada")
    person.fill(page.get_by_label("Password"), NEW_PASSWORD)
    person.press(page.locator("main").get_by_role("button", name="Log in"))
    expect(page.get_by_role("navigation", name="Account")).to_contain_text("ada")


def test_guessing_a_password_meets_the_lock(page: Page, site: str, settings: Any,
                                            csp_violations: list[str]) -> None:
    settings.ACCOUNTS_LOGIN_FAILURES_PER_ACCOUNT = 3
    User.objects.create_user("ada", "ada@example.org", PASSWORD)
    page.goto(f"{site}/accounts/login/")
    for guess in ("one", "two", "three"):
        page.get_by_label("Username").fill("ada")
        page.get_by_label("Password").fill(guess)
        page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("Too many failed logins")
    expect(page.get_by_role("alert")).to_contain_text("Try again in 15 minutes")
