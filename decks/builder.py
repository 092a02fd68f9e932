"""The deck builder: the edits its pages make, saving them with the version check, and what
the deck pages show (parts, validation, holdings advice, search results, history, compare).

The edits are small operations on the pure deck dataclass (:class:`rules.decklist.Deck`);
:func:`deck_edit` applies one to a saved deck only if the page that asked for it was showing
the deck's current version (the same optimistic check as the JSON API, see
``decks/api/views.py``), and saves the result as a new version. The views stay thin: they turn
a request into a :class:`Change`, call :func:`deck_edit` and render what this module gives.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.models import QuerySet

from cards.card_search import SearchError, card_search
from cards.card_urls import card_url
from cards.models import Card
from decks.charts import Chart, card_total_cost, deck_charts
from decks.deck_input import (
    MAX_DECKLIST_BYTES,
    NEW_DECK_NAME,
    DeckInputError,
    check_decklist_size,
    deck_from_text_with_notes,
    deck_to_save,
    read_upload,
)
from decks.diff import CountChange, DeckDiff
from decks.formats.json_format import deck_from_dict
from decks.formats.model import MAX_PLAYERS, MIN_PLAYERS
from decks.formats.text import LineError, LineNote
from decks.models import Deck, DeckVersion
from decks.services import deck_data, deck_save, deck_version_save, version_summary
from decks.validation import catalogue_facts, deck_advise_holdings, deck_validate
from rules.card_facts import FACTIONS
from rules.cards import CardFacts
from rules.deck_rules import PILE_MINIMUM, WANDERERS_PER_PLAYER, Fix, Problem, Validation
from rules.deck_rules import apply_fixes as rules_apply_fixes
from rules.deck_rules import describe_fix as rules_describe_fix
from rules.decklist import SECTION_TITLES, SECTIONS, SectionName
from rules.decklist import Deck as DeckData
from rules.holdings import apply_advice as rules_apply_advice

MAX_ENTRY_COUNT: Final = 99  # the text format's largest count on one line
SEARCH_LIMIT: Final = 30
STALE_MESSAGE: Final = (
    "This deck was changed in another tab or by another device; your change was not applied "
    "— the deck below is the current version."
)
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


class EditRefused(Exception):
    """An edit that cannot be made to the deck as it is (nothing is saved)."""


class BadEdit(Exception):
    """A request that does not describe an edit (a bad card, part or field)."""

    def __init__(self, message: str, settings_form: DeckSettingsForm | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.settings_form = settings_form


# --- pure edits on a deck -------------------------------------------------------------------


def own_pile(card: CardFacts | None) -> SectionName:
    """The pile a card is added to: structures and wanderers to theirs, the rest (and cards
    of unknown type) to the Personality Pile."""
    if card is not None and card.pile is not None:
        return card.pile
    return "personalities"


def move_target(card: CardFacts | None, section: SectionName) -> SectionName | None:
    """Where a card's "move" button sends it: structures between the Initial Holdings and the
    Structure Pile; a misplaced card to the pile of its type; nowhere otherwise."""
    if card is None or card.pile is None:
        return None
    if card.pile == "structures":
        if section == "structures":
            return "holdings"
        return "structures"
    return None if card.pile == section else card.pile


def copies_in(deck: DeckData, card_id: str, section: SectionName) -> int:
    return sum(e.count for e in deck.section(section) if e.card_id == card_id)


def deck_add(deck: DeckData, card_id: str, section: SectionName, count: int = 1) -> DeckData:
    if copies_in(deck, card_id, section) + count > MAX_ENTRY_COUNT:
        raise EditRefused(f"A part of a deck holds at most {MAX_ENTRY_COUNT} copies of a card.")
    return rules_apply_fixes(deck, [Fix("add", card_id, count, section)])


def deck_change_count(deck: DeckData, card_id: str, section: SectionName, delta: int
                      ) -> DeckData:
    """One more (delta > 0) or fewer (delta < 0) copies; the last copy removes the card."""
    have = copies_in(deck, card_id, section)
    if have == 0:
        raise EditRefused(f"The {SECTION_TITLES[section]} has no such card.")
    if delta > 0:
        return deck_add(deck, card_id, section, delta)
    return rules_apply_fixes(deck, [Fix("remove", card_id, min(-delta, have), section)])


def deck_move(deck: DeckData, card_id: str, section: SectionName, to: SectionName,
              count: int = 1) -> DeckData:
    have = copies_in(deck, card_id, section)
    if have == 0:
        raise EditRefused(f"The {SECTION_TITLES[section]} has no such card.")
    if section == to:
        raise EditRefused("The card is already there.")
    return rules_apply_fixes(deck, [Fix("move", card_id, min(count, have), section, to)])


def deck_remove(deck: DeckData, card_id: str, section: SectionName) -> DeckData:
    have = copies_in(deck, card_id, section)
    if have == 0:
        raise EditRefused(f"The {SECTION_TITLES[section]} has no such card.")
    return rules_apply_fixes(deck, [Fix("remove", card_id, have, section)])


def problem_key(problem: Problem) -> str:
    """A problem's identity as one form value (codes, fields and card ids have no "|")."""
    return "|".join(problem.key)


def fix_label(problem: Problem, facts: Mapping[str, CardFacts]) -> str:
    return "Fix: " + "; ".join(rules_describe_fix(f, facts) for f in problem.fixes)


# --- the changes a page can ask for ---------------------------------------------------------


class Change(Protocol):
    def apply(self, deck: DeckData, facts: Mapping[str, CardFacts]) -> tuple[DeckData, str]:
        """The edited deck and what was done, in a sentence; raises EditRefused."""
        ...


@dataclass(frozen=True)
class AddCard:
    card: str
    section: SectionName

    def apply(self, deck: DeckData, facts: Mapping[str, CardFacts]) -> tuple[DeckData, str]:
        edited = deck_add(deck, self.card, self.section)
        return edited, f"Added 1 {_name(self.card, facts)} to the {SECTION_TITLES[self.section]}."


@dataclass(frozen=True)
class ChangeCount:
    card: str
    section: SectionName
    delta: int

    def apply(self, deck: DeckData, facts: Mapping[str, CardFacts]) -> tuple[DeckData, str]:
        edited = deck_change_count(deck, self.card, self.section, self.delta)
        left = copies_in(edited, self.card, self.section)
        verb = "Added" if self.delta > 0 else "Removed"
        return edited, (f"{verb} 1 {_name(self.card, facts)}: {left} in the "
                        f"{SECTION_TITLES[self.section]}.")


@dataclass(frozen=True)
class MoveCard:
    card: str
    section: SectionName
    to: SectionName
    count: int = 1

    def apply(self, deck: DeckData, facts: Mapping[str, CardFacts]) -> tuple[DeckData, str]:
        moved = min(self.count, copies_in(deck, self.card, self.section))
        edited = deck_move(deck, self.card, self.section, self.to, self.count)
        return edited, (f"Moved {moved} {_name(self.card, facts)} from the "
                        f"{SECTION_TITLES[self.section]} to the {SECTION_TITLES[self.to]}.")


@dataclass(frozen=True)
class RemoveCard:
    card: str
    section: SectionName

    def apply(self, deck: DeckData, facts: Mapping[str, CardFacts]) -> tuple[DeckData, str]:
        edited = deck_remove(deck, self.card, self.section)
        return edited, (f"Removed {_name(self.card, facts)} from the "
                        f"{SECTION_TITLES[self.section]}.")


@dataclass(frozen=True)
class FixProblem:
    """Apply a problem's whole fix plan, or (``item``) one card of a plan of adds, accepted
    card by card. The problem is found again on the saved deck (by its key), so the page never
    sends the edits themselves."""

    key: str
    item: int | None = None

    def apply(self, deck: DeckData, facts: Mapping[str, CardFacts]) -> tuple[DeckData, str]:
        found = [p for p in deck_validate(deck).problems if problem_key(p) == self.key]
        if not found:
            raise EditRefused("That problem is already gone.")
        problem = found[0]
        if not problem.fixes:
            raise EditRefused("This problem has no fix that can be applied automatically.")
        if self.item is not None:
            if not one_by_one(problem) or not 0 <= self.item < len(problem.fixes):
                raise EditRefused("That part of the fix is no longer offered.")
            fix = problem.fixes[self.item]
            return rules_apply_fixes(deck, [fix]), f"{rules_describe_fix(fix, facts)}."
        edited = rules_apply_fixes(deck, problem.fixes)
        done = "; ".join(rules_describe_fix(f, facts) for f in problem.fixes)
        return edited, f"Fixed: {done}."


def one_by_one(problem: Problem) -> bool:
    """A plan of several adds (a short pile filled from the deck's own cards) may be accepted
    card by card: each add alone breaks nothing the whole plan would not."""
    return len(problem.fixes) > 1 and all(f.action == "add" for f in problem.fixes)


@dataclass(frozen=True)
class UseAdvisedHoldings:
    def apply(self, deck: DeckData, facts: Mapping[str, CardFacts]) -> tuple[DeckData, str]:
        advice = deck_advise_holdings(deck)
        if not advice.found:
            raise EditRefused("The advisor found no legal Initial Holdings in this deck.")
        try:
            edited = rules_apply_advice(deck, advice)
        except ValueError as error:
            raise EditRefused(str(error)) from error
        return edited, "The Initial Holdings are now the advised ones."


@dataclass(frozen=True)
class EditSettings:
    name: str
    players: int
    description: str
    visibility: str

    def apply(self, deck: DeckData, facts: Mapping[str, CardFacts]) -> tuple[DeckData, str]:
        edited = replace(deck, name=self.name, players=self.players,
                         description=self.description)
        return edited, "Saved the deck's settings."


@dataclass(frozen=True)
class RestoreVersion:
    number: int
    snapshot: Mapping[str, Any]

    def apply(self, deck: DeckData, facts: Mapping[str, CardFacts]) -> tuple[DeckData, str]:
        return deck_from_dict(dict(self.snapshot)), f"Restored version {self.number}."


class DeckSettingsForm(forms.Form):
    name = forms.CharField(max_length=200, strip=True)
    players = forms.TypedChoiceField(
        coerce=int, choices=[(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    )
    visibility = forms.ChoiceField(choices=Deck.VISIBILITY_CHOICES)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def clean_name(self) -> str:
        name: str = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("A deck needs a name.")
        return name


def settings_form(deck: Deck) -> DeckSettingsForm:
    return DeckSettingsForm(initial={
        "name": deck.name, "players": deck.players, "visibility": deck.visibility,
        "description": deck.description,
    }, auto_id="settings-%s")


EDIT_ACTIONS: Final = ("add", "count", "move", "remove", "fix", "holdings", "settings")


def parse_change(action: str, data: Mapping[str, Any]) -> Change:
    """The change a builder form asks for; raises BadEdit for anything malformed."""
    facts = catalogue_facts()
    if action == "settings":
        form = DeckSettingsForm(data, auto_id="settings-%s")
        if not form.is_valid():
            raise BadEdit("The settings were not saved: " + _form_errors(form), form)
        return EditSettings(**form.cleaned_data)
    if action == "holdings":
        return UseAdvisedHoldings()
    if action == "fix":
        key = str(data.get("problem", ""))
        if not key:
            raise BadEdit("Say which problem to fix.")
        item = data.get("item")
        return FixProblem(key, None if item in (None, "") else _number(item, "item"))
    card = str(data.get("card", ""))
    if card not in facts:
        raise BadEdit(f"There is no card with the id {card!r}.")
    if action == "add":
        section = _section(data.get("section") or own_pile(facts[card]))
        return AddCard(card, section)
    section = _section(data.get("section"))
    if action == "count":
        delta = _number(data.get("delta"), "delta")
        if delta not in (-1, 1):
            raise BadEdit("A count changes by one copy at a time.")
        return ChangeCount(card, section, delta)
    if action == "move":
        count = _number(data.get("count", 1), "count")
        if count < 1:
            raise BadEdit("Move at least one copy.")
        return MoveCard(card, section, _section(data.get("to")), count)
    if action == "remove":
        return RemoveCard(card, section)
    raise BadEdit(f"Unknown edit {action!r}.")


def _section(value: object) -> SectionName:
    for section in SECTIONS:
        if value == section:
            return section
    raise BadEdit(f"Unknown part of a deck {value!r}; expected one of {', '.join(SECTIONS)}.")


def _number(value: object, name: str) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise BadEdit(f"{name} must be a whole number.") from None


def _form_errors(form: forms.Form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


# --- saving with the version check ----------------------------------------------------------


@dataclass(frozen=True)
class EditResult:
    """What became of an edit: the deck as it now is (saved or not), the HTTP status the page
    answers with and a sentence for the user."""

    deck: Deck
    status: int
    message: str

    @property
    def saved(self) -> bool:
        return self.status == 200


def deck_etag(deck: Deck) -> str:
    return f'"{deck.pk}.{deck.version}"'


def version_problem(deck: Deck, version: object, if_match: str | None) -> tuple[int, str] | None:
    """The API's optimistic concurrency rules: an If-Match header must be the deck's ETag
    (else 412); otherwise the ``version`` field must be the current version (else 409); an
    edit naming neither is refused (428)."""
    if if_match is not None:
        return None if if_match == deck_etag(deck) else (412, STALE_MESSAGE)
    if version in (None, ""):
        return 428, (f"Say which version this edit is based on (the deck is at version "
                     f"{deck.version}); nothing was saved.")
    return None if str(version) == str(deck.version) else (409, STALE_MESSAGE)


def deck_edit(*, deck: Deck, user: Any, change: Change, version: object,
              if_match: str | None = None, session: bool = False) -> EditResult:
    """Apply ``change`` to the deck if ``version`` is its current version, saved by ``user``
    (in the open version of the sitting, with ``session``: services.deck_save). A stale or
    refused edit saves nothing and returns the current deck."""
    facts = catalogue_facts()
    with transaction.atomic():
        current = Deck.objects.select_for_update().select_related("owner").get(pk=deck.pk)
        problem = version_problem(current, version, if_match)
        if problem is not None:
            return EditResult(current, *problem)
        before = deck_data(current)
        try:
            edited, message = change.apply(before, facts)
        except EditRefused as refused:
            return EditResult(current, 422, f"{refused} Nothing was changed.")
        visibility = getattr(change, "visibility", current.visibility)
        if edited == before and visibility == current.visibility:
            return EditResult(current, 200, "Nothing to change.")
        old_visibility = current.visibility
        current.visibility = visibility
        saved = deck_save(owner=current.owner, data=edited, deck=current, author=user,
                          session=session)
        if visibility != old_visibility:
            _note_visibility(saved, old_visibility, visibility)
    return EditResult(saved, 200, message)


def _note_visibility(deck: Deck, before: str, after: str) -> None:
    """Visibility is not part of a deck's content (its snapshot), but history should still
    say when it changed."""
    version = DeckVersion.objects.get(deck=deck, number=deck.version)
    fields = version.diff.setdefault("fields", {})
    first = fields.get("visibility", [before])[0]  # a sitting may change it more than once
    if first == after:
        del fields["visibility"]
    else:
        fields["visibility"] = [first, after]
    cards = summary_of_cards(version.diff)
    version.summary = version_summary(version.diff, cards)
    version.save(update_fields=["diff", "summary"])


def summary_of_cards(diff: dict[str, Any]) -> str:
    """The summary deck_diff gives for a version's stored changes (visibility aside)."""
    fields = {k: tuple(v) for k, v in diff.get("fields", {}).items() if k != "visibility"}
    cards = tuple(CountChange(c["section"], c["card"], c["before"], c["after"])
                  for c in diff.get("cards", []))
    return DeckDiff(fields, cards).summary()


def deck_create_empty(owner: Any) -> Deck:
    """A new deck, its first version open: building it in one sitting makes one version."""
    return deck_save(owner=owner, data=DeckData(name=NEW_DECK_NAME), author=owner, session=True)


def deck_session_save(*, deck: Deck, user: Any, note: str, version: object) -> EditResult:
    """The builder's Save: the sitting's open version becomes a version of the history, with
    the note; the next edit starts a new one. The same version check as an edit."""
    with transaction.atomic():
        current = Deck.objects.select_for_update().select_related("owner").get(pk=deck.pk)
        problem = version_problem(current, version, None)
        if problem is not None:
            return EditResult(current, *problem)
        saved = deck_version_save(deck=current, note=note.strip())
    if saved is None:
        return EditResult(current, 200, f"Nothing new to save: version {current.version} is "
                          "in the history.")
    said = f" with the note “{saved.note}”" if saved.note else ""
    return EditResult(current, 200, f"Saved as version {saved.number}{said}. The next change "
                      "starts a new version.")


# --- what the pages show --------------------------------------------------------------------


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

    data: DeckData
    parts: tuple[Part, ...]
    validation: ValidationView
    charts: tuple[Chart, ...]
    demo: bool  # holds cards of the fictional Demo set


def deck_view(data: DeckData, *, players: int | None = None) -> DeckView:
    facts = catalogue_facts()
    validation = deck_validate(data, players=players)
    problems = _problem_views(data, validation, facts)
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


def advice_view(data: DeckData) -> AdviceView:
    facts = catalogue_facts()
    advice = deck_advise_holdings(data)
    current = {e.card_id: e.count for e in data.holdings}
    return AdviceView(
        found=advice.found,
        holdings=tuple((_name(cid, facts), n) for cid, n in advice.holdings.items()),
        explanation=advice.explanation,
        tokens_spent=advice.tokens_spent,
        tokens_left=advice.tokens_left,
        residencies=advice.residencies,
        not_considered=tuple((_name(cid, facts), why) for cid, why in advice.not_considered),
        current=advice.found and current == dict(advice.holdings),
    )


def _problem_views(data: DeckData, validation: Validation, facts: Mapping[str, CardFacts]
                   ) -> tuple[ProblemView, ...]:
    views = []
    for number, problem in enumerate(validation.problems, start=1):
        cards = tuple(
            (_name(cid, facts), next(
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


def ready_searches(code: str, data: DeckData, facts: Mapping[str, CardFacts]
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


def _fault_sections(data: DeckData, problem: Problem, card_id: str,
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


def _faults(data: DeckData, problems: Iterable[ProblemView], facts: Mapping[str, CardFacts]
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
        section=section, card_id=card_id, name=_name(card_id, facts), count=count,
        url=card_url(card_id, "page"), kind=_kind(card),
        faction=card.faction if card else None, cost=card_total_cost(card),
        unique=card.unique if card else None, move_to=target,
        move_count=1 if structure_swap else count,
        faults=tuple(faults.get((section, card_id), ())),
        costed=card is None or card.type != "wanderer",
    )


def _first_row(data: DeckData, card_id: str) -> str:
    for section in SECTIONS:
        if copies_in(data, card_id, section):
            return f"row-{section}-{card_id}"
    return ""


def _minimum(section: SectionName, players: int) -> int | None:
    if section == "wanderers":
        return WANDERERS_PER_PLAYER * players
    return PILE_MINIMUM if section != "holdings" else None


def _kind(card: CardFacts | None) -> str:
    if card is None or card.type is None:
        return "type unknown"
    subtype = card.structure_kind or card.personality_kind or card.subtype
    return f"{card.type}, {subtype}" if subtype else card.type


def _name(card_id: str, facts: Mapping[str, CardFacts]) -> str:
    card = facts.get(card_id)
    return card.name if card else card_id


# --- card search in the builder -------------------------------------------------------------


@dataclass(frozen=True)
class ResultRow:
    card: Card
    pile: SectionName
    in_deck: tuple[tuple[str, str, int], ...]  # (part, part name, copies) where the deck has it

    @property
    def is_structure(self) -> bool:
        return self.card.type == "structure"


@dataclass(frozen=True)
class SearchView:
    query: str
    scope: str  # "catalogue" or "deck"
    rows: tuple[ResultRow, ...] = ()
    total: int = 0
    explained: str = ""
    error: SearchError | None = None
    warnings: tuple[str, ...] = ()
    pointer: tuple[str, str, str] = ("", "", "")
    page: int = 1  # pages of SEARCH_LIMIT results

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // SEARCH_LIMIT))

    @property
    def first(self) -> int:
        """The position of the page's first result (1-based)."""
        return (self.page - 1) * SEARCH_LIMIT + 1

    @property
    def last(self) -> int:
        return self.first + len(self.rows) - 1


def search_view(query: str, scope: str, data: DeckData, *, user: Any = None,
                page: int = 1) -> SearchView:
    """Cards matching ``query`` (the card search language) in the catalogue, or among the
    deck's own cards when ``scope`` is "deck", SEARCH_LIMIT a page (a page past the last is
    the last); collection keys read ``user``'s collection."""
    scope = "deck" if scope == "deck" else "catalogue"
    query = query.strip()
    deck_ids = {e.card_id for _, e in data.all_entries()}
    if not query and scope == "catalogue":
        return SearchView(query, scope)
    try:
        search = card_search(query, user=user)
    except SearchError as error:
        end = error.position + max(error.length, 1)
        pointer = (query[: error.position], query[error.position: end], query[end:])
        return SearchView(query, scope, error=error, pointer=pointer)
    cards: QuerySet[Card] = Card.objects.select_related("set")
    if scope == "deck":
        cards = cards.filter(id__in=deck_ids)
    found = search.apply(cards)
    total = found.count()
    if not total:  # a name that matches nothing: the closest names
        search = search.with_name_suggestions(found_any=False)
    page = min(max(page, 1), max(1, -(-total // SEARCH_LIMIT)))
    start = (page - 1) * SEARCH_LIMIT
    facts = catalogue_facts()
    rows = tuple(
        ResultRow(
            card=card, pile=own_pile(facts.get(card.id)),
            in_deck=tuple(
                (s, PART_NAMES[s], n) for s in SECTIONS if (n := copies_in(data, card.id, s))
            ),
        )
        for card in found[start:start + SEARCH_LIMIT]
    )
    return SearchView(query, scope, rows, total, search.explained, None, search.warnings,
                      page=page)


# --- import ---------------------------------------------------------------------------------


class DeckImportForm(forms.Form):
    text = forms.CharField(
        required=False, strip=False, label="Decklist",
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false"}),
    )
    file = forms.FileField(required=False, label="…or a file",
                           help_text="A decklist file (text, JSON or CSV), UTF-8, at most "
                           f"{MAX_DECKLIST_BYTES // 1024} kB.")
    name = forms.CharField(required=False, max_length=200,
                           help_text="Leave empty to use the name in the list (a deck code "
                           "carries none: its name travels beside it, so give it here).")
    players = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None,
        help_text="The list's “# players:” line, or 4.",
        choices=[("", "From the list")]
        + [(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
    )
    visibility = forms.ChoiceField(choices=Deck.VISIBILITY_CHOICES, initial=Deck.PRIVATE)

    def clean_file(self) -> str | None:
        upload: UploadedFile | None = self.cleaned_data.get("file")
        if upload is None:
            return None
        try:  # the same checks as the API: size, binary, UTF-8, line count
            return read_upload(upload)
        except DeckInputError as error:
            raise forms.ValidationError(error.detail[:1].upper() + error.detail[1:]) from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        text = cleaned.get("file") or cleaned.get("text") or ""
        if "file" in self.errors:
            return cleaned
        if not text.strip():
            raise forms.ValidationError("Paste a decklist or choose a file.")
        try:  # before the list is read: its bytes and lines
            check_decklist_size(text)
        except DeckInputError as error:
            raise forms.ValidationError(error.detail[:1].upper() + error.detail[1:]) from None
        cleaned["decklist"] = text
        return cleaned


@dataclass(frozen=True)
class LineErrorView:
    line: int
    text: str
    message: str
    code: str
    replacements: tuple[tuple[str, str], ...]  # (suggested name, the line it would become)


@dataclass(frozen=True)
class ImportResult:
    deck: Deck | None = None
    text: str = ""
    lines: tuple[LineErrorView, ...] = ()
    detail: str = ""
    errors: tuple[dict[str, Any], ...] = ()  # problems not tied to a line (JSON, ids)
    cards: int = 0  # cards read, when the list reads cleanly
    notes: tuple[LineNote, ...] = ()  # lines read as a card whose name they do not quite say

    @property
    def failed(self) -> bool:
        return bool(self.lines or self.detail or self.errors)

    @property
    def suggested(self) -> int:
        """Lines in error with a suggestion (Apply all takes each one's first)."""
        return sum(1 for line in self.lines if line.replacements)


def deck_import(*, owner: Any, form: DeckImportForm, save: bool = True) -> ImportResult:
    """Create a deck from a valid import form (or, with ``save=False``, only check that the
    list reads); on any problem report them all and save nothing."""
    text: str = form.cleaned_data["decklist"]
    try:
        data, notes = deck_from_text_with_notes(text)
    except DeckInputError as error:
        return ImportResult(
            text=text, lines=tuple(line_error_view(e) for e in error.lines), detail=error.detail,
            errors=tuple(e for e in error.errors() if "line" not in e),
        )
    if not save:
        return ImportResult(text=text, cards=sum(e.count for _, e in data.all_entries()),
                            notes=notes)
    overrides: dict[str, Any] = {}
    if form.cleaned_data.get("name"):
        overrides["name"] = form.cleaned_data["name"]
    if form.cleaned_data.get("players"):
        overrides["players"] = form.cleaned_data["players"]
    try:
        data = deck_to_save(replace(data, **overrides) if overrides else data)
    except DeckInputError as error:
        return ImportResult(text=text, detail=error.detail)
    deck = deck_save(owner=owner, data=data, visibility=form.cleaned_data["visibility"],
                     author=owner)
    return ImportResult(deck=deck, text=text, notes=notes)


_LEADING_COUNT: Final = re.compile("^\\s*(\\d+)\\s*[xX\u00d7]?\\s+")
_TRAILING_COUNT: Final = re.compile("\\s+[xX\u00d7]\\s*(\\d+)\\s*$")


def replace_line(text: str, number: int, name: str) -> str:
    """``text`` with line ``number`` (from 1, as the importer counts) naming ``name`` instead,
    keeping the line's count."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not 1 <= number <= len(lines):
        return text
    lines[number - 1] = _replacement(lines[number - 1], name)
    return "\n".join(lines)


def drop_line(text: str, number: str) -> str:
    """``text`` with line ``number`` made a comment ("// dropped: ..."): out of the deck, still
    in view, and every other line keeps its number (the buttons on the page name them)."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not number.isdigit() or not 1 <= int(number) <= len(lines):
        return text
    lines[int(number) - 1] = f"// dropped: {lines[int(number) - 1].strip()}"
    return "\n".join(lines)


def apply_all_suggestions(text: str, choices: Iterable[str]) -> str:
    """``text`` with every line's first suggestion applied (``"<line>|<name>"`` each)."""
    for choice in choices:
        text = apply_suggestion(text, choice)
    return text


def apply_suggestion(text: str, choice: str) -> str:
    """``text`` with a suggestion button's choice, ``"<line>|<name>"``, applied."""
    line, _, name = choice.partition("|")
    if not line.isdigit() or not name:
        return text
    return replace_line(text, int(line), name)


def _replacement(line: str, name: str) -> str:
    count = _LEADING_COUNT.match(line) or _TRAILING_COUNT.search(line)
    return f"{count.group(1)} {name}" if count else name


def line_error_view(error: LineError) -> LineErrorView:
    return LineErrorView(
        line=error.line, text=error.text, message=error.message, code=error.code,
        replacements=tuple((s, _replacement(error.text, s)) for s in error.suggestions),
    )


# --- history and compare --------------------------------------------------------------------


@dataclass(frozen=True)
class CardChange:
    name: str
    url: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class VersionView:
    version: DeckVersion
    fields: tuple[tuple[str, Any, Any], ...]
    parts: tuple[tuple[str, tuple[CardChange, ...]], ...]  # (part title, changes)
    previous: int | None = None  # the number of the version before (numbers have gaps)


def history_views(versions: Iterable[DeckVersion]) -> list[VersionView]:
    """Newest first (``versions`` in that order)."""
    facts = catalogue_facts()
    views: list[VersionView] = []
    for version in versions:
        if views:
            views[-1] = replace(views[-1], previous=version.number)
        diff = version.diff or {}
        fields = tuple(  # a new deck's fields were set, not changed: its page shows them
            (key, before, after) for key, (before, after) in diff.get("fields", {}).items()
            if before is not None
        )
        by_part: dict[str, list[CardChange]] = {}
        for change in diff.get("cards", []):
            by_part.setdefault(change["section"], []).append(CardChange(
                _name(change["card"], facts), card_url(change["card"], "page"),
                change["before"], change["after"],
            ))
        parts = tuple(
            (SECTION_TITLES[s], tuple(by_part[s])) for s in SECTIONS if s in by_part
        )
        views.append(VersionView(version, fields, parts))
    return views


@dataclass(frozen=True)
class CompareSide:
    deck: Deck
    number: int | None  # None: the current version
    data: DeckData
    validation: ValidationView

    @property
    def label(self) -> str:
        version = self.number if self.number is not None else self.deck.version
        return f"{self.data.name} (v{version}{'' if self.number else ', current'})"

    @property
    def token(self) -> str:
        return f"{self.deck.pk}:{self.number}" if self.number else str(self.deck.pk)


@dataclass(frozen=True)
class CompareRow:
    name: str
    url: str
    a: int
    b: int

    @property
    def state(self) -> str:
        if self.a == self.b:
            return "same"
        if not self.a:
            return "only-b"
        return "only-a" if not self.b else "changed"

    @property
    def delta(self) -> int:
        return self.b - self.a


def parse_side(value: str) -> tuple[int, int | None]:
    """``"12"`` or ``"12:3"`` (deck 12, version 3); raises ValueError."""
    deck, _, version = value.strip().partition(":")
    return int(deck), int(version) if version else None


def compare_side(deck: Deck, number: int | None) -> CompareSide:
    """A deck at one version (None: current); raises DeckVersion.DoesNotExist."""
    if number is None or number == deck.version:
        data = deck_data(deck)
        number = None
    else:
        data = deck_from_dict(deck.versions.get(number=number).snapshot)
    validation = deck_validate(data)
    facts = catalogue_facts()
    return CompareSide(deck, number, data,
                       ValidationView(validation, _problem_views(data, validation, facts)))


@dataclass(frozen=True)
class ComparePart:
    title: str
    rows: tuple[CompareRow, ...]  # the rows shown
    differences: int  # rows whose counts differ, shown or not


def compare_parts(a: DeckData, b: DeckData, only_differences: bool = False
                  ) -> list[ComparePart]:
    """Per part, every card of either deck (A's order, then B's new cards) with both counts."""
    facts = catalogue_facts()
    parts = []
    for section in SECTIONS:
        counts_a = {e.card_id: e.count for e in a.section(section)}
        counts_b = {e.card_id: e.count for e in b.section(section)}
        ids = [*counts_a, *(cid for cid in counts_b if cid not in counts_a)]
        rows = [
            CompareRow(_name(cid, facts), card_url(cid, "page"), counts_a.get(cid, 0),
                       counts_b.get(cid, 0))
            for cid in ids
        ]
        differing = [row for row in rows if row.state != "same"]
        parts.append(ComparePart(SECTION_TITLES[section],
                                 tuple(differing if only_differences else rows),
                                 len(differing)))
    return parts


def version_data(version: DeckVersion) -> DeckData:
    return deck_from_dict(version.snapshot)
