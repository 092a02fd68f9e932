"""Turning what a user sends (a decklist text, or parts as ids and counts) into a Deck."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from cards.models import Card
from decks.api.serializers import DeckJsonSerializer
from decks.formats.model import SECTIONS, Deck, DeckEntry
from decks.formats.text import LineError, parse_text
from decks.services import catalogue_resolver


@dataclass(frozen=True)
class DeckInputError(Exception):
    """The input could not become a deck; nothing was saved."""

    detail: str
    lines: tuple[LineError, ...] = ()
    unknown_ids: tuple[str, ...] = ()

    def errors(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = [
            {"line": e.line, "text": e.text, "code": e.code, "message": e.message,
             "suggestions": list(e.suggestions)}
            for e in self.lines
        ]
        found.extend(
            {"code": "unknown_card", "card": card_id,
             "message": f"There is no card with id {card_id!r}."}
            for card_id in self.unknown_ids
        )
        return found


def deck_from_input(attrs: Mapping[str, Any], base: Deck | None = None) -> Deck:
    """A deck from validated API input; fields not given keep the base deck's values."""
    if "text" in attrs:
        result = parse_text(attrs["text"], catalogue_resolver())
        if result.deck is None:
            raise DeckInputError(
                f"{len(result.errors)} line(s) of the decklist need fixing; nothing was saved.",
                lines=result.errors,
            )
        deck = result.deck
        # A name or player count given beside the text wins over the text's header.
        overrides = {k: attrs[k] for k in ("name", "players", "description") if k in attrs}
        return replace(deck, **overrides) if overrides else deck
    parts: dict[str, tuple[DeckEntry, ...]] = {
        section: tuple(DeckEntry(e["id"], e["count"]) for e in attrs[section])
        if section in attrs else (base.section(section) if base else ())
        for section in SECTIONS
    }
    _check_ids([e.card_id for entries in parts.values() for e in entries])
    return Deck(
        name=attrs.get("name", base.name if base else ""),
        players=attrs.get("players", base.players if base else 4),
        description=attrs.get("description", base.description if base else ""),
        **parts,
    )


def deck_from_text(text: str) -> Deck:
    """A decklist in any supported format: JSON (DESIGN §5) when it is a JSON object,
    otherwise the text format. Raises DeckInputError with every problem."""
    if text.lstrip().startswith("{"):
        return deck_from_json(text)
    return deck_from_input({"text": text})


def deck_from_json(text: str) -> Deck:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeckInputError(f"invalid JSON at line {exc.lineno}, column {exc.colno}: "
                             f"{exc.msg}") from exc
    serializer = DeckJsonSerializer(data=data)
    if not serializer.is_valid():
        raise DeckInputError(f"the JSON decklist is not valid: {dict(serializer.errors)}")
    attrs = dict(serializer.validated_data)
    attrs.setdefault("name", "")
    return deck_from_input(attrs)


def _check_ids(card_ids: list[str]) -> None:
    known = set(Card.objects.filter(id__in=set(card_ids)).values_list("id", flat=True))
    unknown = tuple(sorted(set(card_ids) - known))
    if unknown:
        raise DeckInputError(
            f"{len(unknown)} card id(s) are not in the catalogue; nothing was saved.",
            unknown_ids=unknown,
        )
