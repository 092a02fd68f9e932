from django.apps import AppConfig


class MatchupsConfig(AppConfig):
    name = "matchups"
    verbose_name = "Matchups"
