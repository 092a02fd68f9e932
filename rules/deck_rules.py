"""Deck construction rules: the deck validator (docs/design.md §6, a contract).

Pure Python, no Django. :func:`validate_deck` checks a :class:`~rules.decklist.Decklist` against
the rulebook's deck building and Initial Holdings rules in one pass and returns *every*
problem at once, each with the rulebook sentence it enforces and a concrete fix.

Checks
------

Errors (the deck is illegal): ``structure_pile_too_small``, ``personality_pile_too_small``,
``wanderer_pile_too_small``, ``too_many_copies``, ``no_stronghold``, ``too_many_strongholds``,
``too_many_zero_cost_structures``, ``unique_structure_in_holdings``, ``holdings_over_budget``,
``too_many_walls``, ``wrong_pile``, ``unknown_card``. Warnings (legal, but something will not
work in play): ``stronghold_in_pile``, ``invocation_unusable``, ``battle_event_unusable``,
``citizens_without_residences``, ``items_without_bearers``, ``unverifiable``.

How the deck is read:

* **Piles count the cards that belong there.** A card in a part that cannot hold its type is a
  ``wrong_pile`` error and counts toward no pile size (a personality in the Structure Pile is
  not one of its fifteen structures); so moving it to its own pile never shortens a pile.
  Holdings never count toward the Structure Pile.
* **Ids not in the catalogue** are one ``unknown_card`` error each; they count toward the copy
  limit (that is a fact about the id) and toward nothing else.
* **Initial Holdings rules look at the structures there** (a non-structure there is only a
  ``wrong_pile`` error). The budget is the 12 starting tokens, 4 of each kind: the economic,
  religious and political costs must each fit in their own 4 tokens and everything together,
  generic costs included, in 12. A structure's typed costs are not printed (null = 0); its
  generic cost is. A zero-cost structure costs nothing at all (a typed cost is a cost).
  Strongholds count toward the budget; they are left out of the zero-cost and the unique
  rules, which are about the *other* holdings.
* A structure without a subtype but with a vitality is a stronghold (only strongholds have a
  vitality); see :class:`rules.cards.CardFacts`. Walls' residencies are their blocking number,
  so walls never house citizens; strongholds do.

Unknown facts (null fields)
---------------------------

Null means *not yet transcribed*, so a null never produces an error that might be false. Each
check works out what it knows for certain and what it might be, and gives exactly one verdict:
an error or warning when the known facts alone break the rule (costs are never negative, so
known costs over the budget are over budget whatever the unknown ones are); nothing when the
known facts alone satisfy it, or when no value of the unknown fields could break it; and
otherwise one ``unverifiable`` warning per (check, field), listing every card whose null field
stopped the check, with :attr:`Problem.check` and :attr:`Problem.field` set and the field named
in the message. A card with a null ``type`` counts toward the pile it is in (it might belong
there) and gets ``unverifiable`` for ``wrong_pile``.

So a deck of real *War of Factions* cards, whose types and structure subtypes are known but
whose costs, uniqueness and strengths are not, gets errors only for what is certain (pile
sizes, copies, piles, the stronghold count, walls) and ``unverifiable`` warnings for the budget,
the zero-cost and the unique rules, invocations, battle events and residences.

Problems
--------

One problem per code, except per card for ``too_many_copies``, ``wrong_pile``,
``unknown_card``, ``invocation_unusable`` and ``battle_event_unusable`` (and per (check,
field) for ``unverifiable``). Problems come errors first, in the order of the table of
docs/design.md §6, then by cards. :attr:`Problem.key` identifies a problem across two validations.

Fixes
-----

A :class:`Fix` is one edit: ``add`` ``count`` copies of ``card`` to ``section``, ``remove``
them from ``section``, or ``move`` them from ``section`` to ``to``. ``to`` is set for moves only
(as in docs/design.md §6); ``section`` always says where the edit happens, so that every fix can be
applied without guessing (:func:`apply_fix`). :meth:`Fix.to_dict` gives ``{"action", "card",
"count", "to", "section"}``.

The fixes of a problem are a *plan*: applied together, in order (:func:`apply_fixes`), they
clear that problem. Each plan is chosen among a few candidates by applying it and validating
the result: a plan must clear the problem and create no error the deck did not have; among
those the one leaving the fewest errors, then the fewest edits, then the first in the order of
preference below wins. A problem with no such plan gets no fixes, and its message says why.
The one exception is ``too_many_copies``: the copy limit must be met whatever it costs, so if
every plan shortens a pile, the removal alone is offered (the message says which pile it
shortens, and that pile's own problem then has no fix either: nothing could be added there).
Plans that can only add cards to their own pile, move cards to a pile that holds them or out of
the holdings, or remove unknown ids (the pile, ``wrong_pile``, ``unknown_card``, zero-cost,
unique and wall codes) cannot break another rule, so they are offered without the trial (the
property tests check that too).

Candidates, by code (cards to *add* are, in order: cards already in the deck with fewer than 2
copies, then cards of the ``catalogue`` argument, the deck's main faction first, then neutral
ones, fully transcribed cards first, by id; never strongholds for the Structure Pile):

* pile too small: add the missing number of cards of the pile's types (for the Structure
  Pile, moving non-stronghold holdings back to it is the last resort);
* ``too_many_copies``: remove the extra copies, first from parts where the card is misplaced,
  then from the pile with the most cards to spare, then from the holdings (never the only
  stronghold); if a pile still drops below its minimum, add as many other cards to it;
* ``no_stronghold``: move a stronghold of the deck into the holdings, else add one from the
  catalogue; when it breaks the budget, move the other holdings needed back to the Structure
  Pile; when it shortens the Structure Pile, add a structure there;
* ``too_many_strongholds``: keep one stronghold (each is tried), remove the others (strongholds
  are played only as Initial Holdings, so a spare one is dead weight in a pile);
* ``too_many_zero_cost_structures``, ``unique_structure_in_holdings``, ``too_many_walls``:
  move the extra (the fewest-residencies zero-cost ones; every unique one; all walls but the
  best blocker) back to the Structure Pile;
* ``holdings_over_budget``: move the fewest non-stronghold holdings back to the Structure Pile
  that make the rest fit, the most expensive among equally few; if even the stronghold alone
  does not fit, swap it for a cheaper one;
* ``wrong_pile``: move the card to its pile (structures to the Structure Pile);
* ``unknown_card``: remove it;
* ``stronghold_in_pile``: with no stronghold in the holdings, move it there; remove the rest;
* ``invocation_unusable`` / ``battle_event_unusable``: add a personality (a Glory of Kalim one
  for Kalim invocations) / a troop that meets the requirement, else remove the card;
* ``citizens_without_residences``: add a structure with residencies to the Structure Pile;
* ``items_without_bearers``: add a personality (a troop first), else remove the items;
* ``unverifiable``: none (the card data needs transcribing, not the deck).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Final, Literal

from rules.card_anatomy import ANATOMY, FACTIONS
from rules.cards import CardFacts
from rules.decklist import SECTION_TITLES, SECTIONS, DeckEntry, Decklist, SectionName

type Severity = Literal["error", "warning"]
type Action = Literal["remove", "add", "move"]
type PileName = Literal["structures", "personalities", "wanderers"]

PILE_MINIMUM: Final = 15
WANDERERS_PER_PLAYER: Final = 3
MAX_COPIES: Final = 2
TOKENS_PER_KIND: Final = 4
STARTING_TOKENS: Final = 12
MAX_ZERO_COST: Final = 2
# The player counts a deck can be legal for; 1 is accepted too (the goldfish's solo game).
LEGAL_PLAYERS: Final = (2, 6)

ERROR_CODES: Final = (
    "structure_pile_too_small",
    "personality_pile_too_small",
    "wanderer_pile_too_small",
    "too_many_copies",
    "no_stronghold",
    "too_many_strongholds",
    "too_many_zero_cost_structures",
    "unique_structure_in_holdings",
    "holdings_over_budget",
    "too_many_walls",
    "wrong_pile",
    "unknown_card",
)
WARNING_CODES: Final = (
    "stronghold_in_pile",
    "invocation_unusable",
    "battle_event_unusable",
    "citizens_without_residences",
    "items_without_bearers",
    "unverifiable",
)
#: The errors about the Initial Holdings as a whole (a card of another type placed there is a
#: ``wrong_pile`` error naming it): what a game cannot be set up with (:func:`holdings_problems`).
HOLDINGS_CODES: Final = (
    "no_stronghold",
    "too_many_strongholds",
    "too_many_zero_cost_structures",
    "unique_structure_in_holdings",
    "holdings_over_budget",
    "too_many_walls",
)
_ORDER: Final = {code: i for i, code in enumerate(ERROR_CODES + WARNING_CODES)}
_PER_CARD: Final = frozenset(
    {"too_many_copies", "wrong_pile", "unknown_card", "invocation_unusable",
     "battle_event_unusable"}
)

_DECK_BUILDING_PILES: Final = (
    "After purchasing initial holdings each player must have at least fifteen cards in each of "
    "their structure and personality draw piles."
)
_INITIAL_HOLDINGS: Final = (
    "Before beginning play each player must purchase initial holdings (using their 12 starting "
    "influence tokens) from their structure draw deck including: a stronghold, two or less zero "
    "cost structures, as may other non-unique structures desired."
)
_ONE_STRONGHOLD: Final = (
    "A player must have one and only one stronghold which is part of their initial holdings."
)
_SIX_TYPES: Final = (
    "There are six types of cards: Structures, Personalities, Wanderers, Items, Invocations, "
    "and Events."
)

#: The rulebook (v0.80) sentence each check enforces, quoted exactly.
RULES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "structure_pile_too_small": _DECK_BUILDING_PILES,
        "personality_pile_too_small": _DECK_BUILDING_PILES,
        "wanderer_pile_too_small": (
            "Each wanderer draw pile must consist of no less than three wanderers multiplied by "
            "the number of players."
        ),
        "too_many_copies": "No more than two of a single card can be used in a deck.",
        "no_stronghold": _ONE_STRONGHOLD,
        "too_many_strongholds": _ONE_STRONGHOLD,
        "too_many_zero_cost_structures": _INITIAL_HOLDINGS,
        "unique_structure_in_holdings": _INITIAL_HOLDINGS,
        "holdings_over_budget": (
            "Each player begins with 4 each of economic, religious, and political tokens in "
            "their personal influence pool which can be used to purchase their initial holdings."
        ),
        "too_many_walls": "Only one wall may be in play per player.",
        "wrong_pile": _SIX_TYPES,
        "unknown_card": _SIX_TYPES,
        "stronghold_in_pile": _ONE_STRONGHOLD,
        "invocation_unusable": (
            "Invocations must be attached beneath a personality of yours with a religious "
            "strength equal to or greater than the invocation's religious strength requirement."
        ),
        "battle_event_unusable": (
            "Battle events require a troop with sufficient economic/military strength to be on "
            "the battlefield in order to be used (#14)."
        ),
        "citizens_without_residences": (
            "Must be played on a structure of yours with an open residence (#19)."
        ),
        "items_without_bearers": (
            "Items must be attached beneath another card of yours when brought into play. "
            "Generally an item is attached to personality unless otherwise directed in their "
            "text."
        ),
    }
)
#: ``wrong_pile`` quotes the sentence of the pile the card belongs in.
PILE_RULES: Final[Mapping[PileName, str]] = MappingProxyType(
    {
        "structures": "Undrawn structures are found here.",
        "personalities": "Undrawn personalities, items, events, and invocations are found here.",
        "wanderers": "Undrawn wanderers are found here.",
    }
)
KALIM_INVOCATION_RULE: Final = (
    "Kalim invocations may only be used by Glory of Kalim faction members."
)

# What each check verifies, for "Cannot check ..." messages.
_CHECKS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "structure_pile_too_small": "that the Structure Pile has at least 15 structures",
        "personality_pile_too_small": "that the Personality Pile has at least 15 cards",
        "wanderer_pile_too_small": "that the Wanderer Pile has enough wanderers",
        "no_stronghold": "that the Initial Holdings include a stronghold",
        "too_many_strongholds": "that the Initial Holdings include only one stronghold",
        "too_many_zero_cost_structures": (
            "that the Initial Holdings have at most two zero-cost structures besides the "
            "stronghold"
        ),
        "unique_structure_in_holdings": (
            "that no structure in the Initial Holdings but the stronghold is unique"
        ),
        "holdings_over_budget": "that the Initial Holdings fit in the 12 starting tokens",
        "too_many_walls": "that the Initial Holdings have at most one wall",
        "wrong_pile": "that every card is in a pile that can hold it",
        "stronghold_in_pile": "that the Structure Pile holds no stronghold",
        "invocation_unusable": "that a personality of the deck can use each invocation",
        "battle_event_unusable": "that a troop of the deck can use each battle event",
        "citizens_without_residences": "that the citizens have a structure to live in",
        "items_without_bearers": "that the items have a personality to carry them",
    }
)
_FIELD_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {
        **{key: field.label.lower() for field in ANATOMY for key in field.keys},
        "type": "card type",
        "subtype": "subtype",
        "faction": "faction",
        "unique": "unique mark",
    }
)
_TYPE_NAMES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "structure": "a structure",
        "personality": "a personality",
        "item": "an item",
        "invocation": "an invocation",
        "event": "an event",
        "wanderer": "a wanderer",
    }
)


# --- results -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fix:
    """One edit of a deck: add ``count`` copies of ``card`` to ``section``, remove them from
    ``section``, or move them from ``section`` to ``to`` (``to`` is None unless moving)."""

    action: Action
    card: str
    count: int
    section: SectionName
    to: SectionName | None = None

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"a fix needs a count of at least 1, not {self.count}")
        if (self.action == "move") != (self.to is not None):
            raise ValueError("a move needs a target section (to), and only a move has one")

    def to_dict(self) -> dict[str, object]:
        return {
            "action": self.action,
            "card": self.card,
            "count": self.count,
            "to": self.to,
            "section": self.section,
        }


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken rule. ``check`` and ``field`` are set for ``unverifiable`` only: the code of
    the check that could not be made and the null data key that stopped it."""

    code: str
    severity: Severity
    message: str
    rule: str
    cards: tuple[str, ...] = ()
    fixes: tuple[Fix, ...] = ()
    check: str | None = None
    field: str | None = None

    @property
    def key(self) -> tuple[str, ...]:
        """What identifies this problem across validations of edited decks: the code (and for
        ``unverifiable`` the check and field), plus the cards for per-card codes."""
        head = (self.code, self.check or "", self.field or "")
        return head + self.cards if self.code in _PER_CARD else head

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "rule": self.rule,
            "cards": list(self.cards),
            "fixes": [fix.to_dict() for fix in self.fixes],
        }


@dataclass(frozen=True, slots=True)
class Counts:
    """Cards per part of the deck, as entered (misplaced and unknown cards included)."""

    holdings: int
    structures: int
    personalities: int
    wanderers: int

    @property
    def total(self) -> int:
        return self.holdings + self.structures + self.personalities + self.wanderers

    def to_dict(self) -> dict[str, int]:
        return {
            "holdings": self.holdings,
            "structures": self.structures,
            "personalities": self.personalities,
            "wanderers": self.wanderers,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class Validation:
    problems: tuple[Problem, ...]
    counts: Counts
    #: The player counts (within 2..6) for which the deck has no error, or None.
    legal_players: tuple[int, int] | None

    @property
    def legal(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "warning")

    def to_dict(self) -> dict[str, object]:
        return {
            "legal": self.legal,
            "problems": [p.to_dict() for p in self.problems],
            "counts": self.counts.to_dict(),
            "legal_players": list(self.legal_players) if self.legal_players else None,
        }


# --- applying fixes ------------------------------------------------------------------------


def apply_fix(deck: Decklist, fix: Fix) -> Decklist:
    """The deck with one fix applied (a new deck; ``deck`` is unchanged).

    Added cards go after the section's cards (or onto the card's entry there). Removing or
    moving more copies than the section holds is a ``ValueError``.
    """
    if fix.action == "add":
        return _with(deck, fix.section, fix.card, fix.count)
    edited = _with(deck, fix.section, fix.card, -fix.count)
    if fix.action == "move":
        assert fix.to is not None  # checked by Fix
        edited = _with(edited, fix.to, fix.card, fix.count)
    return edited


def apply_fixes(deck: Decklist, fixes: Iterable[Fix]) -> Decklist:
    """The deck with every fix applied, in order: a problem's whole plan."""
    for fix in fixes:
        deck = apply_fix(deck, fix)
    return deck


def describe_fix(fix: Fix, cards: Mapping[str, CardFacts]) -> str:
    """The fix in English, e.g. "Move 1 Fort Ashgate from the Structure Pile to the Initial
    Holdings": a label for a one-click fix button."""
    name = _name(fix.card, cards)
    where = SECTION_TITLES[fix.section]
    if fix.action == "add":
        return f"Add {fix.count} {name} to the {where}"
    if fix.action == "remove":
        return f"Remove {fix.count} {name} from the {where}"
    assert fix.to is not None
    return f"Move {fix.count} {name} from the {where} to the {SECTION_TITLES[fix.to]}"


def _with(deck: Decklist, section: SectionName, card: str, delta: int) -> Decklist:
    entries = list(deck.section(section))
    have = 0
    for i, entry in enumerate(entries):
        if entry.card_id == card:
            have = entry.count
            if have + delta > 0:
                entries[i] = DeckEntry(card, have + delta)
            elif have + delta == 0:
                del entries[i]
            break
    else:
        if delta > 0:
            entries.append(DeckEntry(card, delta))
    if have + delta < 0:
        raise ValueError(
            f"cannot take {-delta} {card!r} from the {SECTION_TITLES[section]}: it holds {have}"
        )
    parts = {name: deck.section(name) for name in SECTIONS}
    parts[section] = tuple(entries)
    return Decklist(
        deck.name, deck.players, deck.description,
        parts["holdings"], parts["structures"], parts["personalities"], parts["wanderers"],
    )


# --- validation ----------------------------------------------------------------------------


def validate_deck(
    deck: Decklist,
    cards: Mapping[str, CardFacts],
    players: int | None = None,
    catalogue: Mapping[str, CardFacts] | None = None,
) -> Validation:
    """Every problem of the deck at once (see the module docstring).

    ``cards`` gives the facts of the deck's cards (a larger catalogue is fine); ``players``
    defaults to the deck's player count (1 is accepted, for the goldfish's solo game, though a
    deck is only ever *legal* for 2..6); ``catalogue`` holds the cards a fix may *add* (without
    it, fixes only add more copies of the deck's own cards).
    """
    players = deck.players if players is None else players
    if not 1 <= players <= LEGAL_PLAYERS[1]:
        raise ValueError(f"players must be 1..{LEGAL_PLAYERS[1]}, not {players}")
    scan = _Scan(deck, cards, players)
    problems = scan.problems()
    counts = Counts(*(scan.totals[s] for s in SECTIONS))
    if problems:
        fixer = _Fixer(scan, problems, catalogue)
        problems = [fixer.explain(replace(p, fixes=fixer.fixes(p))) for p in problems]
    return Validation(tuple(problems), counts, scan.legal_players(problems))


def holdings_problems(deck: Decklist, cards: Mapping[str, CardFacts]) -> tuple[Problem, ...]:
    """The errors of the deck's Initial Holdings, exactly as :func:`validate_deck` gives them
    for a solo game (the same codes, messages and fixes): the :data:`HOLDINGS_CODES` and a
    ``wrong_pile`` for each card of another type placed there. The piles are not judged: a
    game can be played with short piles, not with illegal holdings."""
    scan = _Scan(deck, cards, 1)
    problems = scan.problems()
    placed = {entry.card_id for entry in deck.holdings}
    chosen = [p for p in problems if p.severity == "error" and (
        p.code in HOLDINGS_CODES or (p.code == "wrong_pile" and placed & set(p.cards)))]
    if not chosen:
        return ()
    fixer = _Fixer(scan, problems, None)
    return tuple(fixer.explain(replace(p, fixes=fixer.fixes(p))) for p in chosen)


class _Scan:
    """One pass over the deck: every fact the checks need."""

    __slots__ = (
        "cards",
        "certain",
        "copies",
        "deck",
        "events",
        "holdings",
        "invocations",
        "items",
        "max_rel_all",
        "max_rel_kalim",
        "max_troop_eco",
        "maybe_residences",
        "persons",
        "pile_structures",
        "players",
        "possible",
        "residences",
        "totals",
        "unknown",
        "untyped",
        "wrong",
    )

    def __init__(self, deck: Decklist, cards: Mapping[str, CardFacts], players: int) -> None:
        self.deck = deck
        self.cards = cards
        self.players = players
        copies: dict[str, int] = {}
        totals = {"holdings": 0, "structures": 0, "personalities": 0, "wanderers": 0}
        certain = dict(totals)  # cards of the right type per part
        possible = dict(totals)  # ... plus cards of unknown type
        unknown: dict[str, list[tuple[SectionName, int]]] = {}
        wrong: dict[str, list[tuple[SectionName, int]]] = {}
        untyped: dict[str, list[SectionName]] = {}
        holdings: list[tuple[CardFacts, int]] = []
        pile_structures: list[tuple[CardFacts, int]] = []
        persons: dict[str, CardFacts] = {}
        invocations: dict[str, CardFacts] = {}
        events: dict[str, CardFacts] = {}
        items: dict[str, CardFacts] = {}
        residences = False
        maybe_residences: list[CardFacts] = []
        max_rel_all = max_rel_kalim = max_troop_eco = -1
        for section in SECTIONS:
            entries: tuple[DeckEntry, ...] = getattr(deck, section)
            in_structures = section == "holdings" or section == "structures"
            total = 0
            for entry in entries:
                cid = entry.card_id
                n = entry.count
                total += n
                copies[cid] = copies.get(cid, 0) + n
                card = cards.get(cid)
                if card is None:
                    unknown.setdefault(cid, []).append((section, n))
                    continue
                pile = card.pile
                if pile is None:
                    untyped.setdefault(cid, []).append(section)
                    possible[section] += n
                elif pile == section or (pile == "structures" and section == "holdings"):
                    certain[section] += n
                    possible[section] += n
                else:
                    wrong.setdefault(cid, []).append((section, n))
                kind = card.type
                if kind == "personality":
                    persons[cid] = card
                    rel = card.strength_religious
                    if rel is not None:
                        if rel > max_rel_all:
                            max_rel_all = rel
                        if rel > max_rel_kalim and card.faction == "kalim":
                            max_rel_kalim = rel
                    eco = card.strength_economic
                    if eco is not None and eco > max_troop_eco and card.personality_kind == "troop":
                        max_troop_eco = eco
                elif kind == "structure" or kind is None:
                    if in_structures:
                        if section == "holdings":
                            holdings.append((card, n))
                        else:
                            pile_structures.append((card, n))
                        if not residences:
                            res = card.residencies
                            skind = card.structure_kind
                            if skind == "general" or skind == "stronghold":
                                if res is None:
                                    maybe_residences.append(card)
                                elif res > 0:
                                    residences = True
                            elif skind is None and (res is None or res > 0):
                                maybe_residences.append(card)
                elif kind == "invocation":
                    invocations[cid] = card
                elif kind == "event":
                    events[cid] = card
                elif kind == "item":
                    items[cid] = card
            totals[section] = total
        self.copies = copies
        self.totals = totals
        self.certain = certain
        self.possible = possible
        self.unknown = unknown
        self.wrong = wrong
        self.untyped = untyped
        self.holdings = holdings
        self.pile_structures = pile_structures
        self.persons = persons
        self.invocations = invocations
        self.events = events
        self.items = items
        self.residences = residences
        self.maybe_residences = maybe_residences
        self.max_rel_all = max_rel_all
        self.max_rel_kalim = max_rel_kalim
        self.max_troop_eco = max_troop_eco

    def need(self, pile: PileName) -> int:
        return WANDERERS_PER_PLAYER * self.players if pile == "wanderers" else PILE_MINIMUM

    def legal_players(self, problems: list[Problem]) -> tuple[int, int] | None:
        if any(p.severity == "error" and p.code != "wanderer_pile_too_small" for p in problems):
            return None
        top = min(LEGAL_PLAYERS[1], self.possible["wanderers"] // WANDERERS_PER_PLAYER)
        return (LEGAL_PLAYERS[0], top) if top >= LEGAL_PLAYERS[0] else None

    # -- the checks ---------------------------------------------------------------------

    def problems(self) -> list[Problem]:
        found: list[Problem] = []
        unverified: dict[tuple[str, str], dict[str, None]] = {}
        self._piles(found, unverified)
        if self.copies and max(self.copies.values()) > MAX_COPIES:
            self._copies(found)
        self._holdings(found, unverified)
        if self.wrong:
            self._wrong_piles(found)
        for cid, places in self.unknown.items():
            where = _places(places)
            found.append(_error(
                "unknown_card", f"No card with the id '{cid}' is in the catalogue ({where}).",
                (cid,),
            ))
        if self.untyped:
            _note(unverified, "wrong_pile", "type", self.untyped)
        self._warnings(found, unverified)
        for (check, field), ids in unverified.items():
            found.append(self._unverifiable(check, field, tuple(sorted(ids))))
        if len(found) > 1:
            found.sort(key=lambda p: (_ORDER[p.code], p.check or "", p.field or "", p.cards))
        return found

    def _piles(self, found: list[Problem], unverified: dict[tuple[str, str], dict[str, None]]
               ) -> None:
        pile: PileName
        for pile in ("structures", "personalities", "wanderers"):
            need = self.need(pile)
            possible = self.possible[pile]
            if possible >= need and self.certain[pile] >= need:
                continue
            code = _PILE_CODES[pile]
            if possible >= need:
                maybe = [cid for cid, places in self.untyped.items() if pile in places]
                _note(unverified, code, "type", maybe)
                continue
            found.append(_error(code, self._pile_message(pile, possible, need), ()))

    def _pile_message(self, pile: PileName, have: int, need: int) -> str:
        title = SECTION_TITLES[pile]
        counted = _plural(have, "wanderer" if pile == "wanderers" else "card")
        others = self.totals[pile] - have
        if others:
            verb = "does" if others == 1 else "do"
            counted += f" that count ({_plural(others, 'misplaced card')} there {verb} not)"
        if pile == "wanderers":
            players = _plural(self.players, "player")
            verb = "needs" if self.players == 1 else "need"
            return (
                f"The {title} has {counted}; {players} {verb} at least {need} "
                f"({WANDERERS_PER_PLAYER} per player)."
            )
        tail = " (holdings do not count)" if pile == "structures" else ""
        return f"The {title} has {counted}; it needs at least {need}{tail}."

    def _copies(self, found: list[Problem]) -> None:
        over = {cid: n for cid, n in self.copies.items() if n > MAX_COPIES}
        where: dict[str, list[tuple[SectionName, int]]] = {cid: [] for cid in over}
        for section, entry in self.deck.all_entries():
            if entry.card_id in where:
                where[entry.card_id].append((section, entry.count))
        for cid, n in over.items():
            places = where[cid]
            found.append(_error(
                "too_many_copies",
                f"There are {n} copies of {_name(cid, self.cards)} ({_places(places)}); "
                f"a deck may hold at most {MAX_COPIES}.",
                (cid,),
            ))

    def _holdings(self, found: list[Problem], unverified: dict[tuple[str, str], dict[str, None]]
                  ) -> None:
        strongholds: list[tuple[CardFacts, int]] = []
        walls: list[tuple[CardFacts, int]] = []
        zero: list[tuple[CardFacts, int]] = []
        unique: list[CardFacts] = []
        kind_unknown: list[str] = []  # type or subtype unknown: might be a stronghold / wall
        maybe_zero: dict[str, list[str]] = {}
        maybe_unique: dict[str, list[str]] = {}
        unknown_cost: dict[str, list[str]] = {}
        econ = relig = polit = generic = 0
        for card, n in self.holdings:
            cid = card.id
            if card.type is None:
                kind_unknown.append(cid)
                for bucket in (maybe_zero, maybe_unique, unknown_cost):
                    bucket.setdefault("type", []).append(cid)
                continue
            kind = card.structure_kind
            if kind == "stronghold":
                strongholds.append((card, n))
            elif kind == "wall":
                walls.append((card, n))
            elif kind is None:
                kind_unknown.append(cid)
            cost = card.cost_generic
            if cost is None:
                unknown_cost.setdefault("cost_generic", []).append(cid)
            else:
                generic += cost * n
            typed = (card.cost_economic or 0, card.cost_religious or 0, card.cost_political or 0)
            econ += typed[0] * n
            relig += typed[1] * n
            polit += typed[2] * n
            if kind == "stronghold":
                continue
            if any(typed):
                pass  # a structure with a typed cost is not a zero-cost one
            elif cost == 0:
                if kind is None:
                    maybe_zero.setdefault("subtype", []).append(cid)
                else:
                    zero.append((card, n))
            elif cost is None:
                maybe_zero.setdefault("cost_generic", []).append(cid)
            if card.unique:
                if kind is None:
                    maybe_unique.setdefault("subtype", []).append(cid)
                else:
                    unique.append(card)
            elif card.unique is None:
                maybe_unique.setdefault("unique", []).append(cid)
        self._stronghold_count(found, unverified, strongholds, kind_unknown)
        n_zero = sum(n for _, n in zero)
        if n_zero > MAX_ZERO_COST:
            listed = _listing((c.id, n) for c, n in zero)
            found.append(_error(
                "too_many_zero_cost_structures",
                f"The Initial Holdings have {n_zero} zero-cost structures besides the stronghold "
                f"({self._names(listed)}); at most {MAX_ZERO_COST} are allowed.",
                tuple(sorted(c.id for c, _ in zero)),
            ))
        elif n_zero + sum(len(v) for v in maybe_zero.values()) > MAX_ZERO_COST:
            for field, ids in maybe_zero.items():
                _note(unverified, "too_many_zero_cost_structures", field, ids)
        if unique:
            unique_ids = tuple(sorted({c.id for c in unique}))
            names = _and([_name(i, self.cards) for i in unique_ids])
            verb = "is" if len(unique_ids) == 1 else "are"
            found.append(_error(
                "unique_structure_in_holdings",
                f"{names} {verb} unique; only the stronghold may be a unique structure in the "
                "Initial Holdings.",
                unique_ids,
            ))
        else:
            for field, ids in maybe_unique.items():
                _note(unverified, "unique_structure_in_holdings", field, ids)
        self._budget(found, unverified, (econ, relig, polit, generic), unknown_cost)
        n_walls = sum(n for _, n in walls)
        if n_walls > 1:
            listed = _listing((c.id, n) for c, n in walls)
            found.append(_error(
                "too_many_walls",
                f"The Initial Holdings have {n_walls} walls ({self._names(listed)}); only one "
                "wall may be in play per player.",
                tuple(sorted({c.id for c, _ in walls})),
            ))
        elif n_walls + len(kind_unknown) > 1 and kind_unknown:
            self._note_kinds(unverified, "too_many_walls", kind_unknown)

    def _stronghold_count(
        self,
        found: list[Problem],
        unverified: dict[tuple[str, str], dict[str, None]],
        strongholds: list[tuple[CardFacts, int]],
        kind_unknown: list[str],
    ) -> None:
        count = sum(n for _, n in strongholds)
        if count == 0:
            if kind_unknown:
                self._note_kinds(unverified, "no_stronghold", kind_unknown)
            else:
                found.append(_error(
                    "no_stronghold",
                    "The Initial Holdings have no stronghold; they need exactly one.",
                    (),
                ))
        elif count > 1:
            listed = _listing((c.id, n) for c, n in strongholds)
            found.append(_error(
                "too_many_strongholds",
                f"The Initial Holdings have {count} strongholds ({self._names(listed)}); they "
                "need exactly one.",
                tuple(sorted({c.id for c, _ in strongholds})),
            ))
        elif kind_unknown:
            self._note_kinds(unverified, "too_many_strongholds", kind_unknown)

    def _note_kinds(
        self, unverified: dict[tuple[str, str], dict[str, None]], check: str, ids: list[str]
    ) -> None:
        for cid in ids:
            field = "type" if self.cards[cid].type is None else "subtype"
            _note(unverified, check, field, (cid,))

    def _budget(
        self,
        found: list[Problem],
        unverified: dict[tuple[str, str], dict[str, None]],
        cost: tuple[int, int, int, int],
        unknown_cost: dict[str, list[str]],
    ) -> None:
        econ, relig, polit, generic = cost
        total = econ + relig + polit + generic
        over = [
            f"{amount} {kind} tokens"
            for amount, kind in ((econ, "economic"), (relig, "religious"), (polit, "political"))
            if amount > TOKENS_PER_KIND
        ]
        if total <= STARTING_TOKENS and not over:
            for field, ids in unknown_cost.items():
                _note(unverified, "holdings_over_budget", field, ids)
            return
        priced = [
            (card.id, n) for card, n in self.holdings
            if card.type is not None and card.cost_generic is not None
        ]
        parts = ", ".join(
            f"{_holding_total(self.cards[cid]) * n} for {self._names([(cid, n)])}"
            for cid, n in priced
        )
        if over:
            why = (f"they need {_and(over)}, but only {TOKENS_PER_KIND} of each kind are "
                   "available")
        else:
            why = f"only {STARTING_TOKENS} starting tokens are available"
        at_least = " at least" if unknown_cost else ""
        found.append(_error(
            "holdings_over_budget",
            f"The Initial Holdings cost{at_least} {total} tokens ({parts}); {why} "
            f"({TOKENS_PER_KIND} economic, {TOKENS_PER_KIND} religious, {TOKENS_PER_KIND} "
            "political).",
            tuple(sorted({cid for cid, _ in priced})),
        ))

    def _wrong_piles(self, found: list[Problem]) -> None:
        for cid, places in self.wrong.items():
            card = self.cards[cid]
            assert card.type is not None and card.pile is not None
            home = SECTION_TITLES[card.pile]
            if card.pile == "structures":
                home += " (or the Initial Holdings)"
            where = _and([SECTION_TITLES[s] for s, _ in places])
            found.append(_error(
                "wrong_pile",
                f"{card.name} is {_TYPE_NAMES[card.type]}; it belongs in the {home}, not the "
                f"{where}.",
                (cid,),
                rule=PILE_RULES[card.pile],
            ))

    def _warnings(self, found: list[Problem], unverified: dict[tuple[str, str], dict[str, None]]
                  ) -> None:
        in_pile = [c for c, _ in self.pile_structures if c.structure_kind == "stronghold"]
        if in_pile:
            ids = tuple(sorted({c.id for c in in_pile}))
            names = _and([_name(i, self.cards) for i in ids])
            found.append(_warning(
                "stronghold_in_pile",
                f"{names} {'is a stronghold' if len(ids) == 1 else 'are strongholds'} in the "
                "Structure Pile; strongholds are played only as Initial Holdings, so "
                f"{'it' if len(ids) == 1 else 'they'} can never be played from there.",
                ids,
            ))
        else:
            maybe = [
                c.id for c, _ in self.pile_structures if c.structure_kind is None
            ]
            if maybe:
                self._note_kinds(unverified, "stronghold_in_pile", maybe)
        for card in self.invocations.values():
            self._invocation(card, found, unverified)
        for card in self.events.values():
            self._battle_event(card, found, unverified)
        self._residences(found, unverified)
        if self.items and not self.persons:
            ids = tuple(sorted(self.items))
            maybe = [cid for cid in self.untyped]
            if maybe:
                _note(unverified, "items_without_bearers", "type", maybe)
            else:
                names = _and([_name(i, self.cards) for i in ids])
                found.append(_warning(
                    "items_without_bearers",
                    f"The deck has items ({names}) but no personality to carry them.",
                    ids,
                ))

    def _invocation(self, card: CardFacts, found: list[Problem],
                    unverified: dict[tuple[str, str], dict[str, None]]) -> None:
        need = card.strength_religious
        if need is None:
            _note(unverified, "invocation_unusable", "strength_religious", (card.id,))
            return
        subtype = card.subtype
        kalim = subtype == "kalim"
        # Unknown subtype: read as Kalim first, the stricter rule.
        if (self.max_rel_all if subtype == "general" else self.max_rel_kalim) >= need:
            return
        if subtype is None:
            if self.max_rel_all >= need or self._religious_maybes(need, kalim=False):
                _note(unverified, "invocation_unusable", "subtype", (card.id,))
                return
        else:
            maybes = self._religious_maybes(need, kalim=kalim)
            if maybes:
                for field, ids in maybes.items():
                    _note(unverified, "invocation_unusable", field, ids)
                return
        who = "Glory of Kalim member" if kalim else "personality"
        lead = f"{card.name} is a Kalim invocation: it" if kalim else card.name
        found.append(_warning(
            "invocation_unusable",
            f"{lead} needs a {who} with religious strength {need} or more, but the best in the "
            f"deck has {max(0, self._best_religious(kalim))}.",
            (card.id,),
            rule=KALIM_INVOCATION_RULE if kalim else RULES["invocation_unusable"],
        ))

    def _best_religious(self, kalim: bool) -> int:
        return self.max_rel_kalim if kalim else self.max_rel_all

    def _religious_maybes(self, need: int, kalim: bool) -> dict[str, list[str]]:
        """Personalities that might meet a religious requirement: the null field per card."""
        maybes: dict[str, list[str]] = {}
        for p in self.persons.values():
            rel = p.strength_religious
            if rel is not None and rel < need:
                continue
            if kalim and p.faction not in ("kalim", None):
                continue
            if rel is None:
                maybes.setdefault("strength_religious", []).append(p.id)
            elif kalim and p.faction is None:
                maybes.setdefault("faction", []).append(p.id)
        return maybes

    def _battle_event(self, card: CardFacts, found: list[Problem],
                      unverified: dict[tuple[str, str], dict[str, None]]) -> None:
        if card.subtype not in ("battle", None):
            return
        need = card.strength_economic
        if need is not None and self.max_troop_eco >= need:
            return
        if card.subtype is None:
            _note(unverified, "battle_event_unusable", "subtype", (card.id,))
            return
        if need is None:
            _note(unverified, "battle_event_unusable", "strength_economic", (card.id,))
            return
        maybes: dict[str, list[str]] = {}
        for p in self.persons.values():
            eco = p.strength_economic
            if eco is not None and eco < need:
                continue
            if p.personality_kind is None:
                maybes.setdefault("subtype", []).append(p.id)
            elif p.personality_kind == "troop" and eco is None:
                maybes.setdefault("strength_economic", []).append(p.id)
        if maybes:
            for field, ids in maybes.items():
                _note(unverified, "battle_event_unusable", field, ids)
            return
        found.append(_warning(
            "battle_event_unusable",
            f"{card.name} is a battle event: it needs a troop with economic/military strength "
            f"{need} or more, but the best troop in the deck has {max(0, self.max_troop_eco)}.",
            (card.id,),
        ))

    def _residences(self, found: list[Problem],
                    unverified: dict[tuple[str, str], dict[str, None]]) -> None:
        if self.residences or not self.persons:
            return
        citizens = sorted(c.id for c in self.persons.values() if c.personality_kind == "citizen")
        maybe_citizens = [c.id for c in self.persons.values() if c.personality_kind is None]
        if not citizens and not maybe_citizens:
            return
        if not self.maybe_residences and citizens:
            names = _and([_name(i, self.cards) for i in citizens])
            found.append(_warning(
                "citizens_without_residences",
                f"The deck has citizens ({names}) but no structure with residencies in the "
                "Initial Holdings or the Structure Pile for them to live in.",
                tuple(citizens),
            ))
            return
        if not citizens:
            _note(unverified, "citizens_without_residences", "subtype", maybe_citizens)
        for card in self.maybe_residences:
            if card.type is None:
                field = "type"
            elif card.structure_kind is None:
                field = "subtype"
            else:
                field = "residencies"
            _note(unverified, "citizens_without_residences", field, (card.id,))

    def _unverifiable(self, check: str, field: str, ids: tuple[str, ...]) -> Problem:
        names = _and([_name(i, self.cards) for i in ids])
        label = _FIELD_LABELS.get(field, field)
        label = label if label == field else f"{label} ({field})"
        return Problem(
            "unverifiable",
            "warning",
            f"Cannot check {_CHECKS[check]}: the {label} of {names} is not yet transcribed.",
            RULES[check],
            ids,
            check=check,
            field=field,
        )

    def _names(self, listing: Iterable[tuple[str, int]]) -> str:
        return ", ".join(
            f"{n} {_name(cid, self.cards)}" if n != 1 else _name(cid, self.cards)
            for cid, n in listing
        )


_PILE_CODES: Final[Mapping[PileName, str]] = MappingProxyType(
    {
        "structures": "structure_pile_too_small",
        "personalities": "personality_pile_too_small",
        "wanderers": "wanderer_pile_too_small",
    }
)


def _error(code: str, message: str, cards: tuple[str, ...], rule: str | None = None) -> Problem:
    return Problem(code, "error", message, rule or RULES[code], cards)


def _warning(code: str, message: str, cards: tuple[str, ...], rule: str | None = None
             ) -> Problem:
    return Problem(code, "warning", message, rule or RULES[code], cards)


def _note(
    unverified: dict[tuple[str, str], dict[str, None]], check: str, field: str,
    ids: Iterable[str],
) -> None:
    bucket = unverified.setdefault((check, field), {})
    for cid in ids:
        bucket[cid] = None


def _listing(pairs: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    merged: dict[str, int] = {}
    for cid, n in pairs:
        merged[cid] = merged.get(cid, 0) + n
    return list(merged.items())


def _holding_total(card: CardFacts) -> int:
    return (
        (card.cost_generic or 0) + (card.cost_economic or 0) + (card.cost_religious or 0)
        + (card.cost_political or 0)
    )


def _holding_cost(card: CardFacts) -> tuple[int, int, int, int] | None:
    """(economic, religious, political, generic) to buy a structure, None if unknown."""
    if card.type != "structure" or card.cost_generic is None:
        return None
    return (
        card.cost_economic or 0, card.cost_religious or 0, card.cost_political or 0,
        card.cost_generic,
    )


def _fits(econ: int, relig: int, polit: int, generic: int) -> bool:
    return (
        econ <= TOKENS_PER_KIND and relig <= TOKENS_PER_KIND and polit <= TOKENS_PER_KIND
        and econ + relig + polit + generic <= STARTING_TOKENS
    )


def _name(cid: str, cards: Mapping[str, CardFacts]) -> str:
    card = cards.get(cid)
    return card.name if card is not None and card.name else cid


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _places(places: Iterable[tuple[SectionName, int]]) -> str:
    return ", ".join(f"{n} in the {SECTION_TITLES[s]}" for s, n in places)


# --- fixes ---------------------------------------------------------------------------------

_MAX_PLANS: Final = 8
# Plans for these codes only move, add or remove cards in ways that cannot break another rule
# (the property tests check it), so they are not tried out before being offered.
_SAFE: Final = frozenset(
    {"structure_pile_too_small", "personality_pile_too_small", "wanderer_pile_too_small",
     "too_many_zero_cost_structures", "unique_structure_in_holdings", "too_many_walls",
     "wrong_pile", "unknown_card"}
)
_PILES: Final[tuple[PileName, ...]] = ("structures", "personalities", "wanderers")


class _Fixer:
    """Chooses each problem's plan (see the module docstring, "Fixes")."""

    def __init__(
        self, scan: _Scan, problems: list[Problem], catalogue: Mapping[str, CardFacts] | None
    ) -> None:
        self.scan = scan
        self.deck = scan.deck
        self.cards = scan.cards
        self.catalogue = catalogue or {}
        self.players = scan.players
        self.errors = frozenset(p.key for p in problems if p.severity == "error")
        self._ranked: dict[PileName, list[str]] = {}
        self._main_faction: str | None = _main_faction(scan)
        self.note: dict[tuple[str, ...], str] = {}

    # -- choosing ------------------------------------------------------------------------

    def fixes(self, problem: Problem) -> tuple[Fix, ...]:
        builder = getattr(self, f"_fix_{problem.code}", None)
        if builder is None:
            return ()
        plans: Iterator[list[Fix] | None] = builder(problem)
        if problem.code in _SAFE:
            for plan in plans:
                return tuple(plan or ())
            return ()
        return self._choose(problem, plans)

    def _choose(self, problem: Problem, plans: Iterable[list[Fix] | None]) -> tuple[Fix, ...]:
        best: tuple[tuple[int, int, int, int], list[Fix]] | None = None
        for order, plan in enumerate(plans):
            if order >= _MAX_PLANS:
                break
            if not plan:
                continue
            try:
                edited = apply_fixes(self.deck, plan)
            except ValueError:
                continue
            after = _Scan(edited, self.cards, self.players).problems()
            if any(p.key == problem.key for p in after):
                continue
            errors = {p.key for p in after if p.severity == "error"}
            score = (len(errors - self.errors), len(errors), len(plan), order)
            if best is None or score < best[0]:
                best = (score, plan)
        if best is None:
            return ()
        if best[0][0]:
            if problem.code != "too_many_copies":
                return ()
            after = _Scan(apply_fixes(self.deck, best[1]), self.cards, self.players).problems()
            short = [
                SECTION_TITLES[pile] for pile, code in _PILE_CODES.items()
                if (code, "", "") not in self.errors and any(p.code == code for p in after)
            ]
            self.note[problem.key] = (
                f" Removing them leaves the {_and(short)} too small, and no other card can be "
                "added there." if short else
                " Removing them breaks another rule, whichever copies go."
            )
        return tuple(best[1])

    def explain(self, problem: Problem) -> Problem:
        """Adds to an error's message what its fixes cannot do."""
        if problem.severity != "error":
            return problem
        extra = self.note.get(problem.key, "")
        if not problem.fixes:
            source = "the deck or of the catalogue" if self.catalogue else "the deck"
            if problem.code in _PILE_CODES.values():
                pile = next(p for p, code in _PILE_CODES.items() if code == problem.code)
                held = any(getattr(self.cards.get(e.card_id), "pile", None) == pile
                           for _, e in self.deck.all_entries())
                extra = (" Nothing more can come from the deck itself: no card of the deck "
                         f"that belongs there has fewer than {MAX_COPIES} copies in it. Which "
                         "new cards to add is yours to choose." if held else
                         " The deck holds no card that belongs there yet: which cards to add "
                         "is yours to choose.")
            elif problem.code == "no_stronghold":
                extra = (f" No stronghold of {source} can be put there without breaking another "
                         "rule.")
            else:
                extra = " No edit of the deck clears it without breaking another rule."
        return replace(problem, message=problem.message + extra) if extra else problem

    # -- building blocks -----------------------------------------------------------------

    def _candidates(self, deck: Decklist, pile: PileName) -> Iterator[str]:
        """Cards that may be added to a pile: more copies of the deck's own. Never cards of the
        catalogue the deck does not hold: which of those to add is a choice of the deck's
        builder (the builder offers a ready search of the deck's factions instead)."""
        seen: set[str] = set()
        order = (pile, *(s for s in SECTIONS if s != pile))
        for section in order:
            for entry in deck.section(section):
                card = self.cards.get(entry.card_id)
                if (
                    card is not None and card.pile == pile and _addable(card)
                    and entry.card_id not in seen
                ):
                    seen.add(entry.card_id)
                    yield entry.card_id

    def _fill(self, deck: Decklist, pile: PileName, missing: int, exclude: Iterable[str] = ()
              ) -> list[Fix] | None:
        """Adds that bring ``missing`` more cards to a pile, or None if there are too few."""
        if missing <= 0:
            return []
        skip = set(exclude)
        copies = _copies(deck)
        fixes: list[Fix] = []
        for cid in self._candidates(deck, pile):
            if cid in skip:
                continue
            room = MAX_COPIES - copies.get(cid, 0)
            if room <= 0:
                continue
            count = min(room, missing)
            fixes.append(Fix("add", cid, count, pile))
            missing -= count
            if not missing:
                return fixes
        if pile == "structures":
            for entry in deck.holdings:
                card = self.cards.get(entry.card_id)
                if card is None or card.structure_kind not in ("general", "wall"):
                    continue
                count = min(entry.count, missing)
                fixes.append(Fix("move", entry.card_id, count, "holdings", "structures"))
                missing -= count
                if not missing:
                    return fixes
        return None

    def _missing(self, deck: Decklist, pile: PileName) -> int:
        """How many cards the pile lacks in ``deck`` that it did not lack to begin with."""
        need = self.scan.need(pile)
        before = self.scan.possible[pile]
        now = _Scan(deck, self.cards, self.players).possible[pile]
        return max(0, min(need, before) - now)

    def _refill(self, plan: list[Fix], exclude: Iterable[str] = ()) -> list[Fix] | None:
        """``plan`` plus the adds that undo any pile shortage it caused."""
        deck = apply_fixes(self.deck, plan)
        out = list(plan)
        for pile in _PILES:
            missing = self._missing(deck, pile)
            if missing:
                more = self._fill(deck, pile, missing, exclude)
                if more is None:
                    return out  # still offered; the chooser sees the shortage
                out += more
                deck = apply_fixes(deck, more)
        return out

    def _budget_moves(self, deck: Decklist) -> list[Fix] | None:
        """The fewest moves of non-stronghold holdings back to the Structure Pile that make
        the holdings' known costs fit the budget (the most expensive among equally few).

        Exact: a dynamic programme over the movable copies, whose state is what the copies
        that stay cost (economic, religious, political, total), keeping the most copies.
        """
        fixed = [0, 0, 0, 0]  # what stays whatever: the stronghold(s)
        movable: list[tuple[str, tuple[int, int, int, int]]] = []
        for entry in deck.holdings:
            card = self.cards.get(entry.card_id)
            cost = _holding_cost(card) if card is not None else None
            if card is None or cost is None:
                continue
            if card.structure_kind in ("general", "wall"):
                movable += [(entry.card_id, cost)] * entry.count
            else:
                for i in range(4):
                    fixed[i] += cost[i] * entry.count
        spent = [fixed[i] + sum(c[i] for _, c in movable) for i in range(4)]
        if _fits(*spent):
            return []
        if not _fits(*fixed):
            return None
        # state (econ, relig, polit, total) -> indices of the copies kept, most copies first
        start = (fixed[0], fixed[1], fixed[2], sum(fixed))
        states: dict[tuple[int, int, int, int], tuple[int, ...]] = {start: ()}
        order = sorted(range(len(movable)), key=lambda i: (sum(movable[i][1]), movable[i][0]))
        for i in order:
            econ, relig, polit, generic = movable[i][1]
            for (e, r, p, t), kept in list(states.items()):
                key = (e + econ, r + relig, p + polit, t + econ + relig + polit + generic)
                if key[3] > STARTING_TOKENS or max(key[:3]) > TOKENS_PER_KIND:
                    continue
                old = states.get(key)
                if old is None or len(kept) + 1 > len(old):
                    states[key] = (*kept, i)
        # Most copies kept, then the least spent (the most expensive moved), then the first.
        kept = max(states.items(), key=lambda item: (len(item[1]), -item[0][3]))[1]
        moved = tuple(sorted(movable[i][0] for i in set(range(len(movable))) - set(kept)))
        return _moves(moved, "holdings", "structures")

    def _stronghold_plans(self, deck: Decklist) -> Iterator[list[Fix] | None]:
        """Plans that put one stronghold into holdings that have none."""
        seen: set[str] = set()
        for section in ("structures", "personalities", "wanderers"):
            for entry in deck.section(section):
                card = self.cards.get(entry.card_id)
                if card is not None and card.is_stronghold and entry.card_id not in seen:
                    seen.add(entry.card_id)
                    yield self._with_budget(
                        deck, [Fix("move", entry.card_id, 1, section, "holdings")]
                    )
        copies = _copies(deck)
        main = self._main_faction
        if main is None:  # a deck of no faction yet: which stronghold is the builder's choice
            return
        ranked = sorted(
            (c for c in self.catalogue.values()
             if c.is_stronghold and c.id not in seen and copies.get(c.id, 0) < MAX_COPIES
             and c.faction in (None, main)),
            key=lambda c: (c.cost_generic is None, c.cost_generic or 0, c.id),
        )
        for card in ranked[:3]:  # the cheapest ones: the likeliest to fit the budget
            yield self._with_budget(deck, [Fix("add", card.id, 1, "holdings")])

    def _with_budget(self, deck: Decklist, plan: list[Fix]) -> list[Fix] | None:
        """``plan`` (edits after which holdings may be over budget) made to fit and refilled."""
        edited = apply_fixes(deck, plan)
        moves = self._budget_moves(edited)
        if moves is None:
            return None
        prefix = _diff_plan(self.deck, deck)
        return self._refill([*prefix, *plan, *moves])

    # -- per code --------------------------------------------------------------------------

    def _fix_pile(self, pile: PileName) -> Iterator[list[Fix] | None]:
        yield self._fill(self.deck, pile, self.scan.need(pile) - self.scan.possible[pile])

    def _fix_structure_pile_too_small(self, problem: Problem) -> Iterator[list[Fix] | None]:
        return self._fix_pile("structures")

    def _fix_personality_pile_too_small(self, problem: Problem) -> Iterator[list[Fix] | None]:
        return self._fix_pile("personalities")

    def _fix_wanderer_pile_too_small(self, problem: Problem) -> Iterator[list[Fix] | None]:
        return self._fix_pile("wanderers")

    def _fix_too_many_copies(self, problem: Problem) -> Iterator[list[Fix] | None]:
        cid = problem.cards[0]
        card = self.cards.get(cid)
        have = {
            s: n for s in SECTIONS
            if (n := sum(e.count for e in self.deck.section(s) if e.card_id == cid))
        }
        # Per section: (category, copies that can go before an error appears).
        # Category 0: the copies count toward nothing there (misplaced, or an unknown id);
        # 1: a pile; 2: the holdings.
        room: dict[SectionName, list[int]] = {}
        for section in have:
            if card is None or (card.pile is not None and not _belongs(card, section)):
                room[section] = [0, have[section]]
            elif section == "holdings":
                if card.is_stronghold or card.structure_kind is None:
                    # Keep one card there that is, or might be, a stronghold.
                    maybe = sum(
                        n for c, n in self.scan.holdings
                        if c.is_stronghold or c.structure_kind is None
                    )
                    room[section] = [2, maybe - 1]
                else:
                    room[section] = [2, have[section]]
            else:
                pile: PileName = section
                room[section] = [1, self.scan.possible[pile] - self.scan.need(pile)]
        excess = self.scan.copies[cid] - MAX_COPIES
        # The best guess first; then each part emptied first, for the cases it misjudges.
        for first in (None, *have):
            left = {s: list(r) for s, r in room.items()}
            taken: dict[SectionName, int] = {}
            for _ in range(excess):
                section = min(
                    (s for s in have if have[s] > taken.get(s, 0)),
                    key=lambda s: (
                        s != first, left[s][1] < 1, left[s][0], -left[s][1], SECTIONS.index(s)
                    ),
                )
                taken[section] = taken.get(section, 0) + 1
                left[section][1] -= 1
            plan = [Fix("remove", cid, n, s) for s, n in taken.items()]
            yield self._refill(plan, exclude=(cid,))
            if first is None:
                yield plan

    def _fix_no_stronghold(self, problem: Problem) -> Iterator[list[Fix] | None]:
        return self._stronghold_plans(self.deck)

    def _fix_too_many_strongholds(self, problem: Problem) -> Iterator[list[Fix] | None]:
        held = [
            (e.card_id, e.count) for e in self.deck.holdings
            if (c := self.cards.get(e.card_id)) is not None and c.is_stronghold
        ]
        for keep, _ in held:
            yield [
                Fix("remove", cid, n - 1 if cid == keep else n, "holdings")
                for cid, n in held if n > (1 if cid == keep else 0)
            ]

    def _fix_too_many_zero_cost_structures(self, problem: Problem
                                           ) -> Iterator[list[Fix] | None]:
        zero = [
            (card.residencies or 0, card.id, n) for card, n in self.scan.holdings
            if card.structure_kind in ("general", "wall") and _holding_cost(card) == (0, 0, 0, 0)
        ]
        extra = sum(n for *_, n in zero) - MAX_ZERO_COST
        chosen: list[str] = []
        for _, cid, n in sorted(zero):
            take = min(n, extra - len(chosen))
            chosen += [cid] * take
        yield _moves(tuple(chosen), "holdings", "structures")

    def _fix_unique_structure_in_holdings(self, problem: Problem
                                          ) -> Iterator[list[Fix] | None]:
        yield [
            Fix("move", card.id, n, "holdings", "structures")
            for card, n in self.scan.holdings if card.id in problem.cards
        ]

    def _fix_holdings_over_budget(self, problem: Problem) -> Iterator[list[Fix] | None]:
        moves = self._budget_moves(self.deck)
        if moves is not None:
            yield moves
            return
        # Even the stronghold alone does not fit: swap it for another.
        held = [(e.card_id, e.count) for e in self.deck.holdings
                if (c := self.cards.get(e.card_id)) is not None and c.is_stronghold]
        removed = [Fix("remove", cid, n, "holdings") for cid, n in held]
        without = apply_fixes(self.deck, removed)
        for plan in self._stronghold_plans(without):
            if plan is not None and not any(
                f.card in {cid for cid, _ in held} and f.action != "remove" for f in plan
            ):
                yield plan

    def _fix_too_many_walls(self, problem: Problem) -> Iterator[list[Fix] | None]:
        walls = [(card, n) for card, n in self.scan.holdings if card.is_wall]
        keep = min(walls, key=lambda w: (
            -(w[0].residencies or 0), _holding_total(w[0]), w[0].id
        ))[0].id
        yield [
            Fix("move", card.id, n - 1 if card.id == keep else n, "holdings", "structures")
            for card, n in walls if n > (1 if card.id == keep else 0)
        ]

    def _fix_wrong_pile(self, problem: Problem) -> Iterator[list[Fix] | None]:
        cid = problem.cards[0]
        card = self.cards[cid]
        assert card.pile is not None
        yield [Fix("move", cid, n, section, card.pile) for section, n in self.scan.wrong[cid]]

    def _fix_unknown_card(self, problem: Problem) -> Iterator[list[Fix] | None]:
        cid = problem.cards[0]
        yield [Fix("remove", cid, n, section) for section, n in self.scan.unknown[cid]]

    def _fix_stronghold_in_pile(self, problem: Problem) -> Iterator[list[Fix] | None]:
        in_pile = [
            (e.card_id, e.count) for e in self.deck.structures if e.card_id in problem.cards
        ]
        held = any(card.is_stronghold for card, _ in self.scan.holdings)
        if not held:
            for keep, _ in in_pile:
                removes = [
                    Fix("remove", cid, n - 1 if cid == keep else n, "structures")
                    for cid, n in in_pile if n > (1 if cid == keep else 0)
                ]
                plan = self._with_budget(
                    self.deck, [Fix("move", keep, 1, "structures", "holdings"), *removes]
                )
                if plan is not None:
                    yield plan
        yield self._refill(
            [Fix("remove", cid, n, "structures") for cid, n in in_pile],
            exclude=problem.cards,
        )

    def _fix_invocation_unusable(self, problem: Problem) -> Iterator[list[Fix] | None]:
        card = self.cards[problem.cards[0]]
        need = card.strength_religious
        assert need is not None
        kalim = card.subtype != "general"  # a Kalim one, or unknown: the stricter reading
        yield from self._add_one(
            lambda p: p.type == "personality" and (p.strength_religious or 0) >= need
            and p.strength_religious is not None and (not kalim or p.faction == "kalim"),
            lambda p: (p.faction != self._main_faction, p.strength_religious or 0, p.id),
        )
        yield self._remove_all(card.id)

    def _fix_battle_event_unusable(self, problem: Problem) -> Iterator[list[Fix] | None]:
        card = self.cards[problem.cards[0]]
        need = card.strength_economic
        assert need is not None
        yield from self._add_one(
            lambda p: p.personality_kind == "troop" and p.strength_economic is not None
            and p.strength_economic >= need,
            lambda p: (p.faction != self._main_faction, p.strength_economic or 0, p.id),
        )
        yield self._remove_all(card.id)

    def _fix_citizens_without_residences(self, problem: Problem
                                         ) -> Iterator[list[Fix] | None]:
        yield from self._add_one(
            lambda s: s.structure_kind == "general" and (s.residencies or 0) > 0,
            lambda s: (-(s.residencies or 0), _holding_total(s), s.id),
            pile="structures",
        )

    def _fix_items_without_bearers(self, problem: Problem) -> Iterator[list[Fix] | None]:
        yield from self._add_one(
            lambda p: p.type == "personality" and p.personality_kind is not None,
            lambda p: (p.personality_kind != "troop", p.id),
        )
        removes = [
            fix for cid in problem.cards for fix in self._remove_all(cid)
        ]
        yield self._refill(removes, exclude=problem.cards)

    def _add_one(self, fits: _Test, rank: _Rank, pile: PileName = "personalities"
                 ) -> Iterator[list[Fix] | None]:
        copies = self.scan.copies
        found = sorted(
            (c for c in self.catalogue.values()
             if fits(c) and copies.get(c.id, 0) < MAX_COPIES),
            key=rank,
        )
        for card in found[:3]:
            yield [Fix("add", card.id, 1, pile)]

    def _remove_all(self, cid: str) -> list[Fix]:
        plan = [
            Fix("remove", cid, e.count, s)
            for s in SECTIONS for e in self.deck.section(s) if e.card_id == cid
        ]
        return self._refill(plan, exclude=(cid,)) or plan


type _Test = Callable[[CardFacts], bool]
type _Rank = Callable[[CardFacts], tuple[object, ...]]


def _belongs(card: CardFacts, section: SectionName) -> bool:
    """Can this part of a deck hold the card (known type)?"""
    return card.pile == section or (card.pile == "structures" and section == "holdings")


def _addable(card: CardFacts) -> bool:
    """May a fix add this card to its pile? Never a stronghold, nor a card of unknown kind."""
    if card.type == "structure":
        return card.structure_kind in ("general", "wall")
    return card.pile is not None


def _copies(deck: Decklist) -> dict[str, int]:
    copies: dict[str, int] = {}
    for section in SECTIONS:
        for entry in deck.section(section):
            copies[entry.card_id] = copies.get(entry.card_id, 0) + entry.count
    return copies


def _moves(ids: tuple[str, ...], section: SectionName, to: SectionName) -> list[Fix]:
    counts: dict[str, int] = {}
    for cid in ids:
        counts[cid] = counts.get(cid, 0) + 1
    return [Fix("move", cid, n, section, to) for cid, n in counts.items()]


def _diff_plan(start: Decklist, end: Decklist) -> list[Fix]:
    """Removes from holdings that turn ``start`` into ``end`` (the stronghold swap)."""
    plan: list[Fix] = []
    for entry in start.holdings:
        left = sum(e.count for e in end.holdings if e.card_id == entry.card_id)
        if left < entry.count:
            plan.append(Fix("remove", entry.card_id, entry.count - left, "holdings"))
    return plan


def _main_faction(scan: _Scan) -> str | None:
    """The faction with the most personality copies in the deck (ties: by faction key)."""
    weight: dict[str, int] = {}
    for section in SECTIONS:
        for entry in scan.deck.section(section):
            card = scan.persons.get(entry.card_id)
            faction = card.faction if card is not None else None
            if faction is not None and faction in FACTIONS:
                weight[faction] = weight.get(faction, 0) + entry.count
    if not weight:
        return None
    return min(weight, key=lambda f: (-weight[f], f))
