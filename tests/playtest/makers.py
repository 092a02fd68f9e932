"""Playtest games of every kind, for the page checks (phone widths, valid HTML, axe)."""

from __future__ import annotations

from typing import Any

from decks.models import Deck
from decks.services import deck_data
from playtest.services import playtest_auto, playtest_share, playtest_start_from


def playtest_pages(ada: Any, deck: Deck) -> list[str]:
    """The playtest pages of ``deck`` (ada's): the start form, the list, a game under way and
    its shared replay, a finished game, a game against two AI opponents and its replay."""
    game = playtest_start_from(user=ada, session_token="", deck_id=deck.pk, seed=7)
    playtest_auto(game=game, until="phase")
    shared = playtest_share(game=game, shared=True)
    finished = playtest_start_from(user=ada, session_token="", deck_id=deck.pk, seed=8)
    playtest_auto(game=finished, until="game")
    opponents = [Deck.objects.get(owner__username="samples", name=name)
                 for name in ("Mosfin Blades", "Guild Merchants")]
    at_table = playtest_start_from(user=ada, session_token="", deck_id=deck.pk, seed=5,
                                   target=15, opponents=[(deck_data(d), d) for d in opponents])
    playtest_auto(game=at_table, until="phase")
    table_shared = playtest_share(game=at_table, shared=True)
    return ["/playtest/new/", f"/playtest/{game.pk}/", f"/playtest/{finished.pk}/", "/playtest/",
            f"/playtest/shared/{shared.share_token}/?decision=1", f"/playtest/{at_table.pk}/",
            f"/playtest/shared/{table_shared.share_token}/?decision=2"]
