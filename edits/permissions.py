"""Who may propose card edits and vote on them: the one place that decides it (docs/design.md §13).

Whether a vote *counts* and whether an editor is trusted are review rules (edits.review); this
module only says whether an account may take part at all.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from accounts.verification import email_verified


def contribution_refusal(user: Any) -> str | None:
    """Why ``user`` may not propose edits or vote, in words for them; None when they may.

    With ``ACCOUNTS_REQUIRE_VERIFIED_EMAIL`` on (the accounts app's setting, default on), only
    accounts with a verified e-mail address take part (accounts.verification; staff count as
    verified).
    """
    if not getattr(user, "is_authenticated", False):
        return "Sign in to propose card edits or vote on them."
    if not user.is_active:
        return "This account is not active."
    if settings.ACCOUNTS_REQUIRE_VERIFIED_EMAIL and not email_verified(user):
        return ("Verify your e-mail address first (follow the link we sent you): only "
                "verified accounts propose card edits and vote.")
    return None
