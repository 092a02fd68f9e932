from django.apps import AppConfig


class SitewideConfig(AppConfig):
    name = "sitewide"
    verbose_name = "Site-wide parts"
