from django.apps import AppConfig


class SitewideConfig(AppConfig):
    name = "sitewide"
    verbose_name = "Site-wide parts"

    def ready(self) -> None:
        from sitewide import console_mail  # noqa: F401  (registers its deploy check)
