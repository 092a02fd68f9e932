"""Pickers for the compare pages: a deck, or one version of it, chosen from a list rather than
typed as ``12:3``. The value of each choice is still that token (``12`` the deck as it is now,
``12:3`` its version 3), so the pages' addresses (``?a=12:3&b=12``) are unchanged."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format

from decks.models import Deck, DeckVersion

VERSIONS_LISTED = 15  # the latest versions of each of my decks; older ones stay reachable by URL


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True)
class ChoiceGroup:
    label: str
    choices: list[Choice]


def _when(moment: Any) -> str:
    return date_format(timezone.localtime(moment), "j M Y, H:i")


def deck_choices(user: Any, selected: Iterable[str] = ()) -> list[ChoiceGroup]:
    """My decks, each now and at its latest versions, then the public decks of others; a
    ``selected`` token that is in neither (an unlisted deck, an old version) is kept, first."""
    groups: list[ChoiceGroup] = []
    mine: list[Deck] = []
    if user.is_authenticated:
        mine = list(Deck.objects.filter(owner=user).order_by("name", "id"))
        versions: dict[int, list[tuple[int, Any, str]]] = defaultdict(list)
        rows = (DeckVersion.objects.filter(deck__owner=user)
                .order_by("deck_id", "-number").values_list("deck_id", "number", "created_at",
                                                            "summary"))
        for deck_id, number, created, summary in rows:
            if len(versions[deck_id]) < VERSIONS_LISTED:
                versions[deck_id].append((number, created, summary))
        for deck in mine:
            choices = [Choice(str(deck.pk), f"{deck.name}: now (version {deck.version})")]
            for number, created, summary in versions[deck.pk]:
                if number == deck.version:
                    continue
                note = f" · {summary[:50]}" if summary else ""
                choices.append(Choice(f"{deck.pk}:{number}",
                                      f"{deck.name}: version {number}, {_when(created)}{note}"))
            groups.append(ChoiceGroup(f"My deck “{deck.name}”", choices))
    others = Deck.objects.filter(visibility=Deck.PUBLIC).select_related("owner")
    if user.is_authenticated:
        others = others.exclude(owner=user)
    public = [Choice(str(d.pk), f"{d.name} (by {d.owner.username})")
              for d in others.order_by("name", "id")]
    if public:
        groups.append(ChoiceGroup("Public decks", public))
    known = {choice.value for group in groups for choice in group.choices}
    extra = [Choice(token, _token_label(token)) for token in selected
             if token and token not in known]
    if extra:
        groups.insert(0, ChoiceGroup("Chosen", extra))
    return groups


def _token_label(token: str) -> str:
    deck, _, version = token.partition(":")
    found = Deck.objects.filter(pk=int(deck)).values_list("name", flat=True).first() \
        if deck.isdigit() else None
    name = f"“{found}”" if found else f"Deck {deck}"
    return f"{name}, version {version}" if version else name

