from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_in, user_login_failed
        from django.db.models.signals import post_delete, post_save, pre_save
        from rest_framework.authtoken.models import Token

        from accounts import lockout
        from accounts.api_tokens import revoke_on_new_password
        from accounts.token_authentication import forget_token, forget_user

        user_login_failed.connect(lockout.on_login_failed, dispatch_uid="accounts.lockout")
        user_logged_in.connect(lockout.on_logged_in, dispatch_uid="accounts.lockout")
        pre_save.connect(revoke_on_new_password, sender=get_user_model(),
                         dispatch_uid="accounts.api_tokens")
        # The tokens kept per process (accounts.token_authentication) dropped at once here.
        for signal in (post_save, post_delete):
            signal.connect(forget_token, sender=Token, dispatch_uid="accounts.token_cache")
            signal.connect(forget_user, sender=get_user_model(),
                           dispatch_uid="accounts.token_cache")
