from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_login_failed

        from accounts import lockout

        user_login_failed.connect(lockout.on_login_failed, dispatch_uid="accounts.lockout")
        user_logged_in.connect(lockout.on_logged_in, dispatch_uid="accounts.lockout")
