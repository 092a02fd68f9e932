"""A deck as the builder and the deck pages show it: its parts and rows, validation with
each problem's fixes and searches, the holdings advice, and where focus goes after an
edit."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from cards.card_urls import card_url
from cards.models import Card
from decks.charts import Chart, card_total_cost, deck_charts
from decks.deck_edits import card_name, copies_in, fix_label, move_target, one_by_one, problem_key
from decks.validation import catalogue_facts, deck_advise_holdings, deck_validate
from rules.card_anatomy import FACTIONS
from rules.cards import CardFacts
from rules.deck_rules import PILE_MINIMUM, WANDERERS_PER_PLAYER, Problem, Validation
from rules.deck_rules import describe_fix as rules_describe_fix
from rules.decklist import SECTION_TITLES, SECTIONS, Decklist, SectionName

SHORT_PART_NAMES: Final[Mapping[str, str]] = {
    "holdings": "Holdings", "structures": "Structures", "personalities": "Personalities",
    "wanderers": "Wanderers",
}


PART_NAMES: Final[Mapping[str, str]] = {
    "holdings": "Holdings",
    "structures": "Structure Pile",
    "personalities": "Personality Pile",
    "wanderers": "Wanderer Pile",
}


@dataclass(frozen=True)
class ProblemView:
    number: int
    problem: Problem
    cards: tuple[tuple[str, str], ...]  # (name, anchor of the first row holding it)
    fix_label: str
    key: str
    items: tuple[str, ...] = ()  # the plan's adds, to accept card by card (one_by_one)
    searches: tuple[tuple[str, str], ...] = ()  # (label, query): cards to choose from

    @property
    def dom_id(self) -> str:
        return f"problem-{self.number}"

    @property
    def severity(self) -> str:
        return self.problem.severity


@dataclass(frozen=True)
class Row:
    section: SectionName
    card_id: str
    name: str
    count: int
    url: str
    kind: str
    faction: str | None
    cost: int | None
    unique: bool | None
    move_to: SectionName | None
    move_count: int
    faults: tuple[ProblemView, ...] = ()
    costed: bool = True  # wanderers are never played: they have no cost to show

    @property
    def dom_id(self) -> str:
        return f"row-{self.section}-{self.card_id}"

    @property
    def described_by(self) -> str:
        return " ".join(p.dom_id for p in self.faults)

    @property
    def fault(self) -> str:
        if any(p.severity == "error" for p in self.faults):
            return "error"
        return "warning" if self.faults else ""

    @property
    def move_title(self) -> str:
        return SECTION_TITLES[self.move_to] if self.move_to else ""

    @property
    def move_short(self) -> str:
        return PART_NAMES[self.move_to] if self.move_to else ""


@dataclass(frozen=True)
class Part:
    key: SectionName
    title: str
    rows: tuple[Row, ...]
    total: int
    minimum: int | None

    @property
    def short(self) -> bool:
        return self.minimum is not None and self.total < self.minimum

    @property
    def short_title(self) -> str:
        """The pile's name in the phone builder's summary bar, one word."""
        return SHORT_PART_NAMES[self.key]


@dataclass(frozen=True)
class ValidationView:
    validation: Validation
    problems: tuple[ProblemView, ...]

    @property
    def legal(self) -> bool:
        return self.validation.legal

    @property
    def errors(self) -> int:
        return len(self.validation.errors)

    @property
    def warnings(self) -> int:
        return len(self.validation.warnings)

    @property
    def players_range(self) -> str | None:
        found = self.validation.legal_players
        if found is None:
            return None
        low, high = found
        return str(low) if low == high else f"{low}\u2013{high}"


@dataclass(frozen=True)
class AdviceView:
    found: bool
    holdings: tuple[tuple[str, int], ...]
    explanation: str
    tokens_spent: int
    tokens_left: int
    residencies: int
    not_considered: tuple[tuple[str, str], ...]
    current: bool  # the deck's holdings already are the advised ones


@dataclass(frozen=True)
class DeckView:
    """A deck as the pages show it: parts with their rows, validation, charts."""

    data: Decklist
    parts: tuple[Part, ...]
    validation: ValidationView
    charts: tuple[Chart, ...]
    demo: bool  # holds cards of the fictional Demo set


def deck_view(data: Decklist, *, players: int | None = None) -> DeckView:
    facts = catalogue_facts()
    validation = deck_validate(data, players=players)
    problems = problem_views(data, validation, facts)
    faults = _faults(data, problems, facts)
    parts = tuple(
        Part(
            key=section,
            title=SECTION_TITLES[section],
            rows=tuple(_row(section, e.card_id, e.count, facts, faults) for e in
                       data.section(section)),
            total=data.total(section),
            minimum=_minimum(section, players or data.players),
        )
        for section in SECTIONS
    )
    ids = {e.card_id for _, e in data.all_entries()}
    demo = Card.objects.filter(id__in=ids, official=False).exists() if ids else False
    return DeckView(data, parts, ValidationView(validation, problems),
                    tuple(deck_charts(data, facts)), demo)


@dataclass(frozen=True)
class FocusFallback:
    """Where keyboard focus goes when the button that made an edit is gone from the new page
    (the last copy removed, the last fixable problem fixed): htmx puts focus back on the
    element with the button's id, so the page gives that id to the heading of the part (or
    panel) the button was in."""

    place: str  # a part key, "validation" or "advisor"
    id: str


def focus_fallback(trigger: str | None, view: DeckView, advice: AdviceView
                   ) -> FocusFallback | None:
    if not trigger:
        return None
    kind, _, rest = trigger.partition("-")
    if kind in ("minus", "plus", "move", "remove") and rest.startswith("row-"):
        section, _, card = rest.removeprefix("row-").partition("-")
        rows = {(r.section, r.card_id): r for part in view.parts for r in part.rows}
        row = rows.get((section, card))  # type: ignore[arg-type]
        gone = row is None or (kind == "move" and row.move_to is None)
        return FocusFallback(section, trigger) if gone and section in SECTIONS else None
    if kind == "fix":
        buttons = {f"fix-{p.number}" for p in view.validation.problems if p.fix_label}
        return None if trigger in buttons else FocusFallback("validation", trigger)
    if trigger == "use-advice" and (advice.current or not advice.found):
        return FocusFallback("advisor", trigger)
    return None


def advice_view(data: Decklist) -> AdviceView:
    facts = catalogue_facts()
    advice = deck_advise_holdings(data)
    current = {e.card_id: e.count for e in data.holdings}
    return AdviceView(
        found=advice.found,
        holdings=tuple((card_name(cid, facts), n) for cid, n in advice.holdings.items()),
        explanation=advice.explanation,
        tokens_spent=advice.tokens_spent,
        tokens_left=advice.tokens_left,
        residencies=advice.residencies,
        not_considered=tuple((card_name(cid, facts), why) for cid, why in advice.not_considered),
        current=advice.found and current == dict(advice.holdings),
    )


def problem_views(data: Decklist, validation: Validation, facts: Mapping[str, CardFacts]
                   ) -> tuple[ProblemView, ...]:
    views = []
    for number, problem in enumerate(validation.problems, start=1):
        cards = tuple(
            (card_name(cid, facts), next(
                (f"row-{s}-{cid}" for s in _fault_sections(data, problem, cid, facts)), ""
            ))
            for cid in problem.cards
        )
        views.append(ProblemView(
            number=number, problem=problem, cards=cards,
            fix_label=fix_label(problem, facts) if problem.fixes else "",
            key=problem_key(problem),
            items=tuple(rules_describe_fix(f, facts) for f in problem.fixes)
            if one_by_one(problem) else (),
            searches=ready_searches(problem.code, data, facts),
        ))
    return tuple(views)


_PILE_SEARCHES: Final = {
    "structure_pile_too_small": ("structures", "t:structure"),
    "personality_pile_too_small": ("personalities, items, invocations and events",
                                   "(t:personality or t:item or t:invocation or t:event)"),
    "wanderer_pile_too_small": ("wanderers", "t:wanderer"),
    "no_stronghold": ("strongholds", "t:stronghold"),
}


def ready_searches(code: str, data: Decklist, facts: Mapping[str, CardFacts]
                   ) -> tuple[tuple[str, str], ...]:
    """For a short pile (or holdings without a stronghold), searches of the cards that may go
    there: of the deck's own factions
    (and of none), one for each faction when the deck has none yet; wanderers have no
    faction. Which cards to add is the builder's choice, so a fix never picks them."""
    if code not in _PILE_SEARCHES:
        return ()
    what, query = _PILE_SEARCHES[code]
    if code == "wanderer_pile_too_small":
        return ((f"Find {what}", query),)
    own: list[str] = sorted({
        faction for _, entry in data.all_entries()
        if (faction := getattr(facts.get(entry.card_id), "faction", None)) in FACTIONS
        and faction is not None})
    if own:
        factions = " or ".join(f"f:{f}" for f in own)
        names = _and([FACTIONS[f] for f in own])
        return ((f"Find {what} of {names} or of no faction", f"{query} ({factions} or f:none)"),)
    return tuple((f"Find {what} of {name}", f"{query} (f:{key} or f:none)")
                 for key, name in FACTIONS.items())


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# Problems about the Initial Holdings point at rows there only.
_HOLDINGS_CODES: Final = frozenset({
    "too_many_strongholds", "too_many_zero_cost_structures", "unique_structure_in_holdings",
    "holdings_over_budget", "too_many_walls",
})


def _fault_sections(data: Decklist, problem: Problem, card_id: str,
                    facts: Mapping[str, CardFacts]) -> list[SectionName]:
    """The parts whose row of ``card_id`` is at fault for ``problem``."""
    card = facts.get(card_id)
    found: list[SectionName] = []
    for section in SECTIONS:
        if not copies_in(data, card_id, section):
            continue
        if problem.code in _HOLDINGS_CODES and section != "holdings":
            continue
        if problem.code == "stronghold_in_pile" and section != "structures":
            continue
        if problem.code == "wrong_pile" and card is not None and (
            card.pile == section or (card.pile == "structures" and section == "holdings")
        ):
            continue
        found.append(section)
    return found


def _faults(data: Decklist, problems: Iterable[ProblemView], facts: Mapping[str, CardFacts]
            ) -> dict[tuple[str, str], list[ProblemView]]:
    """(section, card) -> the problems that name that row's card, so it can be highlighted."""
    found: dict[tuple[str, str], list[ProblemView]] = {}
    for view in problems:
        for cid in view.problem.cards:
            for section in _fault_sections(data, view.problem, cid, facts):
                found.setdefault((section, cid), []).append(view)
    return found


def _row(section: SectionName, card_id: str, count: int, facts: Mapping[str, CardFacts],
         faults: Mapping[tuple[str, str], list[ProblemView]]) -> Row:
    card = facts.get(card_id)
    target = move_target(card, section)
    # Between holdings and the Structure Pile a move is one copy; a misplaced card moves whole.
    structure_swap = section in ("holdings", "structures") and target in ("holdings",
                                                                          "structures")
    return Row(
        section=section, card_id=card_id, name=card_name(card_id, facts), count=count,
        url=card_url(card_id, "page"), kind=_kind(card),
        faction=card.faction if card else None, cost=card_total_cost(card),
        unique=card.unique if card else None, move_to=target,
        move_count=1 if structure_swap else count,
        faults=tuple(faults.get((section, card_id), ())),
        costed=card is None or card.type != "wanderer",
    )


def _minimum(section: SectionName, players: int) -> int | None:
    if section == "wanderers":
        return WANDERERS_PER_PLAYER * players
    return PILE_MINIMUM if section != "holdings" else None


def _kind(card: CardFacts | None) -> str:
    if card is None or card.type is None:
        return "type unknown"
    subtype = card.structure_kind or card.personality_kind or card.subtype
    return f"{card.type}, {subtype}" if subtype else card.type
