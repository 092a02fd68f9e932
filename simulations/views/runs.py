"""What the run pages of every kind share: who is asking, the run asked for, whether its deck
may be linked, a live page that answers htmx's polls with its body alone, and cancelling."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST

from decks.views.decks import visible_decks
from simulations.models import SimulationRun
from simulations.run_limits import requester_key
from simulations.runs import simulation_run_cancel


def user_of(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def requester_of(request: HttpRequest) -> str:
    return requester_key(user_of(request), request.META.get("REMOTE_ADDR"))


def run_of(run_id: uuid.UUID, kinds: tuple[str, ...], what: str) -> SimulationRun:
    """The run of one of ``kinds``; 404 naming it as ``what`` ("goldfish", "matchup")."""
    run = SimulationRun.objects.select_related("deck").filter(pk=run_id, kind__in=kinds).first()
    if run is None:
        raise Http404(f"There is no such {what} run.")
    return run


def deck_visible(request: HttpRequest, run: SimulationRun) -> bool:
    """Whether the page may link to the deck that started the run."""
    return run.deck_id is not None and visible_decks(request).filter(pk=run.deck_id).exists()


def live_page(request: HttpRequest, page: str, body: str, context: dict[str, Any]
              ) -> HttpResponse:
    """The page, or its body alone for htmx's poll while the run goes on."""
    response = render(request, body if getattr(request, "htmx", False) else page, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_POST
def run_cancel(request: HttpRequest, run_id: uuid.UUID, kinds: tuple[str, ...],
               what: str) -> HttpResponse:
    """Cancel a run of one of ``kinds`` (the URL pattern says which) and go back to it; a 403
    page for anyone but whoever started it."""
    run = run_of(run_id, kinds, what)
    if run.requester != requester_of(request):
        return render(request, "simulations/cancel_refused.html", {"run": run}, status=403)
    simulation_run_cancel(run=run)
    return redirect(run)
