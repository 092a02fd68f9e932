"""The review rules' numbers come from the environment (docs/design.md §13), with their defaults,
and a value that is not a number stops the start instead of leaving a default in force."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env_settings import one_of, whole_number
from tests.security.test_deploy_settings import manage

SHOW = ("from django.conf import settings as s; import json; "
        "print(json.dumps([s.CARD_EDIT_APPROVALS, s.CARD_EDIT_VOTER_MIN_AGE_DAYS, "
        "s.CARD_EDIT_EXPIRE_DAYS, s.CARD_EDIT_TRUSTED_AFTER, s.CARD_EDIT_TRUSTED_AFTER_CLEAN, "
        "s.CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS, "
        "s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']['votes']]))")


@pytest.mark.parametrize("value, expected", [(None, 2), ("", 2), ("3", 3), (" 1 ", 1)])
def test_a_whole_number_from_the_environment(value: str | None, expected: int) -> None:
    assert whole_number("CARD_EDIT_APPROVALS", value, 2, minimum=1) == expected


@pytest.mark.parametrize("value", ["two", "0", "-1", "1.5"])
def test_a_number_that_cannot_be_read_stops_the_start(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="CARD_EDIT_APPROVALS"):
        whole_number("CARD_EDIT_APPROVALS", value, 2, minimum=1)


def test_the_defaults_and_the_environment_reach_the_settings() -> None:
    done = manage("shell", "-v", "0", "-c", SHOW)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == [2, 7, 30, 10, 5, 5, "240/hour"]
    done = manage("shell", "-v", "0", "-c", SHOW, CARD_EDIT_APPROVALS="3",
                  CARD_EDIT_VOTER_MIN_AGE_DAYS="0", DJANGO_THROTTLE_RATES="votes=10/minute")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == [3, 0, 30, 10, 5, 5, "10/minute"]


@pytest.mark.parametrize("value, expected", [
    (None, ""), ("", ""), ("address", "address"), (" Network ", "network"), ("off", "off")])
def test_the_address_check_from_the_environment(value: str | None, expected: str) -> None:
    assert one_of("CARD_EDIT_VOTER_ADDRESS_CHECK", value, ("address", "network", "off"),
                  "") == expected


def test_an_address_check_that_is_not_one_of_the_three_stops_the_start() -> None:
    with pytest.raises(ImproperlyConfigured, match=r"CARD_EDIT_VOTER_ADDRESS_CHECK.*address"):
        one_of("CARD_EDIT_VOTER_ADDRESS_CHECK", "ip", ("address", "network", "off"), "")
    show = "from django.conf import settings as s; print(s.CARD_EDIT_VOTER_ADDRESS_CHECK)"
    done = manage("shell", "-v", "0", "-c", show, CARD_EDIT_VOTER_ADDRESS_CHECK="network")
    assert (done.returncode, done.stdout.strip()) == (0, "network"), done.stderr
    done = manage("shell", "-v", "0", "-c", show, CARD_EDIT_VOTER_ADDRESS_CHECK="ip")
    assert done.returncode != 0 and "CARD_EDIT_VOTER_ADDRESS_CHECK='ip'" in done.stderr
