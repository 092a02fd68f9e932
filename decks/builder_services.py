"""The builder's writes: an edit saved only if the page that asked for it showed the
deck's current version (:func:`deck_edit`), the sitting's Save, a new empty deck and the
import. The views turn a request into a :class:`decks.deck_edits.Change`, call
:func:`deck_edit` and render the result."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction

from decks.deck_edits import Change, EditRefused
from decks.deck_input import (
    NEW_DECK_NAME,
    DeckInputError,
    deck_from_text_with_notes,
    deck_to_save,
)
from decks.diff import CountChange, DeckDiff
from decks.formats.text import LineNote
from decks.forms import DeckImportForm
from decks.import_lines import LineErrorView, line_error_view
from decks.models import Deck, DeckVersion
from decks.services import deck_data, deck_save, deck_version_save, version_summary
from decks.validation import catalogue_facts
from decks.version_check import version_problem
from rules.decklist import Decklist


@dataclass(frozen=True)
class EditResult:
    """What became of an edit: the deck as it now is (saved or not), the HTTP status the page
    answers with and a sentence for the user."""

    deck: Deck
    status: int
    message: str

    @property
    def saved(self) -> bool:
        return self.status == 200


def deck_edit(*, deck: Deck, user: Any, change: Change, version: object,
              if_match: str | None = None, session: bool = False) -> EditResult:
    """Apply ``change`` to the deck if ``version`` is its current version, saved by ``user``
    (in the open version of the sitting, with ``session``: services.deck_save). A stale or
    refused edit saves nothing and returns the current deck."""
    facts = catalogue_facts()
    with transaction.atomic():
        current = Deck.objects.select_for_update().select_related("owner").get(pk=deck.pk)
        problem = version_problem(current, version, if_match)
        if problem is not None:
            return EditResult(current, *problem)
        before = deck_data(current)
        try:
            edited, message = change.apply(before, facts)
        except EditRefused as refused:
            return EditResult(current, 422, f"{refused} Nothing was changed.")
        visibility = getattr(change, "visibility", current.visibility)
        if edited == before and visibility == current.visibility:
            return EditResult(current, 200, "Nothing to change.")
        old_visibility = current.visibility
        current.visibility = visibility
        saved = deck_save(owner=current.owner, data=edited, deck=current, author=user,
                          session=session)
        if visibility != old_visibility:
            _note_visibility(saved, old_visibility, visibility)
    return EditResult(saved, 200, message)


def _note_visibility(deck: Deck, before: str, after: str) -> None:
    """Visibility is not part of a deck's content (its snapshot), but history should still
    say when it changed."""
    version = DeckVersion.objects.get(deck=deck, number=deck.version)
    fields = version.diff.setdefault("fields", {})
    first = fields.get("visibility", [before])[0]  # a sitting may change it more than once
    if first == after:
        del fields["visibility"]
    else:
        fields["visibility"] = [first, after]
    cards = summary_of_cards(version.diff)
    version.summary = version_summary(version.diff, cards)
    version.save(update_fields=["diff", "summary"])


def summary_of_cards(diff: dict[str, Any]) -> str:
    """The summary deck_diff gives for a version's stored changes (visibility aside)."""
    fields = {k: tuple(v) for k, v in diff.get("fields", {}).items() if k != "visibility"}
    cards = tuple(CountChange(c["section"], c["card"], c["before"], c["after"])
                  for c in diff.get("cards", []))
    return DeckDiff(fields, cards).summary()


def deck_create_empty(owner: Any) -> Deck:
    """A new deck, its first version open: building it in one sitting makes one version."""
    return deck_save(owner=owner, data=Decklist(name=NEW_DECK_NAME), author=owner, session=True)


def deck_session_save(*, deck: Deck, user: Any, note: str, version: object) -> EditResult:
    """The builder's Save: the sitting's open version becomes a version of the history, with
    the note; the next edit starts a new one. The same version check as an edit."""
    with transaction.atomic():
        current = Deck.objects.select_for_update().select_related("owner").get(pk=deck.pk)
        problem = version_problem(current, version, None)
        if problem is not None:
            return EditResult(current, *problem)
        saved = deck_version_save(deck=current, note=note.strip())
    if saved is None:
        return EditResult(current, 200, f"Nothing new to save: version {current.version} is "
                          "in the history.")
    said = f" with the note “{saved.note}”" if saved.note else ""
    return EditResult(current, 200, f"Saved as version {saved.number}{said}. The next change "
                      "starts a new version.")


@dataclass(frozen=True)
class ImportResult:
    deck: Deck | None = None
    text: str = ""
    lines: tuple[LineErrorView, ...] = ()
    detail: str = ""
    errors: tuple[dict[str, Any], ...] = ()  # problems not tied to a line (JSON, ids)
    cards: int = 0  # cards read, when the list reads cleanly
    notes: tuple[LineNote, ...] = ()  # lines read as a card whose name they do not quite say

    @property
    def failed(self) -> bool:
        return bool(self.lines or self.detail or self.errors)

    @property
    def suggested(self) -> int:
        """Lines in error with a suggestion (Apply all takes each one's first)."""
        return sum(1 for line in self.lines if line.replacements)


def deck_import(*, owner: Any, form: DeckImportForm, save: bool = True) -> ImportResult:
    """Create a deck from a valid import form (or, with ``save=False``, only check that the
    list reads); on any problem report them all and save nothing."""
    text: str = form.cleaned_data["decklist"]
    try:
        data, notes = deck_from_text_with_notes(text)
    except DeckInputError as error:
        return ImportResult(
            text=text, lines=tuple(line_error_view(e) for e in error.lines), detail=error.detail,
            errors=tuple(e for e in error.errors() if "line" not in e),
        )
    if not save:
        return ImportResult(text=text, cards=sum(e.count for _, e in data.all_entries()),
                            notes=notes)
    overrides: dict[str, Any] = {}
    if form.cleaned_data.get("name"):
        overrides["name"] = form.cleaned_data["name"]
    if form.cleaned_data.get("players"):
        overrides["players"] = form.cleaned_data["players"]
    try:
        data = deck_to_save(replace(data, **overrides) if overrides else data)
    except DeckInputError as error:
        return ImportResult(text=text, detail=error.detail)
    deck = deck_save(owner=owner, data=data, visibility=form.cleaned_data["visibility"],
                     author=owner)
    return ImportResult(deck=deck, text=text, notes=notes)
