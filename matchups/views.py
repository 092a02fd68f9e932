"""Matchup pages: start a run from a deck's page (its Matchups panel) and the live report.

The work happens in the background (matchups.runs); the report page polls itself with htmx
every second while its run is going, and stops once it is done.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from decks.models import Deck
from decks.services import deck_data, readable_decks
from decks.views import visible_decks
from matchups.games import DeckNotPlayable
from matchups.models import MatchupRun
from matchups.opponents import MAX_OPPONENTS, opponent_groups
from matchups.report import report_rows
from matchups.runs import (
    DEFAULT_SEED,
    SIGNED_IN,
    MatchupOptions,
    limits_for,
    matchup_run_cancel,
    matchup_run_nudge,
    matchup_run_start,
)
from rules.game.config import TARGETS
from sitewide.background_runs import RunRefused, requester_key

MAX_SEED = 2**63 - 1
PAGE_GAMES = 200  # the panel's default: a few seconds of work, intervals of about ±7 points


class MatchupForm(forms.Form):
    opponents = forms.TypedMultipleChoiceField(coerce=int, choices=[])
    games = forms.IntegerField(min_value=1, max_value=SIGNED_IN.games, initial=PAGE_GAMES)
    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, initial=DEFAULT_SEED)
    target = forms.TypedChoiceField(choices=[(t, str(t)) for t in TARGETS], coerce=int,
                                    initial=25, label="Influence to win")

    def __init__(self, *args: Any, choices: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["opponents"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = [(pk, str(pk)) for pk in choices]

    def clean_opponents(self) -> list[int]:
        picked: list[int] = self.cleaned_data["opponents"]
        if len(picked) > MAX_OPPONENTS:
            raise forms.ValidationError(f"Pick at most {MAX_OPPONENTS} opponents: a table "
                                        "seats 6.")
        return picked


def _user(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def _requester(request: HttpRequest) -> str:
    return requester_key(_user(request), request.META.get("REMOTE_ADDR"))


def panel_context(request: HttpRequest, deck: Deck,
                  form: MatchupForm | None = None) -> dict[str, Any]:
    """What the Matchups panel shows: the opponents to pick, the options, the deck's runs."""
    groups = opponent_groups(request.user, deck)
    if form is None:
        form = MatchupForm(choices=[d.pk for g in groups for d in g.decks])
    picked = {str(v) for v in (form["opponents"].value() or [])}
    return {"deck": deck, "opponent_groups": groups, "matchup_form": form, "picked": picked,
            "max_opponents": MAX_OPPONENTS, "matchup_limits": limits_for(_user(request)),
            "matchup_runs": MatchupRun.objects.filter(deck=deck).order_by("-created_at")[:10]}


@require_http_methods(["GET", "POST"])
def deck_matchups(request: HttpRequest, deck_id: int) -> HttpResponse:
    """GET: the panel on a page of its own. POST: start a run of the deck against the picked
    opponents (or find the stored one) and go to its report."""
    deck = visible_decks(request).select_related("owner").filter(pk=deck_id).first()
    if deck is None:
        raise Http404("No such deck.")
    if request.method == "GET":
        return render(request, "matchups/deck_matchups.html", panel_context(request, deck))
    groups = opponent_groups(request.user, deck)
    form = MatchupForm(request.POST, choices=[d.pk for g in groups for d in g.decks])
    context = panel_context(request, deck, form)
    if not form.is_valid():
        return render(request, "matchups/deck_matchups.html", context, status=400)
    picked = form.cleaned_data["opponents"]
    opponents = {d.pk: d for d in readable_decks(request.user).filter(pk__in=picked)}
    options = MatchupOptions(games=form.cleaned_data["games"], seed=form.cleaned_data["seed"],
                             target=form.cleaned_data["target"])
    try:
        run, _ = matchup_run_start(
            decks=[deck_data(deck), *(deck_data(opponents[pk]) for pk in picked)],
            options=options, user=_user(request), requester=_requester(request), source=deck)
    except (DeckNotPlayable, RunRefused) as error:
        context["matchup_error"] = getattr(error, "detail", str(error))
        return render(request, "matchups/deck_matchups.html", context,
                      status=getattr(error, "status", 400))
    return redirect(run)


def _run(run_id: uuid.UUID) -> MatchupRun:
    run = MatchupRun.objects.select_related("deck").filter(pk=run_id).first()
    if run is None:
        raise Http404("There is no such matchup run.")
    return run


@require_GET
def matchup_report(request: HttpRequest, run_id: uuid.UUID) -> HttpResponse:
    run = _run(run_id)
    matchup_run_nudge(run=run)
    report = run.report
    context = {
        "run": run, "report": report, "rows": report_rows(report) if report else [],
        "can_cancel": run.active and run.requester == _requester(request),
        "percent": round(100 * run.games_done / run.games) if run.games else 0,
        "deck_visible": (run.deck_id is not None
                         and visible_decks(request).filter(pk=run.deck_id).exists()),
    }
    htmx = getattr(request, "htmx", False)
    template = "matchups/_run_body.html" if htmx else "matchups/report.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_POST
def matchup_cancel(request: HttpRequest, run_id: uuid.UUID) -> HttpResponse:
    run = _run(run_id)
    if run.requester != _requester(request):
        raise Http404("Only whoever started a run can cancel it.")
    matchup_run_cancel(run=run)
    return redirect(run)
