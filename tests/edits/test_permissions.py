"""Who may edit and vote (edits.permissions): with ACCOUNTS_REQUIRE_VERIFIED_EMAIL on, the
default, only accounts with a verified e-mail address (and staff)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from accounts.models import EmailVerification
from edits.errors import EditForbidden
from edits.models import Edit
from edits.permissions import contribution_refusal
from edits.services import edit_propose, edit_vote
from tests.edits.makers import client_for, make_user, post


@pytest.fixture(autouse=True)
def verified_email_required(settings: Any) -> None:
    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = True


def verified(name: str) -> Any:
    user = make_user(name)
    user.email = f"{name}@example.org"
    user.save(update_fields=["email"])
    EmailVerification.objects.create(user=user, email=user.email, verified_at=timezone.now())
    return user


def test_an_account_without_a_verified_email_neither_edits_nor_votes() -> None:
    unverified = make_user("ada")
    assert contribution_refusal(unverified) is not None
    with pytest.raises(EditForbidden) as refused:
        edit_propose(editor=unverified, card="tst-unknown-tower", changes={"defense": 4},
                     source="copy")
    assert refused.value.code == "not_allowed" and "e-mail" in refused.value.detail
    edit = edit_propose(editor=verified("bob"), card="tst-unknown-tower",
                        changes={"defense": 4}, source="copy")
    with pytest.raises(EditForbidden):
        edit_vote(edit=edit, voter=unverified, vote="approve")
    assert not Edit.objects.filter(editor=unverified).exists()


def test_a_verified_account_and_staff_may_take_part() -> None:
    assert contribution_refusal(verified("ada")) is None
    assert contribution_refusal(make_user("mod", staff=True)) is None


def test_with_the_requirement_off_any_signed_in_account_may(settings: Any) -> None:
    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = False
    assert contribution_refusal(make_user("ada")) is None


def test_visitors_and_inactive_accounts_may_not(settings: Any) -> None:
    from django.contrib.auth.models import AnonymousUser

    settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL = False
    assert "Sign in" in (contribution_refusal(AnonymousUser()) or "")
    inactive = make_user("gone")
    inactive.is_active = False
    assert contribution_refusal(inactive) is not None


def test_the_api_refuses_an_unverified_account_with_a_403_problem() -> None:
    response = post(client_for(make_user("ada")), "/api/edits/", {
        "card": "tst-unknown-tower", "changes": {"defense": 4}, "source": "copy"}, status=403)
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "not_allowed"
