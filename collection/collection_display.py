"""What the collection pages show and read: the table of cards, totals per set, the bulk edit
form and the CSV import form. The views (collection.views) only route requests here and
to the services."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.db.models import Count, F, QuerySet

from cards.models import CardSet
from collection.csv_format import (
    MAX_COPIES,
    MAX_FILE_BYTES,
    MAX_FILE_LINES,
    CollectionCsvError,
    Counts,
    CsvLineError,
    parse_collection_csv,
    render_collection_csv,
)
from collection.models import Collection, CollectionEntry
from decks.deck_input import DeckInputError, read_upload
from decks.formats.card_refs import CardRef
from decks.services import catalogue_cards

# Cards of the collection in catalogue order: real sets first, then by collector number.
CARD_ORDER: Final = ("-card__set__official", "card__set__code",
                     F("card__number").asc(nulls_last=True), "card__name", "card_id")
# The set helpers: what can be added without knowing what a starter or booster holds.
SET_HELPERS: Final = {1: "one copy of each card", 2: "a playset (2 of each card)"}


@dataclass(frozen=True)
class SetTotal:
    set: CardSet
    cards: int  # cards of the set in the catalogue
    owned: int  # of those, cards with at least one owned copy
    copies: int  # owned copies of the set's cards
    playsets: int  # cards with at least two owned copies (a deck's limit)

    @property
    def complete(self) -> bool:
        return self.cards > 0 and self.owned == self.cards


@dataclass(frozen=True)
class CollectionView:
    collection: Collection
    entries: tuple[CollectionEntry, ...]  # with card and set
    sets: tuple[SetTotal, ...]

    @property
    def cards(self) -> int:
        return sum(1 for e in self.entries if e.owned)

    @property
    def copies(self) -> int:
        return sum(e.owned for e in self.entries)

    @property
    def wanted(self) -> int:
        return sum(e.want for e in self.entries)

    @property
    def for_trade(self) -> int:
        return sum(e.trade for e in self.entries)


def collection_entries(collection: Collection) -> QuerySet[CollectionEntry]:
    return collection.entries.select_related("card__set").order_by(*CARD_ORDER)


def collection_view(collection: Collection) -> CollectionView:
    owned: dict[int, list[int]] = {}  # set id -> owned copies of each of its cards owned
    for set_id, count in collection.entries.filter(owned__gt=0).values_list("card__set_id",
                                                                            "owned"):
        owned.setdefault(set_id, []).append(count)
    totals = []
    for card_set in CardSet.objects.annotate(card_count=Count("cards")).order_by("-official",
                                                                                "code"):
        copies = owned.get(card_set.pk, [])
        totals.append(SetTotal(card_set, card_set.card_count,
                               len(copies), sum(copies), sum(1 for n in copies if n >= 2)))
    return CollectionView(collection, tuple(collection_entries(collection)), tuple(totals))


def collection_csv(collection: Collection) -> str:
    return render_collection_csv(
        (CardRef(e.card_id, e.card.name, e.card.type, e.card.faction),
         Counts(e.owned, e.want, e.trade))
        for e in collection_entries(collection)
    )


# --- the bulk edit form -----------------------------------------------------------------------

COUNT_FIELDS: Final = ("owned", "want", "trade")


def parse_bulk(data: Mapping[str, Any], known: Mapping[str, Any]) -> tuple[dict[str, Counts],
                                                                           list[str]]:
    """The counts a bulk edit sets, from fields ``owned-<card id>``, ``want-<card id>`` and
    ``trade-<card id>`` (a card needs all three); and the problems, each in a sentence.
    ``known``: the catalogue's cards by id."""
    cells: dict[str, dict[str, str]] = {}
    for key in data:
        field, _, card_id = str(key).partition("-")
        if field in COUNT_FIELDS and card_id:
            cells.setdefault(card_id, {})[field] = str(data.get(key, "")).strip()
    counts: dict[str, Counts] = {}
    problems: list[str] = []
    for card_id, values in cells.items():
        if card_id not in known:
            problems.append(f"There is no card with the id {card_id!r}.")
            continue
        parsed: dict[str, int] = {}
        for field in COUNT_FIELDS:
            value = values.get(field, "") or "0"
            if value.isascii() and value.isdigit() and int(value) <= MAX_COPIES:
                parsed[field] = int(value)
            else:
                problems.append(f"{known[card_id].name}: {field} must be a whole number from 0 "
                                f"to {MAX_COPIES:,}, not {value!r}.")
        if len(parsed) == len(COUNT_FIELDS):
            counts[card_id] = Counts(**parsed)
    return counts, problems


# --- the CSV import form ----------------------------------------------------------------------


class CollectionImportForm(forms.Form):
    SET, REPLACE = "set", "replace"
    MODES: Final = [
        (SET, "Set the counts of the cards in the file; keep the other cards"),
        (REPLACE, "Replace my whole collection with the file"),
    ]

    text = forms.CharField(
        required=False, strip=False, label="CSV",
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
    )
    file = forms.FileField(required=False, label="…or a file",
                           help_text="A CSV file, UTF-8, at most 1 MB.")
    mode = forms.ChoiceField(choices=MODES, initial=SET, widget=forms.RadioSelect)

    def clean_file(self) -> str | None:
        upload: UploadedFile | None = self.cleaned_data.get("file")
        if upload is None:
            return None
        try:  # the decklist import's checks: size, binary, UTF-8, line count
            return read_upload(upload, what="collection file", expected="a CSV file",
                               max_bytes=MAX_FILE_BYTES, max_lines=MAX_FILE_LINES)
        except DeckInputError as error:
            raise forms.ValidationError(error.detail[:1].upper() + error.detail[1:]) from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "file" in self.errors:
            return cleaned
        text = cleaned.get("file") or cleaned.get("text") or ""
        if not text.strip():
            raise forms.ValidationError("Paste a CSV or choose a file.")
        if len(text.encode("utf-8")) > MAX_FILE_BYTES:
            raise forms.ValidationError("A collection file may be at most 1 MB.")
        cleaned["csv"] = text
        return cleaned


def read_collection_csv(text: str) -> tuple[dict[str, Counts], tuple[CsvLineError, ...]]:
    """The counts of a collection CSV against the catalogue, or every error (and no counts)."""
    try:
        return parse_collection_csv(text, catalogue_cards()), ()
    except CollectionCsvError as error:
        return {}, error.errors
