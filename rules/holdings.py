"""The Initial Holdings advisor: the best legal holdings a deck's structures can buy.

Pure Python, no Django. :func:`advise_holdings` chooses, from the structures a deck has
(Initial Holdings and Structure Pile together), holdings that follow every rule the validator
checks (:mod:`rules.deck_rules`):

* exactly one stronghold;
* at most two zero-cost structures besides it, and at most one wall;
* no unique structure besides the stronghold;
* the costs fit the 12 starting tokens (4 economic, 4 religious, 4 political; generic costs
  from any of them; a structure's typed costs are null = 0, as in the validator);
* the Structure Pile keeps at least 15 cards after the holdings are taken out of it (if the
  deck has too few structures for that whatever the holdings, this one rule is dropped and the
  explanation says so).

Objective, compared in this order (the larger wins):

1. the residencies of the holdings (citizens' homes; a wall's number is how many attackers it
   blocks, not residencies, so walls count 0 here);
2. the number of useful structures: copies with ability text (income such as "E Collect 1
   economic influence ...", Retain, ...) and walls (blocking is their use);
3. the tokens left over;
4. fewer cards (so a free structure with nothing to offer stays in the pile);
5. ties: the list of the chosen card ids, sorted, compared in order: the smaller wins.

Structures whose cost, kind (subtype) or uniqueness is unknown (null), or whose residencies are
unknown, cannot be weighed or checked: they are left out and listed in
:attr:`HoldingsAdvice.not_considered` with the reason, as are unique structures and the cards
that are not structures.

The search is exact: a dynamic programme over the distinct structures (in id order) and the
number of copies taken of each, whose state is what has been spent (economic, religious,
political, total), the zero-cost structures and walls taken and the number of cards; each
stronghold is then tried on top of every state. Structures with the same costs, kind,
residencies and usefulness are one class whose copies are taken in id order, which keeps the
programme small (well under 5 ms for a pool of 40 distinct structures).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from rules.cards import CardFacts
from rules.decklist import DeckEntry, Decklist, merge_entries

PILE_MINIMUM: Final = 15
STARTING_TOKENS: Final = 12
TOKENS_PER_KIND: Final = 4
MAX_ZERO_COST: Final = 2
MAX_WALLS: Final = 1

type _Cost = tuple[int, int, int, int]  # economic, religious, political, generic
# DP state: economic, religious, political, total spent, zero-cost taken, walls taken, cards.
type _State = tuple[int, int, int, int, int, int, int]
# DP value: residencies, useful, -cards, tie-break weight, picks as ((class index, copies), ...)
type _Value = tuple[int, int, int, int, tuple[tuple[int, int], ...]]


@dataclass(frozen=True, slots=True)
class HoldingsAdvice:
    """The advisor's answer. ``holdings`` is empty when no legal holdings exist."""

    holdings: Mapping[str, int]
    stronghold: str | None
    tokens_spent: int
    tokens_left: int
    residencies: int
    useful: int
    not_considered: tuple[tuple[str, str], ...]
    explanation: str

    @property
    def found(self) -> bool:
        return bool(self.holdings)

    def to_dict(self) -> dict[str, object]:
        return {
            "holdings": dict(self.holdings),
            "stronghold": self.stronghold,
            "tokens_spent": self.tokens_spent,
            "tokens_left": self.tokens_left,
            "residencies": self.residencies,
            "useful": self.useful,
            "not_considered": [{"card": cid, "reason": why} for cid, why in self.not_considered],
            "explanation": self.explanation,
        }


@dataclass(frozen=True, slots=True)
class _Class:
    """Interchangeable structures: same costs, kind, residencies and usefulness."""

    ids: tuple[str, ...]  # one entry per available copy, in id order
    cost: _Cost
    residencies: int
    useful: int
    zero: bool
    wall: bool


def deck_structures(deck: Decklist) -> dict[str, int]:
    """The structures pool of a deck for :func:`advise_holdings`: holdings and Structure Pile
    together (card id -> copies)."""
    pool: dict[str, int] = {}
    for entry in (*deck.holdings, *deck.structures):
        pool[entry.card_id] = pool.get(entry.card_id, 0) + entry.count
    return pool


def advise_holdings(
    structures: Mapping[str, int],
    cards: Mapping[str, CardFacts],
    pile_minimum: int = PILE_MINIMUM,
) -> HoldingsAdvice:
    """The best legal Initial Holdings from ``structures`` (card id -> copies available)."""
    skipped: list[tuple[str, str]] = []
    strongholds: list[tuple[str, _Cost, int, int]] = []
    pool: list[tuple[str, int, _Cost, int, int, bool, bool]] = []
    pile_cards = 0
    for cid in sorted(structures):
        copies = structures[cid]
        if copies < 1:
            continue
        card = cards.get(cid)
        if card is None:
            skipped.append((cid, "not in the catalogue"))
            continue
        if card.type in ("structure", None):
            pile_cards += copies
        reason = _unusable(card)
        if reason:
            skipped.append((cid, reason))
            continue
        cost = _cost(card)
        residencies = 0 if card.is_wall else card.residencies or 0
        useful = 1 if card.is_wall or (card.abilities or "").strip() else 0
        if card.is_stronghold:
            strongholds.append((cid, cost, residencies, useful))
        else:
            pool.append((cid, copies, cost, residencies, useful, not any(cost), card.is_wall))
    max_cards = pile_cards - pile_minimum
    relaxed = max_cards < 1
    if relaxed:
        max_cards = pile_cards
    ranks = {cid: i for i, cid in enumerate(sorted({*structures}))}
    best = _search(pool, strongholds, max_cards, ranks)
    return _advice(best, pool, strongholds, skipped, relaxed, pile_cards, pile_minimum, cards)


def apply_advice(deck: Decklist, advice: HoldingsAdvice) -> Decklist:
    """The deck with the advised holdings: every card of the current holdings goes back to the
    Structure Pile, then the chosen cards move from the Structure Pile into the holdings.

    Raises ``ValueError`` if the deck does not have the cards the advice chose.
    """
    pile: dict[str, int] = {}
    for entry in (*deck.structures, *deck.holdings):
        pile[entry.card_id] = pile.get(entry.card_id, 0) + entry.count
    for cid, count in advice.holdings.items():
        left = pile.get(cid, 0) - count
        if left < 0:
            raise ValueError(f"the deck has {pile.get(cid, 0)} {cid!r}, the advice takes {count}")
        pile[cid] = left
    return Decklist(
        deck.name,
        deck.players,
        deck.description,
        merge_entries(DeckEntry(cid, n) for cid, n in advice.holdings.items()),
        tuple(DeckEntry(cid, n) for cid, n in pile.items() if n),
        deck.personalities,
        deck.wanderers,
    )


_UNKNOWN: Final = "not considered: field {} unknown"


def _unusable(card: CardFacts) -> str | None:
    """Why a card cannot be weighed as a holding, or None."""
    if card.type != "structure":
        return "not a structure" if card.type else _UNKNOWN.format("type")
    if card.structure_kind is None:
        return _UNKNOWN.format("subtype")
    if card.cost_generic is None:
        return _UNKNOWN.format("cost_generic")
    if card.residencies is None and not card.is_wall:
        return _UNKNOWN.format("residencies")
    if card.is_stronghold:
        return None
    if card.unique is None:
        return _UNKNOWN.format("unique")
    if card.unique:
        return "unique: only the stronghold may be a unique holding"
    return None


def _cost(card: CardFacts) -> _Cost:
    return (
        card.cost_economic or 0, card.cost_religious or 0, card.cost_political or 0,
        card.cost_generic or 0,
    )


def _classes(pool: list[tuple[str, int, _Cost, int, int, bool, bool]]) -> list[_Class]:
    grouped: dict[tuple[_Cost, int, int, bool, bool], list[str]] = {}
    for cid, copies, cost, residencies, useful, zero, wall in pool:
        key = (cost, residencies, useful, zero, wall)
        grouped.setdefault(key, []).extend([cid] * copies)
    return [
        _Class(tuple(ids), cost, residencies, useful, zero, wall)
        for (cost, residencies, useful, zero, wall), ids in grouped.items()
    ]


def _search(
    pool: list[tuple[str, int, _Cost, int, int, bool, bool]],
    strongholds: list[tuple[str, _Cost, int, int]],
    max_cards: int,
    ranks: dict[str, int],
) -> tuple[tuple[int, int, int, int, int], str, tuple[tuple[int, int], ...], int] | None:
    """(objective, stronghold, picks, total spent) of the best holdings, or None."""
    classes = _classes(pool)
    base = 2 + max((copies for _, copies, *_ in pool), default=1)  # above any copy count
    top = len(ranks)

    def weight(cid: str) -> int:  # more copies of earlier ids weigh more
        return int(base ** (top - 1 - ranks[cid]))

    # Each class may take at most: its copies, the cards allowed, and what the budget allows.
    states: dict[_State, _Value] = {(0, 0, 0, 0, 0, 0, 0): (0, 0, 0, 0, ())}
    limit_cards = max_cards - 1  # one card is the stronghold
    for index, cls in enumerate(classes):
        econ, relig, polit, generic = cls.cost
        price = econ + relig + polit + generic
        ids = cls.ids
        weights = [0]
        for cid in ids:
            weights.append(weights[-1] + weight(cid))
        updates: dict[_State, _Value] = {}
        for state, value in states.items():
            e, r, p, t, z, w, n = state
            res, use, negn, tie, picks = value
            for k in range(1, len(ids) + 1):
                e2, r2, p2, t2 = e + k * econ, r + k * relig, p + k * polit, t + k * price
                z2 = z + k if cls.zero else z
                w2 = w + k if cls.wall else w
                n2 = n + k
                if (
                    t2 > STARTING_TOKENS or e2 > TOKENS_PER_KIND or r2 > TOKENS_PER_KIND
                    or p2 > TOKENS_PER_KIND or z2 > MAX_ZERO_COST or w2 > MAX_WALLS
                    or n2 > limit_cards
                ):
                    break
                key = (e2, r2, p2, t2, z2, w2, n2)
                new = (
                    res + k * cls.residencies, use + k * cls.useful, negn - k,
                    tie + weights[k], (*picks, (index, k)),
                )
                old = updates.get(key) or states.get(key)
                if old is None or new[:4] > old[:4]:
                    updates[key] = new
        states.update(updates)
    best: tuple[tuple[int, int, int, int, int], str, tuple[tuple[int, int], ...], int] | None
    best = None
    for cid, cost, residencies, useful in strongholds:
        econ, relig, polit, generic = cost
        price = econ + relig + polit + generic
        for (e, r, p, t, _z, _w, _n), (res, use, negn, tie, picks) in states.items():
            if (
                t + price > STARTING_TOKENS or e + econ > TOKENS_PER_KIND
                or r + relig > TOKENS_PER_KIND or p + polit > TOKENS_PER_KIND
            ):
                continue
            objective = (
                res + residencies, use + useful, STARTING_TOKENS - t - price, negn - 1,
                tie + weight(cid),
            )
            if best is None or objective > best[0]:
                best = (objective, cid, picks, t + price)
    return best


def _advice(
    best: tuple[tuple[int, int, int, int, int], str, tuple[tuple[int, int], ...], int] | None,
    pool: list[tuple[str, int, _Cost, int, int, bool, bool]],
    strongholds: list[tuple[str, _Cost, int, int]],
    skipped: list[tuple[str, str]],
    relaxed: bool,
    pile_cards: int,
    pile_minimum: int,
    cards: Mapping[str, CardFacts],
) -> HoldingsAdvice:
    def names(cid: str) -> str:
        card = cards.get(cid)
        return card.name if card is not None and card.name else cid

    notes = ""
    if skipped:
        notes = f" Left out: {'; '.join(f'{names(cid)} ({why})' for cid, why in skipped)}."
    if relaxed:
        notes += (
            f" The deck has {pile_cards} structures, too few to keep {pile_minimum} in the "
            "Structure Pile whatever the holdings: add structures."
        )
    if best is None:
        why = "no stronghold can be bought" if strongholds else "the deck has no usable stronghold"
        return HoldingsAdvice(
            MappingProxyType({}), None, 0, STARTING_TOKENS, 0, 0, tuple(skipped),
            f"No legal Initial Holdings: {why}.{notes}",
        )
    (residencies, useful, left, _negn, _tie), stronghold, picks, spent = best
    classes = _classes(pool)
    chosen: dict[str, int] = {stronghold: 1}
    for index, k in picks:
        for cid in classes[index].ids[:k]:
            chosen[cid] = chosen.get(cid, 0) + 1
    holdings = {stronghold: 1, **{cid: n for cid, n in sorted(chosen.items())
                                  if cid != stronghold}}
    explanation = (
        f"Chosen for the most residencies ({residencies}), then the most useful structures "
        f"({useful}: ability text or a wall), then the most tokens left ({left} of "
        f"{STARTING_TOKENS}), then the fewest cards, then card ids in order; within the rules: "
        "one stronghold, at most two zero-cost structures besides it, at most one wall, no "
        "other unique structure, 4 tokens of each kind, and "
        + (f"at least {pile_minimum} cards left in the Structure Pile." if not relaxed
           else "(relaxed) any number of cards left in the Structure Pile.")
        + notes
    )
    return HoldingsAdvice(
        MappingProxyType(holdings), stronghold, spent, left, residencies, useful,
        tuple(skipped), explanation,
    )
