"""Writes to the catalogue: imports, exports, keyword parsing, images and edit history.

Views, admin and management commands call these functions; they hold no logic of their own.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cards.card_data import (
    EDITABLE_KEYS,
    PROVENANCE_KEY,
    CardDataError,
    CardFile,
    Problem,
    SetInfo,
    format_time,
    parse_card_document,
)
from cards.image_services import Scan, cards_ensure_images
from cards.images import scan
from cards.models import Card, CardKeyword, CardProvenance, CardRevision, CardSet
from cards.signals import catalogue_changed
from rules.abilities import parse_abilities

Progress = Callable[[str], None]


@dataclass
class ImportReport:
    source: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    images: int = 0
    card_ids: list[str] = field(default_factory=list)
    # "card.key" of the values set by reviewed edits that this file (without provenance) would
    # have replaced, and kept.
    kept: list[str] = field(default_factory=list)

    def summary(self) -> str:
        kept = f", {len(self.kept)} value(s) from reviewed edits kept" if self.kept else ""
        return (
            f"{self.source}: {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged, {self.images} image(s) made{kept}"
        )


def decode_card_json(raw: bytes, source: str) -> object:
    """Decode a data file's bytes, turning every decoding failure into a CardDataError."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CardDataError(
            [Problem(source, None, None, f"not UTF-8 text (byte {exc.start}): is it a JSON file?")]
        ) from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardDataError(
            [Problem(source, None, None, f"invalid JSON at line {exc.lineno}, column "
                     f"{exc.colno}: {exc.msg}")]
        ) from exc


def card_documents(doc: object) -> list[object]:
    """A bundle (a list of ``{"set", "cards"}`` documents, as ``export_cards`` writes for
    several sets) is split into its documents; anything else is one document."""
    if isinstance(doc, list) and doc and all(
        isinstance(d, dict) and "cards" in d for d in doc
    ):
        return list(doc)
    return [doc]


def cards_import_bytes(
    raw: bytes,
    *,
    source: str,
    base_dir: Path,
    user: Any = None,
    make_images: bool = True,
    progress: Progress | None = None,
) -> list[ImportReport]:
    """Import one data file (or bundle). Strict and atomic: on any problem nothing is written."""
    documents = card_documents(decode_card_json(raw, source))
    files = [parse_card_document(doc, source) for doc in documents]
    scans = _load_scans(files, base_dir)
    with transaction.atomic():
        reports = [
            _write_file(card_file, user=user, scans=scans, make_images=make_images,
                        progress=progress)
            for card_file in files
        ]
    return reports


def _load_scans(files: Iterable[CardFile], base_dir: Path) -> dict[str, Scan]:
    """Read, check and re-encode every scan before anything is written."""
    problems: list[Problem] = []
    scans: dict[str, Scan] = {}
    for card_file in files:
        for card in card_file.cards:
            if not card["image"]:
                continue
            path = (base_dir / card["image"]).resolve()
            try:
                data = path.read_bytes()
                renditions = scan.make_renditions(data)  # checks format, size, pixels
            except OSError as exc:
                problems.append(Problem(card_file.source, card["id"], "image",
                                        f"cannot read {path}: {exc.strerror or exc}"))
                continue
            except scan.ScanError as exc:
                problems.append(Problem(card_file.source, card["id"], "image", str(exc)))
                continue
            scans[card["id"]] = (hashlib.sha256(data).hexdigest(), renditions)
    if problems:
        raise CardDataError(problems)
    return scans


def _write_file(
    card_file: CardFile,
    *,
    user: Any,
    scans: dict[str, Scan],
    make_images: bool,
    progress: Progress | None,
) -> ImportReport:
    report = ImportReport(source=card_file.source)
    sets = _sets_for(card_file)
    ids = [c["id"] for c in card_file.cards]
    existing = Card.objects.select_related("set").in_bulk(ids)
    provenance = _provenance_of(ids)
    total = len(card_file.cards)
    cards: list[Card] = []
    for n, data in enumerate(card_file.cards, start=1):
        card = existing.get(data["id"])
        old = card.as_data() if card else None
        if card is None:
            card = Card(id=data["id"])
        given = data.get(PROVENANCE_KEY)
        if old is not None and given is None:
            data = _keep_reviewed(data, old, provenance.get(card.id, {}), report)
        _assign(card, data, sets[data["set"]])
        new = card.as_data()
        changes = _diff(old or {}, new) if old != new else {}
        if changes:
            card.save()
            card_sync_keywords(card)
            CardRevision.objects.create(
                card=card, user=user, source=f"import {card_file.source}", changes=changes,
            )
        provenance_changed = _import_provenance(
            card, provenance.get(card.id, {}), given, changed=changes.keys() if old else ()
        )
        if old is None:
            report.created += 1
        elif changes or provenance_changed:
            report.updated += 1
        else:
            report.unchanged += 1
        cards.append(card)
        if progress and (n % 50 == 0 or n == total):
            progress(f"{card_file.source}: {n}/{total} cards")
    report.card_ids = [c.id for c in cards]
    if make_images:
        report.images = cards_ensure_images(cards, scans, progress=progress)
    return report


def _sets_for(card_file: CardFile) -> dict[str, CardSet]:
    codes = {c["set"] for c in card_file.cards}
    sets = {s.code: s for s in CardSet.objects.filter(code__in=codes)}
    if card_file.set_info is not None:
        sets[card_file.set_info.code] = set_upsert(card_file.set_info)
    missing = sorted(codes - set(sets))
    if missing:
        raise CardDataError([
            Problem(card_file.source, c["id"], "set",
                    f"unknown set {c['set']!r}: import a file with its \"set\" object first")
            for c in card_file.cards if c["set"] in missing
        ])
    return sets


def set_upsert(info: SetInfo) -> CardSet:
    defaults: dict[str, Any] = {"name": info.name, "official": info.official,
                                "released": info.released}
    if info.size_given:  # a file without "size" keeps the size the catalogue has
        defaults["size"] = info.size
    card_set, _ = CardSet.objects.update_or_create(code=info.code, defaults=defaults)
    return card_set


def _assign(card: Card, data: dict[str, Any], card_set: CardSet) -> None:
    for key, value in data.items():
        if key == "set":
            card.set = card_set
        elif key not in ("id", PROVENANCE_KEY):
            setattr(card, key, value)
    if card.official is None:
        card.official = card_set.official


def _diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, list[Any]]:
    return {k: [old.get(k), v] for k, v in new.items() if old.get(k) != v}


def card_record_edit(*, card: Card, old: dict[str, Any], user: Any, source: str) -> None:
    """After an edit (admin), keep keywords and the face in step and log who changed what."""
    new = card.as_data()
    changes = _diff(old, new)
    if changes:
        CardRevision.objects.create(card=card, user=user, source=source, changes=changes)
        card_provenance_record(
            card, [k for k in changes if k in EDITABLE_KEYS], source=f"{source} (staff edit)",
            editor=getattr(user, "username", None) or None, edit=None, date=timezone.now(),
        )
    card_sync_keywords(card)
    cards_ensure_images([card])


# Per-field provenance: which edit, editor, date and source set each field's current value.

def card_provenance_record(
    card: Card, fields: Iterable[str], *, source: str, editor: str | None, edit: int | None,
    date: dt.datetime,
) -> None:
    """Record that ``fields`` of ``card`` now hold values set by this source (and edit)."""
    fields = [f for f in fields if f in EDITABLE_KEYS]
    if not fields:
        return
    CardProvenance.objects.filter(card=card, field__in=fields).delete()
    CardProvenance.objects.bulk_create(
        CardProvenance(card=card, field=f, source=source, editor=editor, edit=edit, date=date)
        for f in fields
    )
    catalogue_changed()  # bulk writes send no signal; exports and the bulk file carry this


def card_provenance(card: Card) -> dict[str, dict[str, Any]]:
    """The card's provenance as card data files write it: ``{key: {source, editor, date,
    edit}}`` in the order of the card data keys."""
    return _provenance_of([card.id]).get(card.id, {})


def _provenance_of(card_ids: Iterable[str]) -> dict[str, dict[str, dict[str, Any]]]:
    rows = CardProvenance.objects.filter(card_id__in=list(card_ids))
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        found.setdefault(row.card_id, {})[row.field] = {
            "source": row.source, "editor": row.editor, "date": format_time(row.date),
            "edit": row.edit,
        }
    order = {key: n for n, key in enumerate(EDITABLE_KEYS)}
    return {
        card_id: dict(sorted(entries.items(), key=lambda item: order.get(item[0], 99)))
        for card_id, entries in found.items()
    }


def _keep_reviewed(data: dict[str, Any], old: dict[str, Any],
                   provenance: dict[str, dict[str, Any]], report: ImportReport) -> dict[str, Any]:
    """A file without provenance (the public catalogue re-imported by ``make run``) does not
    undo the community's reviewed edits: a value set by an edit is kept, and so are the
    sources the card gained. A file with provenance (an export) replaces everything."""
    reviewed = [key for key, entry in provenance.items() if entry["edit"] is not None]
    if not reviewed:
        return data
    kept = dict(data)
    for key in reviewed:
        if key != "sources" and kept.get(key) != old.get(key):
            kept[key] = old.get(key)
            report.kept.append(f"{data['id']}.{key}")
    gained = [s for s in old.get("sources") or [] if s not in (kept.get("sources") or [])]
    if gained:
        kept["sources"] = [*(kept.get("sources") or []), *gained]
    return kept


def _import_provenance(
    card: Card, current: dict[str, dict[str, Any]], given: dict[str, dict[str, Any]] | None,
    *, changed: Iterable[str],
) -> bool:
    """A file's provenance replaces the card's; a file without it keeps the card's, less the
    fields whose values it changed (their source is now the file and its ``sources``).
    Returns whether anything changed."""
    if given is None:
        stale = [f for f in changed if f in current]
        if stale:
            CardProvenance.objects.filter(card=card, field__in=stale).delete()
            catalogue_changed()
        return bool(stale)
    wanted = {key: {**entry, "date": format_time(entry["date"])} for key, entry in given.items()}
    if wanted == current:
        return False
    CardProvenance.objects.filter(card=card).delete()
    CardProvenance.objects.bulk_create(
        CardProvenance(card=card, field=key, source=e["source"], editor=e["editor"],
                       edit=e["edit"], date=e["date"])
        for key, e in given.items()
    )
    catalogue_changed()
    return True


def card_sync_keywords(card: Card) -> None:
    """Store the common abilities parsed from the card's text, for search and the index."""
    CardKeyword.objects.filter(card=card).delete()
    CardKeyword.objects.bulk_create(
        CardKeyword(
            card=card,
            ability=clause.ability.slug,
            position=position,
            exhausts=clause.exhausts,
            faction_threshold=clause.faction_threshold,
        )
        for position, clause in enumerate(parse_abilities(card.abilities))
        if clause.ability is not None
    )


def cards_export(*, set_code: str | None = None) -> object:
    """The catalogue as a data document: one set's ``{"set", "cards"}``, or a bundle of them."""
    sets = CardSet.objects.order_by("-official", "code")
    if set_code is not None:
        sets = sets.filter(code=set_code)
    documents = [_set_document(s) for s in sets]
    if set_code is not None:
        return documents[0]
    return documents


def _set_document(card_set: CardSet) -> dict[str, Any]:
    cards = (
        Card.objects.filter(set=card_set)
        .select_related("set")
        .order_by(F("number").asc(nulls_last=True), "id")
    )
    provenance = _provenance_of(c.id for c in cards)
    info: dict[str, Any] = {
        "code": card_set.code,
        "name": card_set.name,
        "official": card_set.official,
        "released": card_set.released.isoformat() if card_set.released else None,
    }
    if card_set.size is not None:  # sets without a declared size export as they always did
        info["size"] = card_set.size
    return {
        "set": info,
        "cards": [_with_provenance(c.as_data(), provenance.get(c.id)) for c in cards],
    }


def _with_provenance(data: dict[str, Any], provenance: dict[str, Any] | None) -> dict[str, Any]:
    # Only cards with some provenance carry the key: other files stay as they were.
    return {**data, PROVENANCE_KEY: provenance} if provenance else data
