"""The accounts app's writes: new accounts, addresses and their verification."""

from __future__ import annotations

import logging
from datetime import datetime
from enum import StrEnum

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlencode, urlsafe_base64_encode

from accounts.models import EmailVerification
from accounts.tokens import EmailVerificationTokens, verification_tokens

log = logging.getLogger(__name__)


class Verified(StrEnum):
    """What following a verification link did."""

    VERIFIED = "verified"
    INVALID = "invalid"  # tampered with, expired, or sent to an address the account has left
    TAKEN = "taken"  # another account proved this address first


def account_create(*, username: str, email: str, password: str) -> User:
    """A new account with its (not yet verified) address."""
    return User.objects.create_user(username, User.objects.normalize_email(email), password)


def verification_path(*, user: User, tokens: EmailVerificationTokens = verification_tokens,
                      next_url: str = "") -> str:
    """The path of the link that proves the user's current address; with ``next_url`` (a path
    on this site), the page it opens offers to go back there."""
    path = reverse("verify_email", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": tokens.make_token(user),
    })
    return path + "?" + urlencode({"next": next_url}) if next_url else path


def verification_link(*, request: HttpRequest, user: User,
                      tokens: EmailVerificationTokens = verification_tokens) -> str:
    return request.build_absolute_uri(verification_path(user=user, tokens=tokens))


def timeout_hours() -> int:
    return max(1, settings.ACCOUNTS_VERIFICATION_TIMEOUT // 3600)


def email_mark_verified(*, user: User, at: datetime | None = None) -> Verified:
    """Record that the user proved their current address (VERIFIED), unless another account
    already proved the same address (TAKEN): one mailbox vouches for one account."""
    if not user.email:
        return Verified.INVALID
    if EmailVerification.objects.filter(user=user, email__iexact=user.email).exists():
        return Verified.VERIFIED
    try:
        with transaction.atomic():
            EmailVerification.objects.update_or_create(
                user=user, defaults={"email": user.email, "verified_at": at or timezone.now()})
    except IntegrityError:
        return Verified.TAKEN
    return Verified.VERIFIED


def email_verify(*, user: User, token: str,
                 tokens: EmailVerificationTokens = verification_tokens) -> Verified:
    """Follow a verification link: the token must be good for the user's current address."""
    if not tokens.check_token(user, token):
        return Verified.INVALID
    return email_mark_verified(user=user)


def email_change(*, user: User, email: str) -> bool:
    """Give the account a new address, unverified until its link is followed; False when
    the address is the one it already has (up to case), which changes nothing."""
    email = User.objects.normalize_email(email)
    if email.casefold() == (user.email or "").casefold():
        return False
    with transaction.atomic():
        user.email = email
        user.save(update_fields=["email"])
        EmailVerification.objects.filter(user=user).delete()
    return True
