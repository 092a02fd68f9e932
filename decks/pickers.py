"""Pickers for the compare pages: a deck, or one version of it, chosen from a list rather than
typed as ``12:3``. The value of each choice is still that token (``12`` the deck as it is now,
``12:3`` its version 3), so the pages' addresses (``?a=12:3&b=12``) are unchanged."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
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


def deck_choices(user: Any, selected: Iterable[str] = (),
                 visible: QuerySet[Deck] | None = None) -> list[ChoiceGroup]:
    """My decks, each now and at its latest versions, then the public decks of others; a
    ``selected`` token that is in neither (an unlisted deck, an old version) is kept, first,
    named only if it is one of the ``visible`` decks (the visitor's:
    decks.views.decks.visible_decks; by default Deck.visible_to(user)). Any other is "Deck N",
    whether it is private or does not exist, so the picker tells nothing that the deck's page
    would not."""
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
    extra_tokens = [token for token in selected if token and token not in known]
    names = _visible_names(Deck.visible_to(user) if visible is None else visible, extra_tokens)
    extra = [Choice(token, _token_label(token, names)) for token in extra_tokens]
    if extra:
        groups.insert(0, ChoiceGroup("Chosen", extra))
    return groups


def _visible_names(visible: QuerySet[Deck], tokens: Iterable[str]) -> dict[str, str]:
    """The names of the decks the tokens name, by number, among those the visitor may see."""
    numbers = {int(deck) for deck, _, _ in (t.partition(":") for t in tokens)
               if deck.isdigit() and len(deck) < 10}
    if not numbers:
        return {}
    return {str(pk): name for pk, name in visible.filter(pk__in=numbers).values_list("pk", "name")}


def _token_label(token: str, names: dict[str, str]) -> str:
    deck, _, version = token.partition(":")
    found = names.get(deck.lstrip("0") or "0") if deck.isdigit() else None
    name = f"“{found}”" if found else f"Deck {deck}"
    return f"{name}, version {version}" if version else name

