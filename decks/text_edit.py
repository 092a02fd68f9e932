"""Editing a deck as text inside the builder (Moxfield's "edit as text"): the decklist of
docs/design.md §5 in a text box, read as the import reads it, with the same clear error per
line (and its "replace with" and "drop this line" buttons), and saved as one version of the
history with the version check of every builder edit.

The text is the whole deck: its cards, and the header's name, player count and description;
a text without a name line keeps the deck's name. Visibility and sleeving are not in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Q

from cards.models import Card
from decks.builder_services import EditResult, deck_edit
from decks.deck_input import DeckInputError, deck_from_text_with_notes, deck_to_save
from decks.formats.card_refs import CardRef
from decks.formats.text import LineNote, render_text
from decks.import_lines import LineErrorView, apply_suggestion, drop_line, line_error_view
from decks.models import Deck, DeckVersion
from decks.services import deck_data
from rules.cards import CardFacts
from rules.decklist import Decklist


@dataclass(frozen=True)
class ReplaceWithList:
    """The builder change that replaces the whole deck with the list read from the text."""

    data: Decklist

    def apply(self, deck: Decklist, facts: Mapping[str, CardFacts]) -> tuple[Decklist, str]:
        return self.data, "Saved the list as one version of the history"


@dataclass(frozen=True)
class TextEditView:
    """The text box as the builder shows it after a text edit that did not save: the text as
    it was sent (or rewritten by a suggestion), and what keeps it from reading."""

    text: str
    lines: tuple[LineErrorView, ...] = ()
    detail: str = ""  # a problem not tied to a line (too long, a bad JSON list, ...)
    cards: int = 0  # cards read, when every line reads
    notes: tuple[LineNote, ...] = ()

    @property
    def failed(self) -> bool:
        return bool(self.lines or self.detail)

    @property
    def suggested(self) -> int:
        return sum(1 for line in self.lines if line.replacements)


@dataclass(frozen=True)
class TextEditOutcome:
    result: EditResult  # the deck as it now is, the status and the sentence for the page
    view: TextEditView | None  # None once saved: the box shows the deck's text again


def deck_text(deck: Deck) -> str:
    """The deck in the canonical text format, as the text box starts (on every builder page,
    so the renderer gets only the cards it needs: the deck's, and every card sharing a name
    with one of them, in any case, which is what tells it to add a faction or an id)."""
    data = deck_data(deck)
    ids = {entry.card_id for _, entry in data.all_entries()}
    names = set(Card.objects.filter(id__in=ids).values_list("name", flat=True))
    same_name = Q(id__in=ids)
    for name in names:
        same_name |= Q(name__iexact=name)
    cards = Card.objects.filter(same_name).values_list("id", "name", "type", "faction")
    return render_text(data, {i: CardRef(id=i, name=n, type=t, faction=f)
                              for i, n, t, f in cards})


def deck_text_edit(*, deck: Deck, user: Any, data: Mapping[str, Any]) -> TextEditOutcome:
    """Read the posted ``text`` (after a ``replace`` or ``drop`` button's rewrite) and, when
    every line reads and no button asked only for a rewrite, save it as one version if
    ``version`` is still the deck's. Nothing is saved while any line is in error."""
    text = str(data.get("text", ""))
    rewrite = "replace" in data or "drop" in data
    if "replace" in data:
        text = apply_suggestion(text, str(data["replace"]))
    elif "drop" in data:
        text = drop_line(text, str(data["drop"]))
    if not text.strip():
        return _refused(deck, TextEditView(text, detail="The list is empty: a deck made "
                                           "empty is made so card by card, not by text."))
    try:
        read, notes = deck_from_text_with_notes(text)
        if not read.name.strip():
            read = replace(read, name=deck.name)
        read = deck_to_save(read)
    except DeckInputError as error:
        lines = tuple(line_error_view(e) for e in error.lines)
        detail = "" if lines else error.detail[:1].upper() + error.detail[1:]
        return _refused(deck, TextEditView(text, lines=lines, detail=detail))
    cards = sum(entry.count for _, entry in read.all_entries())
    if rewrite:
        return TextEditOutcome(
            EditResult(deck, 200, f"Every line reads now: {cards} card{'s' * (cards != 1)}. "
                       "Press “Save the list” to keep it."),
            TextEditView(text, cards=cards, notes=notes))
    result = deck_edit(deck=deck, user=user, change=ReplaceWithList(read),
                       version=data.get("version"))
    if result.status != 200:
        return TextEditOutcome(result, TextEditView(text, cards=cards, notes=notes))
    if result.message == "Nothing to change.":
        return TextEditOutcome(
            EditResult(result.deck, 200, "The list is the deck as it is: nothing to save."),
            None)
    summary = (DeckVersion.objects.filter(deck=result.deck, number=result.deck.version)
               .values_list("summary", flat=True).first())
    read_as = " ".join(f"Line {n.line}: {n.message}" for n in notes)
    return TextEditOutcome(EditResult(
        result.deck, 200,
        f"{result.message}, version {result.deck.version}"
        + (f" ({summary})" if summary else "") + "." + (f" {read_as}" if read_as else "")),
        None)


def _refused(deck: Deck, view: TextEditView) -> TextEditOutcome:
    count = len(view.lines)
    message = (f"{count} line{'s' * (count != 1)} of the list need{'s' * (count == 1)} "
               "fixing; nothing was saved." if count else f"{view.detail} Nothing was saved.")
    return TextEditOutcome(EditResult(deck, 400, message), view)
