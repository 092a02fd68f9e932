"""The collection's search keys, ``own``, ``want`` and ``trade``, registered into the catalogue's
search (cards.extensions) so that the catalogue never imports the collection."""

from __future__ import annotations

from typing import Any, Final

from django.db.models import QuerySet

from cards.extensions import PersonalKeys
from cards.search.fields import OPERATORS, Field
from collection.models import Collection, CollectionEntry

SECTION: Final = "Collection"
_HELP: Final = (
    " Compare with `:` or `=`, `!=`, `<`, `<=`, `>`, `>=` and a whole number; a card that is"
    " not in your collection counts 0. Needs you to be signed in."
)


def _key(name: str, aliases: tuple[str, ...], label: str, column: str, help_text: str,
         examples: tuple[str, ...]) -> Field:
    return Field(name, "personal", SECTION, label, help_text + _HELP, examples, aliases,
                 OPERATORS, (column,))


FIELDS: Final = (
    _key("own", ("owned",), "number of copies you own", "owned",
         "Copies of the card in your collection (`/collection/`): `own>=1` finds the "
         "cards you own, `own=0` those you do not.", ("own>=1", "own=0 set:demo")),
    _key("want", ("wanted", "wants"), "number of copies you want", "want",
         "Copies on your want list.", ("want>0",)),
    _key("trade", ("trades", "fortrade"), "number of copies you have for trade",
         "trade", "Copies you offer for trade.", ("trade>0",)),
)


def entries_of(owner_id: int) -> QuerySet[CollectionEntry]:
    return CollectionEntry.objects.filter(collection__owner_id=owner_id)


def collection_tag(user: Any) -> str:
    """Changes whenever ``user``'s collection does: for the ETags of answers that read it."""
    version = Collection.objects.filter(owner=user).values_list("version", flat=True).first()
    return f"{user.pk}.{version or 0}"


KEYS: Final = PersonalKeys(
    section=SECTION,
    intro="The copies in your own collection: these keys need you to be signed in; a query "
          "that uses them without is refused.",
    fields=FIELDS,
    rows=entries_of,
    tag=collection_tag,
    facets=(
        ("Only cards I own", "own>=1"),
        ("Cards I do not own", "own=0"),
        ("On my want list", "want>0"),
        ("For trade", "trade>0"),
    ),
)
