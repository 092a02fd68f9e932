"""The deck validator and the Initial Holdings advisor against the floor of their job.

``validate_deck`` on a 60-card legal Demo deck (guild-veterans: one pass over the deck, every
check, no problem to fix) is measured against summing the deck's counts, the least any
validation must do; the advisor, on every Demo structure, against the same floor. Pure Python:
no database is touched.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from decks.formats.card_refs import CardRef
from decks.formats.text import CatalogueResolver, parse_text
from rules.cards import CardFacts, facts_by_id
from rules.deck_rules import validate_deck
from rules.decklist import SECTIONS, Decklist
from rules.holdings import advise_holdings

ROOT = Path(__file__).resolve().parent.parent
DECK = "guild-veterans.txt"  # 60 cards, legal


def load(root: Path = ROOT) -> tuple[Decklist, dict[str, CardFacts]]:
    data: list[dict[str, object]] = []
    for name in ("wof.json", "demo.json"):
        data += json.loads((root / "fixtures" / "cards" / name).read_text("utf-8"))["cards"]
    resolver = CatalogueResolver(
        CardRef(str(c["id"]), str(c["name"]), c["type"], c["faction"])  # type: ignore[arg-type]
        for c in data
    )
    deck = parse_text((root / "fixtures" / "decklists" / DECK).read_text("utf-8"), resolver).deck
    assert deck is not None
    return deck, facts_by_id(data)


def run(best_of: Callable[..., float], report: Callable[..., None]) -> None:
    deck, cards = load()
    validation = validate_deck(deck, cards)
    assert validation.legal and validation.counts.total == 60, validation.problems
    extra = [  # four more, so that the pool has 40 distinct structures
        CardFacts(f"bench-structure-{i}", f"Bench Structure {i}", "structure", "general",
                  unique=False, cost_generic=i, residencies=i % 3, abilities="")
        for i in range(1, 5)
    ]
    cards = {**cards, **{card.id: card for card in extra}}
    pool = {
        cid: 2 for cid, card in cards.items()
        if cid.startswith(("demo-", "bench-")) and card.type == "structure"
    }

    def count() -> None:
        sum(entry.count for section in SECTIONS for entry in deck.section(section))

    def validate() -> None:
        validate_deck(deck, cards)

    def advise() -> None:
        advise_holdings(pool, cards)

    baseline = best_of(count, repeat=5, number=2000)
    subject = best_of(validate, repeat=5, number=2000)
    report(f"validate_deck, 60 cards ({1 / subject:,.0f} decks/s)", subject, baseline,
           "summing the deck's counts")
    advice = best_of(advise, repeat=3, number=50)
    report(f"advise_holdings, {len(pool)} structures x2 ({advice * 1000:.2f} ms)", advice,
           baseline, "summing the deck's counts")
