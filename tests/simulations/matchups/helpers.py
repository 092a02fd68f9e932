"""What the matchup page tests share: a run of two saved decks, played by the worker in the
test's own transaction."""

from __future__ import annotations

from typing import Any

from decks.models import Deck
from decks.services import deck_data
from simulations.models import SimulationRun
from simulations.runs import MatchupOptions, matchup_run_start
from simulations.tasks import simulation_run_work


def played_matchup(user: Any, deck: Deck, opponent: Deck, games: int = 6) -> SimulationRun:
    run, _ = matchup_run_start(decks=[deck_data(deck), deck_data(opponent)],
                               options=MatchupOptions(games=games, seed=1), user=user,
                               requester=f"user:{user.pk}", source=deck)
    simulation_run_work(run_id=run.pk, worker="test")
    run.refresh_from_db()
    return run


def played_field(user: Any, decks: list[Deck], mode: str, games: int = 2) -> SimulationRun:
    """A gauntlet or matrix of saved decks, played."""
    run, _ = matchup_run_start(decks=[deck_data(d) for d in decks],
                               options=MatchupOptions(games=games, seed=1, mode=mode),
                               user=user, requester=f"user:{user.pk}:{mode}", source=decks[0])
    simulation_run_work(run_id=run.pk, worker="test")
    run.refresh_from_db()
    return run


def matchup_pages(user: Any) -> list[str]:
    """The pages of a matrix of three sample decks and of a gauntlet: the reports with their
    heat maps and sample games round by round (for the site-wide page checks)."""
    samples = list(Deck.objects.filter(owner__username="samples").order_by("name")[:3])
    matrix = played_field(user, samples, "matrix")
    gauntlet = played_field(user, samples, "gauntlet")
    return [f"/matchups/{matrix.pk}/", f"/matchups/{gauntlet.pk}/",
            f"/matchups/{matrix.pk}/games/1/1/?round=2",
            f"/matchups/{matrix.pk}/games/3/2/?round=end"]
