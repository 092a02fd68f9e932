"""Keep the catalogue revision in step with every change to cards, sets, keywords and images."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from backup.archive import restored
from cards.models import Card, CardImage, CardKeyword, CardSet, CatalogueRevision
from cards.revision_cache import forget_shared_revision


def catalogue_changed(*, raw: bool = False, **_: Any) -> None:
    if raw:
        return  # loaddata restoring a state (a backup), whose revision row comes with it
    now = timezone.now()
    updated = CatalogueRevision.objects.filter(pk=1).update(number=F("number") + 1, updated_at=now)
    if not updated:
        CatalogueRevision.objects.get_or_create(pk=1, defaults={"number": 1, "updated_at": now})
    forget_shared_revision()


def _restored(**_: Any) -> None:
    catalogue_changed()


def connect() -> None:
    restored.connect(_restored, dispatch_uid="revision-restored")
    for model in (Card, CardSet, CardKeyword, CardImage):
        post_save.connect(catalogue_changed, sender=model, dispatch_uid=f"revision-save-{model}")
        post_delete.connect(catalogue_changed, sender=model, dispatch_uid=f"revision-del-{model}")
