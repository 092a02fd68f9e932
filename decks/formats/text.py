"""The plain-text decklist: the canonical export, read back exactly by the importer.

Pure Python, no Django: card names are turned into cards by a *resolver* callback, so the
same code serves the database, an in-memory catalogue (:class:`CatalogueResolver`) and tests.

Canonical form
--------------

:func:`render_text` writes::

    # Kalim Faithful
    # players: 4
    # An optional description, one "# " line per line of it;
    #
    # a blank description line is a lone "#".
    Initial Holdings
    1 Ariam's Temple
    Structure Pile
    2 Bell Tower
    Personality Pile
    2 Bowman (kalim)
    1 Bishop Ospin
    Wanderer Pile
    3 Cave Troll

* The name line always comes first (a lone ``#`` when the deck has no name), then the player
  count, then the description. Only if the name itself reads as a player-count line (it
  starts with ``players:``) is the player count written first, so that it is read back as
  the name.
* All four section headers are always written, empty ones included, so the structure of a
  deck is visible at a glance; cards keep the deck's order within a section.
* Every card line starts with its count. A count above 99 is written as several lines
  (99 + the rest), which the importer adds up again.
* A card is written by its name when that name is unique in the catalogue, as
  ``Name (faction)`` when only the faction tells it apart, and as ``Name [id]`` otherwise.
  The renderer checks each line by reading it back against the cards it was given, so it
  always picks a form that the importer resolves to the same card.

Grammar accepted by the importer
--------------------------------

The text may start with a UTF-8 byte order mark; lines end in ``\\n``, ``\\r\\n`` or ``\\r``.
Each line is trimmed, and any run of spaces and tabs counts as one space. Lines are numbered
from 1, blank and comment lines included (the numbers in errors). A line is, in this order:

1. **Blank**: ignored.
2. **Comment**: starts with ``//``; ignored anywhere.
3. **Header line**: starts with ``#`` and comes before the first section header or card
   line (the *header* of the list; blank and ``//`` lines do not end it). In the header:

   * the first ``#`` line of the form ``players: N`` (any case, spaces allowed) is the player
     count; N must be a whole number from 2 to 6, otherwise error ``bad_players``;
   * the first other ``#`` line is the deck name (without one, the name is empty: the caller
     may name the deck, after the file say);
   * every later ``#`` line is a line of the description (the ``#`` and one space after it are
     removed, further indentation is kept; a lone ``#`` is a blank line). Use ``//`` for
     comments in the header.

   After the header a ``#`` line is a comment.
4. **Section header**: one of the names below, in any case, optionally followed by a count in
   parentheses (ignored) and/or a colon: ``Structure Pile``, ``structures:``,
   ``Personality Pile (30)``. A line that reads as a section header is one, even if a card
   has that name: write such a card with its count (``1 Holdings``).

   ==================  ==============================================
   section             accepted names
   ==================  ==============================================
   Initial Holdings    ``Initial Holdings``, ``Holdings``
   Structure Pile      ``Structure Pile``, ``Structures``
   Personality Pile    ``Personality Pile``, ``Personalities``
   Wanderer Pile       ``Wanderer Pile``, ``Wanderers``
   ==================  ==============================================

5. **Card line**, otherwise. A count, then the card:

   * ``2 Name``, ``2x Name``, ``2 x Name``, ``Name x2``, ``Name x 2`` (``X`` or the
     multiplication sign may replace ``x``), or just ``Name`` for one copy;
   * the card is its name, optionally followed by ``(faction)``, ``[id]`` or both (either
     order), e.g. ``2 Bowman (kalim)``, ``1 Bowman [wof-bowman-kalim]``; ``1 [id]`` alone
     also works. An ``[id]`` decides on its own: the name is then only for the reader.
   * A count must be from 1 to 99 (error ``bad_count`` otherwise). Repeated lines of one
     card in one section are added up.
   * A line with a count and no name (``3``, ``3x``) is error ``bad_line``; so is a line
     longer than 200 characters.

   Card names may themselves look like counts or hints ("Box 2", "Lieutenant X",
   "Agent x2", "2 Fast"). A line is therefore read in every way the grammar allows, in this
   order of precedence, and the first reading the resolver accepts wins:

   a. a leading count: ``2 Name`` before ``2 x Name`` (so "2 X Factor" is two "X Factor");
   b. with no leading count: the whole line as a name (so "Agent x2" is the card "Agent x2"
      if there is one), then a trailing ``x2`` count;
   c. with a leading count, when nothing else matched: the whole line as one name (so
      "1000 Needles" finds that card);
   d. within each of those, the name with its ``(faction)`` / ``[id]`` hints taken off
      first, then the name exactly as written (so a card really named "Sword (Ancient)"
      is still found).

   If no reading resolves, the line gets one error: ``bad_count`` if a count was out of
   range, else ``ambiguous_card`` if some reading matched several cards, else
   ``unknown_card`` for the reading with the shortest name (the most likely intent), with
   the closest names as suggestions.

Cards before the first section header (or in a list with no headers at all) go to the pile
of their type: structures to the Structure Pile (never to the Initial Holdings), wanderers
to the Wanderer Pile, everything else to the Personality Pile; a card whose type is unknown
cannot be placed (error ``unknown_type``). A card under a section that cannot hold its type
stays where it was put: that is for the deck validator (``wrong_pile``), not the importer.

Every line in error is reported, in line order, each with its number, the line, a code, a
message and suggestions (ready-to-paste card names, disambiguated where needed). A list
with any error gives no deck: nothing is saved until every line is resolved.

Round trip: ``parse_text(render_text(deck, cards), CatalogueResolver(cards.values())).deck
== deck`` for every deck whose cards are all in ``cards`` (a resolver backed by the database
must resolve the same way: exact name first, then case-insensitively; hints filter by
faction; an id decides on its own).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Literal

from decks.formats.card_refs import CardRef, Resolution, Unresolved
from rules.decklist import (
    DEFAULT_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SECTION_TITLES,
    SECTIONS,
    DeckEntry,
    Decklist,
    SectionName,
)
from rules.names import fold_name

type ErrorCode = Literal[
    "unknown_card", "ambiguous_card", "bad_count", "bad_line", "unknown_type", "bad_players"
]
type Resolver = Callable[[str, str | None, str | None], Resolution]

MAX_COUNT: Final = 99
MAX_LINE_LENGTH: Final = 200
MAX_SUGGESTIONS: Final = 5
# A name read as a card it is not quite: this alike (difflib's ratio of the forgiving names,
# rules.names), at least this long, and this much closer than any other name.
NEAR_MATCH: Final = 0.88
NEAR_MIN_LENGTH: Final = 6
NEAR_MARGIN: Final = 0.06
MAX_HEADING_LENGTH: Final = 60
# Unknown names given "did you mean" suggestions in one resolver's life (one request): later
# unknown names are still reported, without suggestions, so a list of thousands of unknown
# lines costs no more than this many lookups.
MAX_SUGGESTED_NAMES: Final = 50
# Names compared letter by letter for a suggestion: those sharing the most trigrams.
SUGGESTION_CANDIDATES: Final = 24

SECTION_ALIASES: Final[Mapping[str, SectionName]] = MappingProxyType(
    {
        "initial holdings": "holdings",
        "holdings": "holdings",
        "structure pile": "structures",
        "structures": "structures",
        "personality pile": "personalities",
        "personalities": "personalities",
        "wanderer pile": "wanderers",
        "wanderers": "wanderers",
    }
)


@dataclass(frozen=True)
class LineError:
    line: int
    text: str
    code: ErrorCode
    message: str
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True)
class LineNote:
    """A card line read, but not letter for letter: what it was read as."""

    line: int
    text: str
    name: str  # the name as written
    card: CardRef  # the card it was read as

    @property
    def message(self) -> str:
        return f"Read “{self.name}” as {self.card.name}."


@dataclass(frozen=True)
class ParseResult:
    deck: Decklist | None
    errors: tuple[LineError, ...] = ()
    notes: tuple[LineNote, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


# --- resolving names against an in-memory catalogue -------------------------------------


def _normalize(text: str) -> str:
    return " ".join(text.split())


class CatalogueResolver:
    """Resolves names against a list of cards; the reference behaviour for every resolver.

    An id decides on its own (exact, then lower-cased). Otherwise the name matches exactly
    (after whitespace normalisation), else ignoring case, else forgivingly (apostrophes,
    hyphens, accents and plurals aside: rules.names), else, when exactly one card's name is
    that close, with a slip of the pen (``near``, a ratio such as NEAR_MATCH: the import
    page's, which shows the notes; off by default); a faction hint keeps the matches of that
    faction (ignoring case). One match is the card, several are ``ambiguous``, none is
    ``unknown`` with the closest cards by name. The matches not read exactly are said in the
    parse's notes.
    """

    def __init__(self, cards: Iterable[CardRef], near: float | None = None,
                 max_suggested: int = MAX_SUGGESTED_NAMES) -> None:
        self._by_id: dict[str, CardRef] = {}
        self._by_name: dict[str, list[CardRef]] = {}
        self._by_folded_name: dict[str, list[CardRef]] = {}
        self._by_forgiving_name: dict[str, list[CardRef]] = {}
        self._near = near
        for card in cards:
            self._by_id[card.id] = card
            name = _normalize(card.name)
            self._by_name.setdefault(name, []).append(card)
            self._by_folded_name.setdefault(name.casefold(), []).append(card)
            self._by_forgiving_name.setdefault(fold_name(name), []).append(card)
        self._folded_index = NameIndex(self._by_folded_name)
        self._forgiving_index = NameIndex(self._by_forgiving_name)
        self._suggested: dict[str, tuple[CardRef, ...]] = {}
        self._max_suggested = max_suggested

    def __call__(self, name: str, faction: str | None, card_id: str | None) -> Resolution:
        if card_id is not None:
            card = self._by_id.get(card_id) or self._by_id.get(card_id.lower())
            return card if card else Unresolved("unknown", self._closest(name))
        matches = self._matches(_normalize(name), faction)
        if len(matches) == 1:
            return matches[0]
        if matches:
            return Unresolved("ambiguous", tuple(matches))
        near = self._near_match(name, faction) if self._near is not None else None
        return near if near is not None else Unresolved("unknown", self._closest(name))

    def _matches(self, name: str, faction: str | None) -> list[CardRef]:
        for found in (self._by_name.get(name, []), self._by_folded_name.get(name.casefold(), []),
                      self._by_forgiving_name.get(fold_name(name), [])):
            if faction is not None:
                found = [card for card in found if _same_faction(card, faction)]
            if found:
                return found
        return []

    def _near_match(self, name: str, faction: str | None) -> CardRef | None:
        """The one card whose forgiving name is within a slip of the pen of ``name`` (and no
        other name nearly as close), or None."""
        folded = fold_name(name)
        if len(folded) < NEAR_MIN_LENGTH or any(c.isdigit() for c in folded) or not self._near:
            return None  # too short to tell, or a count the line's grammar did not take
        scored = sorted(((difflib.SequenceMatcher(None, folded, key).ratio(), key)
                         for key in self._forgiving_index.closest(folded, 3, self._near)),
                        reverse=True)
        if not scored or (len(scored) > 1 and scored[0][0] - scored[1][0] < NEAR_MARGIN):
            return None
        found = self._by_forgiving_name[scored[0][1]]
        if faction is not None:
            found = [card for card in found if _same_faction(card, faction)]
        return found[0] if len(found) == 1 else None

    def _closest(self, name: str) -> tuple[CardRef, ...]:
        """The closest cards by name: remembered per name, and none once this resolver has
        suggested for ``max_suggested`` names (the rest of a long list of unknown lines)."""
        folded = _normalize(name).casefold()
        if not folded:
            return ()
        if folded in self._suggested:
            return self._suggested[folded]
        if len(self._suggested) >= self._max_suggested:
            return tuple(self._by_folded_name.get(folded, []))
        close = self._folded_index.closest(folded, MAX_SUGGESTIONS, 0.6)
        names = dict.fromkeys([folded, *close])  # the name itself first: a faction may be wrong
        found = tuple(card for key in names for card in self._by_folded_name.get(key, []))
        self._suggested[folded] = found
        return found


class NameIndex:
    """Names by their letter trigrams, for suggestions: a name is compared letter by letter
    (difflib's ratio) only with the few names that share the most trigrams with it, not with
    every name in the catalogue."""

    def __init__(self, names: Iterable[str]) -> None:
        self._names = tuple(names)
        self._by_trigram: dict[str, list[int]] = {}
        for position, name in enumerate(self._names):
            for trigram in _trigrams(name):
                self._by_trigram.setdefault(trigram, []).append(position)

    def closest(self, name: str, n: int, cutoff: float) -> list[str]:
        """Up to ``n`` names at least ``cutoff`` alike (difflib's ratio), best first, as
        difflib.get_close_matches orders them, among the names sharing most trigrams."""
        shared: dict[int, int] = {}
        for trigram in _trigrams(name):
            for position in self._by_trigram.get(trigram, ()):
                shared[position] = shared.get(position, 0) + 1
        candidates = sorted(shared, key=lambda p: (-shared[p], p))[:SUGGESTION_CANDIDATES]
        return difflib.get_close_matches(
            name, [self._names[p] for p in sorted(candidates)], n=n, cutoff=cutoff)


def _trigrams(name: str) -> set[str]:
    padded = f"  {name} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def _same_faction(card: CardRef, faction: str) -> bool:
    return card.faction is not None and card.faction.casefold() == _normalize(faction).casefold()


# --- rendering --------------------------------------------------------------------------


def render_text(deck: Decklist, cards: Mapping[str, CardRef]) -> str:
    """The canonical text of ``deck`` (see the module docstring).

    ``cards`` maps ids to cards and must hold every card of the deck and every catalogue card
    that shares a name with one of them (the whole catalogue will do): that is how the
    renderer knows which names need a ``(faction)`` or an ``[id]``. A deck card missing from
    ``cards`` is written as ``N [id]``.
    """
    resolve = CatalogueResolver(cards.values())
    lines = _header_lines(deck)
    for section in SECTIONS:
        lines.append(SECTION_TITLES[section])
        for entry in deck.section(section):
            lines.extend(_entry_lines(entry, cards.get(entry.card_id), resolve))
    return "\n".join(lines) + "\n"


def _header_lines(deck: Decklist) -> list[str]:
    name_line = f"# {deck.name}".rstrip()
    players_line = f"# players: {deck.players}"
    # A name that reads as a players line must come after the real one, which then wins.
    if _PLAYERS_LINE.fullmatch(deck.name):
        lines = [players_line, name_line]
    else:
        lines = [name_line, players_line]
    if deck.description:
        lines.extend(f"# {line}".rstrip() for line in deck.description.split("\n"))
    return lines


def _entry_lines(entry: DeckEntry, card: CardRef | None, resolve: Resolver) -> list[str]:
    full_lines, rest = divmod(entry.count, MAX_COUNT)
    counts = [MAX_COUNT] * full_lines + ([rest] if rest else [])
    label = _card_label(entry.card_id, card, counts, resolve)
    return [f"{count} {label}" for count in counts]


def _card_label(card_id: str, card: CardRef | None, counts: list[int], resolve: Resolver) -> str:
    """The shortest way of writing the card that reads back as that very card."""
    if card is None:
        return f"[{card_id}]"
    name = _normalize(card.name)
    forms = [name]
    if card.faction:
        forms.append(f"{name} ({_normalize(card.faction)})")
    # The id alone is the last resort, for names the grammar cannot carry (too long, say).
    forms += [f"{name} [{card.id}]", f"[{card.id}]"]
    for form in forms:
        if all(_reads_back(f"{count} {form}", card, count, resolve) for count in set(counts)):
            return form
    return forms[-1]


def _reads_back(line: str, card: CardRef, count: int, resolve: Resolver) -> bool:
    reading = _read_card_line(_normalize(line), resolve)
    return isinstance(reading, _CardLine) and (reading.card.id, reading.count) == (card.id, count)


# --- parsing ----------------------------------------------------------------------------

_PLAYERS_LINE: Final = re.compile(r"\s*players\s*:(.*)", re.IGNORECASE | re.DOTALL)
_PLAYERS_VALUE: Final = re.compile(r"[0-9]{1,3}")
# What may follow a section name: colons and counts in parentheses, "Structures (15):".
_SECTION_DECORATION: Final = re.compile(r"(?:\s*(?::|\(\s*[0-9]{1,4}\s*\)))*\s*$")

# Card lines are whitespace-normalised first, so single spaces suffice in these patterns.
_COUNT = r"(-?[0-9]+)"
_TIMES = r"[xX\u00d7]"  # x, X or the multiplication sign
_LEADING_COUNT: Final = re.compile(rf"{_COUNT} (.+)")
_LEADING_COUNT_X: Final = re.compile(rf"{_COUNT} ?{_TIMES} (.+)")
_TRAILING_COUNT_X: Final = re.compile(rf"(.+) {_TIMES} ?{_COUNT}")
_COUNT_ONLY: Final = re.compile(rf"{_COUNT}(?: ?{_TIMES})?")
_ID_HINT: Final = re.compile(r"(.*?) ?\[([^\[\]]+)\]")
_FACTION_HINT: Final = re.compile(r"(.*?) ?\(([^()]+)\)")


@dataclass(frozen=True)
class _CardLine:
    count: int
    card: CardRef
    read_as: str = ""  # the name as written, when it is not the card's but was read as it


@dataclass(frozen=True)
class _Problem:
    code: ErrorCode
    message: str
    suggestions: tuple[str, ...] = ()


@dataclass
class _Header:
    name: str | None = None
    players: int = DEFAULT_PLAYERS
    players_seen: bool = False
    description: list[str] = field(default_factory=list)


def parse_text(text: str, resolve: Resolver) -> ParseResult:
    """Read a plain-text decklist (grammar in the module docstring); never raises."""
    header = _Header()
    in_header = True
    section: SectionName | None = None
    piles: dict[SectionName, list[DeckEntry]] = {name: [] for name in SECTIONS}
    errors: list[LineError] = []
    notes: list[LineNote] = []
    for number, raw in enumerate(_split_lines(text), start=1):
        line = raw.strip()
        problem: _Problem | None = None
        if not line or line.startswith("//"):
            continue
        if line.startswith("#"):
            if in_header:
                problem = _read_header_line(line, header)
        elif (heading := _section_heading(line)) is not None:
            in_header, section = False, heading
        else:
            in_header = False
            added = _add_card_line(_normalize(line), section, piles, resolve)
            if isinstance(added, _CardLine):
                notes.append(LineNote(number, line, added.read_as, added.card))
            else:
                problem = added
        if problem is not None:
            errors.append(LineError(number, line, *_fields(problem)))
    if errors:
        return ParseResult(None, tuple(errors), tuple(notes))
    deck = Decklist(
        name=header.name or "",
        players=header.players,
        description="\n".join(header.description),
        holdings=tuple(piles["holdings"]),
        structures=tuple(piles["structures"]),
        personalities=tuple(piles["personalities"]),
        wanderers=tuple(piles["wanderers"]),
    )
    return ParseResult(deck, notes=tuple(notes))


def _fields(problem: _Problem) -> tuple[ErrorCode, str, tuple[str, ...]]:
    return problem.code, problem.message, problem.suggestions


def _split_lines(text: str) -> list[str]:
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _read_header_line(line: str, header: _Header) -> _Problem | None:
    body = line[1:].removeprefix(" ")
    players = None if header.players_seen else _PLAYERS_LINE.fullmatch(body)
    if players is not None:
        header.players_seen = True
        return _read_players(players.group(1).strip(), header)
    if header.name is None:
        header.name = _normalize(body)
    else:
        header.description.append(body.rstrip())
    return None


def _read_players(value: str, header: _Header) -> _Problem | None:
    if _PLAYERS_VALUE.fullmatch(value) and MIN_PLAYERS <= int(value) <= MAX_PLAYERS:
        header.players = int(value)
        return None
    return _Problem(
        "bad_players",
        f'The player count must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, '
        f'not "{value}".',
    )


def _section_heading(line: str) -> SectionName | None:
    # Headings are short; the length check also keeps the regex away from pathological lines.
    if len(line) > MAX_HEADING_LENGTH:
        return None
    title = _normalize(_SECTION_DECORATION.sub("", line)).casefold()
    return SECTION_ALIASES.get(title)


def _add_card_line(
    line: str,
    section: SectionName | None,
    piles: dict[SectionName, list[DeckEntry]],
    resolve: Resolver,
) -> _Problem | _CardLine | None:
    """The line's card into its pile; the reading itself when it says how it was read."""
    reading = _read_card_line(line, resolve)
    if isinstance(reading, _Problem):
        return reading
    pile = section or _pile_for_type(reading.card.type)
    if pile is None:
        return _Problem(
            "unknown_type",
            f'"{reading.card.name}" cannot be put in a pile by its type, because its type is '
            "unknown; list it under a section header (Initial Holdings, Structure Pile, "
            "Personality Pile or Wanderer Pile).",
        )
    piles[pile].append(DeckEntry(reading.card.id, reading.count))
    return reading if reading.read_as else None


def _pile_for_type(card_type: str | None) -> SectionName | None:
    if card_type is None:
        return None
    folded = card_type.casefold()
    if folded == "structure":
        return "structures"
    if folded == "wanderer":
        return "wanderers"
    return "personalities"


# A failed reading: the name as tried and what the resolver said about it.
@dataclass(frozen=True)
class _Miss:
    name: str
    faction: str | None
    card_id: str | None
    outcome: Unresolved


def _read_card_line(line: str, resolve: Resolver) -> _CardLine | _Problem:
    if _COUNT_ONLY.fullmatch(line):
        return _Problem("bad_line", "This line has a count but no card name.")
    if len(line) > MAX_LINE_LENGTH:
        return _Problem(
            "bad_line", f"This line is longer than {MAX_LINE_LENGTH} characters: not a card line."
        )
    misses: list[_Miss | _Problem] = []
    for count_text, name_text in _count_readings(line):
        count = _parse_count(count_text)
        if count is None:
            misses.append(_bad_count(count_text))
            continue
        for name, faction, card_id in _name_readings(name_text):
            outcome = resolve(name, faction, card_id)
            if isinstance(outcome, CardRef):
                exact = card_id is not None or (
                    _normalize(name).casefold() == _normalize(outcome.name).casefold())
                return _CardLine(count, outcome, "" if exact else _normalize(name))
            misses.append(_Miss(name, faction, card_id, outcome))
    return _most_useful_problem(misses)


def _count_readings(line: str) -> list[tuple[str, str]]:
    """(count, rest) readings of a card line, in order of precedence."""
    leading = [m.groups() for p in (_LEADING_COUNT, _LEADING_COUNT_X) if (m := p.fullmatch(line))]
    if leading:
        return [(count, rest) for count, rest in leading] + [("1", line)]
    readings = [("1", line)]
    if trailing := _TRAILING_COUNT_X.fullmatch(line):
        readings.append((trailing.group(2), trailing.group(1)))
    return readings


def _name_readings(text: str) -> list[tuple[str, str | None, str | None]]:
    """(name, faction hint, id hint) readings: hints taken off first, then the text as is."""
    name, faction, card_id = text, None, None
    for _ in range(2):  # "(faction) [id]" or "[id] (faction)": take off the last one twice
        if card_id is None and (match := _ID_HINT.fullmatch(name)):
            name, card_id = match.group(1), match.group(2).strip()
        elif faction is None and (match := _FACTION_HINT.fullmatch(name)):
            name, faction = match.group(1), match.group(2).strip()
    readings: list[tuple[str, str | None, str | None]] = []
    if (faction or card_id) and (name.strip() or card_id):
        readings.append((name.strip(), faction, card_id))
    readings.append((text, None, None))
    return readings


def _parse_count(text: str) -> int | None:
    # More than three digits is out of range anyway; int() is never given a huge string.
    if len(text.lstrip("-")) > 3:
        return None
    count = int(text)
    return count if 1 <= count <= MAX_COUNT else None


def _bad_count(text: str) -> _Problem:
    shown = text if len(text) <= 12 else text[:12] + "…"
    return _Problem(
        "bad_count", f"The count {shown} is out of range: write from 1 to {MAX_COUNT} copies."
    )


def _most_useful_problem(misses: list[_Miss | _Problem]) -> _Problem:
    for miss in misses:
        if isinstance(miss, _Problem):
            return miss
    tried = [miss for miss in misses if isinstance(miss, _Miss)]
    for miss in tried:
        if miss.outcome.reason == "ambiguous":
            return _ambiguous(miss)
    return _unknown(min(tried, key=lambda miss: len(miss.name)))


def _ambiguous(miss: _Miss) -> _Problem:
    labels = _labels(miss.outcome.candidates)
    choice = (
        f"write one of {_quoted_choice(labels, 'and')}"
        if labels
        else "add its faction in parentheses or its id in brackets"
    )
    message = f'"{_describe(miss)}" matches several cards; {choice} to say which.'
    return _Problem("ambiguous_card", message, labels)


def _unknown(miss: _Miss) -> _Problem:
    labels = _labels(miss.outcome.candidates)[:MAX_SUGGESTIONS]
    hint = f" Did you mean {_quoted_choice(labels, 'or')}?" if labels else ""
    if miss.card_id is not None:
        return _Problem("unknown_card", f'No card has the id "{miss.card_id}".{hint}', labels)
    return _Problem("unknown_card", f'No card matches "{_describe(miss)}".{hint}', labels)


def _quoted_choice(labels: tuple[str, ...], conjunction: str) -> str:
    quoted = [f'"{label}"' for label in labels]
    if len(quoted) <= 1:
        return "".join(quoted)
    return f"{', '.join(quoted[:-1])} {conjunction} {quoted[-1]}"


def _describe(miss: _Miss) -> str:
    return f"{miss.name} ({miss.faction})" if miss.faction else miss.name


def _labels(cards: Iterable[CardRef]) -> tuple[str, ...]:
    """How to write each card so that it is told apart from the others sharing its name."""
    cards = tuple(cards)
    labels: list[str] = []
    for card in cards:
        namesakes = [other for other in cards if other.name == card.name]
        factions = [other.faction for other in namesakes]
        if len(namesakes) == 1:
            labels.append(_normalize(card.name))
        elif card.faction and factions.count(card.faction) == 1:
            labels.append(f"{_normalize(card.name)} ({card.faction})")
        else:
            labels.append(f"{_normalize(card.name)} [{card.id}]")
    return tuple(dict.fromkeys(labels))
