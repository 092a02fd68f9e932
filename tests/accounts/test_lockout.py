"""Failed logins locked per account and per client address, on the login page, the token
endpoint and the admin's login alike; what ends a lock."""

from __future__ import annotations

import time
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client, RequestFactory

from accounts import lockout

pytestmark = pytest.mark.django_db

SECRET = "x-Secret-123456"
PAGE, API = "/accounts/login/", "/api/auth/token/"


@pytest.fixture
def limits(settings: Any) -> Any:
    settings.ACCOUNTS_LOGIN_FAILURES_PER_ACCOUNT = 3
    settings.ACCOUNTS_LOGIN_FAILURES_PER_ADDRESS = 6
    settings.ACCOUNTS_LOGIN_LOCKOUT_SECONDS = 600
    return settings


@pytest.fixture
def ada(db: None) -> User:
    return User.objects.create_user("ada", "ada@example.org", SECRET)


def log_in(client: Client, path: str, username: str, password: str, **extra: Any) -> Any:
    return client.post(path, {"username": username, "password": password}, **extra)


def test_the_page_locks_an_account_after_the_limit_and_says_when(
        client: Client, ada: User, limits: Any) -> None:
    for _ in range(2):
        assert log_in(client, PAGE, "ada", "wrong").status_code == 200
    locked = log_in(client, PAGE, "ada", "wrong")
    assert locked.status_code == 429 and 590 <= int(locked["Retry-After"]) <= 600
    page = locked.content.decode()
    assert "Too many failed logins" in page and "Try again in 10 minutes" in page
    right_password = log_in(client, PAGE, "Ada", SECRET)  # any case: one account, one count
    assert right_password.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_token_endpoint_locks_with_a_problem_and_retry_after(
        client: Client, ada: User, limits: Any) -> None:
    for _ in range(2):
        refused = log_in(client, API, "ada", "wrong")
        assert refused.status_code == 400 and refused["Content-Type"] == "application/problem+json"
    locked = log_in(client, API, "ada", "wrong")
    assert locked.status_code == 429 and locked["Content-Type"] == "application/problem+json"
    assert 590 <= int(locked["Retry-After"]) <= 600
    problem = locked.json()
    assert problem["status"] == 429 and problem["code"] == "login_locked"
    assert "Try again in" in problem["detail"]
    assert log_in(client, API, "ada", SECRET).status_code == 429


def test_the_two_paths_share_one_count(client: Client, ada: User, limits: Any) -> None:
    log_in(client, PAGE, "ada", "wrong")
    log_in(client, API, "ada", "wrong")
    assert log_in(client, PAGE, "ada", "wrong").status_code == 429
    assert log_in(client, API, "ada", SECRET).status_code == 429


def test_the_admin_login_is_refused_while_locked(client: Client, limits: Any) -> None:
    User.objects.create_superuser("root", "root@example.org", SECRET)
    for _ in range(3):
        log_in(client, PAGE, "root", "wrong")
    log_in(client, "/admin/login/", "root", SECRET)
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("path", [PAGE, API])
def test_a_success_starts_the_account_s_count_again(client: Client, ada: User, limits: Any,
                                                    path: str) -> None:
    for _ in range(2):
        log_in(client, path, "ada", "wrong")
    assert log_in(client, path, "ada", SECRET).status_code in (200, 302)
    client.logout()
    for _ in range(2):
        assert log_in(client, path, "ada", "wrong").status_code in (200, 400)
    assert log_in(client, path, "ada", SECRET).status_code in (200, 302)


def test_an_address_is_locked_across_accounts(client: Client, ada: User, limits: Any) -> None:
    for name in ("u1", "u2", "u3", "u4", "u5"):
        assert log_in(client, PAGE, name, "wrong").status_code == 200
    assert log_in(client, PAGE, "u6", "wrong").status_code == 429
    assert log_in(client, API, "ada", SECRET).status_code == 429  # from this address
    elsewhere = Client(REMOTE_ADDR="198.51.100.7")
    assert log_in(elsewhere, API, "ada", SECRET).status_code == 200


def test_a_success_leaves_the_address_count_as_it_is(client: Client, ada: User,
                                                     limits: Any) -> None:
    for name in ("u1", "u2", "u3", "u4", "u5"):
        log_in(client, PAGE, name, "wrong")
    assert log_in(client, API, "ada", SECRET).status_code == 200  # its own account: fine
    assert log_in(client, PAGE, "u6", "wrong").status_code == 429  # but no fresh guesses


def test_forwarded_addresses_count_only_behind_trusted_proxies(client: Client, ada: User,
                                                               limits: Any,
                                                               settings: Any) -> None:
    for i in range(6):  # a header anyone can invent: ignored, all from one address
        log_in(client, PAGE, f"u{i}", "wrong", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}")
    assert log_in(client, PAGE, "u9", "wrong", HTTP_X_FORWARDED_FOR="10.0.0.9").status_code == 429
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxied = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="192.0.2.1, 10.0.0.1")
    assert lockout.client_address(proxied) == "10.0.0.1"  # what the one proxy saw
    behind_proxy = log_in(client, PAGE, "u9", "wrong", HTTP_X_FORWARDED_FOR="192.0.2.50")
    assert behind_proxy.status_code == 200  # another visitor, as the proxy vouches


def test_a_lock_ends_after_the_lockout_time(client: Client, ada: User, limits: Any) -> None:
    long_ago = time.time() - 601
    for _ in range(3):
        lockout.failure_record("ada", "127.0.0.1", now=long_ago)
    assert lockout.locked_for("ada", "127.0.0.1", now=long_ago + 1) == 599
    assert lockout.locked_for("ada", "127.0.0.1") == 0
    assert log_in(client, PAGE, "ada", SECRET).status_code == 302


def test_failures_spread_wider_than_the_window_never_lock(limits: Any) -> None:
    start = 1_000_000.0
    for minute in (0, 6, 12, 18, 24):  # two a window at most
        lockout.failure_record("ada", None, now=start + minute * 60)
    assert lockout.locked_for("ada", None, now=start + 24 * 60) == 0


def test_failures_while_locked_do_not_push_the_end(limits: Any) -> None:
    for _ in range(3):
        lockout.failure_record("ada", None, now=1000.0)
    lockout.failure_record("ada", None, now=1500.0)
    assert lockout.locked_for("ada", None, now=1500.0) == 100


def test_a_limit_of_zero_turns_that_count_off(client: Client, ada: User, limits: Any) -> None:
    limits.ACCOUNTS_LOGIN_FAILURES_PER_ACCOUNT = 0
    for _ in range(5):
        assert log_in(client, API, "ada", "wrong").status_code == 400
    assert log_in(client, API, "ada", "wrong").status_code == 429  # the address's, at 6


def test_staff_unlock_an_account_with_the_admin_action(client: Client, ada: User,
                                                       limits: Any) -> None:
    for _ in range(3):
        log_in(Client(), PAGE, "ada", "wrong")
    staff = User.objects.create_superuser("mod", "mod@example.org", SECRET)
    admin = Client(REMOTE_ADDR="198.51.100.8")
    admin.force_login(staff)
    response = admin.post("/admin/auth/user/", {"action": "unlock_logins",
                                                "_selected_action": [ada.pk]}, follow=True)
    assert "Failed logins forgotten for: ada" in response.content.decode()
    assert log_in(Client(REMOTE_ADDR="198.51.100.9"), PAGE, "ada", SECRET).status_code == 302


def test_staff_unlock_accounts_and_addresses_with_the_command(client: Client, ada: User,
                                                              limits: Any) -> None:
    for name in ("ada", "ada", "ada", "u4", "u5", "u6"):
        log_in(client, PAGE, name, "wrong")
    out = StringIO()
    call_command("unlock_logins", "ADA", stdout=out)
    assert "unlocked account ADA" in out.getvalue()
    assert log_in(client, PAGE, "ada", SECRET).status_code == 429  # the address still is
    call_command("unlock_logins", "--address", "127.0.0.1", stdout=out)
    assert log_in(client, PAGE, "ada", SECRET).status_code == 302
    with pytest.raises(CommandError):
        call_command("unlock_logins")


def test_the_admin_lists_whether_each_address_is_verified(client: Client, ada: User) -> None:
    client.force_login(User.objects.create_superuser("mod", "mod@example.org", SECRET))
    page = client.get("/admin/auth/user/").content.decode()
    assert "Verified e-mail" in page and "Unlock logins of the selected accounts" in page
    assert client.get(f"/admin/auth/user/{ada.pk}/change/").status_code == 200


@pytest.mark.parametrize("seconds, words", [(1, "1 second"), (40, "40 seconds"),
                                            (60, "1 minute"), (61, "2 minutes"),
                                            (900, "15 minutes")])
def test_the_wait_in_words(seconds: int, words: str) -> None:
    assert lockout.wait_in_words(seconds) == words
