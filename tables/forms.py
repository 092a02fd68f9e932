"""The forms of the table pages: a new table, joining one, and a move."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict

from rules.game.config import TARGETS
from tables.services import MAX_SEATS, MIN_SEATS

TARGET_CHOICES = [(t, f"{t} influence") for t in sorted(TARGETS, reverse=True)]
SEAT_CHOICES = [(n, f"{n} seats") for n in range(MIN_SEATS, MAX_SEATS + 1)]


class DeckForm(forms.Form):
    """A saved deck (``deck``, its id, picked from a list) or a pasted decklist (``text``)."""

    deck = forms.TypedChoiceField(coerce=int, required=False, empty_value=None,
                                  label="Your deck")
    text = forms.CharField(required=False, max_length=200_000, label="…or paste a decklist",
                           widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}))

    def __init__(self, *args: Any, decks: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["deck"].choices = [("", "—"), *decks]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("deck") is None and not (data.get("text") or "").strip():
            raise forms.ValidationError("Pick one of your decks or paste a decklist.")
        return data


class NewTableForm(DeckForm):
    """A new table: the host's deck, the seats, each other seat open or an AI deck."""

    seats = forms.TypedChoiceField(choices=SEAT_CHOICES, coerce=int, initial=2)
    target = forms.TypedChoiceField(choices=TARGET_CHOICES, coerce=int, initial=25,
                                    label="Victory at")
    public = forms.BooleanField(required=False, label="List it in the lobby of open tables")
    spectators = forms.BooleanField(required=False, initial=True,
                                    label="Anyone with the link may watch")
    card_trades = forms.BooleanField(
        required=False, label="Card trades allowed (agreed by all before the game)",
        help_text="The rulebook allows trading cards only when all agreed before the game; "
                  "tokens may always be traded.")
    clock_minutes = forms.IntegerField(
        required=False, min_value=1, max_value=24 * 60, label="Clock: minutes per seat",
        help_text="Empty: no clock. At zero the AI plays that decision for the seat.")
    clock_increment = forms.IntegerField(required=False, min_value=0, max_value=3600,
                                         initial=10, label="seconds added per decision")

    def __init__(self, *args: Any, decks: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, decks=decks, **kwargs)
        for seat in range(1, MAX_SEATS):
            self.fields[f"ai_{seat}"] = forms.TypedChoiceField(
                coerce=int, required=False, empty_value=None, label=f"Seat {seat + 1}",
                choices=[("", "open: a friend takes it"), *decks])

    def clock(self) -> dict[str, int] | None:
        """The clock asked for, in seconds, or None."""
        minutes = self.cleaned_data.get("clock_minutes")
        if not minutes:
            return None
        return {"bank": minutes * 60, "increment": self.cleaned_data.get("clock_increment") or 0}

    def ai_fields(self) -> list[forms.BoundField]:
        return [self[f"ai_{seat}"] for seat in range(1, MAX_SEATS)]

    def ai_seats(self) -> list[tuple[int, int]]:
        """(seat, deck id) of each AI seat within the table's size."""
        size = self.cleaned_data["seats"]
        return [(seat, deck) for seat in range(1, size)
                if (deck := self.cleaned_data.get(f"ai_{seat}")) is not None]


class MoveForm(forms.Form):
    index = forms.IntegerField(min_value=0)
    decision = forms.IntegerField(min_value=0)


class OfferForm(forms.Form):
    """A trade: the seat offered it, the tokens of each kind given and taken, and the cards
    in play given and taken."""

    to = forms.IntegerField(min_value=0, label="With")
    give_economic = forms.IntegerField(min_value=0, max_value=99, initial=0, label="economic")
    give_religious = forms.IntegerField(min_value=0, max_value=99, initial=0, label="religious")
    give_political = forms.IntegerField(min_value=0, max_value=99, initial=0, label="political")
    take_economic = forms.IntegerField(min_value=0, max_value=99, initial=0, label="economic")
    take_religious = forms.IntegerField(min_value=0, max_value=99, initial=0, label="religious")
    take_political = forms.IntegerField(min_value=0, max_value=99, initial=0, label="political")

    def cards(self, side: str) -> list[str]:
        """The cards in play ticked on ``side`` ("give" or "take"), by their ``ref``:
        checkboxes named ``give_cards``/``take_cards`` (only at a table that agreed to card
        trades; the service checks whose they are). A value too long to be a ref is a
        ValidationError."""
        data: QueryDict = self.data  # type: ignore[assignment]  # (bound to request.POST)
        refs = data.getlist(f"{side}_cards")
        if any(len(ref) > 16 for ref in refs):
            raise forms.ValidationError("A card is named by its ref in the table's view.")
        return list(refs)

    def tokens(self, side: str) -> dict[str, int]:
        return {kind: self.cleaned_data[f"{side}_{kind}"]
                for kind in ("economic", "religious", "political")}


class ChatForm(forms.Form):
    text = forms.CharField(max_length=500, label="Say to the table")
