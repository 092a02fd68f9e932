"""Sign-up with an e-mail address, and a change of address."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

# An address another account gives is not refused here: that would tell anyone which
# addresses have accounts. The mail to it says so to its owner instead (accounts.tasks), and
# one mailbox still proves one account only (accounts.models.EmailVerification).


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label="E-mail address", max_length=254,
        help_text="For a link that confirms it is yours, and to reset your password. "
                  "It is never shown to anyone.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def full_clean(self) -> None:
        super().full_clean()
        # After a refusal the cursor waits in the first field at fault, not in the username
        # Django focuses on every showing of the form.
        at_fault = next((name for name in self.fields if name in self.errors), None)
        if at_fault is not None:
            for field in self.fields.values():
                field.widget.attrs.pop("autofocus", None)
            self.fields[at_fault].widget.attrs["autofocus"] = True

    def validate_password_for_user(self, user: Any, password_field_name: str = "password1",
                                   **kwargs: Any) -> None:
        # Django reports a weak password under the confirmation: it belongs under the
        # password itself (the confirmation's own error is a mismatch).
        # (django-stubs do not know this method yet)
        super().validate_password_for_user(  # type: ignore[misc]
            user, password_field_name="password1", **kwargs)


class EmailChangeForm(forms.Form):
    email = forms.EmailField(label="New address", max_length=254,
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
