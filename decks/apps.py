from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self) -> None:
        from cards import extensions
        from decks.card_decks import SECTION
        from decks.home import home_decks
        from decks.views.links import deck_code_target

        extensions.register_search_redirect(deck_code_target)
        extensions.register_home_context(home_decks)
        extensions.register_card_section(SECTION)
