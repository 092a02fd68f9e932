from django.apps import AppConfig


class GoldfishConfig(AppConfig):
    name = "goldfish"
    verbose_name = "Goldfish"

    def ready(self) -> None:
        from decks import panels as deck_panels
        from goldfish import panels

        deck_panels.add_panel("detail", panels.headline_panel)
