from django.apps import AppConfig


class SimulationsConfig(AppConfig):
    name = "simulations"
    verbose_name = "Simulations"

    def ready(self) -> None:
        from backup.moved_models import register_row_upgrade
        from decks import panels as deck_panels
        from simulations import legacy, panels

        deck_panels.add_panel("detail", panels.headline_panel)
        deck_panels.add_panel("detail", panels.matchups_panel)
        # Backups made before the goldfish and matchups apps became this one.
        register_row_upgrade(legacy.upgrade_archive_rows)
