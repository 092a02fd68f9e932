"""The playtest pages: start a game, play it move by move, undo, let the policy play, hints,
share it; and the read-only replay viewer of a shared game.

Thin views over :mod:`playtest.services` (the writes) and :mod:`playtest.game_display`
(what is shown). Every move is a form posting the action's index and the decision it was
chosen at, so the pages work without JavaScript (post, then redirect back to the game); with
htmx the game's body is swapped in place and the result of the move is announced in a live
region. A refused move (stale 409, illegal 400) changes nothing and says why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from decks.deck_input import DeckInputError
from decks.models import Deck
from decks.share_links import links_held
from decks.views.decks import visible_decks
from playtest.forms import AutoForm, MoveForm, StartForm, UndoForm
from playtest.game_display import game_context, game_view
from playtest.models import PlaytestGame
from playtest.play import Move, Refused
from playtest.services import (
    opponent_groups,
    playtest_apply,
    playtest_auto,
    playtest_session_token,
    playtest_share,
    playtest_start_from,
    playtest_surrender,
    playtest_undo,
    playtests_visible,
    read_opponents,
)
from playtest.table_play import MAX_OPPONENTS
from rules.game.engine import DeckNotPlayable

ANNOUNCED_LINES = 14  # a policy run to the end can tell hundreds: announce the last ones


def _htmx(request: HttpRequest) -> bool:
    details = getattr(request, "htmx", None)
    return bool(details) and not details.history_restore_request  # type: ignore[union-attr]


def _game(request: HttpRequest, game_id: int) -> PlaytestGame:
    """A game of this visitor's (anyone else's is 404: it does not exist for them)."""
    token = playtest_session_token(request.session)
    return get_object_or_404(playtests_visible(user=request.user, session_token=token),
                             pk=game_id)


@require_GET
def playtest_list(request: HttpRequest) -> HttpResponse:
    token = playtest_session_token(request.session)
    games = playtests_visible(user=request.user, session_token=token).defer(
        "state", "opponents")[:50]
    return render(request, "playtest/list.html", {"games": games})


def _deck_choices(request: HttpRequest, limit: int = 24) -> list[Deck]:
    visible = visible_decks(request).select_related("owner").order_by("name", "id")
    mine = list(visible.filter(owner=request.user)[:limit]) if request.user.is_authenticated \
        else []
    others = visible.filter(visibility=Deck.PUBLIC)
    if request.user.is_authenticated:
        others = others.exclude(owner=request.user)
    return mine + list(others[:limit - len(mine)])


@require_http_methods(["GET", "POST"])
def playtest_new(request: HttpRequest) -> HttpResponse:
    """GET: the start form (``?deck=ID`` picks a saved deck); POST: start and go to the game."""
    source = request.POST if request.method == "POST" else request.GET
    deck = None
    if source.get("deck"):
        try:
            deck = visible_decks(request).get(pk=int(source["deck"]))
        except (ValueError, Deck.DoesNotExist):
            raise Http404("No such deck.") from None
    # Decks to pick instead of pasting: the visitor's own (unlisted and private too), then the
    # public ones of others (another's unlisted deck is reached by its link only).
    choices = [] if deck else _deck_choices(request)
    context: dict[str, Any] = {
        "deck": deck, "choices": choices, "opponent_groups": opponent_groups(request.user),
        "opponent_slots": _opponent_slots(source.getlist("opponent")),
    }
    if request.method != "POST":
        context["form"] = StartForm(initial={"deck": deck.pk if deck else None})
        return render(request, "playtest/new.html", context)
    form = StartForm(request.POST)
    context["form"] = form
    if not form.is_valid():
        return render(request, "playtest/new.html", context, status=400)
    data = form.cleaned_data
    try:
        opponents = read_opponents(request.user, data["opponent_ids"], data["opponent_texts"])
        game = playtest_start_from(
            user=request.user, session_token=playtest_session_token(request.session, create=True),
            deck_id=deck.pk if deck else None, text=None if deck else data["text"],
            seed=data["seed"], target=data["target"], opponents=opponents,
            links=links_held(request.session))
    except Deck.DoesNotExist:
        context["problem"] = "One of the opponents' decks is not one you can read."
        return render(request, "playtest/new.html", context, status=400)
    except DeckInputError as error:
        context["problem"] = error.detail
        context["line_errors"] = error.errors()
        return render(request, "playtest/new.html", context, status=400)
    except DeckNotPlayable as error:
        context["problem"] = str(error)
        return render(request, "playtest/new.html", context, status=400)
    return redirect(game.get_absolute_url(), permanent=False)


def _opponent_slots(picked: list[str]) -> list[dict[str, Any]]:
    """One deck picker per opponent seat (seat 2 on), each with the deck picked, if any."""
    picked = [p for p in picked if p.strip()]
    return [{"seat": n + 2, "picked": picked[n] if n < len(picked) else ""}
            for n in range(MAX_OPPONENTS)]


def _int_param(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def _share_url(request: HttpRequest, game: PlaytestGame) -> str | None:
    if not game.share_token:
        return None
    return request.build_absolute_uri(reverse("playtest:shared", args=[game.share_token]))


def _page(request: HttpRequest, game: PlaytestGame, *, status: int = 200,
          error: Refused | None = None, announce: dict[str, Any] | None = None,
          focus: int | None = None, hints: bool = False) -> HttpResponse:
    """The game's page, or for htmx its body (and the announcement out of band)."""
    try:
        context = game_context(game_view(game), focus=focus, hints=hints)
    except Refused as refused:  # not_replayable: a game of another rules version
        return render(request, "playtest/not_replayable.html",
                      {"game": game, "detail": refused.detail}, status=refused.status)
    context.update({"error": error, "announce": announce,
                    "share_url": _share_url(request, game)})
    htmx = _htmx(request)
    template = "playtest/_swap.html" if htmx else "playtest/game.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_GET
def playtest_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """``focus=N`` shows the moves of card N; ``hints=1`` adds each move's chance of victory."""
    game = _game(request, game_id)
    return _page(request, game, focus=_int_param(request.GET.get("focus")),
                 hints=request.GET.get("hints") == "1")


def _answer(request: HttpRequest, game: PlaytestGame, announce: dict[str, Any]) -> HttpResponse:
    """After a successful write: the body for htmx; otherwise back to the page (post, redirect,
    get), the announcement travelling as a message."""
    if _htmx(request):
        return _page(request, game, announce=announce)
    messages.info(request, " ".join([announce["title"], *announce["lines"]]))
    return redirect(game.get_absolute_url())


def _refused(request: HttpRequest, game: PlaytestGame, refused: Refused) -> HttpResponse:
    announce = {"title": refused.detail, "lines": [], "kind": "problem"}
    return _page(request, game, status=refused.status, error=refused, announce=announce)


def _form_problem(message: str) -> Refused:
    return Refused("bad_request", message)


def _move_announcement(move: Move, *, policy: bool) -> dict[str, Any]:
    count = len(move.actions)
    if not policy:
        title = f"You: {move.texts[0]}." if move.texts else "Nothing happened."
    elif count == 1:
        title = f"The policy: {move.texts[0]}."
    else:
        title = f"The policy played {count} moves."
    # The move itself is the title (at a table its line names the seat: "You: ...").
    said = {f"{move.texts[0]}.", f"You: {move.texts[0]}."} if count == 1 else set()
    lines = [line for line in move.lines if line not in said]
    return {"title": title, "lines": lines[-ANNOUNCED_LINES:], "kind": "ok",
            "cut": max(0, len(lines) - ANNOUNCED_LINES)}


type Announce = dict[str, Any]
type Write = Callable[[dict[str, Any]], tuple[PlaytestGame, Announce]]


def _posted(request: HttpRequest, game: PlaytestGame, form: Form, problem: str,
            write: Write) -> HttpResponse:
    """A write from a form: ``problem`` when the form does not read, the refusal when the
    referee refuses (nothing changed), else the announcement of what ``write`` did."""
    if not form.is_valid():
        return _refused(request, game, _form_problem(problem))
    try:
        game, announce = write(form.cleaned_data)
    except Refused as refused:
        return _refused(request, game, refused)
    return _answer(request, game, announce)


@require_POST
def playtest_act(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(request, game_id)

    def write(data: dict[str, Any]) -> tuple[PlaytestGame, Announce]:
        done, move = playtest_apply(game=game, decision=data["decision"], index=data["index"])
        return done, _move_announcement(move, policy=False)

    return _posted(request, game, MoveForm(request.POST),
                   "Choose a move: the form needs the action's number and the decision.", write)


@require_POST
def playtest_surrender_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(request, game_id)

    def write(data: dict[str, Any]) -> tuple[PlaytestGame, Announce]:
        done, move = playtest_surrender(game=game, decision=data["decision"])
        return done, _move_announcement(move, policy=False)

    # (the decision it was asked at, as undo's form has it)
    return _posted(request, game, UndoForm(request.POST),
                   "Say at which decision you surrender.", write)


@require_POST
def playtest_undo_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(request, game_id)

    def write(data: dict[str, Any]) -> tuple[PlaytestGame, Announce]:
        done = playtest_undo(game=game, decision=data["decision"])
        return done, {"title": f"Back to decision {done.decisions}: the game was replayed "
                               "from its seed.", "lines": [], "kind": "ok"}

    return _posted(request, game, UndoForm(request.POST),
                   "Say which decision to go back to.", write)


@require_POST
def playtest_auto_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(request, game_id)

    def write(data: dict[str, Any]) -> tuple[PlaytestGame, Announce]:
        done, move = playtest_auto(game=game, until=data["until"], decision=data["decision"])
        return done, _move_announcement(move, policy=True)

    return _posted(request, game, AutoForm(request.POST),
                   "Say how far the policy plays: one action, the phase or the game.", write)


@require_POST
def playtest_share_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = playtest_share(game=_game(request, game_id), shared=request.POST.get("shared") == "1")
    title = ("Anyone with the link can now watch this game." if game.share_token
             else "The share link no longer works.")
    announce: dict[str, Any] = {"title": title, "lines": [], "kind": "ok"}
    return _answer(request, game, announce)


@require_GET
def playtest_shared(request: HttpRequest, token: str) -> HttpResponse:
    """A shared game, replayed from its seed one decision at a time (``decision=k``)."""
    game = get_object_or_404(PlaytestGame, share_token=token)
    last = game.decisions
    wanted = _int_param(request.GET.get("decision"))
    decision = min(max(wanted if wanted is not None else 0, 0), last)
    try:
        context = game_context(game_view(game, decision))
    except Refused as refused:  # not_replayable: a game of another rules version
        return render(request, "playtest/not_replayable.html",
                      {"game": game, "detail": refused.detail, "shared": True},
                      status=refused.status)
    taken = game.actions[decision] if decision < last else None
    chosen = None
    if taken is not None:
        for row in context["menu"]["actions"]:
            row["chosen"] = row["action"] == taken
            if row["chosen"]:
                chosen = row
    base = reverse("playtest:shared", args=[token])
    context.update({
        "readonly": True, "chosen": chosen, "last": last, "step_base": base,
        "steps": {"first": 0, "previous": max(decision - 1, 0), "next": min(decision + 1, last),
                  "end": last},
        "final": {"outcome": game.outcome, "round": game.round},
    })
    return render(request, "playtest/shared.html", context)
