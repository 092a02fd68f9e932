"""The test-draw page of a deck: ``/decks/<id>/draw/`` and its htmx partials.

Thin views over :mod:`decks.draws` (the same adapter as ``POST /api/draws/`` and the ``draw``
command), so the same deck, seed and strategy or picks deal the same hand everywhere. The URL is
the whole state, a permalink that replays the hand:

``seed``
    The shuffle (0 .. 2**63-1). Missing: the server picks one with :mod:`secrets` and redirects
    (or, for htmx, pushes the URL) so that the address holds it.
``structures=K`` | ``strategy=SPEC`` | ``picks=spsp``
    A fixed split, an adaptive rule, or interactive dealing (one letter per draw, ``s`` for the
    Structure Pile and ``p`` for the Personality Pile; ``picks=`` empty starts it). None of
    them: the default split, ``structures=3``.
``played=1,4`` (repeatable)
    One per later round, in order: the draw numbers of the cards played from the full hand
    before it is drawn back to seven (:func:`rules.draws.next_round`).

The "100 hands" strip deals the seeds ``seed``, ``seed + 1`` … ``seed + 99`` (wrapping below
2**63) with the page's strategy. Odds are exact (:mod:`rules.odds`): the per-card table, a
query box (the search language), a goal box (the goal language) and the split advisor. In
interactive mode the odds are those of the picks so far followed by the default split.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET
from django_htmx.http import push_url

from cards.card_search import SearchError
from decks.draws import (
    DEFAULT_STRUCTURES,
    deck_setup,
    holdings_warnings,
    parse_deck_goal,
    query_ids,
    read_strategy,
)
from decks.models import Deck
from decks.services import deck_data
from decks.views.decks import visible_decks
from rules.draw_strategy import (
    CITIZENS,
    HAND_SIZE,
    PILE_TITLES,
    CardTest,
    SpecError,
    Strategy,
    StrategyError,
    describe,
)
from rules.draws import Deal, DealError, Setup, deal_setup, next_round
from rules.odds import (
    GoalError,
    TooComplexError,
    advise_split,
    at_least,
    card_table,
    fraction_text,
    goal_odds,
    group_odds,
)
from sitewide.seeds import MAX_SEED
from sitewide.throttling import throttled

HANDS: Final = 100
TROOPS: Final = CardTest(type="personality", subtype="troop", label="troops")
STRATEGY_EXAMPLES: Final = (
    "structures until 2 structures with residencies, then personalities",
    "personalities until 1 citizen, then structures until 1 structure with residencies, "
    "then personalities",
    "alternate",
)
GOAL_EXAMPLES: Final = (
    ">= 1 citizen and >= 1 open residence",
    "at least 2 troops and a structure with residencies",
)
QUERY_EXAMPLE: Final = "t:troop"


class DrawProblem(ValueError):
    """A URL the page cannot deal: a message, and the field and text it is about."""

    def __init__(self, message: str, field: str = "", text: str = "",
                 error: SpecError | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.text = text
        self.error = error


@dataclass
class DrawState:
    """The page's state, read from the URL."""

    seed: int
    structures: int | None = None
    strategy: str | None = None
    picks: str | None = None  # "spsp"; "" = interactive with no pick yet
    played: list[list[int]] = field(default_factory=list)

    @property
    def mode(self) -> str:
        if self.picks is not None:
            return "interactive"
        return "rule" if self.strategy is not None else "split"

    def params(self, **changes: Any) -> list[tuple[str, str]]:
        state = replace(self, **changes)
        items: list[tuple[str, str]] = [("seed", str(state.seed))]
        if state.structures is not None:
            items.append(("structures", str(state.structures)))
        if state.strategy is not None:
            items.append(("strategy", state.strategy))
        if state.picks is not None:
            items.append(("picks", state.picks))
        items += [("played", ",".join(map(str, numbers))) for numbers in state.played]
        return items

    def query(self, **changes: Any) -> str:
        return urlencode(self.params(**changes))

    def rule_params(self) -> list[tuple[str, str]]:
        """The strategy alone (for the odds and the 100 hands)."""
        return [item for item in self.params() if item[0] in ("structures", "strategy", "picks")]


def _visible_deck(request: HttpRequest, deck_id: int) -> Deck:
    return get_object_or_404(visible_decks(request).select_related("owner"), pk=deck_id)


def _picks_text(raw: str) -> str:
    """``spsp``, ``s,p,s,p`` or pile words, as ``spsp``; a bad pick is a StrategyError."""
    items = [item.strip() for item in raw.split(",")] if "," in raw else list(raw.strip())
    letters = []
    offset = 0
    for item in items:
        word = item.casefold()
        if word in ("s", "structure", "structures"):
            letters.append("s")
        elif word in ("p", "personality", "personalities"):
            letters.append("p")
        elif word:
            raise StrategyError(f"{item!r} is not a pile", offset, max(1, len(item)),
                                "s (Structure Pile) or p (Personality Pile)")
        offset += len(item) + (1 if "," in raw else 0)
    return "".join(letters)


def read_state(query: QueryDict) -> tuple[DrawState, bool]:
    """The state from the URL, and whether the URL was already canonical. Raises DrawProblem."""
    canonical = True
    raw_seed = query.get("seed", "").strip()
    if raw_seed:
        try:
            seed = int(raw_seed)
        except ValueError:
            raise DrawProblem(f"The seed must be a whole number, not {raw_seed!r}.",
                              "seed", raw_seed) from None
        if not 0 <= seed <= MAX_SEED:
            raise DrawProblem("The seed must be between 0 and 2**63-1.", "seed", raw_seed)
    else:
        seed = secrets.randbelow(10**9)
        canonical = False
    state = DrawState(seed)
    raw_k = query.get("structures", "").strip()
    raw_rule = query.get("strategy", "").strip()
    if "picks" in query:
        try:
            state.picks = _picks_text(query.get("picks", ""))
        except StrategyError as error:
            raise DrawProblem(error.message, "picks", query.get("picks", ""), error) from None
    elif raw_rule:
        state.strategy = raw_rule
    elif raw_k:
        try:
            state.structures = int(raw_k)
        except ValueError:
            raise DrawProblem("The split is a number of structures from 0 to 7.",
                              "structures", raw_k) from None
        if not 0 <= state.structures <= HAND_SIZE:
            raise DrawProblem("The split is a number of structures from 0 to 7.",
                              "structures", raw_k)
    for raw in query.getlist("played"):
        try:
            state.played.append([int(n) for n in raw.split(",") if n.strip()])
        except ValueError:
            raise DrawProblem(f"played={raw!r}: give draw numbers, e.g. played=1,4.",
                              "played", raw) from None
    if query.get("next") == "1":  # the "draw back to seven" form: one more round
        try:
            state.played.append([int(n) for n in query.getlist("play") if n.strip()])
        except ValueError:
            raise DrawProblem("Mark cards of the hand as played.", "played") from None
        canonical = False
    return state, canonical


def deal_strategy(state: DrawState) -> Strategy:
    """The strategy the hand is dealt with: exactly what the API reads for the same fields."""
    picks = list(state.picks) if state.picks is not None else None
    return read_strategy(state.structures, state.strategy, picks)


def odds_strategy(state: DrawState) -> Strategy:
    """The strategy of the odds: the deal's; interactive, the picks then the default split."""
    if state.picks is not None:
        return read_strategy(DEFAULT_STRUCTURES, None, list(state.picks))
    return deal_strategy(state)


def _strategy(state: DrawState, odds: bool = False) -> Strategy:
    try:
        return odds_strategy(state) if odds else deal_strategy(state)
    except StrategyError as error:
        field_name = "picks" if state.picks is not None else "strategy"
        raise DrawProblem(error.message, field_name,
                          state.picks if state.picks is not None else state.strategy or "",
                          error) from None


def play_rounds(deal: Deal, rounds: list[list[int]]) -> Deal:
    """Each round: the cards of those draw numbers leave the full hand; draw back to seven."""
    for index, numbers in enumerate(rounds, start=1):
        if not deal.complete or deal.waiting:
            raise DrawProblem(f"Round {index}: the hand must hold seven cards before cards are "
                              "played from it.", "played")
        held = {d.number: d for d in deal.hand}
        missing = [n for n in numbers if n not in held]
        if missing or len(set(numbers)) != len(numbers):
            raise DrawProblem(f"Round {index}: draw {missing[0] if missing else numbers[0]} is "
                              "not (or not once) in the hand.", "played")
        played = [held[n] for n in numbers]
        # Played cards first, so that next_round (which removes the first copy of each id)
        # removes exactly the draws marked, not an earlier copy of the same card.
        rest = tuple(d for d in deal.hand if d.number not in numbers)
        try:
            deal = next_round(replace(deal, hand=(*played, *rest)), [d.card for d in played])
        except DealError as error:
            raise DrawProblem(str(error), "played") from None
    return deal


def check_picks(deal: Deal, picks: str) -> str | None:
    """Why the last picks could not be followed (an empty pile, a full hand), or None."""
    for draw in deal.draws:
        if draw.number <= len(picks):
            wanted = "structures" if picks[draw.number - 1] == "s" else "personalities"
            if draw.pile != wanted:
                return (f"Draw {draw.number}: the {PILE_TITLES[wanted]} is empty, so it cannot "
                        "be drawn from.")
    if len(picks) > len(deal.draws):
        if deal.complete:
            return "The hand already holds seven cards: play cards before drawing again."
        return "Both draw piles are empty: there is nothing left to draw."
    return None


def _pointer(error: SpecError | SearchError, text: str) -> dict[str, str]:
    end = error.position + max(error.length, 1)
    return {"before": text[: error.position], "at": text[error.position: end],
            "after": text[end:]}


def _problem_context(problem: DrawProblem) -> dict[str, Any]:
    context: dict[str, Any] = {"problem": problem}
    if problem.error is not None:
        context["pointer"] = _pointer(problem.error, problem.text)
    return context


def _hand_rows(deal: Deal) -> list[dict[str, Any]]:
    return [{"id": d.card, "name": d.name, "pile": d.pile, "pile_title": PILE_TITLES[d.pile],
             "number": d.number, "round": d.round} for d in deal.hand]


def deal_context(deck: Deck, state: DrawState) -> tuple[dict[str, Any], int, DrawState]:
    """Everything the deal panel shows, the status, and the state actually shown (a refused
    pick is dropped from it)."""
    context: dict[str, Any] = {"state": state}
    status = 200
    setup = deck_setup(deck_data(deck))
    context["setup"] = setup
    try:
        strategy = _strategy(state)
        deal = deal_setup(setup, state.seed, strategy)
        deal = play_rounds(deal, state.played)
        if state.picks:
            refused = check_picks(deal, state.picks)
            if refused:
                context["refused"] = refused
                status = 400
                state = replace(state, picks=state.picks[:-1])
                context["state"] = state
                strategy = _strategy(state)
                deal = play_rounds(deal_setup(setup, state.seed, strategy), state.played)
    except DrawProblem as problem:
        context.update(_problem_context(problem))
        return context, 400, state
    document = deal.to_dict()
    piles = {"structures": len(deal.structure_pile),
             "personalities": len(deal.personality_pile)}
    interactive = state.picks is not None
    context.update({
        "deal": deal, "document": document, "hand": _hand_rows(deal),
        "strategy": strategy, "interactive": interactive,
        "can_play": deal.complete and not deal.waiting,
        "fresh": {d.number for d in deal.hand if d.round == deal.round},
    })
    if interactive:
        full = len(deal.hand) >= HAND_SIZE
        picks = state.picks or ""
        context["empty_slots"] = range(max(0, HAND_SIZE - len(deal.hand)))
        context["undo_query"] = state.query(picks=picks[:-1]) if picks else ""
        context["pick_buttons"] = [
            {"letter": letter, "title": PILE_TITLES[pile], "left": piles[pile],
             "disabled": full or not piles[pile], "query": state.query(picks=picks + letter)}
            for letter, pile in (("s", "structures"), ("p", "personalities"))
        ]
    return context, status, state


def odds_context(deck: Deck, state: DrawState, setup: Setup | None = None) -> dict[str, Any]:
    """The per-card table for the page's strategy, best first."""
    setup = setup or deck_setup(deck_data(deck))
    try:
        strategy = _strategy(state, odds=True)
        table = card_table(setup, strategy)
    except DrawProblem:
        return {"table_error": "Fix the strategy to see its odds."}
    except TooComplexError as error:
        return {"table_error": error.message}
    rows = sorted(table.rows, key=lambda r: (-at_least(r.pmf, 1), -at_least(r.pmf, 2), r.name))
    table_rows = []
    for row in rows:
        data = row.to_dict()
        data["pile_title"] = PILE_TITLES[row.pile]
        data["pct1"] = float(at_least(row.pmf, 1)) * 100
        data["pct2"] = float(at_least(row.pmf, 2)) * 100
        table_rows.append(data)
    return {"odds_strategy": strategy, "table": table_rows}


def _respond(request: HttpRequest, template: str, context: dict[str, Any], status: int,
             url: str | None = None) -> HttpResponse:
    response = render(request, template, context, status=status)
    if url is not None and getattr(request, "htmx", False):
        push_url(response, url)
    return response


def _page_url(deck: Deck, state: DrawState) -> str:
    return f"{reverse('decks:draw', args=[deck.pk])}?{state.query()}"


@require_GET
@throttled("draws")
def draw_page(request: HttpRequest, deck_id: int) -> HttpResponse:
    """The page (or, for htmx, the deal panel with the odds table swapped out of band)."""
    deck = _visible_deck(request, deck_id)
    htmx = bool(getattr(request, "htmx", False))
    base: dict[str, Any] = {
        "deck": deck, "strategy_examples": STRATEGY_EXAMPLES, "goal_examples": GOAL_EXAMPLES,
        "query_example": QUERY_EXAMPLE, "hand_size": HAND_SIZE,
        "splits": [(k, HAND_SIZE - k) for k in range(HAND_SIZE + 1)],
        "default_structures": DEFAULT_STRUCTURES,
    }
    try:
        state, canonical = read_state(request.GET)
    except DrawProblem as problem:
        state = DrawState(secrets.randbelow(10**9) if problem.field == "seed" else
                          _seed_or_random(request.GET))
        context = {**base, "state": state, **_problem_context(problem)}
        template = "decks/_draw_body.html" if htmx else "decks/draw.html"
        return render(request, template, context, status=400)
    if not canonical and not htmx:
        return HttpResponseRedirect(_page_url(deck, state))
    context, status, state = deal_context(deck, state)
    context.update(base)
    context.update(odds_context(deck, state, context.get("setup")))
    context["permalink"] = _page_url(deck, state)
    context["shown_k"] = DEFAULT_STRUCTURES if state.structures is None else state.structures
    context["rule_query"] = urlencode(state.rule_params())
    context["query"] = request.GET.get("q", "")
    context["at_least"] = request.GET.get("n", "1")
    context["goal"] = request.GET.get("goal", "")
    if htmx:
        return _respond(request, "decks/_draw_body.html", {**context, "oob": True}, status,
                        context["permalink"])
    return render(request, "decks/draw.html", context, status=status)


def _seed_or_random(query: Mapping[str, str]) -> int:
    try:
        seed = int(query.get("seed", ""))
    except ValueError:
        return secrets.randbelow(10**9)
    return seed if 0 <= seed <= MAX_SEED else secrets.randbelow(10**9)


def _rule_state(request: HttpRequest) -> DrawState:
    state, _ = read_state(request.GET)
    return replace(state, played=[])


@require_GET
@throttled("odds")
def draw_odds(request: HttpRequest, deck_id: int) -> HttpResponse:
    """``kind=query`` (``q``, ``n``) or ``kind=goal`` (``goal``, with the split advisor)."""
    deck = _visible_deck(request, deck_id)
    kind = "goal" if request.GET.get("kind") == "goal" else "query"
    context: dict[str, Any] = {"deck": deck, "kind": kind, "goal_examples": GOAL_EXAMPLES,
                               "query_example": QUERY_EXAMPLE}
    text = (request.GET.get("goal" if kind == "goal" else "q") or "").strip()
    context["text"] = text
    raw_n = request.GET.get("n", "1").strip() or "1"
    context["at_least"] = raw_n
    template = f"decks/_draw_{kind}.html"
    try:
        state = _rule_state(request)
        strategy = _strategy(state, odds=True)
    except DrawProblem as problem:
        context["message"] = f"Fix the strategy first: {problem.message}"
        return render(request, template, context, status=400)
    context["rule_query"] = urlencode(state.rule_params())
    context["odds_strategy"] = strategy
    if not text:
        return render(request, template, context)
    data = deck_data(deck)
    setup = deck_setup(data)
    context["holdings_warnings"] = holdings_warnings(data, setup)
    try:
        if kind == "goal":
            goal = parse_deck_goal(text)
            result = goal_odds(setup, strategy, goal)
            advice = advise_split(setup, goal)
            context["result"] = {"pct": result.probability * 100,
                                 "exact": fraction_text(result.exact),
                                 "explained": describe(goal.condition)}
            context["advice"] = [
                {"structures": k, "personalities": HAND_SIZE - k, "pct": float(p) * 100,
                 "exact": fraction_text(p), "best": k == advice.best,
                 "query": urlencode([("seed", str(state.seed)), ("structures", str(k))])}
                for k, p in enumerate(advice.splits)]
        else:
            try:
                count = int(raw_n)
            except ValueError:
                count = -1
            if not 0 <= count <= 99:
                context["message"] = "“At least” is a number from 0 to 99."
                return render(request, template, context, status=400)
            search, ids = query_ids(text)
            odds = group_odds(setup, strategy, ids, count)
            context["result"] = {
                "pct": odds.probability * 100, "exact": fraction_text(odds.exact),
                "expected": float(odds.expected), "explained": search.matching,
                "group": odds.in_structures + odds.in_personalities,
                "in_structures": odds.in_structures, "in_personalities": odds.in_personalities,
                "warnings": list(search.warnings), "at_least": count}
    except (SearchError, GoalError) as error:
        context["error"] = error
        context["pointer"] = _pointer(error, text)
        return render(request, template, context, status=400)
    except TooComplexError as error:
        context["message"] = error.message
        return render(request, template, context, status=400)
    return render(request, template, context)


@require_GET
@throttled("draws")
def draw_hands(request: HttpRequest, deck_id: int) -> HttpResponse:
    """100 opening hands, seeds ``seed + i`` (i = 0..99), with the page's strategy."""
    deck = _visible_deck(request, deck_id)
    try:
        state = _rule_state(request)
        strategy = _strategy(state, odds=True)
    except DrawProblem as problem:
        return render(request, "decks/_draw_hands.html",
                      {"deck": deck, "message": problem.message}, status=400)
    setup = deck_setup(deck_data(deck))
    hands = []
    totals = {"structures": 0, "citizens": 0, "troops": 0, "cards": 0}
    with_citizen = 0
    for i in range(HANDS):
        seed = (state.seed + i) % (MAX_SEED + 1)
        dealt = deal_setup(setup, seed, strategy)
        counts = {
            "structures": sum(1 for d in dealt.hand if d.pile == "structures"),
            "citizens": sum(1 for d in dealt.hand if setup.matches(CITIZENS, d.card, d.pile)),
            "troops": sum(1 for d in dealt.hand if setup.matches(TROOPS, d.card, d.pile)),
            "cards": len(dealt.hand),
        }
        for key in totals:
            totals[key] += counts[key]
        with_citizen += counts["citizens"] > 0
        hands.append({"seed": seed, "query": state.query(seed=seed, played=[]),
                      "names": ", ".join(d.name for d in dealt.hand), **counts})
    summary = {key: value / HANDS for key, value in totals.items()}
    return render(request, "decks/_draw_hands.html", {
        "deck": deck, "hands": hands, "summary": summary, "with_citizen": with_citizen,
        "first": state.seed, "last": hands[-1]["seed"], "strategy": strategy,
    })
