"""The deck pages' forms: the builder's settings and edit buttons (read into a
:class:`decks.deck_edits.Change`, or :class:`BadEdit`), and the import form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from django import forms
from django.core.files.uploadedfile import UploadedFile

from decks.deck_edits import (
    AddCard,
    Change,
    ChangeCount,
    EditSettings,
    FixProblem,
    MoveCard,
    RemoveCard,
    UseAdvisedHoldings,
    own_pile,
)
from decks.deck_input import (
    MAX_DECKLIST_BYTES,
    DeckInputError,
    check_decklist_size,
    read_upload,
)
from decks.models import Deck
from decks.validation import catalogue_facts
from rules.decklist import MAX_PLAYERS, MIN_PLAYERS, SECTIONS, SectionName


class BadEdit(Exception):
    """A request that does not describe an edit (a bad card, part or field)."""

    def __init__(self, message: str, settings_form: DeckSettingsForm | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.settings_form = settings_form


class DeckSettingsForm(forms.Form):
    name = forms.CharField(max_length=200, strip=True)
    players = forms.TypedChoiceField(
        coerce=int, choices=[(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    )
    visibility = forms.ChoiceField(choices=Deck.VISIBILITY_CHOICES)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def clean_name(self) -> str:
        name: str = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("A deck needs a name.")
        return name


def settings_form(deck: Deck) -> DeckSettingsForm:
    return DeckSettingsForm(initial={
        "name": deck.name, "players": deck.players, "visibility": deck.visibility,
        "description": deck.description,
    }, auto_id="settings-%s")


EDIT_ACTIONS: Final = ("add", "count", "move", "remove", "fix", "holdings", "settings")


def parse_change(action: str, data: Mapping[str, Any]) -> Change:
    """The change a builder form asks for; raises BadEdit for anything malformed."""
    facts = catalogue_facts()
    if action == "settings":
        form = DeckSettingsForm(data, auto_id="settings-%s")
        if not form.is_valid():
            raise BadEdit("The settings were not saved: " + _form_errors(form), form)
        return EditSettings(**form.cleaned_data)
    if action == "holdings":
        return UseAdvisedHoldings()
    if action == "fix":
        key = str(data.get("problem", ""))
        if not key:
            raise BadEdit("Say which problem to fix.")
        item = data.get("item")
        return FixProblem(key, None if item in (None, "") else _number(item, "item"))
    card = str(data.get("card", ""))
    if card not in facts:
        raise BadEdit(f"There is no card with the id {card!r}.")
    if action == "add":
        section = _section(data.get("section") or own_pile(facts[card]))
        return AddCard(card, section)
    section = _section(data.get("section"))
    if action == "count":
        delta = _number(data.get("delta"), "delta")
        if delta not in (-1, 1):
            raise BadEdit("A count changes by one copy at a time.")
        return ChangeCount(card, section, delta)
    if action == "move":
        count = _number(data.get("count", 1), "count")
        if count < 1:
            raise BadEdit("Move at least one copy.")
        return MoveCard(card, section, _section(data.get("to")), count)
    if action == "remove":
        return RemoveCard(card, section)
    raise BadEdit(f"Unknown edit {action!r}.")


def _section(value: object) -> SectionName:
    for section in SECTIONS:
        if value == section:
            return section
    raise BadEdit(f"Unknown part of a deck {value!r}; expected one of {', '.join(SECTIONS)}.")


def _number(value: object, name: str) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise BadEdit(f"{name} must be a whole number.") from None


def _form_errors(form: forms.Form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


class DeckImportForm(forms.Form):
    text = forms.CharField(
        required=False, strip=False, label="Decklist",
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false"}),
    )
    file = forms.FileField(required=False, label="…or a file",
                           help_text="A decklist file (text, JSON or CSV), UTF-8, at most "
                           f"{MAX_DECKLIST_BYTES // 1024} kB.")
    name = forms.CharField(required=False, max_length=200,
                           help_text="Leave empty to use the name in the list (a deck code "
                           "carries none: its name travels beside it, so give it here).")
    players = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None,
        help_text="The list's “# players:” line, or 4.",
        choices=[("", "From the list")]
        + [(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
    )
    visibility = forms.ChoiceField(choices=Deck.VISIBILITY_CHOICES, initial=Deck.PRIVATE)

    def clean_file(self) -> str | None:
        upload: UploadedFile | None = self.cleaned_data.get("file")
        if upload is None:
            return None
        try:  # the same checks as the API: size, binary, UTF-8, line count
            return read_upload(upload)
        except DeckInputError as error:
            raise forms.ValidationError(error.detail[:1].upper() + error.detail[1:]) from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        text = cleaned.get("file") or cleaned.get("text") or ""
        if "file" in self.errors:
            return cleaned
        if not text.strip():
            raise forms.ValidationError("Paste a decklist or choose a file.")
        try:  # before the list is read: its bytes and lines
            check_decklist_size(text)
        except DeckInputError as error:
            raise forms.ValidationError(error.detail[:1].upper() + error.detail[1:]) from None
        cleaned["decklist"] = text
        return cleaned
