from django.apps import AppConfig


class CollectionConfig(AppConfig):
    name = "collection"
    verbose_name = "Collection"

    def ready(self) -> None:
        # The collection plugs into the catalogue and the deck pages; they never import it.
        from cards import extensions
        from collection import panels, search_keys
        from decks import panels as deck_panels

        extensions.register_personal_keys(search_keys.KEYS)
        extensions.register_card_control(panels.CARD_CONTROL)
        deck_panels.add_panel("detail", panels.ownership_panel)
        deck_panels.add_panel("builder", panels.builder_ownership_panel)
        deck_panels.add_list_provider(panels.public_decks)
