"""What feature apps add to the deck pages without decks importing them (the arrows point one
way, docs/architecture.md): the collection's ownership panel, goldfish's headline, the filters
of the public deck list. Each app registers its providers in its ``AppConfig.ready()``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from django.db.models import QuerySet
from django.http import HttpRequest

from decks.models import Deck
from rules.decklist import Decklist

type Page = Literal["detail", "builder"]


@dataclass(frozen=True)
class Panel:
    """A template included on a deck page, in registration order, with what it reads added to
    the page's context."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)


type PanelProvider = Callable[[HttpRequest, Deck, Decklist], Panel | None]
# The public decks as shown to a signed-in visitor: the rows (deck, anything a panel shows
# beside it) and more context, e.g. a filter form.
type ListProvider = Callable[[HttpRequest, QuerySet[Deck]], dict[str, Any]]

_panels: dict[str, list[PanelProvider]] = {"detail": [], "builder": []}
_lists: list[ListProvider] = []


def add_panel(page: Page, provider: PanelProvider) -> None:
    if provider not in _panels[page]:  # ready() may run twice in a test process
        _panels[page].append(provider)


def add_list_provider(provider: ListProvider) -> None:
    if provider not in _lists:
        _lists.append(provider)


def panels_context(page: Page, request: HttpRequest, deck: Deck,
                   data: Decklist) -> dict[str, Any]:
    """The context the page's panels add: their templates as ``panels`` and what they read."""
    context: dict[str, Any] = {}
    templates: list[str] = []
    for provider in _panels[page]:
        panel = provider(request, deck, data)
        if panel is not None:
            templates.append(panel.template)
            context.update(panel.context)
    return {**context, "panels": templates}


def public_context(request: HttpRequest, public: QuerySet[Deck]) -> dict[str, Any]:
    """The public decks as rows ``(deck, extra)``; a provider may replace them (and add)."""
    context: dict[str, Any] = {"public": [(deck, None) for deck in public]}
    for provider in _lists:
        context.update(provider(request, public))
    return context
