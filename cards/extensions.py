"""The catalogue's extension points: what feature apps add to the card pages, the card API and
the search without the catalogue importing them (the arrows point one way:
docs/architecture.md). Each app registers in its ``AppConfig.ready()``; the collection adds its
search keys, its owned-copies control beside every card, and its facets; the card edits add the
cards most needed to the home page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from cards.models import Card
from cards.search import compile as search_compile
from cards.search import fields as search_fields


@dataclass(frozen=True)
class PersonalKeys:
    """Search keys that read the searcher's own rows (a help section of their own)."""

    section: str
    intro: str
    fields: tuple[search_fields.Field, ...]
    rows: search_compile.PersonalRows  # owner id -> their rows, with a ``card`` foreign key
    tag: Callable[[Any], str]  # changes whenever a user's rows do: the ETags of answers
    facets: tuple[tuple[str, str], ...] = ()  # (label, query term) links for the card list


@dataclass(frozen=True)
class CardControl:
    """A control shown to signed-in visitors beside every card (lists, tables, card page)."""

    heading: str  # the table column's heading
    tile: str  # template beside a card in the lists: reads ``card``
    detail: str  # template on the card page: reads ``card``
    annotate: Callable[[QuerySet[Card], Any], QuerySet[Card]]  # adds what the templates read


@dataclass(frozen=True)
class HomeSection:
    """A section of the home page below the sets: a template and what it reads (None: the
    section is left out)."""

    template: str
    context: Callable[[Any], dict[str, Any] | None]  # the request -> the template's context


@dataclass(frozen=True)
class CardSection:
    """A section of a card's page, after its abilities: a template and what it reads (None:
    the section is left out)."""

    template: str
    context: Callable[[Any, Card], dict[str, Any] | None]  # (request, card) -> context


_personal: list[PersonalKeys] = []
_card_sections: list[CardSection] = []
_home: list[HomeSection] = []
_controls: list[CardControl] = []
_redirects: list[Callable[[str], str | None]] = []
_home_providers: list[Callable[[Any], dict[str, Any]]] = []


def register_home_context(provider: Callable[[Any], dict[str, Any]]) -> None:
    """``provider(request)``: what the home page shows of a feature app (the decks add the
    visitor's latest decks and a sample deck to try the draws, goldfish and playtest on)."""
    if provider not in _home_providers:
        _home_providers.append(provider)


def home_context(request: Any) -> dict[str, Any]:
    """What the providers add to the home page's context (above the sets)."""
    context: dict[str, Any] = {}
    for provider in _home_providers:
        context.update(provider(request))
    return context


def register_personal_keys(keys: PersonalKeys) -> None:
    if keys in _personal:  # ready() may run twice in one process
        return
    search_fields.register_section(keys.section, keys.intro, keys.fields)
    search_compile.register_personal_rows(tuple(f.name for f in keys.fields), keys.rows)
    _personal.append(keys)


def register_card_control(control: CardControl) -> None:
    if control not in _controls:
        _controls.append(control)


def register_search_redirect(redirect: Callable[[str], str | None]) -> None:
    """``redirect(text)``: where a search box's text leads instead of a search (a deck code
    opens its deck), or None."""
    if redirect not in _redirects:
        _redirects.append(redirect)


def register_home_section(section: HomeSection) -> None:
    if section not in _home:
        _home.append(section)


def home_sections(request: Any) -> list[tuple[str, dict[str, Any]]]:
    """The home page's added sections as (template, context), in registration order."""
    found = []
    for section in _home:
        context = section.context(request)
        if context is not None:
            found.append((section.template, context))
    return found


def register_card_section(section: CardSection) -> None:
    if section not in _card_sections:
        _card_sections.append(section)


def card_sections(request: Any, card: Card) -> list[tuple[str, dict[str, Any]]]:
    """A card page's added sections as (template, context), in registration order."""
    found = []
    for section in _card_sections:
        context = section.context(request, card)
        if context is not None:
            found.append((section.template, context))
    return found


def personal_tag(user: Any) -> str:
    """What every personal answer to ``user`` depends on (their rows' versions)."""
    return "|".join(keys.tag(user) for keys in _personal)


def personal_facets() -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    return [(keys.section, keys.facets) for keys in _personal if keys.facets]


def card_controls(user: Any) -> list[CardControl]:
    return list(_controls) if user.is_authenticated else []


def with_controls(cards: QuerySet[Card], user: Any) -> QuerySet[Card]:
    for control in card_controls(user):
        cards = control.annotate(cards, user)
    return cards


def search_redirect(text: str) -> str | None:
    for redirect in _redirects:
        target = redirect(text)
        if target is not None:
            return target
    return None
