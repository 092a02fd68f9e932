"""A table's requests through the whole Django stack (docs/tables.md "Load"): a seat's view
(``GET /api/tables/{id}/view/``, of the seat the table waits on and of another) and a move
(``POST /api/tables/{id}/actions/``, its answer the mover's new view), each against
``GET /api/health/`` timed in turn with it, and the SQL queries each makes.

The tables: 4 people with token clients (as the load run's people), the sample decks, victory
at 15, the game kept in the process as a server keeps it. ``--profile`` prints where the time
of one view and one move goes (cProfile, the functions with the most cumulative time).
"""

from __future__ import annotations

import cProfile
import io
import pstats
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.search_bench import ROUND, paired, side_by_side

SEATS = 4
WARM_UP = 30  # the people's moves played before the timing (about 2 minutes of a load run)
TARGET = 15
# What the profile's second list keeps: the project's code, the SQL, DRF's authentication
# and rendering.
FOCUS = (r"/(tables|playtest|rules|api)/|compiler.py.*execute_sql|query.py.*_fetch_all|"
         r"authentication.py|renderers.py|json/")
DECKS = ("Guild Veterans", "Mosfin Blades", "Kalim Crusaders", "Guild Merchants")


@dataclass
class Table:
    """A started table and a token client per seat."""

    pk: int
    clients: list[Client]

    def view(self, seat: int) -> dict[str, Any]:
        response = self.clients[seat].get(f"/api/tables/{self.pk}/view/")
        assert response.status_code == 200, response.content[:300]
        document: dict[str, Any] = response.json()
        return document

    def waiting(self) -> tuple[int, dict[str, Any]] | None:
        """The seat the table waits on and its view, or None once the game is over."""
        seen = self.view(0)
        if seen["status"] != "playing" or not seen["to_move"]:
            return None
        seat = seen["to_move"][0]
        return seat, self.view(seat) if seat else seen

    def move(self, seat: int, seen: dict[str, Any]) -> Callable[[], Any]:
        """The POST of the move the policy marks in ``seen`` (``seat``'s view)."""
        index = next(a["index"] for a in seen["legal_actions"] if a["policy"])
        body = {"index": index, "decision": seen["decision"]}
        url = f"/api/tables/{self.pk}/actions/"

        def post() -> Any:
            response = self.clients[seat].post(url, body, content_type="application/json")
            assert response.status_code == 200, response.content[:300]
            return response
        return post


def _setup(root: Path) -> None:
    call_command("migrate", verbosity=0)
    catalogues = [str(root / "fixtures" / "cards" / n) for n in ("wof.json", "demo.json")]
    call_command("import_cards", *catalogues, "--no-images", stderr=io.StringIO())
    call_command("load_sample_decks", *sorted(map(str, root.glob("fixtures/decklists/*.txt"))),
                 stdout=io.StringIO())


def _tables() -> Iterator[Table]:
    """Tables of 4 people, each started, a new one whenever the caller asks again."""
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    from decks.models import Deck
    from decks.services import deck_data
    from tables.services import SeatDeck, table_create, table_join, table_start

    decks = [SeatDeck(deck_data(saved), saved) for saved in
             (Deck.objects.get(owner__username="samples", name=name) for name in DECKS)]
    number = 0
    while True:
        number += 1
        users = [User.objects.create_user(f"bench{number}s{seat}") for seat in range(SEATS)]
        table = table_create(host=users[0], deck=decks[0], size=SEATS, seed=number,
                             target=TARGET)
        for seat, user in enumerate(users[1:], start=1):
            table_join(table=table, user=user, invite=table.invite, deck=decks[seat])
        table_start(table=table, user=users[0])
        clients = []
        for user in users:
            token = Token.objects.create(user=user).key
            clients.append(Client(HTTP_AUTHORIZATION=f"Token {token}"))
        yield Table(table.pk, clients)


class Moves:
    """The next move of a game under way (a new table when one ends), chosen outside the
    timing: the mover's view is fetched first, as a person's browser has it."""

    def __init__(self) -> None:
        self._tables = _tables()
        self.table = next(self._tables)

    def next(self) -> tuple[Table, int, Callable[[], Any]]:
        while (found := self.table.waiting()) is None:
            self.table = next(self._tables)
        seat, seen = found
        return self.table, seat, self.table.move(seat, seen)


def _timed_moves(moves: Moves, number: int) -> float:
    total = 0.0
    for _ in range(number):
        _, _, post = moves.next()
        start = time.perf_counter()
        post()
        total += time.perf_counter() - start
    return total / number


def _timed_views(table: Table, seat: int, number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        table.view(seat)
    return (time.perf_counter() - start) / number


def queries(call: Callable[[], Any]) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        call()
    return [query["sql"] for query in captured.captured_queries]


def run(root: Path, *, profile: bool = False, verbose: bool = False) -> None:
    from rules import compiled

    _setup(root)
    moves = Moves()
    for _ in range(WARM_UP):  # into the game: a view of its first moves has a short log
        moves.next()[2]()
    table, seat, post = moves.next()
    other = (seat + 1) % SEATS
    health = Client()
    health.get("/api/health/")
    print(f"tables on {connection.vendor}: {SEATS} people (token clients), victory at "
          f"{TARGET}, {WARM_UP} moves in; the engine {compiled.running()}")

    counted = {"view of the seat waited on": queries(lambda: table.view(seat)),
               "view of another seat": queries(lambda: table.view(other)),
               "move (its answer the mover's view)": queries(post)}
    for name, sql in counted.items():
        print(f"  SQL queries, {name}: {len(sql)}")
        if verbose:
            for line in sql:
                print(f"      {line[:160]}")

    table, seat, _ = moves.next()
    other = (seat + 1) % SEATS
    paired("GET view/, the seat waited on", side_by_side(
        health, lambda: _timed_views(table, seat, ROUND)), "GET /api/health/")
    paired("GET view/, another seat", side_by_side(
        health, lambda: _timed_views(table, other, ROUND)), "GET /api/health/")
    paired("POST actions/ (a move and its view)", side_by_side(
        health, lambda: _timed_moves(moves, 1)), "GET /api/health/")
    if profile:
        _profile(moves)


def _profile(moves: Moves, top: int = 30) -> None:
    """cProfile of 20 views of the seat waited on, 20 of another seat and 20 moves."""
    views, moved = cProfile.Profile(), cProfile.Profile()
    seconds: dict[str, list[float]] = {"view": [], "move": []}
    for _ in range(20):
        table, seat, post = moves.next()
        for viewer in (seat, (seat + 1) % SEATS):
            start = time.process_time()
            views.runcall(table.view, viewer)
            seconds["view"].append(time.process_time() - start)
        start = time.process_time()
        moved.runcall(post)
        seconds["move"].append(time.process_time() - start)
    for name, profiled in (("view", views), ("move", moved)):
        print(f"\n--- cProfile, {name}s (CPU under the profiler: median "
              f"{statistics.median(seconds[name]) * 1000:.1f} ms a request)")
        out = io.StringIO()
        stats = pstats.Stats(profiled, stream=out).sort_stats("cumulative")
        stats.print_stats(top)
        # The project's own functions and the stack's big parts, by cumulative time.
        stats.print_stats(FOCUS, top)
        print(out.getvalue())
