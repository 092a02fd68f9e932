"""Deck statistics as inline SVG charts: pure Python, no Django, no JavaScript.

Each chart is first *counted* (:class:`Chart`: categories by series of numbers, a summary and
notes) and then *drawn* as an SVG string (:meth:`Chart.svg`), so the numbers can be tested and
shown as a table without parsing a picture. The SVG is accessible on its own: ``role="img"``
with a ``<title>`` and a ``<desc>`` that says what the bars say; the pages add the numbers as
a visually hidden table (:meth:`Chart.rows`).

Null card facts mean *not yet transcribed* (docs/design.md §4): a card whose cost, faction, kind or
strength is unknown is counted in an ``unknown`` category (or named in the notes when a sum is
shown), never as 0. A card id that is not in the catalogue is unknown in every respect.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Final
from xml.sax.saxutils import escape

from rules.card_anatomy import total_cost as _total_cost
from rules.cards import CardFacts
from rules.decklist import Decklist, SectionName

UNKNOWN: Final = "unknown"
COST_BUCKETS: Final = 8  # costs 0..7 get a bar each; higher ones share "8+"
TYPE_LABELS: Final[Mapping[str, str]] = {
    "structure": "Structures",
    "personality": "Personalities",
    "item": "Items",
    "invocation": "Invocations",
    "event": "Events",
    "wanderer": "Wanderers",
}
FACTION_SHORT: Final[Mapping[str, str]] = {"kalim": "Kalim", "mosfin": "Mosfin", "guild": "Guild"}

# Series colours (the site's accent, gold, Kalim blue, Demo teal) and category tones.
PALETTE: Final = ("#7a2e1d", "#b8860b", "#2f5fa7", "#0f766e")
UNKNOWN_TONE: Final = "#b3aaa0"
FACTION_TONES: Final[Mapping[str, str]] = {
    "Kalim": "#2f5fa7", "Mosfin": "#5b2a6e", "Guild": "#9a6a12",
}
INK: Final = "#3d3833"
GRID: Final = "#e2dcd1"


@dataclass(frozen=True)
class Series:
    name: str
    #: One value per category; None where the series does not apply (no bar is drawn).
    values: tuple[int | None, ...]


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    summary: str
    categories: tuple[str, ...]
    series: tuple[Series, ...]
    notes: tuple[str, ...] = ()
    horizontal: bool = False
    #: What the chart says when there is nothing to count.
    nothing: str = "Nothing to count in this deck."

    @property
    def empty(self) -> bool:
        return not any(v for s in self.series for v in s.values)

    def rows(self) -> list[tuple[str, tuple[int | None, ...]]]:
        """The numbers as table rows: (category, one value per series)."""
        return [
            (category, tuple(s.values[i] for s in self.series))
            for i, category in enumerate(self.categories)
        ]

    def svg(self, id_prefix: str = "chart") -> str:
        """The chart as an inline SVG document fragment (well-formed XML)."""
        ident = f"{id_prefix}-{self.key}"
        body = _horizontal(self) if self.horizontal else _vertical(self)
        width, height, shapes = body
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" role="img" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'aria-labelledby="{ident}-title {ident}-desc" font-size="11" '
            f'font-family="DejaVu Sans, sans-serif">'
            f'<title id="{ident}-title">{escape(self.title)}</title>'
            f'<desc id="{ident}-desc">{escape(self.description())}</desc>'
            f"{''.join(shapes)}</svg>"
        )

    def description(self) -> str:
        """The summary, every number and the notes, in words: the chart's text equivalent."""
        parts = [self.summary]
        if self.empty:
            parts.append(self.nothing)
        for category, values in self.rows():
            shown = [
                str(v) if len(self.series) == 1 else f"{s.name} {v}"
                for s, v in zip(self.series, values, strict=True) if v is not None
            ]
            if shown:
                parts.append(f"{category}: {', '.join(shown)}.")
        parts.extend(self.notes)
        return " ".join(parts)


def deck_charts(deck: Decklist, cards: Mapping[str, CardFacts]) -> list[Chart]:
    """Every chart of the deck statistics, in the order the pages show them."""
    return [
        cost_curve(deck, cards),
        card_types(deck, cards),
        factions(deck, cards),
        faction_influence(deck, cards),
        residencies(deck, cards),
        invocation_strength(deck, cards),
        battle_event_strength(deck, cards),
    ]


# --- counting -------------------------------------------------------------------------------


def card_total_cost(card: CardFacts | None) -> int | None:
    """Tokens to play the card (the costs printed on its type), or None when unknown."""
    if card is None:
        return None
    return _total_cost({
        "type": card.type,
        "cost_economic": card.cost_economic,
        "cost_religious": card.cost_religious,
        "cost_political": card.cost_political,
        "cost_generic": card.cost_generic,
    })


def cost_curve(deck: Decklist, cards: Mapping[str, CardFacts]) -> Chart:
    """Copies per total cost in the Structure Pile and the Personality Pile."""
    piles: tuple[SectionName, ...] = ("structures", "personalities")
    costs = {
        pile: [(card_total_cost(cards.get(e.card_id)), e.count) for e in deck.section(pile)]
        for pile in piles
    }
    known = [c for pile in piles for c, _ in costs[pile] if c is not None]
    top = min(max(known, default=0), COST_BUCKETS)
    categories = [str(n) for n in range(top + 1)]
    if top == COST_BUCKETS:
        categories[-1] = f"{COST_BUCKETS}+"
    has_unknown = any(c is None for pile in piles for c, _ in costs[pile])
    if has_unknown:
        categories.append(UNKNOWN)
    series = []
    for pile, title in zip(piles, ("Structure Pile", "Personality Pile"), strict=True):
        values = [0] * len(categories)
        for cost, count in costs[pile]:
            index = len(categories) - 1 if cost is None else min(cost, top)
            values[index] += count
        series.append(Series(title, tuple(values)))
    unknown = sum(n for pile in piles for c, n in costs[pile] if c is None)
    notes = (f"{_cards(unknown)} with an unknown cost are counted as unknown.",) if unknown else ()
    return Chart(
        "cost", "Cost curve",
        "Cards per total cost (tokens to play them) in the Structure Pile and the Personality "
        "Pile.",
        tuple(categories), tuple(series), notes,
    )


def card_types(deck: Decklist, cards: Mapping[str, CardFacts]) -> Chart:
    """Copies per card type, over the whole deck (holdings included)."""
    counts = _tally(deck, cards, lambda c: TYPE_LABELS.get(c.type or "", UNKNOWN))
    categories = [label for label in TYPE_LABELS.values() if counts.get(label)]
    if counts.get(UNKNOWN):
        categories.append(UNKNOWN)
    return _single(
        "types", "Card types", "Cards of each type in the whole deck, holdings included.",
        categories, counts, "Cards",
    )


def factions(deck: Decklist, cards: Mapping[str, CardFacts]) -> Chart:
    """Personality copies per faction (only personalities carry a faction)."""
    counts = _tally(deck, cards, _faction_label, _is_personality_or_unknown)
    categories = [label for label in FACTION_SHORT.values() if counts.get(label)]
    if counts.get(UNKNOWN):
        categories.append(UNKNOWN)
    return _single(
        "factions", "Factions",
        "Personalities of each faction (items, invocations, events, structures and wanderers "
        "have none).",
        categories, counts, "Personalities",
    )


def faction_influence(deck: Decklist, cards: Mapping[str, CardFacts]) -> Chart:
    """The total faction influence of the personalities, per faction; unknown values are
    named in the notes, never added as 0."""
    totals: dict[str, int] = {}
    unknown_influence = 0
    for _, entry in deck.all_entries():
        card = cards.get(entry.card_id)
        if card is None or card.type != "personality":
            continue
        label = _faction_label(card)
        if card.faction_influence is None:
            unknown_influence += entry.count
            totals.setdefault(label, 0)
        else:
            totals[label] = totals.get(label, 0) + card.faction_influence * entry.count
    categories = [label for label in FACTION_SHORT.values() if label in totals]
    if UNKNOWN in totals:
        categories.append(UNKNOWN)
    notes = (
        (f"{_plural(unknown_influence, 'personality card', 'personality cards')} with unknown "
         "faction influence are not in the totals (unknown, not 0).",)
        if unknown_influence else ()
    )
    chart = _single(
        "influence", "Faction influence",
        "The faction influence printed on the deck's personalities, added up per faction "
        "(a faction's victory needs its total).",
        categories, totals, "Faction influence", notes,
    )
    return replace(chart, nothing="No personality with a known faction influence.")


def residencies(deck: Decklist, cards: Mapping[str, CardFacts]) -> Chart:
    """Residencies of the structures (holdings included; walls block, they house no one)
    against the citizens that need them."""
    homes = citizens = unknown_homes = unknown_kind = 0
    for section, entry in deck.all_entries():
        card = cards.get(entry.card_id)
        if card is None:
            continue
        if card.type == "structure" and section in ("holdings", "structures"):
            if card.is_wall:
                continue
            if card.residencies is None:
                unknown_homes += entry.count
            else:
                homes += card.residencies * entry.count
        elif card.type == "personality":
            if card.personality_kind == "citizen":
                citizens += entry.count
            elif card.personality_kind is None:
                unknown_kind += entry.count
    counts = {"Residencies": homes, "Citizens": citizens}
    categories = ["Residencies", "Citizens"]
    if unknown_homes:
        counts["unknown residencies"] = unknown_homes  # structures (copies)
        categories.append("unknown residencies")
    if unknown_kind:
        counts["unknown citizen/troop"] = unknown_kind  # personalities (copies)
        categories.append("unknown citizen/troop")
    notes = []
    if unknown_homes:
        notes.append(f"{_plural(unknown_homes, 'structure card has', 'structure cards have')} "
                     "unknown residencies (counted as unknown, not 0).")
    if unknown_kind:
        notes.append(f"{_plural(unknown_kind, 'personality card is', 'personality cards are')} "
                     "not known to be citizens or troops.")
    return _single(
        "residencies", "Residencies and citizens",
        "Residencies of the structures (Initial Holdings and Structure Pile; walls house no "
        "one) against the citizens that need a home.",
        categories, counts, "Count", tuple(notes),
    )


def invocation_strength(deck: Decklist, cards: Mapping[str, CardFacts]) -> Chart:
    """Invocations per religious strength requirement, against the personalities that meet
    it (and, for Kalim invocations, the Glory of Kalim members that do)."""
    persons = [
        (c, n) for c, n in _copies(deck, cards) if c.type == "personality"
    ]
    needs = [(c, n) for c, n in _copies(deck, cards) if c.type == "invocation"]
    kalim = any(c.subtype != "general" for c, _ in needs)
    meets: list[tuple[str, Callable[[CardFacts, int], bool]]] = [
        ("Personalities that meet it", lambda p, level: _at_least(p.strength_religious, level)),
    ]
    if kalim:
        meets.append((
            "Glory of Kalim members that meet it",
            lambda p, level: p.faction == "kalim" and _at_least(p.strength_religious, level),
        ))
    unknown = sum(n for p, n in persons if p.strength_religious is None)
    return _requirement_chart(
        "invocations", "Invocations: religious strength",
        "Invocations per religious strength they require, and the personalities strong "
        "enough to invoke them (Kalim invocations need a Glory of Kalim member).",
        [(c.strength_religious, n) for c, n in needs], "Invocations needing it",
        persons, meets,
        (f"{_plural(unknown, 'personality card', 'personality cards')} with unknown religious "
         "strength are not counted.",) if unknown else (),
        "No invocations in this deck.",
    )


def battle_event_strength(deck: Decklist, cards: Mapping[str, CardFacts]) -> Chart:
    """Battle events per economic/military strength requirement, against the troops that
    meet it."""
    troops = [
        (c, n) for c, n in _copies(deck, cards)
        if c.type == "personality" and c.personality_kind == "troop"
    ]
    needs = [
        (c, n) for c, n in _copies(deck, cards) if c.type == "event" and c.subtype == "battle"
    ]
    unknown = sum(n for p, n in troops if p.strength_economic is None)
    return _requirement_chart(
        "battle", "Battle events: economic strength",
        "Battle events per economic/military strength they require, and the troops strong "
        "enough to use them.",
        [(c.strength_economic, n) for c, n in needs], "Battle events needing it",
        troops,
        [("Troops that meet it", lambda p, level: _at_least(p.strength_economic, level))],
        (f"{_plural(unknown, 'troop card', 'troop cards')} with unknown economic strength are "
         "not counted.",) if unknown else (),
        "No battle events in this deck.",
    )


def _requirement_chart(
    key: str, title: str, summary: str,
    needs: list[tuple[int | None, int]], needs_name: str,
    people: list[tuple[CardFacts, int]],
    meets: list[tuple[str, Callable[[CardFacts, int], bool]]],
    notes: tuple[str, ...], nothing: str,
) -> Chart:
    levels = sorted({level for level, _ in needs if level is not None})
    categories = [str(level) for level in levels]
    needing = [sum(n for level, n in needs if level == want) for want in levels]
    met: list[list[int | None]] = [
        [sum(n for p, n in people if test(p, want)) for want in levels] for _, test in meets
    ]
    unknown = sum(n for level, n in needs if level is None)
    if unknown:
        categories.append(UNKNOWN)
        needing.append(unknown)
        for values in met:
            values.append(None)  # nobody can be said to meet an unknown requirement
    series = [Series(needs_name, tuple(needing))]
    series.extend(Series(name, tuple(values)) for (name, _), values in zip(meets, met,
                                                                            strict=True))
    return Chart(key, title, summary, tuple(categories), tuple(series), notes, nothing=nothing)


def _copies(deck: Decklist, cards: Mapping[str, CardFacts]) -> list[tuple[CardFacts, int]]:
    """(card, copies) over the whole deck, cards merged across parts; unknown ids left out."""
    merged: dict[str, int] = {}
    for _, entry in deck.all_entries():
        if entry.card_id in cards:
            merged[entry.card_id] = merged.get(entry.card_id, 0) + entry.count
    return [(cards[cid], n) for cid, n in merged.items()]


def _tally(
    deck: Decklist, cards: Mapping[str, CardFacts], label: Callable[[CardFacts], str],
    keep: Callable[[CardFacts | None], bool] = lambda card: True,
) -> dict[str, int]:
    counts: dict[str, int] = {}
    for _, entry in deck.all_entries():
        card = cards.get(entry.card_id)
        if not keep(card):
            continue
        name = UNKNOWN if card is None else label(card)
        counts[name] = counts.get(name, 0) + entry.count
    return counts


def _faction_label(card: CardFacts) -> str:
    return FACTION_SHORT.get(card.faction or "", UNKNOWN)


def _is_personality_or_unknown(card: CardFacts | None) -> bool:
    # A card of unknown type (or id) might be a personality: it is an unknown faction.
    return card is None or card.type in ("personality", None)


def _at_least(value: int | None, level: int) -> bool:
    return value is not None and value >= level


def _single(
    key: str, title: str, summary: str, categories: Iterable[str], counts: Mapping[str, int],
    series_name: str, notes: tuple[str, ...] = (),
) -> Chart:
    categories = tuple(categories)
    values = tuple(counts.get(c, 0) for c in categories)
    return Chart(key, title, summary, categories, (Series(series_name, values),), notes,
                 horizontal=True)


def _cards(n: int) -> str:
    return _plural(n, "card", "cards")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


# --- drawing --------------------------------------------------------------------------------

_VERTICAL_WIDTH: Final = 380
_VERTICAL_HEIGHT: Final = 220
_HORIZONTAL_WIDTH: Final = 380
_ROW: Final = 24
_LABEL_WIDTH: Final = 150


def _vertical(chart: Chart) -> tuple[int, int, list[str]]:
    """Grouped columns: one group per category, one column per series, a legend on top."""
    width = _VERTICAL_WIDTH
    if chart.empty or not chart.categories:
        return width, 60, [_text(width / 2, 34, chart.nothing, "middle")]
    left, right, bottom = 34, 8, 34
    legend, legend_height = _legend(chart.series, left, width - right)
    top = legend_height + 14
    height = _VERTICAL_HEIGHT + legend_height - 16
    plot_w, plot_h = width - left - right, height - top - bottom
    shapes: list[str] = []
    peak = _nice_max(max(v or 0 for s in chart.series for v in s.values))
    for tick in _ticks(peak):
        y = top + plot_h - plot_h * tick / peak
        shapes.append(f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" '
                      f'stroke="{GRID}"/>')
        shapes.append(_text(left - 6, y + 4, str(tick), "end"))
    group = plot_w / len(chart.categories)
    bar = group * 0.8 / len(chart.series)
    # Many narrow columns (a long victory-round histogram) would print their labels over one
    # another: a value shows on its column only where it fits, and the categories are labelled
    # every so many columns. Every number stays in the columns' titles and the text version.
    widest = max(len(c) for c in chart.categories) * 7 + 4
    every = max(1, -(-widest // int(group)) if group >= 1 else len(chart.categories))
    for i, category in enumerate(chart.categories):
        x0 = left + group * i + group * 0.1
        for j, series in enumerate(chart.series):
            value = series.values[i]
            if value is None:
                continue
            h = plot_h * value / peak
            x, y = x0 + bar * j, top + plot_h - h
            colour = PALETTE[j % 4]  # the legend's colour, unknown column included
            label = f"{series.name}, {category}: {value}"
            shapes.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(bar - 2, 1):.1f}" height="{h:.1f}" '
                f'fill="{colour}" rx="2"><title>{escape(label)}</title></rect>'
            )
            if value and len(str(value)) * 6 <= bar + 2:
                shapes.append(_text(x + (bar - 2) / 2, y - 3, str(value), "middle", size=10))
        if i % every == 0:
            shapes.append(_text(left + group * (i + 0.5), top + plot_h + 16, category, "middle"))
    shapes.append(f'<line x1="{left}" x2="{width - right}" y1="{top + plot_h}" '
                  f'y2="{top + plot_h}" stroke="{INK}"/>')
    return width, height, [*legend, *shapes]


def _horizontal(chart: Chart) -> tuple[int, int, list[str]]:
    """One bar per category (the first series), labels on the left, values at the bar's end."""
    width = _HORIZONTAL_WIDTH
    if chart.empty or not chart.categories:
        return width, 60, [_text(width / 2, 34, chart.nothing, "middle")]
    top = 8
    height = top + _ROW * len(chart.categories) + 8
    values = chart.series[0].values
    peak = max(v or 0 for v in values) or 1
    room = width - _LABEL_WIDTH - 44
    shapes: list[str] = []
    for i, (category, value) in enumerate(zip(chart.categories, values, strict=True)):
        y = top + _ROW * i
        shapes.append(_text(_LABEL_WIDTH - 8, y + 15, _shorten(category, 23), "end"))
        if value is None:
            continue
        w = room * value / peak
        colour = UNKNOWN_TONE if UNKNOWN in category else FACTION_TONES.get(category, PALETTE[0])
        label = f"{category}: {value}"
        shapes.append(
            f'<rect x="{_LABEL_WIDTH}" y="{y + 4}" width="{max(w, 1):.1f}" height="{_ROW - 8}" '
            f'fill="{colour}" rx="2"><title>{escape(label)}</title></rect>'
        )
        shapes.append(_text(_LABEL_WIDTH + w + 5, y + 15, str(value), "start"))
    return width, height, shapes


def _legend(series: tuple[Series, ...], left: float, right: float) -> tuple[list[str], int]:
    """Colour keys for the series, wrapped onto as many lines as they need; and its height."""
    shapes: list[str] = []
    x, y = left, 14
    for j, s in enumerate(series):
        width = 22 + 6.3 * len(s.name)
        if x > left and x + width > right:
            x, y = left, y + 16
        shapes.append(f'<rect x="{x:.1f}" y="{y - 9}" width="10" height="10" '
                      f'fill="{PALETTE[j % 4]}" rx="2"/>')
        shapes.append(_text(x + 14, y, s.name, "start"))
        x += width
    return shapes, y + 4


def _text(x: float, y: float, text: str, anchor: str, size: int = 11) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{INK}" '
            f'font-size="{size}">{escape(text)}</text>')


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _nice_max(value: int) -> int:
    """The top of the value axis: a round number at or above the largest value."""
    if value <= 4:
        return max(value, 1)
    step = 2 if value <= 10 else 5 if value <= 40 else 10
    return -(-value // step) * step


def _ticks(peak: int) -> list[int]:
    if peak <= 4:
        return list(range(peak + 1))
    return sorted({0, peak // 2, peak})
