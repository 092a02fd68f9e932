from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Online tables"

    def ready(self) -> None:
        # The tables plug into the home page; the catalogue does not import them.
        from cards import extensions
        from tables import panels

        extensions.register_home_section(panels.HOME_SECTION)
