"""Goldfish pages: start a run from a deck, the live report, a sample game replayed round by
round, and two runs compared.

The work happens in the background (simulations.runs); the report page polls itself with
htmx every second while its run is going, and stops once it is done. Anyone may start a run on
a deck they can read, with the API's limits (smaller runs without an account).
"""

from __future__ import annotations

import uuid
from typing import Any, Final
from urllib.parse import urlencode

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.views.decorators.http import require_GET, require_http_methods

from cards.card_links import CardNames
from decks import history
from decks.models import Deck, DeckVersion
from decks.pickers import Choice, ChoiceGroup, deck_choices
from decks.services import deck_data
from decks.views.decks import visible_decks
from rules.decklist import Decklist
from rules.game.config import TARGETS
from rules.game.runner import POLICY_NAMES
from simulations.charts import compare_histogram, report_charts
from simulations.games import DeckNotPlayable, replay_rounds
from simulations.layout import log_entries, table_layout
from simulations.models import SimulationRun
from simulations.plays import solo_spec, stored_decks
from simulations.runs import (
    DEFAULT_GAMES,
    DEFAULT_SEED,
    SIGNED_IN,
    RunOptions,
    RunRefused,
    goldfish_run_start,
    limits_for,
    run_progress,
    simulation_run_nudge,
)
from simulations.stats import CARD_COLUMNS, card_differences, card_rows, compare_reports
from simulations.views.runs import deck_visible, live_page, requester_of, run_of, user_of
from sitewide.seeds import MAX_SEED

SAMPLES = (("fastest", "Fastest victory"), ("median", "A median victory"),
           ("slowest", "Slowest victory"))


# The policies as the form names them (rules/game/runner.py's names are the values).
POLICY_LABELS: Final = {"greedy": "Greedy (default)", "lookahead": "Lookahead",
                        "reference": "Reference",
                        "random": "Random"}


class GoldfishForm(forms.Form):
    """The options of a run; every field may be left out (the defaults of the button)."""

    games = forms.IntegerField(min_value=1, max_value=SIGNED_IN.games, required=False,
                               initial=DEFAULT_GAMES)
    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, required=False,
                              initial=DEFAULT_SEED)
    policy = forms.ChoiceField(
        choices=[(p, POLICY_LABELS.get(p, p)) for p in POLICY_NAMES], required=False,
        initial="greedy", label="Who plays",
        help_text="Greedy: the best move now, by fixed rules of thumb; lookahead: plays each "
                  "choice out to the end of the game first (slower: at most 1,000 games a "
                  "run); reference: the same, its playouts mixing in random moves (slower "
                  "still; at most 1,000 games); random: any legal move.")
    target = forms.TypedChoiceField(choices=[(t, str(t)) for t in TARGETS], coerce=int,
                                    required=False, initial=25, empty_value=None,
                                    label="Influence to win")
    players = forms.IntegerField(min_value=1, max_value=6, required=False, initial=1,
                                 help_text="The table's size: the game is lost once more than "
                                           "3 wanderers per player are in play (3 solo, 12 at "
                                           "4).")

    def options(self) -> RunOptions:
        data = self.cleaned_data
        pick = lambda name, default: default if data.get(name) in (None, "") else data[name]  # noqa: E731
        return RunOptions(games=pick("games", DEFAULT_GAMES), seed=pick("seed", DEFAULT_SEED),
                          policy=pick("policy", "greedy"), target=pick("target", 25),
                          players=pick("players", 1))


class GoldfishCompareForm(GoldfishForm):
    a = forms.CharField(label="Deck A", max_length=40)
    b = forms.CharField(label="Deck B", max_length=40)


def _run(run_id: uuid.UUID) -> SimulationRun:
    return run_of(run_id, (SimulationRun.GOLDFISH,), "goldfish")


def _start(request: HttpRequest, deck: Decklist, options: RunOptions, source: Deck,
           version: int | None) -> SimulationRun:
    """Raises DeckNotPlayable or RunRefused."""
    run, _ = goldfish_run_start(deck=deck, options=options, user=user_of(request),
                                requester=requester_of(request), source=source,
                                source_version=version or source.version)
    return run


# --- from a deck ------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def deck_goldfish(request: HttpRequest, deck_id: int) -> HttpResponse:
    """GET: the options form and this deck's runs. POST: start a run (or find the stored one)
    and go to its report."""
    deck = _deck(request, deck_id)
    form = GoldfishForm(request.POST or None)
    context: dict[str, Any] = {"deck": deck, "form": form, "limits": limits_for(user_of(request))}
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                run = _start(request, deck_data(deck), form.options(), deck, None)
            except (DeckNotPlayable, RunRefused) as error:
                context["error"] = getattr(error, "detail", str(error))
                status = getattr(error, "status", 400)
            else:
                return redirect(run)
        else:
            status = 400
    context["runs"] = deck.simulation_runs.filter(kind=SimulationRun.GOLDFISH).order_by(
        "-created_at")[:20]
    return render(request, "simulations/goldfish/deck_goldfish.html", context, status=status)


def _deck(request: HttpRequest, deck_id: int) -> Deck:
    deck = visible_decks(request).select_related("owner").filter(pk=deck_id).first()
    if deck is None:
        raise Http404("No such deck.")
    return deck


# --- the report -------------------------------------------------------------------------------


def _sort_links(request: HttpRequest, sort: str, descending: bool) -> list[dict[str, Any]]:
    """Column headings that sort the card table: a second click reverses the order."""
    links = []
    for key, heading in CARD_COLUMNS:
        current = key == sort
        descend = not descending if current else key != "name"
        links.append({
            "key": key, "heading": heading, "current": current,
            "url": f"?{urlencode({'sort': key, 'order': 'desc' if descend else 'asc'})}#cards",
            "aria_sort": ("descending" if descending else "ascending") if current else None,
        })
    return links


def report_context(request: HttpRequest, run: SimulationRun) -> dict[str, Any]:
    context: dict[str, Any] = {
        "run": run, "report": None,
        "can_cancel": run.active and run.requester == requester_of(request),
        "progress": run_progress(run) if run.active else None,
    }
    report = run.report
    if report is None:
        return context
    order = request.GET.get("order")
    rows, sort, descending = card_rows(report, request.GET.get("sort", ""),
                                       None if order not in ("asc", "desc") else order == "desc")
    histogram, curve = report_charts(report)
    rounds = report["victory_round"]
    picks = {"fastest": min(map(int, rounds["histogram"]), default=None),
             "median": rounds["median"], "slowest": max(map(int, rounds["histogram"]),
                                                         default=None)}
    samples = [{"label": label, "number": report["sample_games"][key], "round": picks[key]}
               for key, label in SAMPLES if key in report["sample_games"]]
    context.update(report=report, rows=rows, columns=_sort_links(request, sort, descending),
                   charts=(histogram, curve), samples=samples)
    return context


@require_GET
def goldfish_report(request: HttpRequest, run_id: uuid.UUID) -> HttpResponse:
    run = _run(run_id)
    simulation_run_nudge(run=run)
    context = report_context(request, run)
    context["deck_visible"] = deck_visible(request, run)
    return live_page(request, "simulations/goldfish/report.html",
                     "simulations/goldfish/_run_body.html", context)


# --- one game, round by round -----------------------------------------------------------------


@require_GET
def goldfish_game(request: HttpRequest, run_id: uuid.UUID, number: int) -> HttpResponse:
    run = _run(run_id)
    if not 1 <= number <= run.games:
        raise Http404(f"The run has games 1 to {run.games}.")
    game = replay_rounds(stored_decks(run)[0], solo_spec(run), number)
    try:
        shown = int(request.GET.get("round", "1"))
    except ValueError:
        shown = 1
    shown = min(max(shown, 1), game.final_round)
    base = reverse("goldfish:game", args=[run.pk, number])
    return render(request, "simulations/goldfish/game.html", {
        "run": run, "game": game, "round": shown, "table": table_layout(game.states[shown]),
        "lines": log_entries(game.lines.get(shown, [])), "rounds": sorted(game.states),
        "previous": f"{base}?round={shown - 1}" if shown > 1 else None,
        "next": f"{base}?round={shown + 1}" if shown < game.final_round else None,
        "base": base, "last": shown == game.final_round,
        "card_names": CardNames(run.card_facts[0]),
    })


# --- two runs compared ------------------------------------------------------------------------


def _deck_at(request: HttpRequest, token: str) -> tuple[Deck, int | None, Decklist]:
    """A deck at a version from "12" or "12:3"; raises ValueError or Http404."""
    deck_id, number = history.parse_side(token)
    deck = _deck(request, deck_id)
    try:
        side = history.compare_side(deck, number)
    except DeckVersion.DoesNotExist:
        raise Http404(f"Deck {deck_id} has no version {number}.") from None
    return deck, side.number, side.data


@require_http_methods(["GET", "POST"])
def goldfish_compare(request: HttpRequest) -> HttpResponse:
    """GET ?a=<run>&b=<run>: the two runs side by side and their difference. POST the form
    (two decks or versions and the options): start both runs and show them."""
    if request.method == "POST":
        return _compare_start(request)
    tokens = {side: request.GET.get(side, "").strip() for side in ("a", "b")}
    if not all(tokens.values()):
        initial = {"a": request.GET.get("deck_a", ""), "b": request.GET.get("deck_b", "")}
        return render(request, "simulations/goldfish/compare.html",
                      _compare_context(request, GoldfishCompareForm(initial=initial)))
    try:
        a, b = (_run(uuid.UUID(tokens[side])) for side in ("a", "b"))
    except ValueError:
        raise Http404("No such goldfish run.") from None
    for run in (a, b):
        simulation_run_nudge(run=run)
    context: dict[str, Any] = {"a": a, "b": b, "active": a.active or b.active,
                               "sides": [(a, run_progress(a)), (b, run_progress(b))]}
    if not getattr(request, "htmx", False):
        context.update(_compare_context(request, GoldfishCompareForm(initial={}), tokens))
    report_a, report_b = a.report, b.report
    if report_a is not None and report_b is not None:
        context.update(report_a=report_a, report_b=report_b,
                       comparison=compare_reports(report_a, report_b),
                       overlay=compare_histogram(report_a, report_b),
                       card_changes=card_differences(report_a, report_b))
    return live_page(request, "simulations/goldfish/compare.html",
                     "simulations/goldfish/_compare_body.html", context)


RUNS_LISTED = 40


def run_choices(user: Any, selected: Any = ()) -> list[ChoiceGroup]:
    """My latest runs, newest first, to compare two (a run is also reachable by its link:
    one given in ``selected`` that is not among them is kept, first)."""
    runs = (list(SimulationRun.objects.filter(owner=user, kind=SimulationRun.GOLDFISH)
                 .order_by("-created_at")
                 .only("id", "kind", "deck_names", "deck_version", "games", "seed", "policy",
                       "target", "players", "status", "created_at")[:RUNS_LISTED])
            if user.is_authenticated else [])
    listed = {str(run.pk) for run in runs}
    extra = [str(token) for token in selected if token and str(token) not in listed]
    runs = (list(SimulationRun.objects.filter(pk__in=extra, kind=SimulationRun.GOLDFISH)) + runs
            if extra else runs)

    def label(run: SimulationRun) -> str:
        version = f" v{run.deck_version}" if run.deck_version else ""
        status = "" if run.status == SimulationRun.DONE else f" · {run.status}"
        return (f"{run.deck_name or 'A decklist'}{version} · {run.games:,} games · seed "
                f"{run.seed} · {run.policy}, target {run.target} · "
                f"{date_format(timezone.localtime(run.created_at), 'j M, H:i')}{status}")

    return [ChoiceGroup("My runs", [Choice(str(run.pk), label(run)) for run in runs])] \
        if runs else []


def _compare_context(request: HttpRequest, form: GoldfishCompareForm,
                     tokens: dict[str, str] | None = None) -> dict[str, Any]:
    """What the compare page's two pickers need: my runs, and my decks and the public ones."""
    return {"form": form,
            "run_groups": run_choices(request.user, (tokens or {}).values()),
            "run_tokens": tokens or {},
            "deck_groups": deck_choices(request.user, [str(form["a"].value() or ""),
                                                       str(form["b"].value() or "")],
                                        visible_decks(request))}


def _compare_start(request: HttpRequest) -> HttpResponse:
    form = GoldfishCompareForm(request.POST)
    context: dict[str, Any] = _compare_context(request, form)
    if form.is_valid():
        try:
            runs = []
            for side in ("a", "b"):
                deck, number, data = _deck_at(request, form.cleaned_data[side])
                runs.append(_start(request, data, form.options(), deck, number))
        except ValueError:
            context["error"] = ("Write each deck as its number, optionally with a version after "
                                "a colon: 12 or 12:3.")
        except (DeckNotPlayable, RunRefused) as error:
            context["error"] = getattr(error, "detail", str(error))
            context["status"] = getattr(error, "status", 400)
        else:
            query = urlencode({"a": runs[0].pk, "b": runs[1].pk})
            return redirect(f"{reverse('goldfish:compare')}?{query}")
    return render(request, "simulations/goldfish/compare.html", context,
                  status=context.get("status", 400))
