"""What the matchup page tests share: a run of two saved decks, played by the worker in the
test's own transaction."""

from __future__ import annotations

from typing import Any

from decks.models import Deck
from decks.services import deck_data
from matchups.models import MatchupRun
from matchups.runs import MatchupOptions, matchup_run_start
from matchups.worker import matchup_run_work


def played_matchup(user: Any, deck: Deck, opponent: Deck, games: int = 6) -> MatchupRun:
    run, _ = matchup_run_start(decks=[deck_data(deck), deck_data(opponent)],
                               options=MatchupOptions(games=games, seed=1), user=user,
                               requester=f"user:{user.pk}", source=deck)
    matchup_run_work(run_id=run.pk, worker="test")
    run.refresh_from_db()
    return run
