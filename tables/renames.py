"""A person renamed: the tables that show his name change (tables.services.tables_renamed).

What a view reads besides the table's row is kept at the table's version (tables.kept_rows),
the seats with their people's names and the talk among it, so a new name comes with a new
version of each table where he sits. That keeps the saving whole (the names are still read
once a version) and tells the pages open there; keying what is kept by the names, or reading
them apart, would cost every view a query for a change that is rare. A name changes only
where the user's row is saved (no page or API of ours renames: the admin, a shell), so the
receivers of the user model's saves catch every rename. The bump comes after the new name is
saved: a view that reads the new version reads the new name.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from tables.services import tables_renamed

# The instance attribute that carries, from pre_save to post_save, that the name changed.
RENAMED = "_tables_renamed"


def name_checked(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    """pre_save of the user model: whether the stored name changes (a save that names its
    fields without the name, as a login's, costs no query)."""
    field = instance.USERNAME_FIELD
    if instance.pk is None or (update_fields is not None and field not in update_fields):
        return
    stored = (get_user_model().objects.filter(pk=instance.pk)
              .values_list(field, flat=True).first())
    setattr(instance, RENAMED, stored is not None and stored != instance.get_username())


def renamed_at_tables(sender: Any, instance: Any, **kwargs: Any) -> None:
    """post_save of the user model: his tables change, once the new name is saved."""
    if vars(instance).pop(RENAMED, False):
        tables_renamed(user_id=instance.pk)
