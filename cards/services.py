"""Writes to the catalogue: imports, exports, keyword parsing, images and edit history.

Views, admin and management commands call these functions; they hold no logic of their own.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import F

from cards.card_data import CardDataError, CardFile, Problem, SetInfo, parse_card_document
from cards.image_services import Scan, cards_ensure_images
from cards.images import scan
from cards.models import Card, CardKeyword, CardRevision, CardSet
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

    def summary(self) -> str:
        return (
            f"{self.source}: {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged, {self.images} image(s) made"
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
    existing = Card.objects.select_related("set").in_bulk([c["id"] for c in card_file.cards])
    total = len(card_file.cards)
    cards: list[Card] = []
    for n, data in enumerate(card_file.cards, start=1):
        card = existing.get(data["id"])
        old = card.as_data() if card else None
        if card is None:
            card = Card(id=data["id"])
        _assign(card, data, sets[data["set"]])
        new = card.as_data()
        if old == new:
            report.unchanged += 1
        else:
            card.save()
            card_sync_keywords(card)
            CardRevision.objects.create(
                card=card, user=user, source=f"import {card_file.source}",
                changes=_diff(old or {}, new),
            )
            if old is None:
                report.created += 1
            else:
                report.updated += 1
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
    card_set, _ = CardSet.objects.update_or_create(
        code=info.code,
        defaults={"name": info.name, "official": info.official, "released": info.released},
    )
    return card_set


def _assign(card: Card, data: dict[str, Any], card_set: CardSet) -> None:
    for key, value in data.items():
        if key == "set":
            card.set = card_set
        elif key != "id":
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
    card_sync_keywords(card)
    cards_ensure_images([card])


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
    return {
        "set": {
            "code": card_set.code,
            "name": card_set.name,
            "official": card_set.official,
            "released": card_set.released.isoformat() if card_set.released else None,
        },
        "cards": [c.as_data() for c in cards],
    }
