"""The card edit tests run with the e-mail requirement off (the accounts app decides it; its
own tests and tests/edits/test_permissions.py turn it on) and the test set loaded."""

from __future__ import annotations

from typing import Any

import pytest

from tests.edits.makers import make_test_set


@pytest.fixture(autouse=True)
def edit_settings(settings: Any, db: None) -> Any:
    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = False
    settings.CARD_EDIT_APPROVALS = 2
    settings.CARD_EDIT_VOTER_MIN_AGE_DAYS = 7
    settings.CARD_EDIT_EXPIRE_DAYS = 30
    settings.CARD_EDIT_TRUSTED_AFTER = 10
    settings.CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS = 5
    make_test_set()
    return settings
