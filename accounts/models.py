"""What the accounts app stores beside Django's own users."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower


class EmailVerification(models.Model):
    """A user proved they read mail at ``email`` (they followed a link sent there).

    The address stays on ``User.email``, where Django's password reset and admin look for it;
    this row only says which address was proved and when. It counts while it is the user's
    current address, so changing ``User.email`` (anywhere, the admin included) needs a new
    proof without anything else to keep in step. Accounts made before this table existed have
    no row: they are unverified until they verify an address on their account page.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="email_verification")
    email = models.EmailField(max_length=254)
    verified_at = models.DateTimeField()

    class Meta:
        constraints = [
            # One mailbox proves one account: three accounts need three mailboxes.
            models.UniqueConstraint(Lower("email"), name="accounts_verified_email_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.email} (verified {self.verified_at:%Y-%m-%d})"
