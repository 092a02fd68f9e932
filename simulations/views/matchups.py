"""Matchup pages: start a run from a deck's page (its Matchups panel), the live report (with a
gauntlet's or matrix's heat map) and a sample game replayed round by round.

The work happens in the background (simulations.runs); the report page polls itself with htmx
every second while its run is going, and stops once it is done.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from decks.models import Deck
from decks.services import deck_data, readable_decks
from decks.views.decks import visible_decks
from rules.game.config import TARGETS
from rules.game.gauntlet import MAX_FIELD
from simulations.games import DeckNotPlayable
from simulations.heatmap import heatmap
from simulations.models import SimulationRun
from simulations.opponents import MAX_OPPONENTS, opponent_groups
from simulations.replay import END, replay_step, sample_numbers
from simulations.report import card_tables, field_rows, pairing_rows, report_rows
from simulations.run_limits import RunRefused
from simulations.runs import (
    DEFAULT_SEED,
    TABLE_SIGNED_IN,
    MatchupOptions,
    matchup_run_start,
    simulation_run_nudge,
    table_limits_for,
)
from simulations.views.runs import deck_visible, live_page, requester_of, run_of, user_of
from sitewide.seeds import MAX_SEED

PAGE_GAMES = 200  # the panel's default: a few seconds of work, intervals of about ±7 points


MODES = [("matchup", "One matchup: all at one table"),
         ("gauntlet", "A gauntlet: this deck against each, two at a table"),
         ("matrix", "A matrix: every deck against every other, two at a table")]


class MatchupForm(forms.Form):
    opponents = forms.TypedMultipleChoiceField(coerce=int, choices=[])
    mode = forms.ChoiceField(choices=MODES, initial="matchup", required=False)
    games = forms.IntegerField(min_value=1, max_value=TABLE_SIGNED_IN.games, initial=PAGE_GAMES)
    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, initial=DEFAULT_SEED)
    target = forms.TypedChoiceField(choices=[(t, str(t)) for t in TARGETS], coerce=int,
                                    initial=25, label="Influence to win")

    def __init__(self, *args: Any, choices: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["opponents"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = [(pk, str(pk)) for pk in choices]

    def clean_mode(self) -> str:
        return self.cleaned_data.get("mode") or "matchup"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        picked = data.get("opponents") or []
        mode = data.get("mode") or "matchup"
        if mode == "matchup" and len(picked) > MAX_OPPONENTS:
            self.add_error("opponents", f"Pick at most {MAX_OPPONENTS} opponents for one "
                           "matchup: a table seats 6.")
        elif len(picked) > MAX_FIELD - 1:
            self.add_error("opponents", f"Pick at most {MAX_FIELD - 1} opponents for a "
                           f"{mode}.")
        return data


def panel_context(request: HttpRequest, deck: Deck,
                  form: MatchupForm | None = None) -> dict[str, Any]:
    """What the Matchups panel shows: the opponents to pick, the options, the deck's runs."""
    groups = opponent_groups(request.user, deck)
    if form is None:
        form = MatchupForm(choices=[d.pk for g in groups for d in g.decks])
    picked = {str(v) for v in (form["opponents"].value() or [])}
    mode = form["mode"].value() or "matchup"
    return {"deck": deck, "opponent_groups": groups, "matchup_form": form, "picked": picked,
            "max_opponents": MAX_OPPONENTS, "max_field": MAX_FIELD - 1, "modes": MODES,
            "mode": mode, "matchup_limits": table_limits_for(user_of(request)),
            "matchup_runs": SimulationRun.objects.filter(
                deck=deck, kind__in=SimulationRun.TABLE_KINDS).order_by("-created_at")[:10]}


@require_http_methods(["GET", "POST"])
def deck_matchups(request: HttpRequest, deck_id: int) -> HttpResponse:
    """GET: the panel on a page of its own. POST: start a run of the deck against the picked
    opponents (or find the stored one) and go to its report."""
    deck = visible_decks(request).select_related("owner").filter(pk=deck_id).first()
    if deck is None:
        raise Http404("No such deck.")
    if request.method == "GET":
        return render(request, "simulations/matchups/deck_matchups.html",
                      panel_context(request, deck))
    groups = opponent_groups(request.user, deck)
    form = MatchupForm(request.POST, choices=[d.pk for g in groups for d in g.decks])
    context = panel_context(request, deck, form)
    if not form.is_valid():
        return render(request, "simulations/matchups/deck_matchups.html", context, status=400)
    picked = form.cleaned_data["opponents"]
    opponents = {d.pk: d for d in readable_decks(request.user).filter(pk__in=picked)}
    options = MatchupOptions(games=form.cleaned_data["games"], seed=form.cleaned_data["seed"],
                             target=form.cleaned_data["target"],
                             mode=form.cleaned_data["mode"])
    try:
        run, _ = matchup_run_start(
            decks=[deck_data(deck), *(deck_data(opponents[pk]) for pk in picked)],
            options=options, user=user_of(request), requester=requester_of(request), source=deck)
    except (DeckNotPlayable, RunRefused) as error:
        context["matchup_error"] = getattr(error, "detail", str(error))
        return render(request, "simulations/matchups/deck_matchups.html", context,
                      status=getattr(error, "status", 400))
    return redirect(run)


def _run(run_id: uuid.UUID) -> SimulationRun:
    return run_of(run_id, SimulationRun.TABLE_KINDS, "matchup")


@require_GET
def matchup_report(request: HttpRequest, run_id: uuid.UUID) -> HttpResponse:
    run = _run(run_id)
    simulation_run_nudge(run=run)
    report = run.report
    field = run.mode != "matchup"
    context = {
        "run": run, "report": report, "field": field,
        "rows": report_rows(report) if report and not field else [],
        "deck_rows": field_rows(report) if report and field else [],
        "pairing_rows": pairing_rows(report) if report and field else [],
        "heatmap": heatmap(report) if report and field else None,
        "card_tables": card_tables(report) if report else [],
        "samples": sample_numbers(run),
        "can_cancel": run.active and run.requester == requester_of(request),
        "percent": round(100 * run.games_done / run.total_games) if run.games else 0,
        "deck_visible": deck_visible(request, run),
    }
    return live_page(request, "simulations/matchups/report.html",
                     "simulations/matchups/_run_body.html", context)


@require_GET
def matchup_game(request: HttpRequest, run_id: uuid.UUID, pairing: int,
                 number: int) -> HttpResponse:
    """Game ``number`` of pairing ``pairing`` (1-based; a matchup has one) at ?round=R (the
    start of round R) or ?round=end, every seat's table and the story of that round."""
    run = _run(run_id)
    if not 1 <= pairing <= len(run.pairs):
        raise Http404(f"The run has pairings 1 to {len(run.pairs)}.")
    if not 1 <= number <= run.games:
        raise Http404(f"The run has games 1 to {run.games}.")
    asked = request.GET.get("round", "1")
    step: int | str = int(asked) if asked.isdigit() else END
    game = replay_step(run, pairing - 1, number, step)
    base = reverse("matchups:game", args=[run.pk, pairing, number])
    at = game.steps.index(game.step)
    links = [{"step": s, "url": f"{base}?round={s}", "current": s == game.step,
              "label": "End" if s == END else str(s)} for s in game.steps]
    return render(request, "simulations/matchups/game.html", {
        "run": run, "game": game, "pairing": pairing, "steps": links,
        "previous": links[at - 1] if at > 0 else None,
        "next": links[at + 1] if at + 1 < len(links) else None,
        "deck_visible": deck_visible(request, run),
    })
