from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_in, user_login_failed
        from django.db.models.signals import pre_save

        from accounts import lockout
        from accounts.api_tokens import revoke_on_new_password

        user_login_failed.connect(lockout.on_login_failed, dispatch_uid="accounts.lockout")
        user_logged_in.connect(lockout.on_logged_in, dispatch_uid="accounts.lockout")
        pre_save.connect(revoke_on_new_password, sender=get_user_model(),
                         dispatch_uid="accounts.api_tokens")
