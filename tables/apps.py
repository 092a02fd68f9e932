from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Online tables"

    def ready(self) -> None:
        # The tables plug into the home page; the catalogue does not import them.
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save, pre_save

        from cards import extensions
        from tables import panels, renames

        extensions.register_home_section(panels.HOME_SECTION)
        # A person renamed: his tables show the new name (tables.renames).
        user = get_user_model()
        pre_save.connect(renames.name_checked, sender=user, dispatch_uid="tables.renames")
        post_save.connect(renames.renamed_at_tables, sender=user,
                          dispatch_uid="tables.renames")
