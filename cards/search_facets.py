"""The search page's sidebar: facets that write query terms, so people learn the syntax."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from rules import card_anatomy

VIEWS = {"grid": "Images", "list": "Compact list", "text": "Text only"}


@dataclass(frozen=True)
class FacetLink:
    label: str
    term: str
    active: bool
    href: str


@dataclass(frozen=True)
class Facet:
    title: str
    links: list[FacetLink]


def _toggle(query: str, term: str) -> tuple[bool, str]:
    """(is the term in the query, the query with the term removed or appended)."""
    words = query.split()
    if term in words:
        return True, " ".join(w for w in words if w != term)
    return False, " ".join([*words, term])


def _link(query: str, view: str, label: str, term: str) -> FacetLink:
    active, toggled = _toggle(query, term)
    params = {"q": toggled}
    if view != "grid":
        params["view"] = view
    return FacetLink(label=label, term=term, active=active, href="?" + urlencode(params))


def facets(query: str, view: str, set_codes: list[tuple[str, str]],
           personal: Sequence[tuple[str, Sequence[tuple[str, str]]]] = ()) -> list[Facet]:
    """The sidebar's links; ``personal``: sections of keys that need an account (the
    collection's), offered to signed-in visitors only, first."""
    def links(pairs: Sequence[tuple[str, str]]) -> list[FacetLink]:
        return [_link(query, view, label, term) for label, term in pairs]

    mine = [Facet(f"My {section.lower()}", links(pairs)) for section, pairs in personal]
    return [*mine,
        Facet("Set", links([(name, f"set:{code.lower()}") for code, name in set_codes])),
        Facet("Type", links([(t.title(), f"t:{t}") for t in card_anatomy.CARD_TYPES])),
        Facet("Personality", links([("Troops", "t:troop"), ("Citizens", "t:citizen")])),
        Facet("Faction", links([(n, f"f:{code}") for code, n in card_anatomy.FACTIONS.items()])),
        Facet("Cost", links([(f"{n} or less", f"cost<={n}") for n in (2, 4, 6)])),
        Facet("Facts", links([
            ("Unique", "is:unique"),
            ("Exhausting abilities", "is:exhausting"),
            ("Reactions", "is:reaction"),
            ("Real cards", "is:official"),
            ("Not yet transcribed", "is:unknown"),
            ("Scanned", "has:scan"),
        ])),
        Facet("Sort", links([("Cost, high first", "order:cost dir:desc"),
                             ("Faction influence", "order:fi dir:desc"),
                             ("Set order", "order:set")])),
    ]
