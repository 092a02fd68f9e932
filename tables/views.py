"""The table pages: the lobby, a new table, the invite link, and the table itself.

Thin views over :mod:`tables.services` (the writes) and :mod:`tables.display`. The table's
body (``/tables/<id>/view/``) is a fragment the page fetches again whenever its socket says
the table changed, or every few seconds while the socket is down (static/js/tables.js);
without JavaScript every move is a form that posts and comes back to the page.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from decks.deck_input import DeckInputError, deck_from_text
from decks.models import Deck
from decks.services import deck_data
from decks.views.decks import visible_decks
from playtest.play import Refused
from playtest.table_play import seat_name
from rules.game.engine import DeckNotPlayable
from tables import clock
from tables.display import replay_document, table_document, view_document
from tables.forms import ChatForm, DeckForm, MoveForm, NewTableForm, OfferForm
from tables.models import Table
from tables.presence import table_seen
from tables.services import (
    SeatDeck,
    seat_of,
    table_act,
    table_chat,
    table_create,
    table_hand_to_ai,
    table_join,
    table_named,
    table_offer,
    table_offer_answer,
    table_rematch,
    table_settled,
    table_start,
    table_surrender,
    table_take_back,
    table_undo_answer,
    table_undo_ask,
    viewer_seat,
)


def _deck_choices(request: HttpRequest) -> list[tuple[int, str]]:
    """The visitor's own decks, then the public ones (sample decks included)."""
    visible = visible_decks(request).select_related("owner").order_by("name", "id")
    mine = list(visible.filter(owner=request.user)[:50]) if request.user.is_authenticated \
        else []
    others = visible.filter(visibility=Deck.PUBLIC).exclude(pk__in=[d.pk for d in mine])
    return [(d.pk, f"{d.name} ({d.owner.get_username()})") for d in [*mine, *others[:100]]]


def _seat_deck(request: HttpRequest, data: dict[str, Any]) -> SeatDeck:
    if data.get("deck") is not None:
        saved = get_object_or_404(visible_decks(request), pk=data["deck"])
        return SeatDeck(deck_data(saved), saved)
    return SeatDeck(deck_from_text(data["text"]))


@contextmanager
def refusals_told(request: HttpRequest) -> Iterator[None]:
    """A refused write (Refused) is told on the page it comes back to, as an error message;
    a write whose locked read found no table is a 404."""
    try:
        yield
    except Refused as refused:
        messages.error(request, refused.detail)
    except Table.DoesNotExist:
        raise Http404(f"No {Table._meta.object_name} matches the given query.") from None


def _document(request: HttpRequest, table: Table) -> dict[str, Any]:
    return table_document(
        table, request.user, url=reverse("api:table-detail", args=[table.pk]),
        page=table.get_absolute_url(),
        invite=request.build_absolute_uri(reverse("tables:invite", args=[table.invite])))


@require_GET
def table_lobby(request: HttpRequest) -> HttpResponse:
    """Public tables with an open seat, and the visitor's own tables."""
    public = Table.objects.filter(public=True, status=Table.OPEN).select_related("host")[:50]
    mine = (Table.objects.filter(seat_rows__user=request.user).select_related("host")
            .distinct()[:50] if request.user.is_authenticated else [])
    return render(request, "tables/lobby.html", {"public": public, "mine": mine})


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    """GET: the form (``?deck=ID`` picks a deck); POST: make the table and go to it."""
    decks = _deck_choices(request)
    if request.method == "GET":
        form = NewTableForm(decks=decks, initial={"deck": request.GET.get("deck")})
        return render(request, "tables/new.html", {"form": form})
    form = NewTableForm(request.POST, decks=decks)
    if form.is_valid():
        data = form.cleaned_data
        try:
            ai = [(seat, _seat_deck(request, {"deck": deck})) for seat, deck in form.ai_seats()]
            table = table_create(host=request.user, deck=_seat_deck(request, data),
                                 size=data["seats"], ai=ai, target=data["target"],
                                 public=data["public"], spectators=data["spectators"],
                                 card_trades=data["card_trades"], clock=form.clock())
        except (DeckInputError, DeckNotPlayable, Refused) as error:
            form.add_error(None, getattr(error, "detail", None) or str(error))
        else:
            return redirect(table.get_absolute_url())
    return render(request, "tables/new.html", {"form": form}, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def table_invite(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: the table, and a form to take its first open seat with a deck."""
    table = get_object_or_404(Table, invite=token)
    if seat_of(table, request.user) is not None:
        return redirect(table.get_absolute_url())
    form = DeckForm(request.POST or None, decks=_deck_choices(request))
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                table_join(table=table, user=request.user, invite=token,
                           deck=_seat_deck(request, form.cleaned_data))
            except (DeckInputError, DeckNotPlayable, Refused) as error:
                form.add_error(None, getattr(error, "detail", None) or str(error))
            else:
                return redirect(table.get_absolute_url())
    return render(request, "tables/invite.html",
                  {"table": table, "document": _document(request, table), "form": form},
                  status=status)


def _visible(request: HttpRequest, table_id: int) -> Table:
    """The table after what its clock owes is played; PermissionError for a visitor without
    a seat at a table that takes no spectators."""
    table = table_settled(get_object_or_404(Table.objects.select_related("host"), pk=table_id))
    if not table.spectators and viewer_seat(table, request.user) is None:
        raise PermissionError
    return table


def _body_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    view = view_document(table, request.user)
    document = _document(request, table)
    names = {s["seat"]: s["name"] for s in view["seats"]}
    people = {s["seat"] for s in document["seats"] if s["kind"] == "person"}
    if view.get("clock"):  # a person's bank (an AI seat has no clock)
        for summary in view["seats"]:
            if summary["seat"] not in people:
                continue
            left = int(view["clock"]["left"][summary["seat"]])
            summary["clock_left"] = f"{left // 60}:{left % 60:02d}"
    return {"table": table, "view": view, "document": document,
            "winner_name": names.get(view["winner"], ""),
            "waiting_name": names.get(view["to_move"][0], "") if view["to_move"] else "",
            "offers": [{**o, "from_name": names.get(o["from"], ""),
                        "to_name": names.get(o["to"], ""),
                        "gives": _offered(o["give_cards"], o["give"]),
                        "takes": _offered(o["take_cards"], o["take"])} for o in view["offers"]],
            "trade_with": [s for s in document["seats"]
                           if s["kind"] == "person" and s["seat"] != view["you"]],
            **_trade_cards(table, view, people),
            "undo_words": _undo_words(view), "chat_form": ChatForm(),
            **_leaving(document, view)}


def _undo_words(view: dict[str, Any]) -> str:
    """The pending undo as the caller reads it, each seat named as the log names it and the
    caller "you": "Seat 1 (ada) asks to take back his last decision (back to decision 15):
    waiting for you."."""
    undo = view.get("undo")
    if not undo:
        return ""
    names = [s["name"] for s in view["seats"]]
    you = -1 if view["you"] is None else view["you"]
    asker = undo["seat"]
    said = ("You ask to take back your last decision" if asker == you else
            f"{seat_name(asker, names, you)} asks to take back his last decision")
    said += f" (back to decision {undo['to_decision']})"
    waiting = ["you" if s == you else seat_name(s, names, you) for s in undo["waiting"]]
    if waiting:
        said += ": waiting for " + (", ".join(waiting[:-1]) + " and " + waiting[-1]
                                    if len(waiting) > 1 else waiting[0])
    return said + "."


def _offered(cards: list[dict[str, Any]], tokens: dict[str, int]) -> str:
    """One side of a trade offer in words: "Beggars' Arch and 1 economic", or "nothing"."""
    words = [c["name"] for c in cards] + [f"{n} {kind}" for kind, n in tokens.items() if n]
    if len(words) > 1:
        return ", ".join(words[:-1]) + " and " + words[-1]
    return words[0] if words else "nothing"


def _trade_cards(table: Table, view: dict[str, Any], people: set[int]) -> dict[str, Any]:
    """At a table that agreed to card trades, the cards in play the caller may offer (his
    own) and ask for (each other person's, by seat), as the trade form lists them: every card
    in play but wanderers and strongholds not attached or housed on another (the service
    checks again: seats.tradable)."""
    if not table.card_trades or view.get("you") is None:
        return {"my_cards": [], "their_cards": []}

    def loose(summary: dict[str, Any]) -> list[dict[str, Any]]:
        return [c for c in summary["in_play"] if c.get("tradable")]
    mine = next((s for s in view["seats"] if s["seat"] == view["you"]), None)
    return {"my_cards": loose(mine) if mine else [],
            "their_cards": [{"seat": s["seat"], "name": s["name"], "cards": loose(s)}
                            for s in view["seats"]
                            if s["seat"] != view["you"] and s["seat"] in people and loose(s)]}


def _leaving(document: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """The people who left: whose seat the caller may hand to the AI now, whose grace
    period runs; whether the AI holds the caller's own seat."""
    now = clock.now().isoformat()
    # Only a game under way hands a seat over (before, a person who took his seat and went
    # away is no one's concern).
    gone = [s for s in document["seats"] if s.get("grace_ends") and not s["stand_in"]
            and s["seat"] != view["you"] and view["status"] == Table.PLAYING]
    mine: dict[str, Any] = next((s for s in document["seats"] if s["seat"] == view["you"]), {})
    return {"hand_over": [s for s in gone if s["grace_ends"] <= now],
            "in_grace": [s for s in gone if s["grace_ends"] > now],
            "standing_in": bool(mine.get("stand_in"))}


@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        table = _visible(request, table_id)
    except PermissionError:
        return render(request, "tables/closed.html", status=403)
    table_seen(table_id=table.pk, user=request.user)  # a sign of presence without a socket too
    try:
        context = _body_context(request, table)
    except Refused as refused:  # not_replayable: a table of another rules version
        return _not_replayable(request, table, refused)
    return render(request, "tables/table.html", context)


def _not_replayable(request: HttpRequest, table: Table, refused: Refused) -> HttpResponse:
    return render(request, "tables/not_replayable.html",
                  {"table": table, "detail": refused.detail}, status=refused.status)


@require_GET
def table_view_fragment(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's body alone: what the page swaps in when the table changes."""
    try:
        table = _visible(request, table_id)
    except PermissionError:
        return HttpResponse(status=403)
    try:
        context = _body_context(request, table)
    except Refused as refused:  # the body swapped in: the notice alone
        return HttpResponse(format_html('<p class="notice" role="alert">{}</p>', refused.detail),
                            status=refused.status)
    return render(request, "tables/_body.html", context)


def _back(request: HttpRequest, table_id: int, written: Table | None = None) -> HttpResponse:
    """Back to the table after a write: its body (htmx) or its page. ``written`` is the table
    as the write left it, the row it locked; a write refused or not made read none, so then
    the body reads it."""
    table_seen(table_id=table_id, user=request.user)  # a page without JavaScript has no socket
    if getattr(request, "htmx", False):
        table = written if written is not None else get_object_or_404(Table, pk=table_id)
        return render(request, "tables/_body.html", _body_context(request, table))
    return redirect(reverse("tables:table", args=[table_id]))


@require_POST
def table_act_view(request: HttpRequest, table_id: int) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That move could not be read.")
        return _back(request, table_id)
    written = None
    with refusals_told(request):
        written = table_act(table=table_named(table_id), user=request.user,
                            decision=form.cleaned_data["decision"],
                            index=form.cleaned_data["index"])
    return _back(request, table_id, written)


@login_required
@require_POST
def table_start_view(request: HttpRequest, table_id: int) -> HttpResponse:
    with refusals_told(request):
        table_start(table=table_named(table_id), user=request.user)
    return redirect(reverse("tables:table", args=[table_id]))


@login_required
@require_POST
def table_surrender_view(request: HttpRequest, table_id: int) -> HttpResponse:
    written = None
    with refusals_told(request):
        written = table_surrender(table=table_named(table_id), user=request.user)
    return _back(request, table_id, written)


@login_required
@require_POST
def table_rematch_view(request: HttpRequest, table_id: int) -> HttpResponse:
    """The same seats and decks at a new table; everyone goes there from the old one."""
    table = table_named(table_id)
    with refusals_told(request):
        table = table_rematch(table=table, user=request.user)
    return redirect(table.get_absolute_url())


@login_required
@require_POST
def table_offer_view(request: HttpRequest, table_id: int) -> HttpResponse:
    form = OfferForm(request.POST)
    give_cards: list[str] = []
    take_cards: list[str] = []
    try:
        give_cards, take_cards = form.cards("give"), form.cards("take")
    except ValidationError as error:
        form.add_error(None, error)
    if not form.is_valid():
        messages.error(request, "That trade could not be read: whole numbers of tokens, and "
                                "cards ticked from the lists.")
        return _back(request, table_id)
    written = None
    with refusals_told(request):
        written = table_offer(table=table_named(table_id), user=request.user,
                              to=form.cleaned_data["to"], give=form.tokens("give"),
                              take=form.tokens("take"), give_cards=give_cards,
                              take_cards=take_cards).table
    return _back(request, table_id, written)


@login_required
@require_POST
def table_answer_view(request: HttpRequest, table_id: int, number: int,
                      answer: str) -> HttpResponse:
    written = None
    with refusals_told(request):
        written = table_offer_answer(table=table_named(table_id), user=request.user, number=number,
                                     accept=answer == "accept")
    return _back(request, table_id, written)


@login_required
@require_POST
def table_chat_view(request: HttpRequest, table_id: int) -> HttpResponse:
    form = ChatForm(request.POST)
    written = None
    if form.is_valid():
        with refusals_told(request):
            written = table_chat(table=table_named(table_id), user=request.user,
                                 text=form.cleaned_data["text"]).table
    return _back(request, table_id, written)


@login_required
@require_POST
def table_hand_to_ai_view(request: HttpRequest, table_id: int, seat: int) -> HttpResponse:
    written = None
    with refusals_told(request):
        written = table_hand_to_ai(table=table_named(table_id), user=request.user, seat=seat)
    return _back(request, table_id, written)


@login_required
@require_POST
def table_take_back_view(request: HttpRequest, table_id: int) -> HttpResponse:
    written = None
    with refusals_told(request):
        written = table_take_back(table=table_named(table_id), user=request.user)
    return _back(request, table_id, written)


@login_required
@require_POST
def table_undo_view(request: HttpRequest, table_id: int, answer: str = "") -> HttpResponse:
    """Ask for an undo (no ``answer``), or agree to or decline the pending one."""
    table, written = table_named(table_id), None
    with refusals_told(request):
        written = table_undo_ask(table=table, user=request.user) if not answer else \
            table_undo_answer(table=table, user=request.user, accept=answer == "accept")
    return _back(request, table_id, written)


@require_GET
def table_replay(request: HttpRequest, table_id: int) -> HttpResponse:
    """A finished game, decision by decision (``?decision=n``), every hand shown."""
    try:
        table = _visible(request, table_id)
    except PermissionError:
        return render(request, "tables/closed.html", status=403)
    if table.status != Table.OVER:
        messages.error(request, "A game is replayed once it is over.")
        return redirect(table.get_absolute_url())
    given = request.GET.get("decision", "")
    decision = min(int(given), table.decision) if given.isdigit() else table.decision
    try:
        replay = replay_document(table, decision)
    except Refused as refused:
        return _not_replayable(request, table, refused)
    names = {s["seat"]: s["name"] for s in replay["seats"]}
    return render(request, "tables/replay.html", {
        "table": table, "replay": replay, "winner_name": names.get(replay["winner"], ""),
        "previous": decision - 1 if decision > 0 else None,
        "next": decision + 1 if decision < table.decision else None})
