"""accounts.verification: who counts as having a verified e-mail address."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import EmailVerification
from accounts.verification import email_verified

pytestmark = pytest.mark.django_db


def verified(user: User, email: str | None = None) -> User:
    EmailVerification.objects.create(user=user, email=email or user.email,
                                     verified_at=timezone.now())
    return user


def test_a_new_account_is_not_verified() -> None:
    assert not email_verified(User.objects.create_user("ada", "ada@example.org"))


def test_an_account_that_followed_the_link_is_verified_case_blind() -> None:
    ada = verified(User.objects.create_user("ada", "Ada@Example.org"), "ada@example.org")
    assert email_verified(ada)


def test_changing_the_address_needs_a_new_proof() -> None:
    ada = verified(User.objects.create_user("ada", "ada@example.org"))
    ada.email = "ada@elsewhere.example"
    ada.save()
    assert not email_verified(ada)


def test_an_account_without_an_address_is_not_verified() -> None:
    assert not email_verified(User.objects.create_user("old-timer"))


def test_staff_and_superusers_count_as_verified() -> None:
    assert email_verified(User.objects.create_user("mod", is_staff=True))
    assert email_verified(User.objects.create_superuser("root", "", "x"))


def test_anonymous_and_inactive_users_never_do() -> None:
    assert not email_verified(AnonymousUser())
    assert not email_verified(verified(User.objects.create_user("gone", "g@example.org",
                                                                is_active=False)))


def test_one_address_proves_one_account() -> None:
    verified(User.objects.create_user("ada", "ada@example.org"))
    twin = User.objects.create_user("ada2", "ADA@example.org")
    with pytest.raises(IntegrityError), transaction.atomic():
        verified(twin)

