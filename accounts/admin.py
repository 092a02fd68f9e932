"""Django's user admin, with each account's e-mail verification and an action that lifts a
login lock (accounts.lockout)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts import lockout
from accounts.models import EmailVerification
from accounts.verification import email_verified


class EmailVerificationInline(admin.StackedInline[EmailVerification, User]):
    model = EmailVerification
    extra = 0
    verbose_name = "verified e-mail address"
    verbose_name_plural = "verified e-mail address"


@admin.action(description="Unlock logins of the selected accounts")
def unlock_logins(modeladmin: AccountAdmin, request: HttpRequest,
                  queryset: QuerySet[User]) -> None:
    names = [user.get_username() for user in queryset]
    for name in names:
        lockout.clear(username=name)
    modeladmin.message_user(request, f"Failed logins forgotten for: {', '.join(names)}.",
                            messages.SUCCESS)


class AccountAdmin(UserAdmin):
    inlines = [EmailVerificationInline]
    actions = [unlock_logins]
    list_display = ("username", "email", "verified", "is_staff", "date_joined")

    @admin.display(boolean=True, description="verified e-mail")
    def verified(self, user: User) -> bool:
        return email_verified(user)


admin.site.unregister(User)
admin.site.register(User, AccountAdmin)
