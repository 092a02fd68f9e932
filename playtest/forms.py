"""The forms of the playtest pages: start a game, and the small forms every move posts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms

from playtest.play import UNTIL
from playtest.table_play import MAX_OPPONENTS
from rules.game.config import TARGETS
from sitewide.seeds import MAX_SEED

TARGET_CHOICES = [(t, f"{t} influence") for t in sorted(TARGETS, reverse=True)]


class StartForm(forms.Form):
    """A saved deck (``deck``, its id) or a pasted decklist (``text``), a seed, a target; and
    the AI opponents, if any: saved decks (``opponent``, repeated, each an id or empty) and
    pasted decklists (``opponent_text``, repeated), 5 at most."""

    deck = forms.IntegerField(required=False, widget=forms.HiddenInput)
    text = forms.CharField(required=False, max_length=200_000, label="Decklist",
                           widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}))
    seed = forms.IntegerField(required=False, min_value=0, max_value=MAX_SEED,
                              help_text="Empty: a random seed. The same seed deals the same game.")
    target = forms.TypedChoiceField(choices=TARGET_CHOICES, coerce=int, initial=25,
                                    required=False, label="Victory at")
    opponent_text = forms.CharField(
        required=False, max_length=200_000, label="An opponent's decklist",
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}))

    def clean_target(self) -> int:
        return int(self.cleaned_data.get("target") or 25)  # the deck page's button sends none

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("deck") is None and not (data.get("text") or "").strip():
            raise forms.ValidationError("Paste a decklist (or start from a deck's page).")
        many: Callable[[str], list[str]] = getattr(self.data, "getlist", lambda name: [])
        try:
            data["opponent_ids"] = [int(v) for v in many("opponent") if str(v).strip()]
        except ValueError:
            raise forms.ValidationError("Choose the opponents among the decks offered.") \
                from None
        data["opponent_texts"] = [t for t in many("opponent_text") if t.strip()]
        if len(data["opponent_ids"]) + len(data["opponent_texts"]) > MAX_OPPONENTS:
            raise forms.ValidationError(f"A table seats {MAX_OPPONENTS} opponents at most.")
        return data


class MoveForm(forms.Form):
    """One action by its index among the legal actions, at the decision it was chosen at."""

    index = forms.IntegerField(min_value=0)
    decision = forms.IntegerField(min_value=0)


class UndoForm(forms.Form):
    decision = forms.IntegerField(min_value=0)


class AutoForm(forms.Form):
    until = forms.ChoiceField(choices=[(u, u) for u in UNTIL])
    decision = forms.IntegerField(min_value=0, required=False)
