from django.apps import AppConfig


class EditsConfig(AppConfig):
    name = "edits"
    verbose_name = "Card edits"

    def ready(self) -> None:
        # The edits plug into the home page and the deck page; neither imports them.
        from cards import extensions
        from decks import panels as deck_panels
        from edits import panels

        extensions.register_home_section(panels.HOME_SECTION)
        deck_panels.add_panel("detail", panels.missing_facts_panel)
