"""Sample decks and the catalogues for engine tests, read from the fixtures (no database)."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path

from decks.formats.card_refs import CardRef
from decks.formats.text import CatalogueResolver, parse_text
from rules.cards import CardFacts, facts_by_id
from rules.decklist import DeckEntry, Decklist
from rules.game.state import GameState

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
SAMPLES = tuple(sorted(p.name for p in (FIXTURES / "decklists").glob("*.txt")))


@cache
def catalogue() -> dict[str, CardFacts]:
    return facts_by_id(_card_data())


def _card_data() -> list[dict[str, object]]:
    data: list[dict[str, object]] = []
    for file in ("wof.json", "demo.json"):
        data += json.loads((FIXTURES / "cards" / file).read_text("utf-8"))["cards"]
    return data


@cache
def sample(name: str) -> Decklist:
    resolver = CatalogueResolver(
        CardRef(str(c["id"]), str(c["name"]), c["type"], c["faction"])  # type: ignore[arg-type]
        for c in _card_data()
    )
    deck = parse_text((FIXTURES / "decklists" / name).read_text("utf-8"), resolver).deck
    assert deck is not None
    return deck


def own(state: GameState, seat: int = -1) -> list[int]:
    """The instances of ``seat`` (-1: the seat that decides in ``state``; solo: every card)."""
    whose = state.to_move if seat < 0 else seat
    return [i for i in range(len(state.cards)) if state.owner[i] == whose]


def card(state: GameState, name: str, *, free: bool = True, seat: int = -1) -> int:
    """An instance of the card named ``name`` of ``seat`` (-1: the seat that decides in
    ``state``; one not in play when ``free``)."""
    whose = state.to_move if seat < 0 else seat
    return next(i for i in range(len(state.cards)) if state.card(i).name == name
                and state.owner[i] == whose and not (free and state.in_play(i)))


def place(state: GameState, name: str, zone: str, seat: int = -1) -> int:
    """Put a card of ``seat`` (-1: the seat that decides) into ``zone`` (a citizen lives in
    the stronghold)."""
    i = card(state, name, seat=seat)
    state.move(i, zone)
    state.exhausted.discard(i)
    if zone == "residents":
        state.host[i] = next(s for s in state.seat_of(i).zones["private"]
                             if state.card(s).subtype == "stronghold")
    state.pending = None
    state.forget_derived()
    return i


def seated(name: str, players: int) -> Decklist:
    """Sample deck ``name`` made legal for a table of ``players``: the sample decks hold 12
    or 13 wanderers, enough for 4 players; for 5 or 6 ("no less than three wanderers
    multiplied by the number of players") more copies of its own wanderers (two at most
    each), then of the catalogue's other plain wanderers, in card order."""
    deck = sample(name)
    need = 3 * players
    counts = {e.card_id: e.count for e in deck.wanderers}
    total = sum(counts.values())
    if total >= need:
        return deck
    others = sorted(cid for cid, card in catalogue().items()
                    if card.type == "wanderer" and not card.unique and cid not in counts)
    for cid in [*counts, *others]:
        while counts.get(cid, 0) < 2 and total < need:
            counts[cid] = counts.get(cid, 0) + 1
            total += 1
    return replace(deck, wanderers=tuple(DeckEntry(c, n) for c, n in counts.items()))
