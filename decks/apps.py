from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"
