"""Writes to playtest games: start, apply a move, undo, let the policy play, share.

Every write locks the game's row and checks the decision the request was made at, so two tabs
(or a double click) can never apply two moves to one decision: the second is refused as stale
and changes nothing. The engine work itself is in :mod:`playtest.play`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.db.models import Q, QuerySet

from decks.deck_input import DeckInputError, deck_from_text
from decks.exports import render_deck
from decks.formats.json_format import deck_to_dict
from decks.models import Deck
from decks.services import SAMPLE_OWNER, deck_data, readable_decks
from decks.validation import catalogue_facts
from playtest.models import PlaytestGame
from playtest.play import Move, Refused, Until
from playtest.table_play import (
    SURRENDER,
    TableCache,
    TableGame,
    player_outcome,
    table_start,
)
from rules.decklist import Decklist
from rules.game.config import RULES_VERSION, GameConfig
from rules.game.state import GameState

SESSION_KEY: Final = "playtest_token"


def playtest_session_token(session: SessionBase, *, create: bool = False) -> str:
    """The visitor's playtest token, kept in the session (it survives logging in, unlike the
    session key); made on first use when ``create``."""
    token: str = session.get(SESSION_KEY, "")
    if not token and create:
        token = secrets.token_urlsafe(32)
        session[SESSION_KEY] = token
    return token


def playtests_visible(*, user: Any, session_token: str) -> QuerySet[PlaytestGame]:
    """The games this visitor may open: their own, or their session's anonymous ones."""
    mine = Q(owner=user) if user is not None and user.is_authenticated else Q(pk__in=[])
    if session_token:
        mine |= Q(owner__isnull=True, session_token=session_token)
    return PlaytestGame.objects.filter(mine)


type Opponent = tuple[Decklist, Deck | None]  # a deck, and the saved deck it was read from


def playtest_start(*, deck: Decklist, owner: Any, session_token: str, seed: int | None = None,
                   target: int = 25, source_deck: Deck | None = None,
                   opponents: Sequence[Opponent] = ()) -> PlaytestGame:
    """A new game of ``deck``, solo (a table of one) or against ``opponents`` (1 to 5, each
    played by the greedy seat policy). Raises DeckNotPlayable (unknown card numbers, no
    stronghold, a wanderer pile too small for the table)."""
    if seed is None:
        seed = secrets.randbelow(10**9)
    config = GameConfig(target=target)
    decks = [deck, *(d for d, _ in opponents)]
    source, played = table_start(decks, catalogue_facts(), config, seed)
    names = [d.name or (s.name if s else "") or "Pasted deck" for d, s in opponents]
    owner = owner if owner is not None and owner.is_authenticated else None
    game = PlaytestGame(
        owner=owner, session_token="" if owner else session_token, source_deck=source_deck,
        deck_name=deck.name or (source_deck.name if source_deck else "") or "Pasted deck",
        deck_text=render_deck(deck, "txt"), deck=deck_to_dict(source.decks[0]), seed=seed,
        config={**played.table.config.to_dict(), "rules_version": RULES_VERSION},
        actions=[],
        opponents=[{"name": name, "source_deck": s.pk if s else None,
                    "deck_text": render_deck(d, "txt"), "deck": deck_to_dict(played_deck),
                    "facts": facts}
                   for name, (d, s), played_deck, facts
                   in zip(names, opponents, source.decks[1:], source.facts[1:], strict=True)],
    )
    _store(game, played)
    game.save()
    TABLES.put(_cached_as(game), game.actions, played)
    return game


def readable_deck(user: Any, deck_id: int, links: Iterable[str] = ()) -> Deck:
    """A saved deck the visitor may read (public, their own, or unlisted and one of ``links``:
    decks.share_links; any other is Deck.DoesNotExist)."""
    deck: Deck = readable_decks(user, links).get(pk=deck_id)
    return deck


def read_opponents(user: Any, deck_ids: Sequence[int], texts: Sequence[str]) -> list[Opponent]:
    """The opponents a visitor chose: saved decks they may read (any other is
    Deck.DoesNotExist), then pasted decklists (DeckInputError naming the opponent)."""
    found: list[Opponent] = []
    for deck_id in deck_ids:
        saved = readable_deck(user, deck_id)
        found.append((deck_data(saved), saved))
    for text in texts:
        try:
            found.append((deck_from_text(text), None))
        except DeckInputError as error:
            raise replace(error, detail=f"Opponent {len(found) + 1}: {error.detail}") from None
    return found


@dataclass(frozen=True)
class OpponentGroup:
    label: str
    decks: list[Deck]


def opponent_groups(user: Any) -> list[OpponentGroup]:
    """The decks offered as opponents, as the Matchups panel groups them: the sample decks,
    the public decks of others, the visitor's own (each sorted by name; empty groups left
    out)."""
    readable = readable_decks(user).select_related("owner")
    samples = list(readable.filter(owner__username=SAMPLE_OWNER, visibility=Deck.PUBLIC)
                   .order_by("name", "id"))
    public = readable.filter(visibility=Deck.PUBLIC).exclude(owner__username=SAMPLE_OWNER)
    if user is not None and user.is_authenticated:
        public = public.exclude(owner=user)
    mine = (list(readable.filter(owner=user).order_by("name", "id"))
            if user is not None and user.is_authenticated else [])
    groups = [OpponentGroup("Sample decks", samples),
              OpponentGroup("Public decks", list(public.order_by("name", "id")[:100])),
              OpponentGroup("My decks", mine)]
    return [group for group in groups if group.decks]


def playtest_start_from(*, user: Any, session_token: str, deck_id: int | None = None,
                        text: str | None = None, seed: int | None = None,
                        target: int = 25, opponents: Sequence[Opponent] = (),
                        links: Iterable[str] = ()) -> PlaytestGame:
    """A new game of a saved deck the visitor may read (any other is Deck.DoesNotExist) or of
    a decklist text (DeckInputError when it does not read), solo or against ``opponents``.
    Raises DeckNotPlayable when the engine cannot play a deck."""
    source_deck = None
    if deck_id is not None:
        source_deck = readable_deck(user, deck_id, links)
        data = deck_data(source_deck)
    else:
        data = deck_from_text(text or "")
    return playtest_start(deck=data, owner=user, session_token=session_token, seed=seed,
                          target=target, source_deck=source_deck, opponents=opponents)


def playtest_state(game: PlaytestGame) -> GameState:
    """The player's seat as it is now (from the stored state: no replay)."""
    return GameState.from_dict(game.state)


#: Tables being played in this process (a move continues one instead of replaying the game).
TABLES = TableCache()


def _cached_as(game: PlaytestGame) -> tuple[int, int, str]:
    # An id may be given again once its game is deleted: the seed and the creation time tell
    # the two games apart.
    return game.pk, game.seed, game.created_at.isoformat()


def table_game(game: PlaytestGame) -> TableGame:
    """The game's table (solo: a table of one) as it is now: from the cache or replayed. The
    caller owns it; put it back with :func:`table_done` (or drop it after a failed write)."""
    cached = TABLES.take(_cached_as(game), game.actions)
    return cached if cached is not None else replayed(game)


def replayed(game: PlaytestGame, upto: int | None = None) -> TableGame:
    """The game's table after the player's first ``upto`` actions (all by default). Refused
    (409 ``not_replayable``) when its actions no longer replay: a game stored by another
    version of the rules engine, whose dice or rules have changed since."""
    try:
        return game.table_source().replay(game.actions, upto)
    except ValueError as error:
        played_with = game.config.get("rules_version", "an older version")
        raise Refused(
            "not_replayable",
            f"This game was played with the rules engine {played_with}, and the engine has "
            f"changed since ({RULES_VERSION} now): {error}, so it can no longer be replayed. "
            "Start a new game of the deck.", status=409) from None


def table_done(game: PlaytestGame, played: TableGame) -> None:
    TABLES.put(_cached_as(game), game.actions, played)


def _store(game: PlaytestGame, played: TableGame) -> None:
    game.state = played.state.to_dict()
    game.decisions = played.decisions
    game.round = played.table.round
    game.outcome = player_outcome(played.table)


def _check_decision(game: PlaytestGame, decision: int | None) -> None:
    """A request names the decision it was made at; any other one is stale (409)."""
    if decision is not None and decision != game.decisions:
        raise Refused(
            "stale_decision",
            f"This move was chosen at decision {decision}, but the game is at decision "
            f"{game.decisions} (another tab or request moved on). Nothing was changed; "
            "here is the game as it is now.",
            status=409, current_decision=game.decisions,
        )


def _locked(game: PlaytestGame) -> PlaytestGame:
    return PlaytestGame.objects.select_for_update().get(pk=game.pk)


@transaction.atomic
def playtest_apply(*, game: PlaytestGame, decision: int | None, index: int | None = None,
                   action: dict[str, Any] | None = None) -> tuple[PlaytestGame, Move]:
    """Apply the legal action named by ``index`` (in the legal actions of the moment) or by
    value. Raises :class:`Refused` (stale decision 409, illegal action 400); nothing changes
    then."""
    game = _locked(game)
    _check_decision(game, decision)
    played = table_game(game)
    try:
        chosen = played.chosen(index=index, action=action)
    except Refused:
        table_done(game, played)  # unchanged: it stays in the cache
        raise
    move = Move()
    played.apply_player(chosen, move, game.seat_names())
    return _save_move(game, played, move), move


def playtest_surrender(*, game: PlaytestGame,
                       decision: int | None) -> tuple[PlaytestGame, Move]:
    """The player surrenders a game at a table ("at any time"): he is out, and the AI seats
    play on to the end. Kept among his actions, so undo takes it back."""
    if not game.at_table:
        raise Refused("not_at_table", "Surrender is for a game at a table; a solo game simply "
                      "stops where you leave it (or undo, or start a new one).")
    return playtest_apply(game=game, decision=decision, action={"kind": SURRENDER})


@transaction.atomic
def playtest_auto(*, game: PlaytestGame, until: Until,
                  decision: int | None = None) -> tuple[PlaytestGame, Move]:
    """Let the greedy policy play one action, to the end of the phase, or to the end."""
    game = _locked(game)
    _check_decision(game, decision)
    played = table_game(game)
    if played.over:
        table_done(game, played)
        raise Refused("game_over", f"The game is over ({game.outcome}).", status=409,
                      current_decision=game.decisions)
    move = Move()
    played.play_policy(until, move, game.seat_names())
    return _save_move(game, played, move), move


def _save_move(game: PlaytestGame, played: TableGame, move: Move) -> PlaytestGame:
    game.actions = [*game.actions, *(a.to_dict() for a in move.actions)]
    _store(game, played)
    game.save()
    # Cached once the row is written: a rolled back write leaves no table ahead of it.
    transaction.on_commit(lambda: table_done(game, played))
    return game


@transaction.atomic
def playtest_undo(*, game: PlaytestGame, decision: int) -> PlaytestGame:
    """Back to decision ``decision`` (0 = the start): the game replayed from its seed up to
    there, and the later actions forgotten."""
    game = _locked(game)
    if not 0 <= decision <= game.decisions:
        raise Refused("bad_decision",
                      f"Undo goes back to a decision from 0 to {game.decisions}, "
                      f"not {decision}.", current_decision=game.decisions)
    played = replayed(game, decision)
    game.actions = game.actions[:decision]
    _store(game, played)
    game.save()
    transaction.on_commit(lambda: table_done(game, played))
    return game


def playtest_share(*, game: PlaytestGame, shared: bool) -> PlaytestGame:
    """Make (or drop) the link that lets anyone watch the game."""
    if shared and not game.share_token:
        game.share_token = secrets.token_urlsafe(16)
    elif not shared:
        game.share_token = None
    game.save(update_fields=["share_token", "updated_at"])
    return game
