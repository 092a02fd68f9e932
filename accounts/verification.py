"""Whether a user has a verified e-mail address: what other features ask before letting an
account vote or edit (``ACCOUNTS_REQUIRE_VERIFIED_EMAIL``, docs/design.md §13)."""

from __future__ import annotations

from typing import Any

from accounts.models import EmailVerification


def email_verified(user: Any) -> bool:
    """True when ``user`` followed a link sent to their current address.

    Staff and superusers count as verified (the site's operators vouch for them); anonymous
    and inactive users never do.
    """
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_staff or user.is_superuser:
        return True
    if not user.email:
        return False
    return EmailVerification.objects.filter(user=user, email__iexact=user.email).exists()
