from django.apps import AppConfig


class MatchupsConfig(AppConfig):
    name = "matchups"
    verbose_name = "Matchups"

    def ready(self) -> None:
        from decks import panels as deck_panels
        from matchups import panels

        deck_panels.add_panel("detail", panels.matchups_panel)
