"""API tokens end with the password that earned them: a new password (changed on the account
page, reset by mail, set by staff or ``changepassword``) revokes the account's token, as it
ends the account's other sessions; the next ``POST /api/auth/token/`` makes a new key."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token


def api_token_revoke(*, user: Any) -> bool:
    """Revoke the user's API token; False when they had none."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)


def revoke_on_new_password(sender: Any, instance: Any, update_fields: Any = None,
                           **kwargs: Any) -> None:
    """pre_save of the user model: revoke the token when the stored password hash changes
    (a save that names its fields without the password, as a login's, costs no query)."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = (get_user_model().objects.filter(pk=instance.pk)
              .values_list("password", flat=True).first())
    if stored is not None and stored != instance.password:
        api_token_revoke(user=instance)
